import Foundation

// Drawing glyphs. Text space (where a line lays out its glyphs: baseline along x, y up) maps to
// user space through the text matrix, whose translation is the text position, and from there
// through the CTM like any other drawing. As in CoreGraphics, the text matrix is a property of
// the context, not of the graphics state: save/restoreGState leave it alone, and text drawn
// into a flipped (y-down) context needs a flipped text matrix to stand upright — the UIKit-style
// `String.draw(at:font:color:in:)` sets one up for its call.
//
// Glyphs are composited with the fill colour through the same pipeline as a filled path (clip,
// alpha, blend mode). When text space maps to the device by a scale and a translation — nearly
// all UI text — glyph bitmaps come from the glyph cache and are merged into one mask for the
// run; otherwise (rotation, skew, huge sizes, anti-aliasing off) all the run's outlines go into
// the rasterizer as one non-zero fill. Either way the run composites once.

extension CGContext {
    /// The origin of text space in user space: the text matrix's translation.
    public var textPosition: CGPoint {
        get { CGPoint(x: textMatrix.tx, y: textMatrix.ty) }
        set { textMatrix.tx = newValue.x; textMatrix.ty = newValue.y }
    }

    /// Sets the text position, as `CGContextSetTextPosition`.
    public func setTextPosition(x: CGFloat, y: CGFloat) { textPosition = CGPoint(x: x, y: y) }

    /// Draws `glyphs` of `font` with their origins at `positions` (text space), in the fill
    /// colour. As `CTFontDrawGlyphs`; extra glyphs or positions beyond the shorter array are
    /// ignored.
    ///
    /// Colour glyphs ('COLR' layers and paints, 'CBDT' and 'sbix' bitmaps) are drawn in their
    /// own colours, with the palette `font.colorPaletteIndex`; layers in the text colour use
    /// the fill colour.
    public func showGlyphs(_ glyphs: [CGGlyph], at positions: [CGPoint], font: CTFont) {
        if font.face.hasColorGlyphs, !gstate.clip.bounds.isEmpty {
            var plain: [CGGlyph] = [], plainAt: [CGPoint] = [], colored: [(CGGlyph, CGPoint)] = []
            for (g, p) in zip(glyphs, positions) {
                if font.face.isColorGlyph(g) { colored.append((g, p)) } else { plain.append(g); plainAt.append(p) }
            }
            if !colored.isEmpty {
                showPlainGlyphs(plain, at: plainAt, font: font)
                drawColorGlyphs(colored, font: font)
                return
            }
        }
        showPlainGlyphs(glyphs, at: positions, font: font)
    }

    private func showPlainGlyphs(_ glyphs: [CGGlyph], at positions: [CGPoint], font: CTFont) {
        let color = fillPixel
        guard paints(color), !glyphs.isEmpty else { return }
        let textToRaster = textMatrix.concatenating(userToRaster)
        let scale = font.scale
        let scaleX = textToRaster.a * scale, scaleY = textToRaster.d * scale
        let em = CGFloat(font.unitsPerEm)
        let isScaleAndTranslation = textToRaster.b == 0 && textToRaster.c == 0 && scaleX > 0 && scaleY != 0
            && scaleX * em <= GlyphCache.maximumEmPixels && abs(scaleY) * em <= GlyphCache.maximumEmPixels
        if isScaleAndTranslation && isAntialiasing {
            drawCachedGlyphs(glyphs, positions, font, textToRaster, scaleX, scaleY, color)
        } else {
            drawGlyphOutlines(glyphs, positions, font, textToRaster, color)
        }
    }

    private func drawGlyphOutlines(_ glyphs: [CGGlyph], _ positions: [CGPoint], _ font: CTFont,
                                   _ textToRaster: CGAffineTransform, _ color: UInt32) {
        // One path for the run, so overlapping glyphs fill as one non-zero shape and a shadow or
        // a blend mode sees the text as a whole.
        let run = CGMutablePath()
        let s = font.scale
        for (g, p) in zip(glyphs, positions) {
            guard let outline = try? font.face.path(for: g), !outline.isEmpty else { continue }
            run.addPath(outline, transform: CGAffineTransform(a: s, b: 0, c: 0, d: s, tx: p.x, ty: p.y))
        }
        guard !run.isEmpty else { return }
        let tolerance = min(gstate.flatness, GlyphCache.flatness)
        paint(OutlineCoverage(rasterizer: rasterizer, outline: .fill(run, transform: textToRaster, tolerance: tolerance),
                              rule: CoverageRule(.winding, antialias: isAntialiasing)), color: color)
    }

    private func drawCachedGlyphs(_ glyphs: [CGGlyph], _ positions: [CGPoint], _ font: CTFont,
                                  _ textToRaster: CGAffineTransform, _ scaleX: CGFloat, _ scaleY: CGFloat,
                                  _ color: UInt32) {
        let face = font.face
        struct Placed { var bitmap: GlyphBitmap; var x: Int; var y: Int }
        var placed: [Placed] = []
        placed.reserveCapacity(glyphs.count)
        var bounds = PixelRect.empty
        let phases = CGFloat(GlyphCache.phases)
        // Far beyond any canvas: such glyphs are invisible, and skipping them keeps Int safe.
        let limit: CGFloat = 16_777_216
        for (g, p) in zip(glyphs, positions) {
            let o = p.applying(textToRaster)
            guard abs(o.x) < limit, abs(o.y) < limit else { continue }
            let quarters = Int(Pixel.roundedHalfAway(o.x * phases))
            let x = quarters >> 2, phase = quarters & 3
            let y = Int(Pixel.roundedHalfAway(o.y))
            let key = GlyphCache.Key(font: face.identifier, glyph: g, phase: UInt8(phase),
                                     scaleX: Double(scaleX).bitPattern, scaleY: Double(scaleY).bitPattern)
            let bitmap = glyphCache.bitmap(for: key) {
                renderGlyph(g, face, scaleX, scaleY, CGFloat(phase) / phases)
            }
            if bitmap === GlyphBitmap.oversized {
                drawGlyphOutlines(glyphs, positions, font, textToRaster, color)
                return
            }
            guard !bitmap.isEmpty else { continue }
            let item = Placed(bitmap: bitmap, x: x + bitmap.left, y: y + bitmap.top)
            let r = PixelRect(x: item.x, y: item.y, maxX: item.x + bitmap.width, maxY: item.y + bitmap.height)
            bounds = bounds.isEmpty ? r : PixelRect(x: min(bounds.x, r.x), y: min(bounds.y, r.y),
                                                    maxX: max(bounds.maxX, r.maxX), maxY: max(bounds.maxY, r.maxY))
            placed.append(item)
        }
        // The mask covers what can show: the clip, grown by a shadow's offset and blur.
        var visible = gstate.clip.bounds
        if let shadow = gstate.shadow, shadow.isVisible {
            let pad = BoxBlur.reach(sigma: shadow.blur / 2) + 1
            let dx = Int(min(abs(shadow.offset.width), CGFloat(2 * CGContext.maximumDimension)).rounded(.up)) + pad
            let dy = Int(min(abs(shadow.offset.height), CGFloat(2 * CGContext.maximumDimension)).rounded(.up)) + pad
            visible = PixelRect(x: visible.x - dx, y: visible.y - dy, maxX: visible.maxX + dx, maxY: visible.maxY + dy)
        }
        let rect = bounds.intersection(visible)
        guard !rect.isEmpty else { return }
        let w = rect.width
        let mask = UnsafeMutablePointer<UInt8>.allocate(capacity: w * rect.height)
        defer { mask.deallocate() }
        mask.initialize(repeating: 0, count: w * rect.height)
        for item in placed {
            let b = item.bitmap
            let x0 = max(item.x, rect.x), x1 = min(item.x + b.width, rect.maxX)
            let y0 = max(item.y, rect.y), y1 = min(item.y + b.height, rect.maxY)
            guard x0 < x1, y0 < y1 else { continue }
            b.coverage.withUnsafeBufferPointer { src in
                for y in y0..<y1 {
                    let s = src.baseAddress! + (y - item.y) * b.width + (x0 - item.x)
                    let d = mask + (y - rect.y) * w + (x0 - rect.x)
                    for i in 0..<(x1 - x0) {
                        let sum = UInt16(d[i]) &+ UInt16(s[i])
                        d[i] = sum > 255 ? 255 : UInt8(truncatingIfNeeded: sum)
                    }
                }
            }
        }
        paint(GlyphRunCoverage(mask: mask, rect: rect), color: color)
    }

    /// Rasterizes one glyph for the cache: font units scaled by (`scaleX`, `scaleY`) into raster
    /// space, its origin `phase` pixels right of a pixel corner.
    private func renderGlyph(_ glyph: CGGlyph, _ face: TrueTypeFont, _ scaleX: CGFloat, _ scaleY: CGFloat,
                             _ phase: CGFloat) -> GlyphBitmap {
        guard let outline = try? face.path(for: glyph), !outline.isEmpty else { return .empty }
        let t = CGAffineTransform(a: scaleX, b: 0, c: 0, d: scaleY, tx: phase, ty: 0)
        let box = outline.boundingBox.applying(t)
        guard box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite else { return .empty }
        // The box is checked before any conversion to Int or allocation: see
        // `GlyphCache.maximumBitmapEms`.
        let limit = max(64, GlyphCache.maximumBitmapEms * CGFloat(face.unitsPerEm) * max(abs(scaleX), abs(scaleY)))
        guard box.width <= limit, box.height <= limit, abs(box.minX) <= limit, abs(box.minY) <= limit else {
            return .oversized
        }
        let left = Int(box.minX.rounded(.down)), top = Int(box.minY.rounded(.down))
        let width = Int(box.maxX.rounded(.up)) - left, height = Int(box.maxY.rounded(.up)) - top
        guard width > 0, height > 0 else { return .empty }
        var coverage = [UInt8](repeating: 0, count: width * height)
        let clip = PixelRect(x: left, y: top, maxX: left + width, maxY: top + height)
        rasterizer.reset(clip: clip)
        var sink = EdgeSink(rasterizer: rasterizer)
        outline.flatten(transform: t, tolerance: GlyphCache.flatness, into: &sink)
        sink.finish()
        coverage.withUnsafeMutableBufferPointer { buffer in
            var writer = GlyphBitmapWriter(buffer: buffer.baseAddress!, originX: left, originY: top, width: width)
            rasterizer.render(rule: .nonZero, into: &writer)
        }
        return GlyphBitmap(left: left, top: top, width: width, height: height, coverage: coverage)
    }
}

extension CTFont {
    /// Draws `glyphs` at `positions` (text space) into `context`; see
    /// `CGContext.showGlyphs(_:at:font:)`.
    public func draw(_ glyphs: [CGGlyph], at positions: [CGPoint], in context: CGContext) {
        context.showGlyphs(glyphs, at: positions, font: self)
    }
}

/// Draws glyphs at positions (text space) in the context's fill colour, as CoreText's
/// `CTFontDrawGlyphs`.
public func CTFontDrawGlyphs(_ font: CTFont, _ glyphs: [CGGlyph], _ positions: [CGPoint], _ count: Int,
                             _ context: CGContext) {
    let n = max(0, min(count, glyphs.count, positions.count))
    context.showGlyphs(Array(glyphs.prefix(n)), at: Array(positions.prefix(n)), font: font)
}
