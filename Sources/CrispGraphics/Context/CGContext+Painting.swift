import Foundation

extension CGContext {
    // MARK: Painting the current path

    /// Fills the current path with the fill colour, then clears the path.
    public func fillPath(using rule: CGPathFillRule = .winding) {
        defer { currentPath.removeAll() }
        fillOutline(currentPath, toRaster: baseToRaster, rule: rule, color: fillPixel)
    }

    /// Fills the current path with the even-odd rule (`CGContextEOFillPath`), then clears it.
    public func eoFillPath() { fillPath(using: .evenOdd) }

    /// Strokes the current path with the stroke colour and line attributes, then clears the path.
    public func strokePath() {
        defer { currentPath.removeAll() }
        if let user = userSpacePath { strokeUserPath(user) }
    }

    /// Paints the current path in `mode` (fill, even-odd fill, stroke, or a fill then a stroke),
    /// then clears it.
    public func drawPath(using mode: CGPathDrawingMode) {
        defer { currentPath.removeAll() }
        switch mode {
        case .fill: fillOutline(currentPath, toRaster: baseToRaster, rule: .winding, color: fillPixel)
        case .eoFill: fillOutline(currentPath, toRaster: baseToRaster, rule: .evenOdd, color: fillPixel)
        case .stroke: if let user = userSpacePath { strokeUserPath(user) }
        case .fillStroke:
            fillOutline(currentPath, toRaster: baseToRaster, rule: .winding, color: fillPixel)
            if let user = userSpacePath { strokeUserPath(user) }
        case .eoFillStroke:
            fillOutline(currentPath, toRaster: baseToRaster, rule: .evenOdd, color: fillPixel)
            if let user = userSpacePath { strokeUserPath(user) }
        }
    }

    // MARK: Shapes (independent of the current path, which they leave alone)

    /// Fills a rectangle with the fill colour.
    public func fill(_ rect: CGRect) {
        // Foundation's rectangle operations trap on NaN: a non-finite rectangle draws nothing.
        guard rect.isFiniteRect else { return }
        let t = userToRaster
        if t.isRectilinear {
            // The common case needs no path: straight to the rectangle coverage.
            let color = fillPixel
            guard paints(color) else { return }
            fillDeviceRect(rect.applying(t), color: color)
            return
        }
        let path = CGMutablePath()
        path.addRect(rect)
        fillOutline(path, toRaster: t, rule: .winding, color: fillPixel)
    }

    /// Fills the union of rectangles with the fill colour (one composite, so overlaps are not
    /// painted twice).
    public func fill(_ rects: [CGRect]) {
        let path = CGMutablePath()
        path.addRects(rects)
        fillOutline(path, toRaster: userToRaster, rule: .winding, color: fillPixel)
    }

    /// Strokes a rectangle with the current line attributes.
    public func stroke(_ rect: CGRect) {
        let path = CGMutablePath()
        path.addRect(rect)
        strokeUserPath(path)
    }

    /// Strokes a rectangle with line width `width` (the state's width is left unchanged).
    public func stroke(_ rect: CGRect, width: CGFloat) {
        let saved = gstate.lineWidth
        setLineWidth(width)
        stroke(rect)
        gstate.lineWidth = saved
    }

    /// Fills the ellipse inscribed in `rect`.
    public func fillEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        fillOutline(path, toRaster: userToRaster, rule: .winding, color: fillPixel)
    }

    /// Strokes the ellipse inscribed in `rect`.
    public func strokeEllipse(in rect: CGRect) {
        let path = CGMutablePath()
        path.addEllipse(in: rect)
        strokeUserPath(path)
    }

    /// Strokes independent segments: points 0–1, 2–3, … (an odd last point is ignored).
    public func strokeLineSegments(between points: [CGPoint]) {
        let path = CGMutablePath()
        var i = 0
        while i + 1 < points.count {
            path.move(to: points[i])
            path.addLine(to: points[i + 1])
            i += 2
        }
        strokeUserPath(path)
    }

    /// Makes a rectangle transparent, ignoring alpha and blend mode but honouring the clip.
    public func clear(_ rect: CGRect) {
        let saved = gstate
        gstate.blendMode = .clear
        gstate.alpha = 1
        let path = CGMutablePath()
        path.addRect(rect)
        fillOutline(path, toRaster: userToRaster, rule: .winding, color: 0xFF00_0000)
        gstate = saved
    }

    // MARK: Internal pipeline

    var fillPixel: UInt32 { gstate.fillColor.premultipliedPixel(alpha: gstate.alpha) }
    var strokePixel: UInt32 { gstate.strokeColor.premultipliedPixel(alpha: gstate.alpha) }

    /// The clip box as a rectangle in raster coordinates.
    var clipRect: CGRect {
        let b = gstate.clip.bounds
        return CGRect(x: b.x, y: b.y, width: b.width, height: b.height)
    }

    /// Whether painting `color` can change any pixel under the current state.
    func paints(_ color: UInt32) -> Bool {
        !gstate.clip.bounds.isEmpty && !(color >> 24 == 0 && gstate.blendMode == .normal)
    }

    /// Fills an axis-aligned rectangle given in raster coordinates (the rectangle fast path).
    private func fillDeviceRect(_ rect: CGRect, color: UInt32) {
        guard rect.isFiniteRect else { return }
        paint(RectCoverage(rect: rect, antialias: isAntialiasing), color: color)
    }

    /// Fills `path` mapped into raster space by `toRaster`.
    func fillOutline(_ path: CGPath, toRaster t: CGAffineTransform, rule: CGPathFillRule, color: UInt32) {
        guard paints(color), !path.isEmpty else { return }
        if t.isRectilinear, let r = path.axisAlignedRect() {
            fillDeviceRect(r.applying(t), color: color)
            return
        }
        paint(OutlineCoverage(rasterizer: rasterizer, outline: .fill(path, transform: t, tolerance: gstate.flatness),
                              rule: CoverageRule(rule, antialias: isAntialiasing)), color: color)
    }

    /// The stroke style in force, with a zero width turned into a one-device-pixel hairline.
    var strokeStyle: StrokeStyle {
        var width = gstate.lineWidth
        if width == 0 {
            let scale = gstate.ctm.areaScale
            width = scale > 0 ? 1 / scale : 0
        }
        return StrokeStyle(width: width, cap: gstate.lineCap, join: gstate.lineJoin, miterLimit: gstate.miterLimit,
                           dashPhase: gstate.dashPhase, dashLengths: gstate.dashLengths)
    }

    /// Strokes a user-space path with the stroke colour.
    func strokeUserPath(_ path: CGPath) {
        let color = strokePixel
        guard paints(color), !path.isEmpty else { return }
        let scale = gstate.ctm.maximumScale
        guard scale > 0, scale.isFinite else { return }
        let outline = Outline.stroke(path, style: strokeStyle, tolerance: gstate.flatness / scale, transform: userToRaster)
        paint(OutlineCoverage(rasterizer: rasterizer, outline: outline, rule: CoverageRule(.winding, antialias: isAntialiasing)),
              color: color)
    }

    /// The outline stroking a user-space path would fill, in user space.
    func strokedOutline(of path: CGPath) -> CGPath {
        var builder = MutablePathSink(path: CGMutablePath(), transform: .identity)
        let scale = max(gstate.ctm.maximumScale, 1e-9)
        strokeOutline(path, style: strokeStyle, tolerance: gstate.flatness / scale, transform: .identity, into: &builder)
        return builder.path
    }

    /// Composites a solid colour with the coverage from `producer`.
    func paint<C: CoverageProducer>(_ producer: C, color: UInt32) {
        paint(producer, with: .solid(color))
    }

    /// Composites `paint` with the coverage from `producer` through the clip, the blend mode and,
    /// when one is set, the shadow (drawn first, beneath).
    func paint<C: CoverageProducer>(_ producer: C, with paint: Paint) {
        guard !gstate.clip.bounds.isEmpty else { return }
        if let shadow = gstate.shadow, shadow.isVisible {
            drawShadow(shadow, of: producer, paint: paint)
        }
        composite(producer, with: paint)
    }

    /// Composites without a shadow: one `CompositeBlitter` (see CompositeBlitter.swift) fed by
    /// the producer.
    func composite<C: CoverageProducer>(_ producer: C, with paint: Paint) {
        var blitter = CompositeBlitter(pixels: pixels, rowStride: rowStride, paint: paint, blendMode: gstate.blendMode,
                                       clipMask: gstate.clip.mask, shadeBuffer: shadeBuffer, maskScratch: maskScratch,
                                       converted: layerStack.isEmpty ? baseRows : nil)
        producer.produce(into: &blitter, clip: gstate.clip.bounds)
    }
}

extension CGRect {
    /// Whether origin and size are all finite (Foundation traps on NaN in `intersection`).
    var isFiniteRect: Bool {
        origin.x.isFinite && origin.y.isFinite && size.width.isFinite && size.height.isFinite
    }
}
