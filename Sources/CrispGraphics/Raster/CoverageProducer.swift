import Foundation

/// Something that produces coverage spans: a rasterized outline or a rectangle.
protocol CoverageProducer {
    func produce<B: SpanBlitter>(into blitter: inout B)
}

/// The outline currently held by the rasterizer.
struct OutlineCoverage: CoverageProducer {
    let rasterizer: Rasterizer
    let rule: CoverageRule
    func produce<B: SpanBlitter>(into blitter: inout B) { rasterizer.render(rule: rule, into: &blitter) }
}

/// An axis-aligned rectangle with fractional edges, in raster coordinates, already clipped to
/// the clip box. The fast path for `fill(_ rect:)` under a rectilinear CTM: no edges, no
/// accumulation — edge rows and columns get their exact fractional coverage, the interior is a
/// run of full-coverage spans.
struct RectCoverage: CoverageProducer {
    let rect: CGRect
    let antialias: Bool

    func produce<B: SpanBlitter>(into blitter: inout B) {
        var (x0, y0, x1, y1) = (rect.minX, rect.minY, rect.maxX, rect.maxY)
        if !antialias {
            // Pixel centres inside the rectangle are painted.
            (x0, y0, x1, y1) = (x0.rounded(), y0.rounded(), x1.rounded(), y1.rounded())
        }
        guard x1 > x0, y1 > y0 else { return }
        let ix0 = Int(x0.rounded(.down)), ix1 = Int(x1.rounded(.up))
        let iy0 = Int(y0.rounded(.down)), iy1 = Int(y1.rounded(.up))
        // Horizontal coverage of the first and last column (the same column if only one).
        let leftCover = min(x1, CGFloat(ix0 + 1)) - x0
        let rightCover = x1 - max(x0, CGFloat(ix1 - 1))
        for y in iy0..<iy1 {
            let vertical = min(y1, CGFloat(y + 1)) - max(y0, CGFloat(y))
            if ix1 - ix0 == 1 {
                emit(&blitter, ix0, y, 1, vertical * leftCover)
                continue
            }
            let full = RectCoverage.alpha(vertical)
            let left = RectCoverage.alpha(vertical * leftCover)
            let right = RectCoverage.alpha(vertical * rightCover)
            // Merge the edge columns into the interior run when their coverage is the same.
            var start = ix0 + 1, end = ix1 - 1
            if left == full { start = ix0 } else if left != 0 { blitter.blitSpan(x: ix0, y: y, count: 1, coverage: left) }
            if right == full { end = ix1 }
            if full != 0, end > start { blitter.blitSpan(x: start, y: y, count: end - start, coverage: full) }
            if right != full, right != 0 { blitter.blitSpan(x: ix1 - 1, y: y, count: 1, coverage: right) }
        }
    }

    @inline(__always)
    private static func alpha(_ c: CGFloat) -> UInt8 { UInt8(max(0, min(255, (c * 255).rounded()))) }

    @inline(__always)
    private func emit<B: SpanBlitter>(_ b: inout B, _ x: Int, _ y: Int, _ n: Int, _ c: CGFloat) {
        let a = RectCoverage.alpha(c)
        if a != 0 { b.blitSpan(x: x, y: y, count: n, coverage: a) }
    }
}

/// Feeds a flattened outline to the rasterizer, closing every subpath (fill semantics).
struct EdgeSink: PathFlatteningSink {
    let rasterizer: Rasterizer
    private var start = CGPoint.zero, current = CGPoint.zero

    init(rasterizer: Rasterizer) { self.rasterizer = rasterizer }

    mutating func moveTo(_ p: CGPoint) {
        finish()
        start = p; current = p
    }

    @inline(__always)
    mutating func lineTo(_ p: CGPoint) {
        rasterizer.addLine(current, p)
        current = p
    }

    mutating func closeSubpath() {
        rasterizer.addLine(current, start)
        current = start
    }

    /// Closes the last subpath implicitly.
    mutating func finish() {
        if current != start { rasterizer.addLine(current, start) }
        current = start
    }
}
