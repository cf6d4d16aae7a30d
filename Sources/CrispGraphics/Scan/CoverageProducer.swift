import Foundation

/// Something that produces coverage spans within a clip box: a rasterized outline, a
/// rectangle, or a stored mask. Producers can run more than once (a shadow renders its shape
/// into a larger box first, then the shape is drawn normally).
protocol CoverageProducer {
    /// Emits coverage for pixels inside `clip` (raster pixels), row by row.
    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect)
    /// Raster-space bounds of everything the producer can cover (nil when unbounded or unknown).
    var bounds: CGRect? { get }
}

/// An outline to rasterize: a path to fill, or a path to stroke.
enum Outline {
    /// A path filled after mapping it into raster space with `transform`.
    case fill(CGPath, transform: CGAffineTransform, tolerance: CGFloat)
    /// A user-space path stroked with `style`, then mapped into raster space.
    case stroke(CGPath, style: StrokeStyle, tolerance: CGFloat, transform: CGAffineTransform)
}

/// An outline rasterized on demand.
struct OutlineCoverage: CoverageProducer {
    let rasterizer: Rasterizer
    let outline: Outline
    let rule: CoverageRule

    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect) {
        guard !clip.isEmpty else { return }
        rasterizer.reset(clip: clip)
        var sink = EdgeSink(rasterizer: rasterizer)
        let cull = CGRect(x: clip.x, y: clip.y, width: clip.width, height: clip.height)
        switch outline {
        case let .fill(path, transform, tolerance):
            path.flatten(transform: transform, tolerance: tolerance, cullRect: cull, into: &sink)
        case let .stroke(path, style, tolerance, transform):
            strokeOutline(path, style: style, tolerance: tolerance, transform: transform, cullRect: cull, into: &sink)
        }
        sink.finish()
        rasterizer.render(rule: rule, into: &blitter)
    }

    var bounds: CGRect? {
        switch outline {
        case let .fill(path, transform, _):
            return path.boundingBox.applying(transform)
        case let .stroke(path, style, _, transform):
            // Joins can reach miterLimit × width / 2 beyond the path; caps w/2·√2.
            let reach = style.width / 2 * max(style.miterLimit, 1.5)
            return path.boundingBox.insetBy(dx: -reach, dy: -reach).applying(transform)
        }
    }
}

/// An axis-aligned rectangle with fractional edges, in raster coordinates. The fast path for
/// rectangles under a rectilinear CTM: no edges, no accumulation — edge rows and columns get
/// their exact fractional coverage, the interior is a run of full-coverage spans.
struct RectCoverage: CoverageProducer {
    let rect: CGRect
    let antialias: Bool

    var bounds: CGRect? { rect }

    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect) {
        guard rect.isFiniteRect, !clip.isEmpty else { return }
        let clipped = rect.intersection(CGRect(x: clip.x, y: clip.y, width: clip.width, height: clip.height))
        guard !clipped.isNull else { return }
        var (x0, y0, x1, y1) = (clipped.minX, clipped.minY, clipped.maxX, clipped.maxY)
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
        // Rows wholly inside vertically all get the same three coverages: computed once.
        let inner = (full: RectCoverage.alpha(1), left: RectCoverage.alpha(leftCover), right: RectCoverage.alpha(rightCover))
        for y in iy0..<iy1 {
            let vertical = min(y1, CGFloat(y + 1)) - max(y0, CGFloat(y))
            if ix1 - ix0 == 1 {
                emit(&blitter, ix0, y, 1, vertical * leftCover)
                continue
            }
            let (full, left, right) = vertical == 1 ? inner
                : (RectCoverage.alpha(vertical), RectCoverage.alpha(vertical * leftCover), RectCoverage.alpha(vertical * rightCover))
            // Merge the edge columns into the interior run when their coverage is the same.
            var start = ix0 + 1, end = ix1 - 1
            if left == full { start = ix0 } else if left != 0 { blitter.blitSpan(x: ix0, y: y, count: 1, coverage: left) }
            if right == full { end = ix1 }
            if full != 0, end > start { blitter.blitSpan(x: start, y: y, count: end - start, coverage: full) }
            if right != full, right != 0 { blitter.blitSpan(x: ix1 - 1, y: y, count: 1, coverage: right) }
        }
    }

    @inline(__always)
    private static func alpha(_ c: CGFloat) -> UInt8 { UInt8(max(0, min(255, Pixel.roundedHalfAway(c * 255)))) }

    @inline(__always)
    private func emit<B: SpanBlitter>(_ b: inout B, _ x: Int, _ y: Int, _ n: Int, _ c: CGFloat) {
        let a = RectCoverage.alpha(c)
        if a != 0 { b.blitSpan(x: x, y: y, count: n, coverage: a) }
    }
}

/// Coverage read from an 8-bit mask placed at an integer offset (blurred shadows).
struct MaskCoverage: CoverageProducer {
    let mask: ClipMask
    let dx: Int, dy: Int

    var bounds: CGRect? {
        let b = mask.bounds
        return CGRect(x: b.x + dx, y: b.y + dy, width: b.width, height: b.height)
    }

    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect) {
        let b = mask.bounds
        let placed = PixelRect(x: b.x + dx, y: b.y + dy, maxX: b.maxX + dx, maxY: b.maxY + dy).intersection(clip)
        guard !placed.isEmpty else { return }
        for y in placed.y..<placed.maxY {
            let row = mask.row(y - dy) + (placed.x - dx - b.x)
            blitter.blitMask(x: placed.x, y: y, count: placed.width, coverage: row)
        }
    }
}

/// Feeds a flattened outline to the rasterizer, closing every subpath (fill semantics).
struct EdgeSink: PathFlatteningSink {
    let rasterizer: Rasterizer
    private var start = CGPoint.zero, current = CGPoint.zero
    /// Curves by their exact area (curve edges, Rasterizer+Curves.swift) instead of chords.
    var exactCurves = Rasterizer.exactCurvesByDefault

    init(rasterizer: Rasterizer) { self.rasterizer = rasterizer }

    var takesCurves: Bool { exactCurves }

    mutating func curveTo(_ c1: CGPoint, _ c2: CGPoint, _ e: CGPoint) {
        rasterizer.addCubicExact(current, c1, c2, e)
        current = e
    }

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
