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
        let mask = ClipMask(bounds: bounds)
        let coverage = OutlineCoverage(rasterizer: rasterizer, outline: .fill(path, transform: t, tolerance: gstate.flatness),
                                       rule: CoverageRule(rule, antialias: isAntialiasing))
        var writer = MaskWriter(mask: mask, clipMask: current.mask, maskScratch: maskScratch)
        coverage.produce(into: &writer, clip: bounds)
        mask.summarizeRows()
        gstate.clip = ClipRegion(bounds: bounds, mask: mask)
    }
}
