import Foundation

// The scanline rasterizer: exact-area anti-aliasing without supersampling.
//
// Every edge of a (flattened, closed) outline deposits, row by row, the signed area its
// segment sweeps into a dense accumulation buffer. Within one pixel row, an edge from x0 to x1
// covering height d (signed by direction) gives pixel column i the coverage
//     C(i) = d · F(i + 1),   F(t) = (R(t − x0) − R(t − x1)) / (x1 − x0)
//     R(v) = 0 (v ≤ 0),  v²/2 (0 ≤ v ≤ 1),  v − ½ (v ≥ 1)
// i.e. the average over the segment's height of how much of the pixel lies to the segment's
// right. The buffer stores the *differences* C(i) − C(i−1), so an edge touches only the cells it
// crosses (plus one), and a running sum along the row restores the winding-weighted coverage of
// every pixel — constant between edges. The fill rule is applied only there (clamp |s| for
// non-zero, fold s mod 2 for even-odd), so even-odd costs nothing extra.
//
// This is the accumulation idea of font-rs (R. Levien) and the cover/area cells of FreeType and
// AGG, written here from the geometry above. Rejected alternatives: supersampling (4–16× the
// work and still inexact) and sparse cell lists sorted per row (AGG: the sort dominates for
// polygons with many edges per row).
//
// Work proceeds in horizontal bands of at most `bandBudget` cells so the buffer stays in L2.
// A bit per cell marks what an edge touched — a set bit stands for its cell and the next, since
// every deposit ends one cell right of the last column it crosses, so a row segment within one
// column sets one bit. Resolving a row visits only touched cells, a run of them at a time (the
// lowest run of a word is found by adding its lowest bit), clearing them as it goes, so the
// buffer is clean for the next band with no memset; it emits the gaps between runs as
// constant-coverage spans, which the blitter turns into plain stores when the
// span is fully covered and the paint opaque. Rows scan only the bit words between the outline's
// leftmost and rightmost edge, not the clip's width: a 16-px polygon on a 512-px canvas read 9
// words a row, 1 or 2 now (33 on a 2048-px canvas). Measured and rejected: a first and last
// word kept per row, widened as each edge marks its cells (with a resolve loop taking runs of
// touched cells at a time): the bookkeeping at every edge crossing cost about what the skipped
// words saved (callgrind: hairlines −2 %, polys_nz_10 +1.6 % of the whole render).
//
// The per-segment and per-cell work is kept lean without changing a value: every Float that
// reaches the buffer or the alpha rule comes from the same operations in the same order (so the
// goldens stay bit-identical), but around them (CrispSVG flattens at 0.05 px, so most segments
// are short): an outline that fits one band (the usual case) takes its edges without clipping
// them to the band; rows are walked by pointer with wrapping index arithmetic; clamps and
// maxima are written as `m > 0 ? m : 0` and `a > b ? a : b`, which equal Swift's `max` for
// every non-NaN value (±0 included) and compile to one `maxss` instead of a compare-and-blend;
// `addLine` converts the clip's sides once per outline and orders a segment by a branch instead
// of a swap (which compiled to a vector blend); a run of touched cells is summed in a tight
// loop, and a run of four or more cells goes through a Float scratch and becomes alpha four at
// a time for the non-zero rule (`NonZeroRule.alphas`: exact truncation without `cvttss2si` and
// its range checks). Callgrind, a whole `crisp render --bench 2`: strokes_miter 184.2 M →
// 173.9 M, curves 179.1 M → 169.6 M, polys_nz_40 517.3 M → 479.5 M; a 16-px FillPolyNZi40
// polygon 62.0 k → 48.8 k instructions. Untouched bit words are skipped in a loop of their own (big_fill, whose rows
// are 24 words with two or three touched, 675.5 M → 667.4 M; dense rows pay a little for it,
// polys_nz_40 467.6 M → 469.0 M). Measured and rejected: `alphas` inlined into the resolver
// (the compiler split the lanes apart, with scalar moves between them: strokes_miter 178.2 M →
// 179.0 M, against 173.0 M out of line); one or two sums turned into alpha in place instead of
// calling `alphas` (big_fill −0.02 %, but polys_nz_40 +0.2 %, strokes +0.1 %); every run,
// however short, through the scratch and `alphas` — fewer instructions (strokes_miter 171.2 M
// against 173.9 M, polys_nz_10 183.5 M against 188.3 M) but slower: FillPolyNZi10 16 px 581–611
// shapes/ms against 617–637 for main and 633–643 now, alternating in one hold (a second pass
// and its mispredicted loop exit per stretch, on stretches of a few cells). Kept, though they cost instructions: the range checks of `Int(x)` (about
// six instructions, 1.5 conversions a row) — exact replacements (the 2²³ trick plus a
// correction) take as many. Not tried: depositing edges straight from `addLine` when the band is
// known in advance (it would save the edge's store and reload, about 15 of the ~100
// instructions an edge costs before its rows, and needs a bounds hint with a fallback).

/// Receives the rasterizer's coverage, row by row, left to right, for pixels inside the clip box.
protocol SpanBlitter {
    /// Pixels `x..<x+count` of row `y` with per-pixel coverage (0…255).
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>)
    /// Pixels `x..<x+count` of row `y`, all with the same coverage (1…255).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8)
}

/// A rectangle of whole device pixels, `x..<maxX`, `y..<maxY`, rows counted from the top.
struct PixelRect: Equatable {
    var x: Int, y: Int, maxX: Int, maxY: Int
    var width: Int { maxX - x }
    var height: Int { maxY - y }
    var isEmpty: Bool { maxX <= x || maxY <= y }

    static let empty = PixelRect(x: 0, y: 0, maxX: 0, maxY: 0)

    func intersection(_ o: PixelRect) -> PixelRect {
        let r = PixelRect(x: max(x, o.x), y: max(y, o.y), maxX: min(maxX, o.maxX), maxY: min(maxY, o.maxY))
        return r.isEmpty ? .empty : r
    }

    /// The smallest pixel rectangle containing `r` (raster coordinates), clamped to `limit`.
    init(enclosing r: CGRect, limit: PixelRect) {
        guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else {
            self = .empty; return
        }
        let x0 = max(CGFloat(limit.x), r.minX.rounded(.down)), y0 = max(CGFloat(limit.y), r.minY.rounded(.down))
        let x1 = min(CGFloat(limit.maxX), r.maxX.rounded(.up)), y1 = min(CGFloat(limit.maxY), r.maxY.rounded(.up))
        if x1 <= x0 || y1 <= y0 { self = .empty; return }
        self.init(x: Int(x0), y: Int(y0), maxX: Int(x1), maxY: Int(y1))
    }

    init(x: Int, y: Int, maxX: Int, maxY: Int) {
        self.x = x; self.y = y; self.maxX = maxX; self.maxY = maxY
    }
}

/// How accumulated winding-weighted coverage becomes alpha.
enum CoverageRule {
    case nonZero, evenOdd, nonZeroAliased, evenOddAliased

    init(_ rule: CGPathFillRule, antialias: Bool) {
        switch (rule, antialias) {
        case (.winding, true): self = .nonZero
        case (.evenOdd, true): self = .evenOdd
        case (.winding, false): self = .nonZeroAliased
        case (.evenOdd, false): self = .evenOddAliased
        }
    }
}

/// A line segment in raster space with `yTop < yBottom`, relative to the clip box origin.
struct Edge {
    var xTop: Float
    var yTop: Float
    var yBottom: Float
    var dxdy: Float
    /// +1 for an edge that goes down in raster space, −1 for one that goes up.
    var direction: Float
}

/// Turns outlines into coverage spans. One per context; buffers are reused between paths.
final class Rasterizer {
    /// Cells (floats) per band: 64 Ki cells = 256 KiB of accumulation buffer.
    static let bandBudget = 1 << 16

    private(set) var clip = PixelRect.empty
    /// The clip's sides as `CGFloat`s, converted once per outline rather than per segment.
    private var clipLeft: CGFloat = 0, clipTop: CGFloat = 0, clipRight: CGFloat = 0, clipBottom: CGFloat = 0
    private var clipIsEmpty = true
    // Hot state mutated once per segment: never accessed re-entrantly, so the dynamic
    // exclusivity checks (a runtime call per access) are switched off.
    // The outline's edges, in a buffer of our own: `Array.append` checks uniqueness and
    // capacity through calls on every segment, which cost more than the rest of `addLine`.
    @exclusivity(unchecked) private var edges: UnsafeMutablePointer<Edge>
    @exclusivity(unchecked) private var edgeCount = 0
    private var edgeCapacity = 256
    /// Where `sortEdgesByTop` deals the edges out, and its per-row counts.
    private var sortedEdges: UnsafeMutablePointer<Edge>
    private var sortedCapacity = 256
    private var rowStarts: [Int] = []
    @exclusivity(unchecked) private var minY: Float = .infinity
    @exclusivity(unchecked) private var maxY: Float = -.infinity
    @exclusivity(unchecked) private var minX: Float = .infinity
    @exclusivity(unchecked) private var maxX: Float = -.infinity
    /// Segments offered (`addLine` calls, before clipping) since the rasterizer was made: a work
    /// count, so tests bound work by counts rather than by time.
    @exclusivity(unchecked) private(set) var segmentsOffered = 0

    private var accumulation: UnsafeMutablePointer<Float>
    private var accumulationCapacity = 0
    private var touched: UnsafeMutablePointer<UInt64>
    private var touchedCapacity = 0
    /// Per-row coverage scratch for the resolver and for clipped blitters.
    private(set) var coverage: UnsafeMutablePointer<UInt8>
    private var coverageCapacity = 0
    /// The resolver's running sums of a run of touched cells.
    private var sums: UnsafeMutablePointer<Float>
    private var sumsCapacity = 0

    init() {
        edges = .allocate(capacity: edgeCapacity)
        sortedEdges = .allocate(capacity: sortedCapacity)
        accumulation = .allocate(capacity: 1)
        touched = .allocate(capacity: 1)
        coverage = .allocate(capacity: 1)
        sums = .allocate(capacity: 1)
    }

    deinit {
        edges.deallocate()
        sortedEdges.deallocate()
        accumulation.deallocate()
        touched.deallocate()
        coverage.deallocate()
        sums.deallocate()
    }

    /// Starts a new outline clipped to `clip` (raster pixels).
    func reset(clip: PixelRect) {
        self.clip = clip
        clipLeft = CGFloat(clip.x)
        clipTop = CGFloat(clip.y)
        clipRight = CGFloat(clip.maxX)
        clipBottom = CGFloat(clip.maxY)
        clipIsEmpty = clip.isEmpty
        edgeCount = 0
        minY = .infinity
        maxY = -.infinity
        minX = .infinity
        maxX = -.infinity
    }

    var isEmpty: Bool { edgeCount == 0 }

    /// A scratch row of at least `count` coverage bytes (valid until the next call).
    func scratchCoverage(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > coverageCapacity {
            coverage.deallocate()
            coverageCapacity = max(count, coverageCapacity * 2)
            coverage = .allocate(capacity: coverageCapacity)
        }
        return coverage
    }

    // MARK: Building edges

    /// Adds a segment in raster coordinates (absolute pixels, y down). Clips against the clip
    /// box in double precision: parts above or below vanish, parts right of it vanish, parts left
    /// of it are projected onto its left side (they still change the winding of what is visible).
    func addLine(_ a: CGPoint, _ b: CGPoint) {
        segmentsOffered &+= 1
        guard a.y != b.y, !clipIsEmpty else { return }
        // The ordered copy of the segment is inlined twice rather than swapped in place: the
        // swap compiled to a vector blend of both points.
        if a.y > b.y { addDownward(b.x, b.y, a.x, a.y, -1) } else { addDownward(a.x, a.y, b.x, b.y, 1) }
    }

    /// `addLine` for a segment with y0 < y1 (or a NaN): the checks of the usual case, a segment
    /// wholly inside the clip box.
    @inline(__always)
    private func addDownward(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Float) {
        let top = clipTop, bottom = clipBottom, left = clipLeft, right = clipRight
        if y1 <= top || y0 >= bottom { return }
        if x0 >= right && x1 >= right { return }
        let dxdy = (x1 - x0) / (y1 - y0)
        // Wholly inside the clip box (the usual case): nothing to clip. The slope test keeps
        // dropping what the general route drops (an overflowing slope).
        if y0 >= top, y1 <= bottom, x0 >= left, x1 >= left, x0 <= right, x1 <= right, dxdy.isFinite {
            appendEdge(x0, y0, x1, y1, direction)
            return
        }
        addClipped(x0, y0, x1, y1, dxdy, direction)
    }

    /// The rest of `addLine`: a segment (y0 < y1) that crosses the clip box's sides, or whose
    /// coordinates or slope are extreme.
    private func addClipped(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ dxdy: CGFloat,
                            _ direction: Float) {
        let top = clipTop, bottom = clipBottom, left = clipLeft, right = clipRight
        var (x0, y0, x1, y1) = (x0, y0, x1, y1)
        let limit = Rasterizer.moderateCoordinate
        guard dxdy.isFinite, abs(x0) < limit, abs(x1) < limit, abs(y0) < limit, abs(y1) < limit else {
            addExtremeLine(x0, y0, x1, y1, direction, moderate: abs(x0) < limit && abs(x1) < limit
                           && abs(y0) < limit && abs(y1) < limit)
            return
        }
        if y0 < top { x0 += (top - y0) * dxdy; y0 = top }
        if y1 > bottom { x1 -= (y1 - bottom) * dxdy; y1 = bottom }
        guard y0 < y1 else { return }

        // Horizontal clipping: split into at most three pieces.
        if x0 <= left && x1 <= left {
            appendEdge(left, y0, left, y1, direction)
            return
        }
        if (x0 < left) != (x1 < left) {
            let yCross = y0 + (left - x0) / dxdy
            if x0 < left {
                appendEdge(left, y0, left, yCross, direction)
                (x0, y0) = (left, yCross)
            } else {
                appendClippedRight(x0, y0, left, yCross, dxdy, right, direction)
                appendEdge(left, yCross, left, y1, direction)
                return
            }
        }
        appendClippedRight(x0, y0, x1, y1, dxdy, right, direction)
    }

    /// Beyond this magnitude a coordinate takes the overflow-safe clipping route.
    static let moderateCoordinate: CGFloat = 1e30

    /// Adds a segment (`y0 < y1`) whose coordinates are beyond ±1e30 or whose slope overflows.
    /// The slope-based clipping of `addLine` could produce ∞ − ∞ there, so this clips by the
    /// segment's parameter t instead, in forms that cannot overflow (halved differences, and
    /// `a·(1 − t) + b·t`), and then adds the moderate pieces the ordinary way.
    /// With moderate coordinates only the slope can overflow, and then the segment is flatter
    /// than 2e30 / 1.8e308: its height (< 1e-278 px) covers nothing, so it is dropped.
    private func addExtremeLine(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat,
                                _ direction: Float, moderate: Bool) {
        guard !moderate else { return }
        /// Where along the segment (0…1) the coordinate going from `p` to `q` reaches `v`.
        func parameter(_ v: CGFloat, _ p: CGFloat, _ q: CGFloat) -> CGFloat {
            min(max((v * 0.5 - p * 0.5) / (q * 0.5 - p * 0.5), 0), 1)
        }
        func mix(_ a: CGFloat, _ b: CGFloat, _ t: CGFloat) -> CGFloat { a * (1 - t) + b * t }
        let top = CGFloat(clip.y), bottom = CGFloat(clip.maxY)
        // Vertically into the clip box: the y range is then moderate.
        let t0 = y0 < top ? parameter(top, y0, y1) : 0
        let t1 = y1 > bottom ? parameter(bottom, y0, y1) : 1
        var (ax, ay) = (mix(x0, x1, t0), y0 < top ? top : y0)
        var (bx, by) = (mix(x0, x1, t1), y1 > bottom ? bottom : y1)
        guard ay < by, ax.isFinite, bx.isFinite else { return }
        // Horizontally into [left − 1, right + 1]: left of it only the winding counts (projected
        // onto the clip's left side, as `addLine` does), right of it nothing shows.
        let left = CGFloat(clip.x), low = left - 1, high = CGFloat(clip.maxX) + 1
        if ax < low && bx < low { appendEdge(left, ay, left, by, direction); return }
        if ax > high && bx > high { return }
        if (ax < low) != (bx < low) {
            let y = mix(ay, by, parameter(low, ax, bx))
            if ax < low { appendEdge(left, ay, left, y, direction); (ax, ay) = (low, y) } else {
                appendEdge(left, y, left, by, direction); (bx, by) = (low, y)
            }
        }
        if (ax > high) != (bx > high) {
            let y = mix(ay, by, parameter(high, ax, bx))
            if ax > high { (ax, ay) = (high, y) } else { (bx, by) = (high, y) }
        }
        guard ay < by else { return }
        let a = CGPoint(x: ax, y: ay), b = CGPoint(x: bx, y: by)
        if direction > 0 { addLine(a, b) } else { addLine(b, a) }
    }

    private func appendClippedRight(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat,
                                    _ dxdy: CGFloat, _ right: CGFloat, _ direction: Float) {
        if x0 <= right && x1 <= right { appendEdge(x0, y0, x1, y1, direction); return }
        if x0 >= right && x1 >= right { return }
        let yCross = y0 + (right - x0) / dxdy
        if x0 < right { appendEdge(x0, y0, right, yCross, direction) } else { appendEdge(right, yCross, x1, y1, direction) }
    }

    private func appendEdge(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Float) {
        let fy0 = Float(y0 - clipTop), fy1 = Float(y1 - clipTop)
        guard fy0 < fy1 else { return }
        let fx0 = Float(x0 - clipLeft), fx1 = Float(x1 - clipLeft)
        let dxdy = (fx1 - fx0) / (fy1 - fy0)
        // A piece whose height is subnormal as a Float (a nearly flat line clipped to the box)
        // has an infinite slope, and 0 × ∞ would put NaN into the sweep; it covers nothing.
        guard dxdy.isFinite else { return }
        if edgeCount == edgeCapacity { growEdges() }
        (edges + edgeCount).initialize(to: Edge(xTop: fx0, yTop: fy0, yBottom: fy1, dxdy: dxdy, direction: direction))
        edgeCount &+= 1
        // `max(a, b)` written as `b > a ? b : a` (one `maxss`): they differ only in which zero
        // they return for ±0, which no use of these bounds tells apart.
        minY = min(minY, fy0)
        maxY = fy1 > maxY ? fy1 : maxY
        minX = min(minX, min(fx0, fx1))
        let right = fx1 > fx0 ? fx1 : fx0
        maxX = right > maxX ? right : maxX
    }

    private func growEdges() {
        let grown = UnsafeMutablePointer<Edge>.allocate(capacity: edgeCapacity * 2)
        grown.moveInitialize(from: edges, count: edgeCount)
        edges.deallocate()
        edges = grown
        edgeCapacity *= 2
    }

    // MARK: Rendering

    /// Resolves the outline into spans for `blitter`, then forgets the outline.
    func render<B: SpanBlitter>(rule: CoverageRule, into blitter: inout B) {
        defer { reset(clip: clip) }
        guard edgeCount > 0, !clip.isEmpty else { return }
        switch rule {
        case .nonZero: render(NonZeroRule.self, &blitter)
        case .evenOdd: render(EvenOddRule.self, &blitter)
        case .nonZeroAliased: render(AliasedRule<NonZeroRule>.self, &blitter)
        case .evenOddAliased: render(AliasedRule<EvenOddRule>.self, &blitter)
        }
    }

    private func render<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ blitter: inout B) {
        let width = clip.width
        let stride = width + 2
        let wordsPerRow = (stride + 63) >> 6
        let firstRow = max(0, Int(minY))
        let lastRow = min(clip.height, Int(maxY.rounded(.up)))   // exclusive
        guard firstRow < lastRow else { return }
        // The bit words any edge can mark: `accumulateRow` touches cells from the column of its
        // leftmost x to one past that of its rightmost, x clamped to 0…width. One more column on
        // each side absorbs the rounding of x recomputed along the edge.
        let leftCell = Int(min(max(minX, 0), Float(width))) - 1
        let rightCell = Int(min(max(maxX, 0), Float(width))) + 2
        let words = (max(leftCell, 0) >> 6)...(min(rightCell, width + 1) >> 6)
        let bandRows = max(1, min(lastRow - firstRow, Rasterizer.bandBudget / stride))
        ensureCapacity(cells: bandRows * stride, words: bandRows * wordsPerRow, width: stride)
        let geometry = BandGeometry(width: width, stride: stride, wordsPerRow: wordsPerRow)

        if bandRows >= lastRow - firstRow {
            // One band (the usual case): every edge lies wholly inside it.
            accumulateAll(bandTop: firstRow, geometry)
            resolveRows(R.self, firstRow..<lastRow, bandTop: firstRow, words: words, geometry, &blitter)
            return
        }
        sortEdgesByTop(rows: lastRow)
        var next = 0                  // next edge (by yTop) not yet active
        var active: [Int] = []
        var bandTop = firstRow
        while bandTop < lastRow {
            let bandBottom = min(bandTop + bandRows, lastRow)
            let bandBottomF = Float(bandBottom)
            active.removeAll { edges[$0].yBottom <= Float(bandTop) }
            while next < edgeCount, edges[next].yTop < bandBottomF {
                active.append(next); next += 1
            }
            accumulate(active, bandTop: bandTop, bandBottom: bandBottom, geometry)
            resolveRows(R.self, bandTop..<bandBottom, bandTop: bandTop, words: words, geometry, &blitter)
            bandTop = bandBottom
        }
    }

    /// The layout of a band's accumulation buffer and touched bits.
    private struct BandGeometry {
        /// Pixels per row (the clip's width).
        var width: Int
        /// Cells per buffer row: the pixels and two more (x = width lands in cell `width`, and
        /// its right neighbour takes the rest of the area).
        var stride: Int
        /// Touched-bit words per buffer row.
        var wordsPerRow: Int
    }

    /// Orders the edges by `yTop`, equal ones kept in the order they came: exactly what a
    /// stable comparison sort gives (and the sweep adds coverage in this order, so it must stay
    /// the same), in linear time. The edges are dealt out per pixel row of `yTop` (all below
    /// `rows`), then each row's few edges are put in order by insertion — or by the stable sort
    /// when a row holds many, so that no outline makes this quadratic. With fewer than one edge
    /// per eight rows the stable sort does it all.
    private func sortEdgesByTop(rows: Int) {
        // Few edges over many rows (a thin tall outline): comparing them is cheaper than
        // counting every row.
        guard edgeCount * 8 >= rows else {
            var all = UnsafeMutableBufferPointer(start: edges, count: edgeCount)
            all.sort { $0.yTop < $1.yTop }
            return
        }
        if sortedCapacity < edgeCount {
            sortedEdges.deallocate()
            sortedCapacity = max(edgeCount, sortedCapacity * 2)
            sortedEdges = .allocate(capacity: sortedCapacity)
        }
        let source = edges, count = edgeCount, target = sortedEdges
        rowStarts.removeAll(keepingCapacity: true)
        rowStarts.append(contentsOf: repeatElement(0, count: rows + 1))
        rowStarts.withUnsafeMutableBufferPointer { starts in
            for i in 0..<count { starts[Int(source[i].yTop) + 1] += 1 }
            for r in 0..<rows { starts[r + 1] += starts[r] }
            for i in 0..<count {
                let r = Int(source[i].yTop)
                (target + starts[r]).initialize(to: source[i])
                starts[r] += 1
            }
            // starts[r] is now the end of row r's edges.
            var start = 0
            for r in 0..<rows {
                let end = starts[r]
                if end - start > 32 {
                    var row = UnsafeMutableBufferPointer(start: target + start, count: end - start)
                    row.sort { $0.yTop < $1.yTop }
                } else if end - start > 1 {
                    for i in (start + 1)..<end {
                        let e = target[i]
                        var j = i
                        while j > start, target[j - 1].yTop > e.yTop { target[j] = target[j - 1]; j -= 1 }
                        target[j] = e
                    }
                }
                start = end
            }
        }
        swap(&edges, &sortedEdges)
        swap(&edgeCapacity, &sortedCapacity)
    }

    private func ensureCapacity(cells: Int, words: Int, width: Int) {
        if cells > accumulationCapacity {
            accumulation.deallocate()
            accumulationCapacity = cells
            accumulation = .allocate(capacity: cells)
            accumulation.initialize(repeating: 0, count: cells)
        }
        if words > touchedCapacity {
            touched.deallocate()
            touchedCapacity = words
            touched = .allocate(capacity: words)
            touched.initialize(repeating: 0, count: words)
        }
        // Three more of each, for `AlphaRule.alphas`.
        if width + 3 > sumsCapacity {
            sums.deallocate()
            sumsCapacity = width + 3
            sums = .allocate(capacity: sumsCapacity)
            sums.initialize(repeating: 0, count: sumsCapacity)
        }
        _ = scratchCoverage(count: width + 3)
    }

    /// Deposits every edge into the one band that starts at row `bandTop` and holds them all.
    /// There an edge's rows need no clipping to the band: `max(yTop, band top)` is `yTop` and
    /// `min(yBottom, band bottom)` is `yBottom`, and x at `yTop` is `xTop` (plus 0 × slope, which
    /// the clamp to 0…width makes the same value even for −0).
    private func accumulateAll(bandTop: Int, _ g: BandGeometry) {
        let w = Float(g.width)
        let edges = self.edges, acc = accumulation, bits = touched
        for i in 0..<edgeCount {
            let e = edges[i]
            Rasterizer.accumulate(e, yStart: e.yTop, yEnd: e.yBottom, x: Rasterizer.clampX(e.xTop, w),
                                  bandTop: bandTop, w: w, g, acc: acc, bits: bits)
        }
    }

    /// Deposits the `active` edges' rows between `bandTop` and `bandBottom`.
    private func accumulate(_ active: [Int], bandTop: Int, bandBottom: Int, _ g: BandGeometry) {
        let w = Float(g.width)
        let edges = self.edges, acc = accumulation, bits = touched
        for i in active {
            let e = edges[i]
            let yStart = max(e.yTop, Float(bandTop))
            let yEnd = min(e.yBottom, Float(bandBottom))
            guard yStart < yEnd else { continue }
            Rasterizer.accumulate(e, yStart: yStart, yEnd: yEnd,
                                  x: Rasterizer.clampX(e.xTop + (yStart - e.yTop) * e.dxdy, w),
                                  bandTop: bandTop, w: w, g, acc: acc, bits: bits)
        }
    }

    /// x clamped to 0…w, as `min(max(x, 0), w)` — x is never NaN (finite start, finite slope),
    /// and for every other x `m > 0 ? m : 0` is `max(m, 0)` (−0 included), in one `maxss`.
    @inline(__always)
    private static func clampX(_ x: Float, _ w: Float) -> Float {
        let m = min(x, w)   // w ≥ 1, so clamping above first gives the same value
        return m > 0 ? m : 0
    }

    /// Deposits one edge's area differences for its rows from `yStart` (where x is `xStart`)
    /// to `yEnd`, all inside the band that starts at row `bandTop`.
    @inline(__always)
    private static func accumulate(_ e: Edge, yStart: Float, yEnd: Float, x xStart: Float, bandTop: Int, w: Float,
                                   _ g: BandGeometry, acc: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>) {
        var row = Int(yStart)
        var rowAcc = acc + (row &- bandTop) &* g.stride
        var rowBits = bits + (row &- bandTop) &* g.wordsPerRow
        var y = yStart
        var x = xStart
        while true {
            let yNext = min(Float(row &+ 1), yEnd)
            let xNext = clampX(e.xTop + (yNext - e.yTop) * e.dxdy, w)
            accumulateRow(rowAcc, rowBits, x, xNext, (yNext - y) * e.direction)
            if !(yNext < yEnd) { return }
            y = yNext
            x = xNext
            row &+= 1
            rowAcc += g.stride
            rowBits += g.wordsPerRow
        }
    }

    /// Adds the coverage differences of a segment from `xa` to `xb` (0…width) with signed height
    /// `d` inside one row, and marks the touched cells.
    @inline(__always)
    private static func accumulateRow(_ acc: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>,
                                      _ xa: Float, _ xb: Float, _ d: Float) {
        // `max(xa, xb)` is `xb >= xa ? xb : xa`; this is the same for numbers, in one `maxss`.
        let x0 = min(xa, xb), x1 = xa > xb ? xa : xb
        let i0 = Int(x0)
        let f0 = Float(i0)
        if x1 <= f0 + 1 {
            // Within one column: the area right of the segment is 1 − (mean x − i0).
            let xm = (x0 + x1) * 0.5 - f0
            acc[i0] += d * (1 - xm)
            acc[i0 &+ 1] += d * xm
            bits[i0 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: i0)
            return
        }
        let i1 = Int(x1)
        let s = 1 / (x1 - x0)
        // Closed forms of C(i) − C(i−1) = d·(F(i+1) − F(i)): the first column holds the
        // triangle s·v0²/2 left of x0's column boundary, the column after the last holds the
        // mirrored triangle s·w1²/2, columns i0+2 ..< i1 are crossed whole and get s, and the
        // two columns in between take what makes the total exactly d.
        let v0 = f0 + 1 - x0
        let w1 = x1 - Float(i1)
        let first = s * 0.5 * v0 * v0
        let last = s * 0.5 * w1 * w1
        acc[i0] += d * first
        if i1 == i0 &+ 1 {
            acc[i1] += d * (1 - first - last)
        } else {
            let second = s * (v0 + 0.5)
            acc[i0 &+ 1] += d * (second - first)
            let ds = d * s
            var i = i0 &+ 2
            while i < i1 { acc[i] += ds; i &+= 1 }
            acc[i1] += d * (1 - last - s * (Float(i1) - x0 - 0.5))
        }
        acc[i1 &+ 1] += d * last
        markCells(bits, i0, i1)
    }

    /// Sets the bits of cells `from...through` of a row. A set bit stands for its cell and the
    /// next one (every deposit ends one cell right of the last column it crosses), so a row
    /// segment within one column sets a single bit.
    @inline(__always)
    private static func markCells(_ bits: UnsafeMutablePointer<UInt64>, _ from: Int, _ through: Int) {
        let w0 = from &>> 6, w1 = through &>> 6
        let lowMask = ~UInt64(0) &<< UInt64(truncatingIfNeeded: from)
        let highMask = ~UInt64(0) &>> UInt64(truncatingIfNeeded: 63 &- (through & 63))
        if w0 == w1 {
            bits[w0] |= lowMask & highMask
        } else {
            bits[w0] |= lowMask
            var w = w0 &+ 1
            while w < w1 { bits[w] = ~0; w &+= 1 }
            bits[w1] |= highMask
        }
    }

    /// Resolves band rows `rows` (the band starts at row `bandTop`).
    @inline(__always)
    private func resolveRows<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
                                                          words: ClosedRange<Int>, _ g: BandGeometry, _ blitter: inout B) {
        let acc = accumulation, bits = touched
        for row in rows {
            resolveRow(R.self, acc: acc + (row &- bandTop) &* g.stride,
                       bits: bits + (row &- bandTop) &* g.wordsPerRow,
                       words: words, width: g.width, y: clip.y &+ row, blitter: &blitter)
        }
    }

    /// Turns one row's accumulated differences into spans, clearing what it reads.
    ///
    /// The touched cells are those whose bit or whose left neighbour's bit is set; they come
    /// in runs, each summed in a tight loop: a run of four or more into `sums`, which then become
    /// alpha four at a time, a shorter one straight into alpha.
    @inline(__always)
    private func resolveRow<R: AlphaRule, B: SpanBlitter>(_: R.Type, acc: UnsafeMutablePointer<Float>,
                                                         bits: UnsafeMutablePointer<UInt64>, words: ClosedRange<Int>,
                                                         width: Int, y: Int, blitter: inout B) {
        let originX = clip.x
        let mask = coverage, sums = self.sums
        var sum: Float = 0
        var x = 0             // first pixel not yet emitted
        var runStart = -1     // start of the pending per-pixel run, or −1
        var carry: UInt64 = 0 // the last cell's bit of the previous word
        var w = words.lowerBound
        let lastWord = words.upperBound
        while true {
            // Untouched words in a tight loop (a wide outline's rows are mostly untouched).
            if carry == 0 {
                while w <= lastWord, bits[w] == 0 { w &+= 1 }
            }
            if w > lastWord { break }
            let marked = bits[w]
            var word = marked | (marked &<< 1) | carry
            carry = marked &>> 63
            bits[w] = 0
            let base = w &<< 6
            w &+= 1
            repeat {
                // The lowest run of set bits: cells c0..<c1.
                let low = word & (0 &- word)
                let above = word &+ low
                let c0 = base &+ low.trailingZeroBitCount
                let c1 = base &+ (above & ~word).trailingZeroBitCount
                word &= above
                let end = min(c1, width)
                if c0 < end {
                    if c0 > x {
                        // A gap of untouched cells: flush the run, then a constant span.
                        if runStart >= 0 {
                            blitter.blitMask(x: originX &+ runStart, y: y, count: x &- runStart, coverage: mask)
                            runStart = -1
                        }
                        let a = R.alpha(sum)
                        if a != 0 { blitter.blitSpan(x: originX &+ x, y: y, count: c0 &- x, coverage: a) }
                    }
                    if runStart < 0 { runStart = c0 }
                    var c = c0
                    if end &- c0 >= 4 {
                        // A long run: its sums first, then alpha four at a time.
                        let out = sums - c0
                        repeat {
                            sum += acc[c]
                            acc[c] = 0
                            out[c] = sum
                            c &+= 1
                        } while c < end
                        R.alphas(sums, count: end &- c0, into: mask + (c0 &- runStart))
                    } else {
                        let out = mask - runStart
                        repeat {
                            sum += acc[c]
                            acc[c] = 0
                            out[c] = R.alpha(sum)
                            c &+= 1
                        } while c < end
                    }
                    x = end
                }
                // Cells `width` and `width + 1` (right of the clip) are only cleared.
                var c = max(c0, end)
                while c < c1 { acc[c] = 0; c &+= 1 }
            } while word != 0
        }
        if runStart >= 0 {
            blitter.blitMask(x: originX &+ runStart, y: y, count: x &- runStart, coverage: mask)
        }
        if x < width {
            let a = R.alpha(sum)
            if a != 0 { blitter.blitSpan(x: originX &+ x, y: y, count: width &- x, coverage: a) }
        }
    }
}

/// Maps accumulated coverage to 8-bit alpha.
protocol AlphaRule {
    static func alpha(_ sum: Float) -> UInt8
    /// `alpha` of `count` (≥ 1) sums, into `out`. Both buffers extend three elements beyond
    /// `count`, which may be read and written.
    static func alphas(_ sums: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>)
}

extension AlphaRule {
    @inline(__always)
    static func alphas(_ sums: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        var i = 0
        while i < count { out[i] = alpha(sums[i]); i &+= 1 }
    }
}

/// Non-zero winding: |sum| clamped to 1.
enum NonZeroRule: AlphaRule {
    @inline(__always)
    static func alpha(_ sum: Float) -> UInt8 {
        UInt8(truncatingIfNeeded: Int(min(abs(sum), 1) * 255 + 0.5))
    }

    /// `alpha`, four sums at a time, with the same operations in each lane. The conversion to an
    /// integer is exact without `cvttss2si` and its range checks: t = min(|sum|, 1)·255 + 0.5 lies
    /// in 0.5…255.5, so t + 2²³ rounds to 2²³ + round(t) (ties to even), whose bits less those
    /// of 2²³ are round(t); one less where round(t) > t gives the truncation `Int(t)`.
    /// Inlined: the resolver calls it for runs of four or more touched cells.
    @inline(__always)
    static func alphas(_ sums: UnsafePointer<Float>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        var i = 0
        repeat {
            let sum = UnsafeRawPointer(sums + i).loadUnaligned(as: SIMD4<Float>.self)
            let a = unsafeBitCast(unsafeBitCast(sum, to: SIMD4<UInt32>.self) & 0x7fff_ffff, to: SIMD4<Float>.self)
            let t = a.replacing(with: 1, where: a .> 1) * 255 + 0.5
            let shifted = t + 8_388_608
            let rounded = shifted - 8_388_608
            // (Written in exactly this form the compiler keeps all four lanes in one register.)
            var alpha = unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- 0x4B00_0000
            alpha = alpha.replacing(with: alpha &- 1, where: rounded .> t)
            UnsafeMutableRawPointer(out + i).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: alpha),
                                                        as: SIMD4<UInt8>.self)
            i &+= 4
        } while i < count
    }
}

/// Even-odd: |sum| folded into 0…1 with period 2.
enum EvenOddRule: AlphaRule {
    @inline(__always)
    static func alpha(_ sum: Float) -> UInt8 {
        let t = abs(sum)
        let f = t - 2 * (t * 0.5).rounded(.down)
        let a = f > 1 ? 2 - f : f
        return UInt8(truncatingIfNeeded: Int(a * 255 + 0.5))
    }
}

/// Anti-aliasing off: a pixel is painted when at least half of it is covered.
enum AliasedRule<Base: AlphaRule>: AlphaRule {
    @inline(__always)
    static func alpha(_ sum: Float) -> UInt8 { Base.alpha(sum) >= 128 ? 255 : 0 }
}
