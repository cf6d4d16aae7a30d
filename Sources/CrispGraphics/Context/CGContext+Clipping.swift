import Foundation

// A clip is a pixel rectangle plus, when needed, an 8-bit coverage mask. Clipping to a
// pixel-aligned rectangle only shrinks the rectangle — no mask, no per-pixel cost. Anything else
// rasterizes the clip path (anti-aliased unless anti-aliasing is off) into a new mask, multiplied
// by the previous one, so nested clips intersect with soft edges.

extension CGContext {
    /// Intersects the clip with the current path's interior under `rule`, then clears the path.
    public func clip(using rule: CGPathFillRule = .winding) {
        defer { currentPath.removeAll() }
        intersectClip(withBasePath: currentPath, rule: rule)
    }

    /// Intersects the clip with the current path using the even-odd rule (`CGContextEOClip`).
    public func eoClip() { clip(using: .evenOdd) }

    /// Intersects the clip with a rectangle (user space). Leaves the current path alone.
    public func clip(to rect: CGRect) {
        let p = CGMutablePath()
        p.addRect(rect, transform: gstate.ctm)
        intersectClip(withBasePath: p, rule: .winding)
    }

    /// Intersects the clip with the union of rectangles (user space). Leaves the current path alone.
    public func clip(to rects: [CGRect]) {
        let p = CGMutablePath()
        p.addRects(rects, transform: gstate.ctm)
        intersectClip(withBasePath: p, rule: .winding)
    }

    /// The bounding box of the clip in user space.
    public var boundingBoxOfClipPath: CGRect {
        let b = gstate.clip.bounds
        guard !b.isEmpty else { return .zero }
        let raster = CGRect(x: b.x, y: b.y, width: b.width, height: b.height)
        return raster.applying(baseToRaster).applying(gstate.ctm.inverted())
    }

    /// Intersects the clip with a path given in base space.
    func intersectClip(withBasePath path: CGPath, rule: CGPathFillRule) {
        let current = gstate.clip
        guard !current.bounds.isEmpty else { return }
        let t = baseToRaster
        if let r = path.axisAlignedRect() {
            let raster = r.applying(t)
            if raster == raster.integral || !isAntialiasing {
                let rounded = isAntialiasing ? raster : CGRect(x: raster.minX.rounded(), y: raster.minY.rounded(),
                                                            width: (raster.maxX.rounded() - raster.minX.rounded()),
                                                            height: (raster.maxY.rounded() - raster.minY.rounded()))
                gstate.clip = ClipRegion(bounds: PixelRect(enclosing: rounded, limit: current.bounds), mask: current.mask)
                return
            }
        }
        let bounds = path.isEmpty ? .empty : PixelRect(enclosing: path.boundingBox.applying(t), limit: current.bounds)
        guard !bounds.isEmpty else {
            gstate.clip = ClipRegion(bounds: .empty, mask: nil)
            return
        }
        // The path is kept (a copy: the current path is cleared next) and rasterized into a mask
        // when something first draws through it; a gradient painted across it first is painted
        // from the path's coverage instead (`PendingClip`).
        let coverage = OutlineCoverage(rasterizer: rasterizer, outline: .fill(path.copy() ?? path, transform: t, tolerance: gstate.flatness),
                                       rule: CoverageRule(rule, antialias: isAntialiasing))
        gstate.clip = ClipRegion(bounds: bounds, pending: PendingClip(coverage: coverage, bounds: bounds, parent: current.mask,
                                                                       maskScratch: maskScratch))
    }

    /// Paints `paint` across the whole clip with a rectangle's coverage — or, when the clip is a
    /// path whose mask is not built yet and no shadow is cast, with the path's coverage through
    /// the clip before it: the same pixels (the mask would hold that coverage and give it back
    /// to every pixel), without rasterizing a mask, clearing it and reading it back.
    func paintAcrossClip(_ paint: Paint) {
        let clip = gstate.clip
        guard let pending = clip.pending, !pending.isBuilt, !(gstate.shadow?.isVisible ?? false) else {
            self.paint(RectCoverage(rect: clipRect, antialias: true), with: paint)
            return
        }
        gstate.clip = ClipRegion(bounds: pending.bounds, mask: pending.parent)
        composite(pending.coverage, with: paint)
        gstate.clip = clip
    }
}
