import CHarfBuzz
import Foundation

// Drawing colour glyphs (COLR layers and paint graphs, CBDT and sbix bitmaps) through the
// context's ordinary operations: each glyph is drawn in its own font-unit space (the text
// matrix, the pen position and the font's scale concatenated to the CTM), so clipping,
// transforms, alpha, blend modes and shadows work as for any drawing. A run with alpha below 1,
// a blend mode or a shadow is drawn into one transparency layer first, so overlapping layers of
// a glyph do not show through each other and the run casts one shadow.

extension TrueTypeFont {
    /// Whether the face has colour glyphs ('COLR' with 'CPAL', 'CBDT'/'CBLC' or 'sbix').
    public var hasColorGlyphs: Bool { !((base ?? self).colorTables?.isEmpty ?? true) }

    /// Whether `glyph` is drawn in colour: it has COLR layers or a paint graph, or an embedded
    /// bitmap. Such glyphs ignore the fill colour, except for layers in the text colour
    /// (palette index 0xFFFF).
    public func isColorGlyph(_ glyph: CGGlyph) -> Bool {
        let owner = base ?? self
        guard let tables = owner.colorTables else { return false }
        if let known = owner.colorCacheLock.withLock({ owner.colorKinds[glyph] }) { return known }
        let isColor = tables.hasColorLayers(glyph) || (tables.hasBitmaps && (try? tables.bitmap(glyph, ppem: 0)) != nil)
        owner.colorCacheLock.withLock {
            if owner.colorKinds.count >= 65_536 { owner.colorKinds.removeAll() }
            owner.colorKinds[glyph] = isColor
        }
        return isColor
    }

    /// The number of colour palettes ('CPAL'); 0 when the face has none.
    public var colorPaletteCount: Int { (base ?? self).colorTables?.palettes?.palettes.count ?? 0 }

    /// The colours of palette `index` ('CPAL'); empty when there is no such palette.
    public func colorPalette(_ index: Int) -> [CGColor] {
        guard let palettes = (base ?? self).colorTables?.palettes?.palettes, palettes.indices.contains(index) else { return [] }
        return palettes[index].map { CGColor(red: CGFloat($0.red) / 255, green: CGFloat($0.green) / 255,
                                             blue: CGFloat($0.blue) / 255, alpha: CGFloat($0.alpha) / 255) }
    }

    /// Problems met with the face's colour tables and glyphs so far: tables ignored, paints
    /// dropped (cycles, nesting too deep, too many layers, malformed data) and bitmaps refused
    /// (too large, not a PNG, undecodable). The glyph is then drawn without the broken part.
    /// At most 64 are kept.
    public var colorGlyphWarnings: [String] {
        let owner = base ?? self
        return owner.colorCacheLock.withLock { owner.colorWarnings }
    }

    func noteColorWarnings(_ warnings: [String]) {
        guard !warnings.isEmpty else { return }
        let owner = base ?? self
        owner.colorCacheLock.withLock {
            for w in warnings where owner.colorWarnings.count < 64 && !owner.colorWarnings.contains(w) {
                owner.colorWarnings.append(w)
            }
        }
    }

    /// The COLR paint tree of `glyph`, read once (per instance when COLR varies: its variable
    /// paints take the instance's deltas).
    func colorGlyph(_ glyph: CGGlyph) -> ColorGlyph? {
        let owner = base ?? self
        guard let tables = owner.colorTables else { return nil }
        let cache = base != nil && tables.isVariable ? self : owner
        if let hit = cache.colorCacheLock.withLock({ cache.colorGlyphs[glyph] }) { return hit }
        let made = tables.colorGlyph(glyph, coordinates: cache === owner ? [] : normalizedCoordinates)
        if let made { noteColorWarnings(made.warnings) }
        cache.colorCacheLock.withLock {
            if cache.colorGlyphs.count >= 4096 { cache.colorGlyphs.removeAll() }
            cache.colorGlyphs[glyph] = .some(made)
        }
        return made
    }

    /// The instance's coordinates normalized as OpenType's variation tables read them (-1…1
    /// per 'fvar' axis, after 'avar'), from HarfBuzz; empty at the default instance.
    var normalizedCoordinates: [Double] {
        guard base != nil, let hb = harfBuzzFont else { return [] }
        var count: UInt32 = 0
        guard let coords = hb_font_get_var_coords_normalized(hb.font, &count) else { return [] }
        return (0..<Int(count)).map { Double(coords[$0]) / 16384 }
    }

    /// The decoded bitmap of `glyph` from the strike nearest `ppem`, with its placement; nil
    /// when there is none or it was refused (with a warning).
    func colorBitmap(_ glyph: CGGlyph, ppem: Double) -> (ColorBitmap, CGImage)? {
        let owner = base ?? self
        guard let tables = owner.colorTables, tables.hasBitmaps else { return nil }
        let found: ColorBitmap?
        do throws(FontError) {
            found = try tables.bitmap(glyph, ppem: ppem)
        } catch {
            noteColorWarnings(["bitmap of glyph \(glyph) not drawn: \(error)"])
            return nil
        }
        guard let found else { return nil }
        let key = ColorBitmapKey(glyph: glyph, ppem: found.ppem)
        if let hit = owner.colorCacheLock.withLock({ owner.colorImages[key] }) { return hit.map { (found, $0) } }
        let image = TrueTypeFont.decode(found, glyph: glyph, font: self)
        owner.colorCacheLock.withLock {
            if owner.colorImages.count >= 512 { owner.colorImages.removeAll() }
            owner.colorImages[key] = .some(image)
        }
        return image.map { (found, $0) }
    }

    private static func decode(_ bitmap: ColorBitmap, glyph: CGGlyph, font: TrueTypeFont) -> CGImage? {
        let png = bitmap.png
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard png.count >= 24, Array(png.prefix(8)) == signature else {
            font.noteColorWarnings(["bitmap of glyph \(glyph) refused: not a PNG"])
            return nil
        }
        func u32(_ i: Int) -> Int {
            let s = png.startIndex + i
            return Int(png[s]) << 24 | Int(png[s + 1]) << 16 | Int(png[s + 2]) << 8 | Int(png[s + 3])
        }
        let width = u32(16), height = u32(20), limit = ColorTables.maximumBitmapSide
        guard width <= limit, height <= limit, bitmap.width <= limit, bitmap.height <= limit else {
            font.noteColorWarnings(["bitmap of glyph \(glyph) refused: \(width)×\(height) pixels is larger than \(limit)×\(limit)"])
            return nil
        }
        do throws(PNGError) {
            return try PNGDecoder(maximumPixelCount: limit * limit).decode(png)
        } catch {
            font.noteColorWarnings(["bitmap of glyph \(glyph) refused: \(error)"])
            return nil
        }
    }
}

struct ColorBitmapKey: Hashable { let glyph: CGGlyph; let ppem: Int }

extension CGContext {
    /// Draws the colour glyphs of a run (text space positions); the caller drew the others.
    func drawColorGlyphs(_ glyphs: [(CGGlyph, CGPoint)], font: CTFont) {
        let face = font.face
        let foreground = gstate.fillColor
        let s = font.scale
        saveGState()
        defer { restoreGState() }
        concatenate(textMatrix)
        // Text space → raster: how many pixels an em covers (for picking a bitmap strike).
        let m = textMatrix.concatenating(userToRaster)
        let ppem = Double(font.size) * sqrt(abs(Double(m.a * m.d - m.b * m.c)))
        let box = face.boundingBox
        var runBox = CGRect.null
        for (_, p) in glyphs {
            runBox = runBox.union(CGRect(x: p.x + box.minX * s, y: p.y + box.minY * s, width: box.width * s, height: box.height * s))
        }
        let grouped = gstate.alpha < 1 || gstate.blendMode != .normal || (gstate.shadow?.isVisible ?? false)
        if grouped {
            guard runBox.isFiniteRect else { return }
            beginTransparencyLayer(in: runBox.insetBy(dx: -2 * font.size, dy: -2 * font.size), auxiliaryInfo: nil)
        }
        for (g, p) in glyphs {
            saveGState()
            translateBy(x: p.x, y: p.y)
            scaleBy(x: s, y: s)
            if let colr = face.colorGlyph(g) {
                let bounds = colr.clipBox ?? box.insetBy(dx: -box.width, dy: -box.height)
                clip(to: bounds)
                var painter = ColorPainter(context: self, face: face, palette: palette(of: font), foreground: foreground)
                painter.draw(colr.paint)
            } else if let (bitmap, image) = face.colorBitmap(g, ppem: ppem).map({ ($0.0, $0.1) }), bitmap.ppem > 0 {
                let unit = CGFloat(face.unitsPerEm) / CGFloat(bitmap.ppem)   // font units per strike pixel
                let h = CGFloat(image.height), w = CGFloat(image.width)
                let bottom = bitmap.bottom.map { CGFloat($0) } ?? CGFloat(bitmap.top) - h
                let rect = CGRect(x: CGFloat(bitmap.left) * unit, y: bottom * unit, width: w * unit, height: h * unit)
                draw(image, in: rect)
            }
            restoreGState()
        }
        if grouped { endTransparencyLayer() }
    }

    private func palette(of font: CTFont) -> [PaletteColor] {
        guard let palettes = (font.face.base ?? font.face).colorTables?.palettes?.palettes, !palettes.isEmpty else { return [] }
        return palettes[palettes.indices.contains(font.colorPaletteIndex) ? font.colorPaletteIndex : 0]
    }
}

/// Walks a COLR paint tree, drawing into a context whose CTM maps font units.
private struct ColorPainter {
    let context: CGContext
    let face: TrueTypeFont
    let palette: [PaletteColor]
    let foreground: CGColor
    /// Transparency layers open (composites nest at most this deep; deeper ones draw only
    /// their source).
    var layers = 0

    init(context: CGContext, face: TrueTypeFont, palette: [PaletteColor], foreground: CGColor) {
        self.context = context
        self.face = face
        self.palette = palette
        self.foreground = foreground
    }

    /// Straight RGBA of a palette entry times `alpha` (0xFFFF: the text colour); an index the
    /// palette lacks is transparent.
    func rgba(_ index: UInt16, _ alpha: Double) -> (r: Double, g: Double, b: Double, a: Double) {
        let a = min(max(alpha, 0), 1)
        if index == 0xFFFF {
            let c = foreground.rgba
            return (Double(c.r), Double(c.g), Double(c.b), Double(c.a) * a)
        }
        guard Int(index) < palette.count else { return (0, 0, 0, 0) }
        let c = palette[Int(index)]
        return (Double(c.red) / 255, Double(c.green) / 255, Double(c.blue) / 255, Double(c.alpha) / 255 * a)
    }

    func color(_ index: UInt16, _ alpha: Double) -> CGColor {
        let c = rgba(index, alpha)
        return CGColor(red: c.r, green: c.g, blue: c.b, alpha: c.a)
    }

    mutating func draw(_ paint: ColorPaint) {
        switch paint {
        case .layers(let list):
            for p in list { draw(p) }
        case .solid(let index, let alpha):
            context.setFillColor(color(index, alpha))
            context.fill(context.boundingBoxOfClipPath)
        case .glyph(let glyph, let child):
            guard let outline = try? face.path(for: glyph), !outline.isEmpty else { return }
            context.beginPath()
            context.addPath(outline)
            if case .solid(let index, let alpha) = child {
                context.setFillColor(color(index, alpha))
                context.fillPath()
                return
            }
            context.saveGState()
            context.clip()
            draw(child)
            context.restoreGState()
        case .transform(let t, let child):
            let det = t.a * t.d - t.b * t.c
            guard det.isFinite, abs(det) > 1e-9, t.tx.isFinite, t.ty.isFinite else { return }
            context.saveGState()
            context.concatenate(t)
            draw(child)
            context.restoreGState()
        case .composite(let source, let mode, let backdrop):
            guard layers < 16 else { draw(source); return }
            let box = context.boundingBoxOfClipPath
            layers += 1
            context.beginTransparencyLayer(in: box, auxiliaryInfo: nil)
            draw(backdrop)
            if let mode {
                context.saveGState()
                context.setBlendMode(mode)
                context.beginTransparencyLayer(in: box, auxiliaryInfo: nil)
                draw(source)
                context.endTransparencyLayer()
                context.restoreGState()
            }
            context.endTransparencyLayer()
            layers -= 1
        case .linear(let line, let p0, let p1, let p2):
            drawLinear(line, p0, p1, p2)
        case .radial(let line, let c0, let r0, let c1, let r1):
            drawRadial(line, c0, r0, c1, r1)
        case .sweep(let line, let center, let start, let end):
            drawSweep(line, center, start, end)
        }
    }

    /// The corners of the clip box (current user space).
    private var clipCorners: [CGPoint] {
        let b = context.boundingBoxOfClipPath
        return [CGPoint(x: b.minX, y: b.minY), CGPoint(x: b.maxX, y: b.minY), CGPoint(x: b.minX, y: b.maxY), CGPoint(x: b.maxX, y: b.maxY)]
    }

    /// A gradient for `line` covering colour-line positions `ta…tb` (repeat and reflect are
    /// unrolled over that range, at most 64 periods and 4096 stops), with the positions its
    /// 0 and 1 stand for. Beyond them it pads.
    private func gradient(_ line: ColorLine, _ ta: Double, _ tb: Double) -> (CGGradient, Double, Double)? {
        guard let first = line.stops.first, let last = line.stops.last else { return nil }
        let s0 = first.offset, span = last.offset - first.offset
        var placed: [(Double, ColorStop)] = []
        var t0 = s0, t1 = last.offset
        if line.extend == .pad || span < 1e-6 || !ta.isFinite || !tb.isFinite {
            if span < 1e-6 { t1 = s0 + 1e-3 }
            placed = line.stops.map { ($0.offset, $0) }
            if span < 1e-6 { placed = [(s0, first), (t1, last)] }
        } else {
            var k0 = Int(max(-1e6, ((min(ta, s0) - s0) / span).rounded(.down)))
            var k1 = Int(min(1e6, ((max(tb, last.offset) - s0) / span).rounded(.up)))
            let maxPeriods = max(1, min(64, 4096 / max(1, line.stops.count)))
            if k1 - k0 > maxPeriods { k0 = max(k0, -maxPeriods / 2); k1 = min(k1, k0 + maxPeriods) }
            for k in k0..<max(k1, k0 + 1) {
                let flip = line.extend == .reflect && k % 2 != 0
                let stops = flip ? Array(line.stops.reversed()) : line.stops
                for stop in stops {
                    let local = flip ? last.offset - stop.offset : stop.offset - s0
                    placed.append((s0 + Double(k) * span + local, stop))
                }
            }
            t0 = s0 + Double(k0) * span
            t1 = s0 + Double(max(k1, k0 + 1)) * span
        }
        let colors = placed.map { color($0.1.paletteIndex, $0.1.alpha) }
        let locations = placed.map { CGFloat(($0.0 - t0) / (t1 - t0)) }
        let made = locations.withUnsafeBufferPointer { CGGradient(colorsSpace: nil, colors: colors, locations: $0.baseAddress) }
        return made.map { ($0, t0, t1) }
    }

    private func drawLinear(_ line: ColorLine, _ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint) {
        // The colour line runs along the normal of p0→p2, through p0, to p1's projection.
        let v = CGPoint(x: p2.x - p0.x, y: p2.y - p0.y)
        var d = CGPoint(x: p1.x - p0.x, y: p1.y - p0.y)
        let n = CGPoint(x: -v.y, y: v.x), nn = n.x * n.x + n.y * n.y
        if nn > 0 {
            let k = (d.x * n.x + d.y * n.y) / nn
            d = CGPoint(x: n.x * k, y: n.y * k)
        }
        let dd = d.x * d.x + d.y * d.y
        guard dd > 0, dd.isFinite else { return }
        let ts = clipCorners.map { (($0.x - p0.x) * d.x + ($0.y - p0.y) * d.y) / dd }
        guard let (g, t0, t1) = gradient(line, Double(ts.min() ?? 0), Double(ts.max() ?? 1)) else { return }
        context.drawLinearGradient(g, start: CGPoint(x: p0.x + d.x * t0, y: p0.y + d.y * t0),
                                   end: CGPoint(x: p0.x + d.x * t1, y: p0.y + d.y * t1),
                                   options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
    }

    private func drawRadial(_ line: ColorLine, _ c0: CGPoint, _ r0: Double, _ c1: CGPoint, _ r1: Double) {
        let dc = CGPoint(x: c1.x - c0.x, y: c1.y - c0.y), dr = r1 - r0
        let reach = clipCorners.map { hypot($0.x - c0.x, $0.y - c0.y) }.max() ?? 0
        let move = Double(hypot(dc.x, dc.y))
        var ta = 0.0, tb = 1.0
        if dr > move { tb = max(1, (Double(reach) - r0) / (dr - move) + 1) } else { tb = 1e9 }
        if dr > 0 { ta = -r0 / dr }
        guard let (g, t0, t1) = gradient(line, ta, tb) else { return }
        func center(_ t: Double) -> CGPoint { CGPoint(x: c0.x + dc.x * t, y: c0.y + dc.y * t) }
        context.drawRadialGradient(g, startCenter: center(t0), startRadius: max(0, r0 + dr * t0),
                                   endCenter: center(t1), endRadius: max(0, r0 + dr * t1),
                                   options: [.drawsBeforeStartLocation, .drawsAfterEndLocation])
    }

    /// A sweep gradient: angle θ (degrees, counterclockwise in the glyph's space, 0 ≤ θ < 360)
    /// sits at colour-line position (θ − start) / (end − start), extended as the line says — a
    /// conic gradient paint, each pixel's own angle (`ConicGradientPaint`).
    private func drawSweep(_ line: ColorLine, _ center: CGPoint, _ start: Double, _ end: Double) {
        guard let first = line.stops.first, let last = line.stops.last,
              center.x.isFinite, center.y.isFinite, start.isFinite, end.isFinite else { return }
        // The table spans the colour line's own stops; positions beyond them are the extend
        // mode's business, in the paint.
        let s0 = first.offset
        var span = last.offset - first.offset
        var placed = line.stops.map { ($0.offset, $0) }
        if span < 1e-6 {
            span = 1e-3
            placed = [(s0, first), (s0 + span, last)]
        }
        let colors = placed.map { color($0.1.paletteIndex, $0.1.alpha) }
        let locations = placed.map { CGFloat(($0.0 - s0) / span) }
        guard let gradient = locations.withUnsafeBufferPointer({ CGGradient(colorsSpace: nil, colors: colors, locations: $0.baseAddress) })
        else { return }
        let degrees = 180 / Double.pi
        var extend: ConicGradientPaint.Extend
        switch line.extend {
        case .pad: extend = .pad
        case .repeat: extend = .repeat
        case .reflect: extend = .reflect
        }
        var scale: Double, offset: Double
        if abs(end - start) < 1e-9 {
            // No arc: the first colour before the start angle, the last from it on.
            scale = degrees * 1e9
            offset = -start * 1e9
            extend = .pad
        } else {
            // s = (t − s0) / span, t = (θ° − start) / (end − start).
            scale = degrees / ((end - start) * span)
            offset = (-start / (end - start) - s0) / span
        }
        context.drawSweepGradient(gradient, center: center, origin: 0, scale: scale, offset: offset, extend: extend)
    }
}
