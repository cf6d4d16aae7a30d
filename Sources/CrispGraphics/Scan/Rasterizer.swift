import CCrispKernels
import Foundation

// The scanline rasterizer: exact-area anti-aliasing without supersampling, in integers.
//
// Every edge of a (flattened, closed) outline deposits, row by row, the signed area its
// segment sweeps into a dense accumulation buffer. Within one pixel row, a piece of an edge
// inside column c, entering at x offset fa and leaving at fb (0…256, in 1/256 px) with height h
// (1/256 px, signed by direction), adds
//     h·(512 − fa − fb) to cell c   and   h·(fa + fb) to cell c + 1,
// twice the area right of it and left of it within the pixel row: 512·h in all. The buffer
// thus holds *differences* of coverage between neighbouring pixels, an edge touches only the
// cells it crosses (plus one), and a running sum along the row restores the winding-weighted
// coverage of every pixel (2¹⁷ = one pixel fully covered), constant between edges. The fill rule
// is applied only there (clamp |s| for non-zero, fold s mod 2¹⁸ for even-odd).
//
// This is the accumulation idea of font-rs (R. Levien) and the cover/area cells of FreeType and
// AGG, written here from the geometry above. Rejected alternatives: supersampling (4–16× the
// work and still inexact) and sparse cell lists sorted per row (AGG: the sort dominates for
// polygons with many edges per row).
//
// Fixed point. Segments are rounded once to 24.8 fixed point (1/256 px; ±2²¹ px, clipped to
// that box in double precision when they reach beyond it), relative to the device origin, not
// the clip. From there everything is integer, so every value is reproducible wherever it is
// computed from:
// - x at a row boundary Y is x0 + (Y − y0)·dx/dy rounded to nearest (within 1/2048 px), through
//   a slope with 32 fractional bits: t = (Y − y0)·s + 2³¹ steps by 256·s per row, exactly,
//   and is computed directly where a range starts inside the edge (one division an edge, none
//   for an edge within one row);
// - a piece crossing several columns has its height in a column proportional to its width
//   there, in closed form from one quotient q = d/(xr − xl) kept with 24 more bits: the first
//   and last columns get their triangles, the columns between the same 2·256·256·q, and the
//   last cell what makes the piece's total exactly 512·h;
// - the clip is applied in the sweep, not to the segments: rows above or below it are not
//   visited (x at its top is computed directly), columns left of it add their running total to
//   its first cell, columns right of it are skipped. Every visible pixel therefore gets the same
//   sum under any clip box and in any band (`RasterizerClipTests` checks it bit for bit), which
//   the Float sweep, relative to the clip's origin, could not promise (the theme fade's frames
//   differed from full repaints by up to 2 levels; now 1, from something outside this file).
// Integer addition is associative, so the order of deposits no longer matters: the multi-band
// path deals edges out by row without ordering within a row, and the resolve sums four cells at
// once. 1/256 px is enough: against the 16×16 supersampling reference the worst pixel is 13/255
// (16 allowed), and the exact-area curve tests measure what the Float sweep measured, within
// ±0.2 levels of mean error per shape (`CurveCoverageTests`). Finer y precision was not needed.
//
// The resolve: the touched cells of a row come in runs (a bit per cell marks what an edge
// touched; a set bit stands for its cell and the next, since every deposit ends one cell right
// of the last column it crosses). A run of four or more cells is read four at a time as
// SIMD4<Int32>: prefix sum in two shifted adds plus the carry, the rule's clamp or fold and the
// conversion to 0…255 as lane-wise integer operations (compare-and-select, shift, subtract;
// no float, no 32-bit multiply, which SSE2 lacks), packed to four coverage bytes; the cells are
// cleared as they are read. Shorter runs go a cell at a time through the same formulas
// (`AlphaRuleTests` checks the two agree for every sum within ±5 pixels of coverage and at the
// extremes). Gaps between runs are emitted as constant-coverage spans, which the blitter turns
// into plain stores when the span is fully covered and the paint opaque. Rows scan only the bit
// words between the outline's leftmost and rightmost edge, not the clip's width.
//
// Work proceeds in horizontal bands of at most `bandBudget` cells so the buffer stays in L2.
//
// The Float design it replaces (branches `sweep`, `svgspeed`): edges in Float relative to the
// clip's origin, per-row x by a multiply with the slope, the closed-form cell values in Float,
// and a resolve that had to add cells one at a time in order, since the goldens fixed every
// rounding (a four-lane conversion to alpha was all the SIMD it could use): about 60
// instructions a row segment of dependent float arithmetic. Against it (release builds, main
// 9092ac6; docs/performance.md, "After branch `fixedpoint`"): FillPolyNZi40 at 16 px 164.5 →
// 207.2 shapes/ms, FillPolyNZi10 670.0 → 713.6; callgrind over whole `crisp render --bench 2`
// runs: polys_eo_40 −10.3 %, ui_emboss −1.6 %, the other polygon, curve and fill scenes within
// ±0.5 %, strokes +0.5 … +1.4 % and hairlines +2.4 % (many short segments, each paying a
// division when it crosses a row boundary). Measured and rejected on the way: exact-remainder
// DDAs for row boundaries and for column heights (a division at the first boundary and one
// for the step, a data-dependent branch per row, about 12 instructions per column crossed
// against 4 for the closed form): polys_nz_40 +6.4 % and hairlines +7.4 % against the Float
// sweep with both, +1.7 % and +3.4 % with the closed form for columns only.
//
// A thin stroke's row is one short run with nothing covered on either side, so the resolve
// skips the alpha of a zero running sum before and after its runs (every rule maps 0 to 0):
// callgrind over whole `crisp render --bench 2` runs against main 9e99820 (branch `hair`):
// hairlines 183.35 → 180.50 M (−1.6 %; a render 43.11 → 42.15 M), transforms_clip −0.6 %,
// strokes_miter, polys_nz_10 and curves −0.4 … −0.5 %; wall time within the machine's noise
// (docs/performance.md, "After branch `hair`"). Measured and rejected there:
// caching an edge's last two column quotients (its whole rows have one height and one of two
// widths) to save the 64-bit division of a row piece across columns: +2.5 % instructions on
// hairlines and 7 % slower (this AMD EPYC divides fast enough); and `accumulateColumns` out of
// line to relieve the sweep's registers: +0.8 %.
//
// Fewer calls and fewer spills (branch `raster2`); the pixels are the same (every bench
// scene's PNG byte for byte, no golden changed):
// - Short gaps join runs. A polygon's row is runs of touched cells around its edges with gaps
//   between them, and each gap used to end the pending coverage row with a `blitMask` and
//   start a constant `blitSpan`: two blitter calls (~100–200 instructions each before the
//   kernel) for every edge crossing. A gap of at most `mergedGap` (32) untouched cells between
//   two runs is now written into the coverage row as its one alpha (0 included: every kernel
//   skips zero coverage), sixteen bytes a store, so a polygon row is usually one `blitMask`.
//   The kernels give a pixel the same value from a span or from a row (`KernelDispatchTests`).
//   Limits of 8, 16, 32 and 64 were measured; 32 and 64 were alike, 16 gave back 7–20 % of
//   the gain; a `memset` call per gap cost 4 % of polys_nz_40 over the stores. A clip mask's
//   writer takes no joined gaps (`joinedGap` 0): it records a row's open run from the
//   spans written at full coverage; a gradient's blitter takes every gap (CompositeBlitter).
// - A row is resolved first, the blitter called after (`scanRow`, then the row's pieces):
//   the scan no longer keeps its state across blitter calls, which spilled it to the stack
//   and reloaded it after each call, and it is compiled once per fill rule, not per rule and
//   blitter.
// - A row whose touched cells are one run (a hairline's row; the top and bottom rows of a
//   shape) is found with two bit tricks and resolved by a short loop, without the general
//   loop's state.
// - The prefix sum shifts its lanes as one 128-bit integer (a `pslldq` each).
// - In the sweep, an edge's rows after its first are counted down at one height, with x·2³²
//   in one register (x0 folded in), and an edge moving less than a pixel a row has its own
//   loop whose pieces, within two columns, are deposited inline (anything else out of line):
//   fewer values live across the row loop, fewer of them spilled (polys_nz_40 −4 %, hairlines
//   −2.6 %; without the second loop −1.9 % and −1.6 %; the second loop as a test inside one
//   loop: +2 %).
// Per render (callgrind, `--bench 4` minus `--bench 2`, halved), main → this: polys_nz_40
// 108.1 → 73.4 M instructions (−32 %), polys_eo_40 −29 %, polys_nz_10 −22 %, strokes_nodash
// −16 %, hairlines −11 %, curves −5.5 %; wall time polys_nz_40 9.07 → 7.34 ms, hairlines 3.07 →
// 2.85 ms; whole runs of ui_emboss and big_fill +0.3 … +0.5 % (docs/performance.md, "After branch `raster2`").
// Measured and rejected: four cells a step in the one-run loop (lanes past the run are zero,
// so no lane masks) and four cells a step for runs of two or three: no fewer instructions,
// or 3 % more; letting the general loop skip the words the one-run test found untouched;
// the middle columns of a piece added out of line (+1.6 %); the whole rows' loop alone
// (without the narrow loop, see above); a row piece's quotient by a double-precision
// division corrected by the remainder's sign instead of a 64-bit `idiv`: the same pixels,
// +0.4 % instructions and no change in wall time.
//
// The edge loop (branch `curves3`; the same pixels): a band's edges are deposited by one loop
// with each edge inlined (a call an edge cost about 25 instructions, and a flattened curve is
// many short edges), an edge's first and last rows go first, from x computed directly, and its
// whole rows run in out-of-line loops that keep their state in registers. Per render: curves
// −3.7 %, strokes −3 %, polygons and hairlines −1.3 … −1.9 % of the instructions; no change in
// wall time beyond noise (docs/performance.md, "After branch `curves3`", with what was rejected).
//
// Rows from the cells straight to the kernels (branch `raster3`); the pixels are the same
// (every bench scene's PNG byte for byte, no golden changed):
// - A solid colour under source-over into native pixels (the blitter's `cellTarget`: nearly
//   every fill and stroke) is composited from the cells by one AVX2 call a stretch
//   (CCrispKernels/CellsOverAVX2.c): eight cells a step are loaded and cleared, summed, put
//   through the fill rule and blended, with no coverage bytes in between and no cell-at-a-time
//   loop for short runs (a stretch's last one to seven cells are one masked step). Coverage
//   fused with compositing is what the notes name as Blend2D's first lead; here the
//   scalar loop over a hairline row's two to seven cells and the kernel call after it were
//   most of that row's cost.
// - Other blitters that take joined gaps (gradients, clipped fills, glyph and alpha masks) get
//   coverage bytes from the same steps (`resolveRowsCoverage`), joined as their `joinedGap`
//   says (`mergedGap`, or every gap for a gradient's, branch `grad3`). `scanRow` stays for a
//   blitter that takes no joined gaps (a clip mask's writer), the aliased rules and CPUs
//   without AVX2.
// - A row is scanned a bit word at a time: a word's touched cells run from its lowest set bit
//   to one past its highest, so no carry passes between words. On the fused path a word is
//   one stretch whatever the gaps inside it (untouched cells hold 0, so the kernel gives a
//   gap its one alpha, as a span would), and only a gap of more than `mergedGap` cells between
//   words cuts a row; the coverage path keeps a `joinedGap` of `mergedGap` inside words too
//   (each marked bit smeared over the 33 cells after it), as `RasterizerGapTests` asks of a
//   blitter's spans, and takes every gap inside a word for a `joinedGap` of 64 or more.
// Per render (callgrind, `--bench 4` minus `--bench 2`, halved), main → this: polys_nz_10
// 26.7 → 18.5 M instructions (−31 %), polys_nz_40 72.7 → 49.4 M (−32 %), polys_eo_40 −31 %,
// hairlines 36.7 → 27.4 M (−25 %), curves and strokes −17 … −20 %, transforms_clip −16 %,
// ui_emboss −12 %, gradients −5 %, big_fill −3.6 %; wall time (merged with `curves3`)
// polys_nz_40 7.00 → 4.60 ms, hairlines 2.83 → 2.04 ms, polys_nz_10 2.45 → 1.72 ms (docs/performance.md,
// "After branch `raster3`").
// Measured and rejected: looking for gaps of more than `mergedGap` inside words on the fused
// path too (+2.7 % instructions on polys_nz_40, wall time the same); a constant span between
// stretches for every gap of more than 64 cells instead of 32 (no change).
//
// The winding limit (branch `wrap1`). Cells and running sums are Int32 and every addition
// wraps (the deposits, `scanRow`'s and `singleRun`'s sums, `prefixSums`, the C kernels'
// `prefix8`). One edge adds exactly 512·|h| ≤ 2¹⁷ to a row, and its running part at any cell
// lies between 0 and that, but for the rounding of a piece's column quotient u (half a unit
// at most, and no more than u itself when u ≠ 0), which can carry a long shallow piece's partial
// sum to nearly twice it before its last cell takes the excess back: each cell an edge reaches
// and each partial sum of its deposits stays within ±(2¹⁸ + 2¹¹). A row crossed by E edges
// keeps every cell and running sum within E·(2¹⁸ + 2¹¹), exact in Int32 up to E = 8128;
// `exactEdges` is 4096, a margin of two. Beyond that the sums wrapped: 32 768 coincident copies
// of a shape (65 536 edges a row, a pixel's worth from each copy) summed to exactly 2³² and came
// out empty, and other counts gave wrong fractions (87 382 copies of 3/8 of a pixel gave 1/4).
// Even-odd is immune (`wrapsHarmlessly`): its alpha depends on the sum modulo 2¹⁸, which
// divides 2³². For the non-zero rules a band with more than `exactEdges` edges counts them row
// by row (one pass over its edges, per-row differences); when a row has more, the band's edges
// are deposited `exactEdges` at a time, each group's exact cells added into 64-bit cells (only
// in the bit words the outline reaches), and each row's 64-bit running sums, clamped to ±one
// pixel (which leaves every non-zero alpha as it was), go back into the 32-bit cells as
// differences (`accumulateMany`). Every row loop (the fused and coverage AVX2 kernels,
// `scanRow` on CPUs without AVX2, for the clip-mask writer and for the aliased rules) then
// resolves its cells as before and meets only sums within ±one pixel: no kernel changed, and
// ordinary drawing pays one comparison a band (docs/performance.md, "After branch `wrap1`": every scene's
// instructions a render within ±0.02 %). Rejected: 64-bit cells or running sums everywhere
// (twice the buffer and half the lanes of every step, for what no ordinary drawing reaches);
// saturating additions (the cells are differences: a clamped difference is wrong for every
// sum after it); detecting the wrap in the resolve (a wrapped sum looks like a right one).
// `WindingLimitTests` draws up to 100 000 coincident copies through every row loop.

/// Receives the rasterizer's coverage, row by row, left to right, for pixels inside the clip box.
protocol SpanBlitter {
    /// Pixels `x..<x+count` of row `y` with per-pixel coverage (0…255).
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>)
    /// Pixels `x..<x+count` of row `y`, all with the same coverage (1…255).
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8)
    /// The longest gap of untouched cells between two runs of a row that may come as part of
    /// one `blitMask` rather than as its own `blitSpan` (0: none).
    var joinedGap: Int { get }
    /// Where rows may go from the rasterizer's cells straight into pixels (a solid colour under
    /// source-over into native pixels, with the AVX2 kernels), or nil. With a target, the
    /// rasterizer composites a row's runs of touched cells itself (`Rasterizer.resolveRowsOver`)
    /// and sends only the constant spans between them through `blitSpan`.
    var cellTarget: CellTarget? { get }
}

extension SpanBlitter {
    var joinedGap: Int { Rasterizer.mergedGap }
    var cellTarget: CellTarget? { nil }
}

/// A solid colour that the rasterizer composites under source-over straight from its cells
/// (CCrispKernels/CellsOverAVX2.c) into premultiplied native pixels.
struct CellTarget {
    /// The destination's first pixel (raster row 0, column 0).
    var pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    var rowStride: Int
    /// The premultiplied colour (not `Pixel.unpainted`).
    var color: UInt32
}

/// A rectangle of whole device pixels, `x..<maxX`, `y..<maxY`, rows counted from the top.
@_spi(Testing) public struct PixelRect: Equatable, Sendable {
    @_spi(Testing) public var x: Int, y: Int, maxX: Int, maxY: Int
    @_spi(Testing) public var width: Int { maxX - x }
    @_spi(Testing) public var height: Int { maxY - y }
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

/// A line segment in 24.8 fixed point (1/256 px), absolute raster coordinates (not relative to
/// the clip), with `y0 < y1`.
struct Edge {
    var x0: Int32
    var y0: Int32
    var x1: Int32
    var y1: Int32
    /// +1 for an edge that goes down in raster space, −1 for one that goes up.
    var direction: Int32
}

/// Turns outlines into coverage spans. One per context; buffers are reused between paths.
@_spi(Testing) public final class Rasterizer {
    /// Cells (32-bit integers) per band: 64 Ki cells = 256 KiB of accumulation buffer.
    @_spi(Testing) public static let bandBudget = 1 << 16
    /// Fractional bits of the fixed-point coordinates: 1/256 px.
    static let fractionBits = 8
    /// The accumulated value of one fully covered pixel: 256 (rows of 1/256 px) × 2 × 256 (the
    /// doubled area of a 1/256-px row across the pixel).
    static let fullCoverage: Int32 = 1 << 17
    /// Coordinates are converted to fixed point inside ±`fixedLimit` px (2²¹, so differences of
    /// 24.8 values fit in 31 bits); segments reaching beyond are first clipped to that box, which
    /// is the same for every clip, so coverage never depends on the clip.
    static let fixedLimit: CGFloat = 2_097_152
    /// Clips are kept inside ±2²⁰ px, well within the fixed-point box.
    static let clipLimit = 1 << 20
    /// The longest gap of untouched cells between two runs of a row that joins them into one
    /// coverage row (its pixels get the gap's one alpha) rather than ending the row with a
    /// constant span between them: a per-span call costs more than blending 32 pixels.
    static let mergedGap = 32
    /// The most edges with a piece in one row whose cells and running sums 32 bits hold
    /// exactly: an edge adds less than 2¹⁸ + 2¹¹ to any cell or running sum of a row, so 4096
    /// of them stay within ±2³⁰ + 2²³, half of Int32's range (essay, "The winding limit").
    static let exactEdges = 4096

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
    // Bounds of the edges, fixed point.
    @exclusivity(unchecked) private var minY = Int32.max
    @exclusivity(unchecked) private var maxY = Int32.min
    @exclusivity(unchecked) private var minX = Int32.max
    @exclusivity(unchecked) private var maxX = Int32.min
    /// Segments offered (`addLine` calls, before clipping) since the rasterizer was made: a work
    /// count, so tests bound work by counts rather than by time.
    @exclusivity(unchecked) @_spi(Testing) public private(set) var segmentsOffered = 0

    private var accumulation: UnsafeMutablePointer<Int32>
    private var accumulationCapacity = 0
    private var touched: UnsafeMutablePointer<UInt64>
    private var touchedCapacity = 0
    /// Per-row coverage scratch for the resolver and for clipped blitters.
    private(set) var coverage: UnsafeMutablePointer<UInt8>
    private var coverageCapacity = 0
    /// A row's pieces for the blitter (`scanRow`): at most two a run of touched cells (a run
    /// is at least two cells long and runs are apart, so at most width / 3 + 1 start inside
    /// the clip) and one for the row's end.
    private var rowPieces: UnsafeMutablePointer<RowPiece>
    private var rowPiecesCapacity = 0
    /// A band's edges per row (`accumulateMany`), as differences from one row to the next.
    private var rowEdgeCounts: [Int] = []

    init() {
        edges = .allocate(capacity: edgeCapacity)
        sortedEdges = .allocate(capacity: sortedCapacity)
        accumulation = .allocate(capacity: 1)
        touched = .allocate(capacity: 1)
        coverage = .allocate(capacity: 1)
        rowPieces = .allocate(capacity: 1)
    }

    deinit {
        edges.deallocate()
        sortedEdges.deallocate()
        accumulation.deallocate()
        touched.deallocate()
        coverage.deallocate()
        rowPieces.deallocate()
    }

    /// Starts a new outline clipped to `clip` (raster pixels; kept within ±2²⁰ px).
    func reset(clip: PixelRect) {
        let limit = Rasterizer.clipLimit
        self.clip = clip.intersection(PixelRect(x: -limit, y: -limit, maxX: limit, maxY: limit))
        clipLeft = CGFloat(self.clip.x)
        clipTop = CGFloat(self.clip.y)
        clipRight = CGFloat(self.clip.maxX)
        clipBottom = CGFloat(self.clip.maxY)
        clipIsEmpty = self.clip.isEmpty
        edgeCount = 0
        minY = .max
        maxY = .min
        minX = .max
        maxX = .min
    }

    @_spi(Testing) public var isEmpty: Bool { edgeCount == 0 }

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

    /// Adds a segment in raster coordinates (absolute pixels, y down). Segments that cannot
    /// reach a pixel of the clip box (wholly above, below or right of it) are dropped, and one
    /// wholly left of it is moved onto its left side (where it changes the winding of every
    /// pixel to its right exactly as before); the rest are kept whole, in fixed point: the sweep
    /// clips them exactly, row by row and column by column.
    func addLine(_ a: CGPoint, _ b: CGPoint) {
        segmentsOffered &+= 1
        guard a.y != b.y, !clipIsEmpty else { return }
        // The ordered copy of the segment is inlined twice rather than swapped in place: the
        // swap compiled to a vector blend of both points.
        if a.y > b.y { addDownward(b.x, b.y, a.x, a.y, -1) } else { addDownward(a.x, a.y, b.x, b.y, 1) }
    }

    /// `addLine` for a segment with y0 < y1 (or a NaN).
    @inline(__always)
    private func addDownward(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        if y1 <= clipTop || y0 >= clipBottom { return }
        if x0 >= clipRight && x1 >= clipRight { return }
        let limit = Rasterizer.fixedLimit
        guard abs(x0) < limit, abs(x1) < limit, abs(y0) < limit, abs(y1) < limit else {
            addExtremeLine(x0, y0, x1, y1, direction)
            return
        }
        if x0 <= clipLeft && x1 <= clipLeft {
            appendEdge(clipLeft, y0, clipLeft, y1, direction)
        } else {
            appendEdge(x0, y0, x1, y1, direction)
        }
    }

    /// Adds a segment (`y0 < y1`, or a NaN) that reaches beyond ±2²¹ px: clipped to that box by
    /// the segment's parameter t, in forms that cannot overflow (halved differences, and
    /// `a·(1 − t) + b·t`). Left of the box only the winding counts (projected onto its left
    /// side), right of it nothing shows. The box is the same for every clip.
    private func addExtremeLine(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        /// Where along the segment (0…1) the coordinate going from `p` to `q` reaches `v`.
        func parameter(_ v: CGFloat, _ p: CGFloat, _ q: CGFloat) -> CGFloat {
            min(max((v * 0.5 - p * 0.5) / (q * 0.5 - p * 0.5), 0), 1)
        }
        func mix(_ a: CGFloat, _ b: CGFloat, _ t: CGFloat) -> CGFloat { a * (1 - t) + b * t }
        let high = Rasterizer.fixedLimit.nextDown, low = -high
        // Vertically into the box: the y range is then moderate.
        let t0 = y0 < low ? parameter(low, y0, y1) : 0
        let t1 = y1 > high ? parameter(high, y0, y1) : 1
        var (ax, ay) = (mix(x0, x1, t0), y0 < low ? low : y0)
        var (bx, by) = (mix(x0, x1, t1), y1 > high ? high : y1)
        guard ay < by, ax.isFinite, bx.isFinite else { return }
        if ax <= low && bx <= low { addDownward(low, ay, low, by, direction); return }
        if ax >= high && bx >= high { return }
        if (ax < low) != (bx < low) {
            let y = mix(ay, by, parameter(low, ax, bx))
            if ax < low { addDownward(low, ay, low, y, direction); (ax, ay) = (low, y) } else {
                addDownward(low, y, low, by, direction); (bx, by) = (low, y)
            }
        }
        if (ax > high) != (bx > high) {
            let y = mix(ay, by, parameter(high, ax, bx))
            if ax > high { (ax, ay) = (high, y) } else { (bx, by) = (high, y) }
        }
        guard ay < by else { return }
        addDownward(min(max(ax, low), high), ay, min(max(bx, low), high), by, direction)
    }

    /// A coordinate (within ±2²¹ px) in 24.8 fixed point, rounded to nearest (ties to even):
    /// adding 1.5·2⁵² leaves v·256 rounded to an integer in the low bits of the sum, so no
    /// conversion instruction (and none of its range checks) is needed.
    @inline(__always)
    private static func fixed(_ v: CGFloat) -> Int32 {
        Int32(truncatingIfNeeded: (v * 256 + 6_755_399_441_055_744).bitPattern)
    }

    private func appendEdge(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        let fy0 = Rasterizer.fixed(y0), fy1 = Rasterizer.fixed(y1)
        // A piece less than 1/512 px high covers nothing at this precision.
        guard fy0 < fy1 else { return }
        let fx0 = Rasterizer.fixed(x0), fx1 = Rasterizer.fixed(x1)
        if edgeCount == edgeCapacity { growEdges() }
        (edges + edgeCount).initialize(to: Edge(x0: fx0, y0: fy0, x1: fx1, y1: fy1, direction: direction))
        edgeCount &+= 1
        minY = min(minY, fy0)
        maxY = max(maxY, fy1)
        minX = min(minX, min(fx0, fx1))
        maxX = max(maxX, max(fx0, fx1))
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
        // Rows (absolute) any edge reaches inside the clip.
        let firstRow = max(clip.y, Int(minY >> 8))
        let lastRow = min(clip.maxY, Int((maxY &+ 255) >> 8))   // exclusive
        guard firstRow < lastRow else { return }
        // The bit words any edge can mark: a row piece marks the columns (relative to the clip)
        // from its leftmost x's to its rightmost x's, clamped to 0…width − 1, and a bit stands
        // for its cell and the next.
        let leftCell = min(max(Int(minX >> 8) &- clip.x, 0), width)
        let rightCell = min(max(Int(maxX >> 8) &- clip.x, 0), width - 1) + 1
        let words = (leftCell >> 6)...max(leftCell >> 6, rightCell >> 6)
        let bandRows = max(1, min(lastRow - firstRow, Rasterizer.bandBudget / stride))
        ensureCapacity(cells: bandRows * stride, words: bandRows * wordsPerRow, width: width)
        let geometry = BandGeometry(width: width, stride: stride, wordsPerRow: wordsPerRow,
                                    originX: clip.x << 8)

        if bandRows >= lastRow - firstRow {
            // One band (the usual case): every edge's visible rows lie inside it.
            let edges = self.edges, acc = accumulation, bits = touched
            let top = Int32(firstRow << 8), bottom = Int32(lastRow << 8)
            if edgeCount > Rasterizer.exactEdges && !R.wrapsHarmlessly {
                accumulateMany(edges, count: edgeCount, indices: nil, top: top, bottom: bottom, bandTop: firstRow,
                               words: words, geometry)
            } else {
                Rasterizer.accumulate(edges, count: edgeCount, top: top, bottom: bottom, bandTop: firstRow, geometry,
                                      acc: acc, bits: bits)
            }
            resolveRows(R.self, firstRow..<lastRow, bandTop: firstRow, words: words, geometry, &blitter)
            return
        }
        sortEdgesByTop(firstRow: firstRow, rows: lastRow - firstRow)
        let sorted = edges, acc = accumulation, bits = touched
        var next = 0                  // next edge (by top row) not yet active
        var active: [Int] = []
        var bandTop = firstRow
        while bandTop < lastRow {
            let bandBottom = min(bandTop + bandRows, lastRow)
            let top = Int32(bandTop << 8), bottom = Int32(bandBottom << 8)
            active.removeAll { sorted[$0].y1 <= top }
            while next < edgeCount, sorted[next].y0 < bottom {
                active.append(next); next += 1
            }
            active.withUnsafeBufferPointer {
                if $0.count > Rasterizer.exactEdges && !R.wrapsHarmlessly {
                    accumulateMany(sorted, count: $0.count, indices: $0, top: top, bottom: bottom, bandTop: bandTop,
                                   words: words, geometry)
                } else {
                    Rasterizer.accumulate(sorted, indices: $0, top: top, bottom: bottom, bandTop: bandTop, geometry,
                                          acc: acc, bits: bits)
                }
            }
            resolveRows(R.self, bandTop..<bandBottom, bandTop: bandTop, words: words, geometry, &blitter)
            bandTop = bandBottom
        }
    }

    /// The layout of a band's accumulation buffer and touched bits.
    private struct BandGeometry {
        /// Pixels per row (the clip's width).
        var width: Int
        /// Cells per buffer row: the pixels and two more (a piece in the last column deposits
        /// into cell `width`; the resolver's runs may end one further).
        var stride: Int
        /// Touched-bit words per buffer row.
        var wordsPerRow: Int
        /// The clip's left side in fixed point: cell 0's left edge.
        var originX: Int
    }

    /// Orders the edges by the first row they reach (their top row, or `firstRow` for those that
    /// start above it), in linear time: counted per row, then dealt out. The order within a row
    /// does not matter — integer coverage adds up to the same value in any order. With fewer
    /// than one edge per eight rows a comparison sort does it.
    private func sortEdgesByTop(firstRow: Int, rows: Int) {
        guard edgeCount * 8 >= rows else {
            var all = UnsafeMutableBufferPointer(start: edges, count: edgeCount)
            all.sort { $0.y0 < $1.y0 }
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
            func row(_ e: Edge) -> Int { min(max(Int(e.y0 >> 8) - firstRow, 0), rows - 1) }
            for i in 0..<count { starts[row(source[i]) + 1] += 1 }
            for r in 0..<rows { starts[r + 1] += starts[r] }
            for i in 0..<count {
                let r = row(source[i])
                (target + starts[r]).initialize(to: source[i])
                starts[r] += 1
            }
        }
        swap(&edges, &sortedEdges)
        swap(&edgeCapacity, &sortedCapacity)
    }

    private func ensureCapacity(cells: Int, words: Int, width: Int) {
        // Seven cells more: the resolver loads four or eight cells at a time and may read past
        // the last.
        if cells + 7 > accumulationCapacity {
            accumulation.deallocate()
            accumulationCapacity = cells + 7
            accumulation = .allocate(capacity: accumulationCapacity)
            accumulation.initialize(repeating: 0, count: accumulationCapacity)
        }
        if words > touchedCapacity {
            touched.deallocate()
            touchedCapacity = words
            touched = .allocate(capacity: words)
            touched.initialize(repeating: 0, count: words)
        }
        // Sixteen more bytes: alpha is stored four at a time, a joined gap's sixteen.
        _ = scratchCoverage(count: width + 16)
        if width + 2 > rowPiecesCapacity {
            rowPieces.deallocate()
            rowPiecesCapacity = width + 2
            rowPieces = .allocate(capacity: rowPiecesCapacity)
        }
    }

    /// Deposits a band's edges (`edges[0..<count]`, or those at `indices`) for a non-zero rule
    /// when there are more than `exactEdges` of them: as usual if no row of the band has more
    /// than `exactEdges` edges with a piece in it, else `exactEdges` edges at a time, each
    /// group's exact cells added into 64-bit cells and cleared; then each row's running sums,
    /// clamped to ±one pixel (which leaves every non-zero alpha as it is), go back into the
    /// 32-bit cells as differences, for any row loop to resolve. A cell only changes where a
    /// deposit reached it, so the touched bits still mark every cell that is not 0.
    @inline(never)
    private func accumulateMany(_ edges: UnsafeMutablePointer<Edge>, count: Int, indices: UnsafeBufferPointer<Int>?,
                                top: Int32, bottom: Int32, bandTop: Int, words: ClosedRange<Int>, _ g: BandGeometry) {
        let acc = accumulation, bits = touched, rows = Int(bottom &- top) >> 8
        func deposit(_ range: Range<Int>) {
            if let indices {
                Rasterizer.accumulate(edges, indices: UnsafeBufferPointer(rebasing: indices[range]), top: top,
                                      bottom: bottom, bandTop: bandTop, g, acc: acc, bits: bits)
            } else {
                Rasterizer.accumulate(edges + range.lowerBound, count: range.count, top: top, bottom: bottom,
                                      bandTop: bandTop, g, acc: acc, bits: bits)
            }
        }
        if rowEdgeCounts.count <= rows { rowEdgeCounts = Array(repeating: 0, count: rows + 1) }
        let most = rowEdgeCounts.withUnsafeMutableBufferPointer { counts in
            counts.update(repeating: 0)
            /// +1 at the edge's first row in the band, −1 after its last.
            @inline(__always) func add(_ e: Edge) {
                let y0 = max(e.y0, top), y1 = min(e.y1, bottom)
                guard y0 < y1 else { return }
                counts[Int(y0 >> 8) &- bandTop] &+= 1
                counts[Int((y1 &- 1) >> 8) &- bandTop &+ 1] &-= 1
            }
            if let indices {
                for i in indices { add(edges[i]) }
            } else {
                for i in 0..<count { add(edges[i]) }
            }
            var most = 0, edgesInRow = 0
            for r in 0..<rows {
                edgesInRow &+= counts[r]
                most = max(most, edgesInRow)
            }
            return most
        }
        guard most > Rasterizer.exactEdges else {
            deposit(0..<count)
            return
        }
        // The cells deposits reach in each row: those of the touched bit words, and the cell
        // after them; in 64 bits, `span` a row (released after the band: this is rare).
        let first = words.lowerBound << 6, span = min(g.stride, (words.upperBound + 1) << 6 + 1) - first
        var wide = [Int64](repeating: 0, count: rows * span)
        wide.withUnsafeMutableBufferPointer { wide in
            for start in stride(from: 0, to: count, by: Rasterizer.exactEdges) {
                deposit(start..<min(start + Rasterizer.exactEdges, count))
                for r in 0..<rows {
                    let cells = acc + (r * g.stride + first)
                    for j in 0..<span {
                        wide[r * span + j] &+= Int64(cells[j])
                        cells[j] = 0
                    }
                }
            }
            let full = Int64(Rasterizer.fullCoverage)
            for r in 0..<rows {
                let cells = acc + (r * g.stride + first)
                var sum: Int64 = 0, previous: Int32 = 0
                for j in 0..<span {
                    sum &+= wide[r * span + j]
                    let clamped = Int32(min(max(sum, -full), full))
                    cells[j] = clamped - previous
                    previous = clamped
                }
            }
        }
    }

    /// Floor division and its non-negative remainder (`d > 0`).
    @inline(__always)
    private static func floorDivide(_ n: Int, _ d: Int) -> (quotient: Int, remainder: Int) {
        var q = n / d, r = n &- q &* d
        if r < 0 { q &-= 1; r &+= d }
        return (q, r)
    }

    /// Deposits edges `0..<count`, in one loop: each edge's `accumulate` inlined, so an edge pays
    /// no call (about 25 instructions of saved registers and arguments read from the stack), and
    /// the band's geometry stays in registers across edges.
    @inline(never)
    private static func accumulate(_ edges: UnsafeMutablePointer<Edge>, count: Int, top: Int32, bottom: Int32, bandTop: Int,
                                   _ g: BandGeometry, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>) {
        var i = 0
        while i < count {
            accumulate(edges[i], top: top, bottom: bottom, bandTop: bandTop, g, acc: acc, bits: bits)
            i &+= 1
        }
    }

    /// Deposits the edges at `indices` (a band's active edges), in one loop like the above.
    @inline(never)
    private static func accumulate(_ edges: UnsafeMutablePointer<Edge>, indices: UnsafeBufferPointer<Int>, top: Int32,
                                   bottom: Int32, bandTop: Int, _ g: BandGeometry, acc: UnsafeMutablePointer<Int32>,
                                   bits: UnsafeMutablePointer<UInt64>) {
        for i in indices {
            accumulate(edges[i], top: top, bottom: bottom, bandTop: bandTop, g, acc: acc, bits: bits)
        }
    }

    /// Deposits the edge's rows between fixed-point rows `top` and `bottom` (row boundaries)
    /// into the band that starts at pixel row `bandTop`.
    ///
    /// x at a row boundary Y is always x0 + ⌊((Y − y0)·s + 2³¹) / 2³²⌋ with the slope
    /// s = ⌊dx·2³² / dy⌋ (Y − y0 ≤ dy, so the product stays below 2⁶²): rows step t by 256·s
    /// exactly, and a range that starts inside the edge computes t directly, so an edge's rows
    /// are the same whichever clip or band they are swept in. An edge within one row needs no
    /// slope at all.
    ///
    /// The first and the last row are deposited before the rows between them (the sum does not
    /// depend on the order), each from x computed directly at its boundaries, so an edge of two
    /// rows — most of a flattened curve's — is two pieces and no loop, and the loop over the
    /// whole rows starts with little else live.
    @inline(__always)
    private static func accumulate(_ e: Edge, top: Int32, bottom: Int32, bandTop: Int, _ g: BandGeometry,
                                   acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>) {
        let yStart = Int(max(e.y0, top)), yEnd = Int(min(e.y1, bottom))
        guard yStart < yEnd else { return }
        let x0 = Int(e.x0) &- g.originX, y0 = Int(e.y0), x1 = Int(e.x1) &- g.originX, y1 = Int(e.y1)
        let direction = Int(e.direction)
        let row = yStart >> 8
        let rowAcc = acc + (row &- bandTop) &* g.stride
        let rowBits = bits + (row &- bandTop) &* g.wordsPerRow
        let boundary = (row &+ 1) << 8
        if boundary >= yEnd && yStart == y0 && yEnd == y1 {
            accumulateRow(rowAcc, rowBits, x0, x1, (y1 &- y0) &* direction, g.width)
            return
        }
        let slope = floorDivide((x1 &- x0) << 32, y1 &- y0).quotient
        /// x at row boundary `y` (or at the edge's top or bottom inside a row).
        @inline(__always) func x(at y: Int) -> Int { x0 &+ (((y &- y0) &* slope &+ (1 << 31)) >> 32) }
        let xStart = x(at: yStart)
        let xEnd = yEnd == y1 ? x1 : x(at: yEnd)
        if boundary >= yEnd {
            accumulateRow(rowAcc, rowBits, xStart, xEnd, (yEnd &- yStart) &* direction, g.width)
            return
        }
        let xb = x(at: boundary)
        accumulateRow(rowAcc, rowBits, xStart, xb, (boundary &- yStart) &* direction, g.width)
        // The last row, from its top boundary (`boundary` itself when the edge has two rows).
        let lastTop = (yEnd &- 1) & ~255
        let wholeRows = (lastTop &- boundary) >> 8
        let xLast = wholeRows == 0 ? xb : x(at: lastTop)
        accumulateRow(rowAcc + (wholeRows &+ 1) &* g.stride, rowBits + (wholeRows &+ 1) &* g.wordsPerRow,
                            xLast, xEnd, (yEnd &- lastTop) &* direction, g.width)
        guard wholeRows > 0 else { return }
        // The rows between, of one height: a count, x·2³² at the next boundary in one register.
        // Out of line, so that the edge loop's state does not take the registers of this loop.
        let xt = (boundary &+ 256 &- y0) &* slope &+ (1 << 31) &+ x0 << 32
        // An edge moving less than a pixel a row (most of a polygon's) crosses at most two
        // columns a row: its own loop has no loops inside, so its state stays in registers.
        if slope.magnitude < 1 << 32 {
            accumulateNarrowRows(wholeRows, rowAcc + g.stride, rowBits + g.wordsPerRow, xb, xt, step: slope &<< 8,
                                 d: direction << 8, g)
        } else {
            accumulateWideRows(wholeRows, rowAcc + g.stride, rowBits + g.wordsPerRow, xb, xt, step: slope &<< 8,
                               d: direction << 8, g)
        }
    }

    /// `accumulateWholeRows` for an edge moving less than a pixel a row.
    @inline(never)
    private static func accumulateNarrowRows(_ rows: Int, _ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                             _ x: Int, _ xt: Int, step: Int, d: Int, _ g: BandGeometry) {
        var acc = acc, bits = bits, x = x, xt = xt
        accumulateWholeRows(rows, narrow: true, &acc, &bits, &x, &xt, step: step, d: d, g)
    }

    /// `accumulateWholeRows` for an edge moving a pixel or more a row.
    @inline(never)
    private static func accumulateWideRows(_ rows: Int, _ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                           _ x: Int, _ xt: Int, step: Int, d: Int, _ g: BandGeometry) {
        var acc = acc, bits = bits, x = x, xt = xt
        accumulateWholeRows(rows, narrow: false, &acc, &bits, &x, &xt, step: step, d: d, g)
    }

    /// Deposits `rows` whole rows of signed height `d` from x (fixed point) on, x·2³² at the
    /// next row boundary being `xt`, stepping by `step` a row; `narrow` (a constant at each
    /// call, so each call is its own loop) for an edge moving less than a pixel a row.
    @inline(__always)
    private static func accumulateWholeRows(_ rows: Int, narrow: Bool, _ acc: inout UnsafeMutablePointer<Int32>,
                                            _ bits: inout UnsafeMutablePointer<UInt64>, _ x: inout Int, _ xt: inout Int,
                                            step: Int, d: Int, _ g: BandGeometry) {
        var k = rows
        while k > 0 {
            let xb = xt >> 32
            if narrow {
                accumulateNarrowRow(acc, bits, x, xb, d, g.width)
            } else {
                accumulateRow(acc, bits, x, xb, d, g.width)
            }
            x = xb
            acc += g.stride
            bits += g.wordsPerRow
            xt &+= step
            k &-= 1
        }
    }

    /// `accumulateRow` for a piece expected within two columns: those inline (the same
    /// formulas as `accumulateColumns`' for two columns), anything else out of line.
    @inline(__always)
    private static func accumulateNarrowRow(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                            _ xa: Int, _ xb: Int, _ d: Int, _ width: Int) {
        let xl = min(xa, xb), xr = max(xa, xb)
        let c0 = xl >> 8
        if xl < 0 || c0 >= width {
            accumulateRowOutOfLine(acc, bits, xl, xr, d, width)
            return
        }
        let base = c0 << 8
        if xr <= base &+ 256 {
            accumulateInColumn(acc, bits, c0, base, xl, xr, d)
            return
        }
        if xr > base &+ 512 {
            accumulateRowOutOfLine(acc, bits, xl, xr, d, width)
            return
        }
        let c1 = c0 &+ 1
        let e0 = base &+ 256 &- xl, e1 = xr &- (c1 << 8)
        let q = floorDivide(d << 24 &+ (xr &- xl) >> 1, xr &- xl).quotient
        let corner = (q &* e0 &* e0 &+ (1 << 23)) >> 24
        let tail = (q &* e1 &* e1 &+ (1 << 23)) >> 24
        acc[c0] &+= Int32(truncatingIfNeeded: corner)
        acc[c1] &+= Int32(truncatingIfNeeded: (d << 9) &- tail &- corner)
        bits[c0 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: c0)
        if c1 < width {
            acc[c1 &+ 1] &+= Int32(truncatingIfNeeded: tail)
            bits[c1 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: c1)
        }
    }

    /// `accumulateRow`, out of line: the narrow sweep's rare cases.
    @inline(never)
    private static func accumulateRowOutOfLine(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                               _ xa: Int, _ xb: Int, _ d: Int, _ width: Int) {
        accumulateRow(acc, bits, xa, xb, d, width)
    }

    /// Adds the coverage differences of a row piece from `xa` to `xb` (fixed point, relative to
    /// the clip's left side) with signed height `d` (fixed point, at most one row) inside one row,
    /// and marks the touched cells. A piece in column c from x offset fa to fb (0…256) with height
    /// h adds h·(512 − fa − fb) to cell c and h·(fa + fb) to cell c + 1: twice the area right of
    /// and left of it, 512·h in all. Columns left of the clip add their total to cell 0 (the
    /// running sum of every visible pixel sees only that total); columns right of it add nothing
    /// any visible pixel sees, and are skipped.
    @inline(__always)
    private static func accumulateRow(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                      _ xa: Int, _ xb: Int, _ d: Int, _ width: Int) {
        let xl = min(xa, xb), xr = max(xa, xb)
        if xr <= 0 {
            acc[0] &+= Int32(truncatingIfNeeded: d &<< 9)
            bits[0] |= 1
            return
        }
        let c0 = xl >> 8
        if c0 >= width { return }
        let base = c0 << 8
        if xr <= base &+ 256 {
            // Within one column (c0 ≥ 0, as xr > 0).
            accumulateInColumn(acc, bits, c0, base, xl, xr, d)
            return
        }
        accumulateColumns(acc, bits, xl, xr, d, width)
    }

    /// `accumulateRow` for a piece within column `c0` (visible; its left side at `base`):
    /// h·(512 − fa − fb) to cell c0, h·(fa + fb) to the next, and c0's bit.
    @inline(__always)
    private static func accumulateInColumn(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                           _ c0: Int, _ base: Int, _ xl: Int, _ xr: Int, _ d: Int) {
        let f = xl &+ xr &- (base << 1)
        acc[c0] &+= Int32(truncatingIfNeeded: d &* (512 &- f))
        acc[c0 &+ 1] &+= Int32(truncatingIfNeeded: d &* f)
        bits[c0 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: c0)
    }

    /// `accumulateRow` for a piece across several columns c0 … c1, in closed form: its height
    /// in a column is proportional to its width there, so with q = d / (xr − xl) (kept with 24
    /// more fractional bits) the first column, e0 wide, adds q·e0² to cell c0 and q·e0·512 in
    /// all; each column crossed whole adds u = 256·256·q to its cell and to the next; the last,
    /// e1 wide, adds q·e1² to cell c1 + 1, and cell c1 takes what makes the total exactly 512·d.
    /// The running sum at any cell j is therefore a formula in j: the clip's cell 0 takes it
    /// whole when the piece starts left of the clip, and every visible cell gets what it gets
    /// without a clip.
    private static func accumulateColumns(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                          _ xl: Int, _ xr: Int, _ d: Int, _ width: Int) {
        let c0 = xl >> 8, c1 = (xr &- 1) >> 8
        let e0 = ((c0 &+ 1) << 8) &- xl, e1 = xr &- (c1 << 8)   // 1…256 each
        let q = floorDivide(d << 24 &+ (xr &- xl) >> 1, xr &- xl).quotient
        let first = (q &* e0 &+ (1 << 14)) >> 15                // 512 · the first column's height
        let corner = (q &* e0 &* e0 &+ (1 << 23)) >> 24         // the first column's part in cell c0
        let u = (q &+ 128) >> 8
        let tail = (q &* e1 &* e1 &+ (1 << 23)) >> 24           // the last column's part in cell c1 + 1
        let total = d << 9
        // The running sum after cell j, for c0 < j < c1.
        @inline(__always) func sum(through j: Int) -> Int { first &+ u &* (2 &* (j &- c0) &- 1) }
        var c: Int
        if c0 >= 0 {
            acc[c0] &+= Int32(truncatingIfNeeded: corner)
            if c0 &+ 1 == c1 {
                acc[c1] &+= Int32(truncatingIfNeeded: total &- tail &- corner)
                bits[c0 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: c0)
                if c1 < width {
                    acc[c1 &+ 1] &+= Int32(truncatingIfNeeded: tail)
                    bits[c1 &>> 6] |= 1 &<< UInt64(truncatingIfNeeded: c1)
                }
                return
            }
            acc[c0 &+ 1] &+= Int32(truncatingIfNeeded: first &- corner &+ u)
            c = c0 &+ 2
        } else if c1 == 0 {
            acc[0] &+= Int32(truncatingIfNeeded: total &- tail)
            acc[1] &+= Int32(truncatingIfNeeded: tail)
            bits[0] |= 1
            return
        } else {
            acc[0] &+= Int32(truncatingIfNeeded: sum(through: 0))
            c = 1
        }
        let shown = min(c1, width &- 1)
        markCells(bits, max(c0, 0), shown)
        let whole = Int32(truncatingIfNeeded: u << 1)
        let stop = min(c1, width)
        while c < stop { acc[c] &+= whole; c &+= 1 }
        if c1 < width {
            acc[c1] &+= Int32(truncatingIfNeeded: total &- tail &- sum(through: c1 &- 1))
            acc[c1 &+ 1] &+= Int32(truncatingIfNeeded: tail)
        }
    }

    /// Sets the bits of cells `from...through` of a row. A set bit stands for its cell and the
    /// next one (every deposit ends one cell right of the last column it crosses), so a row
    /// piece within one column sets a single bit.
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

    /// Resolves band rows `rows` (absolute; the band starts at row `bandTop`): each row's cells
    /// become coverage and pieces (`scanRow`), then the pieces go to the blitter.
    @inline(__always)
    private func resolveRows<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
                                                          words: ClosedRange<Int>, _ g: BandGeometry, _ blitter: inout B) {
        if let target = blitter.cellTarget, R.cellKernel != nil {
            resolveRowsOver(R.self, rows, bandTop: bandTop, words: words, g, target: target, &blitter)
            return
        }
        // The process-wide kernel switch decides, as for the compositor's kernels (decided here
        // if no compositor has run yet, so the path does not depend on what ran before).
        KernelDispatch.prepare()
        let joinedGap = blitter.joinedGap
        if (joinedGap == Rasterizer.mergedGap || joinedGap >= 64) && R.coverageKernel != nil && KernelDispatch.usesAVX2(1) {
            resolveRowsCoverage(R.self, rows, bandTop: bandTop, words: words, g, joinedGap: joinedGap, &blitter)
            return
        }
        let acc = accumulation, bits = touched, mask = coverage, pieces = rowPieces, originX = clip.x
        for row in rows {
            let n = Rasterizer.scanRow(R.self, acc: acc + (row &- bandTop) &* g.stride,
                                       bits: bits + (row &- bandTop) &* g.wordsPerRow,
                                       words: words, width: g.width, joinedGap: joinedGap, mask: mask, pieces: pieces)
            var i = 0
            while i < n {
                let piece = pieces[i]
                let start = Int(piece.start), count = Int(piece.end &- piece.start)
                if piece.alpha < 0 {
                    blitter.blitMask(x: originX &+ start, y: row, count: count, coverage: mask + start)
                } else {
                    blitter.blitSpan(x: originX &+ start, y: row, count: count, coverage: UInt8(truncatingIfNeeded: piece.alpha))
                }
                i &+= 1
            }
        }
    }

    /// `resolveRows` for a blitter with a `cellTarget`: each row's stretches of cells (gaps
    /// inside a bit word joined whatever their length) are resolved and composited by the
    /// rule's AVX2 kernel in one pass (`resolveStretches`).
    @inline(never)
    private func resolveRowsOver<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
                                                              words: ClosedRange<Int>, _ g: BandGeometry,
                                                              target: CellTarget, _ blitter: inout B) {
        resolveStretches(R.self, rows, bandTop: bandTop, words: words, g, target: target, joinedGap: nil, &blitter)
    }

    /// `resolveRows` on CPUs with AVX2, for a blitter that composites coverage itself and takes
    /// joined gaps of `mergedGap` or of 64 cells and more (`joinedGap`): each row's stretches
    /// of cells (joined across gaps of at most `joinedGap`) become coverage bytes through the
    /// rule's AVX2 kernel, eight cells a step, and go to `blitMask` as they are made
    /// (`resolveStretches`).
    @inline(never)
    private func resolveRowsCoverage<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
                                                                  words: ClosedRange<Int>, _ g: BandGeometry,
                                                                  joinedGap: Int, _ blitter: inout B) {
        resolveStretches(R.self, rows, bandTop: bandTop, words: words, g, target: nil, joinedGap: joinedGap, &blitter)
    }

    /// The rows of `resolveRowsOver` (`target` given; every gap inside a bit word joined,
    /// `mergedGap` between words) and `resolveRowsCoverage` (gaps of at most `joinedGap`
    /// joined), stretch by stretch (`stretches`), the running sum carried from one to the next;
    /// what lies between them and after the last is one alpha, a `blitSpan` (unless 0). The
    /// cells right of the clip are cleared after every row.
    @inline(__always)
    private func resolveStretches<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
                                                               words: ClosedRange<Int>, _ g: BandGeometry,
                                                               target: CellTarget?, joinedGap: Int?, _ blitter: inout B) {
        guard let overKernel = R.cellKernel, let coverageKernel = R.coverageKernel else { return }
        let pieces = rowPieces, mask = coverage, originX = clip.x, width = g.width
        var cells = accumulation + (rows.lowerBound &- bandTop) &* g.stride
        var bits = touched + (rows.lowerBound &- bandTop) &* g.wordsPerRow
        let firstWord = words.lowerBound, wordCount = words.count
        let gap = joinedGap ?? Rasterizer.mergedGap, joiningAll = joinedGap.map { $0 >= 64 } ?? true
        for row in rows {
            defer {
                // Cells `width` and `width + 1` (right of the clip): no deposit reaches further.
                UnsafeMutableRawPointer(cells + width).storeBytes(of: 0, as: UInt64.self)
                cells += g.stride
                bits += g.wordsPerRow
            }
            let (n, start, end) = Rasterizer.stretches(bits: bits, from: firstWord, count: wordCount, gap: gap,
                                                       joiningAll: joiningAll, pieces: pieces)
            if n < 0 { continue }
            var sum: Int32 = 0, done = 0, i = 0
            /// The pixels from `done` to `from` at the running sum's alpha, then `from..<to` from
            /// the cells.
            @inline(__always) func stretch(_ from: Int, _ to: Int) {
                Rasterizer.span(R.self, &blitter, x: originX, y: row, from: done, to: from, sum: sum)
                if let target {
                    let line = target.pixels + (row &* target.rowStride &+ originX &+ from)
                    sum = overKernel(line, cells + from, to &- from, target.color, sum)
                } else {
                    sum = coverageKernel(mask + from, cells + from, to &- from, sum)
                    blitter.blitMask(x: originX &+ from, y: row, count: to &- from, coverage: mask + from)
                }
                done = to
            }
            while i < n {
                let piece = pieces[i]
                stretch(Int(piece.start), Int(piece.end))
                i &+= 1
            }
            // The last stretch, cut at the clip's right side (it may start there).
            let x = min(end, width)
            if start < x { stretch(start, x) }
            Rasterizer.span(R.self, &blitter, x: originX, y: row, from: done, to: width, sum: sum)
        }
    }

    /// Pixels `from..<to` of row `y` (relative to the clip at `x`) at the alpha of `sum`, unless
    /// that is 0 or the span empty.
    @inline(__always)
    private static func span<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ blitter: inout B, x: Int, y: Int, from: Int,
                                                           to: Int, sum: Int32) {
        guard sum != 0 && from < to else { return }
        let a = R.alpha(sum)
        if a != 0 { blitter.blitSpan(x: x &+ from, y: y, count: to &- from, coverage: a) }
    }

    /// One row's stretches of cells for the kernels, from bit word `from` (`count` words),
    /// whose bits it clears. A marked bit stands for its cell and the next, so a word's touched
    /// cells run from its lowest set bit to one past its highest. A stretch runs over touched
    /// cells and the untouched ones between them (which hold 0, so a kernel gives a gap's
    /// pixels its one alpha, as a span would): across gaps of at most `gap` cells (which is
    /// `mergedGap` unless `joiningAll`), and, when `joiningAll`, across any gap inside one word
    /// — joining them all costs fewer instructions than finding the long ones (found by smearing each touched cell's bit over
    /// the 32 after it: polys_nz_40 +2.7 % instructions, wall time the same). Returns how many
    /// stretches precede the last (in `pieces`; they lie inside the clip) and the last one's
    /// cells (it may reach or start at the clip's right side); −1 for a row with no touched cell.
    @inline(__always)
    private static func stretches(bits: UnsafeMutablePointer<UInt64>, from: Int, count: Int, gap: Int, joiningAll: Bool,
                                  pieces: UnsafeMutablePointer<RowPiece>) -> (n: Int, start: Int, end: Int) {
        var word = bits + from
        let end = word + count
        while word < end && word.pointee == 0 { word += 1 }
        if word == end { return (-1, 0, 0) }
        // The word's first cell: 64 a word, 8 bytes a word.
        let rowStart = Int(bitPattern: bits)
        var n = 0, start = -1, x = 0
        /// A run (or cluster of runs) from cell `c0` on: the pending stretch ends first when a
        /// long gap lies between them.
        @inline(__always) func join(_ c0: Int) {
            if start < 0 {
                start = c0
            } else if c0 &- x > gap {
                pieces[n] = RowPiece(start: Int32(truncatingIfNeeded: start), end: Int32(truncatingIfNeeded: x), alpha: -1)
                n &+= 1
                start = c0
            }
        }
        repeat {
            let marked = word.pointee
            if marked != 0 {
                word.pointee = 0
                let base = (Int(bitPattern: word) &- rowStart) &<< 3
                if joiningAll {
                    join(base &+ marked.trailingZeroBitCount)
                    x = base &+ 65 &- marked.leadingZeroBitCount
                } else {
                    // Each marked bit smeared over the 33 cells after it (its own next cell and
                    // a gap of 32): a run of the smear is a cluster of runs joined within the word.
                    var smear = marked | (marked &<< 1)
                    smear |= smear &<< 2
                    smear |= smear &<< 4
                    smear |= smear &<< 8
                    smear |= smear &<< 16
                    smear |= marked &<< 32 | marked &<< 33
                    repeat {
                        let low = smear & (0 &- smear)
                        let above = smear &+ low
                        join(base &+ low.trailingZeroBitCount)
                        x = base &+ 65 &- (marked & ((above & ~smear) &- low)).leadingZeroBitCount
                        smear &= above
                    } while smear != 0
                }
            }
            word += 1
        } while word < end
        return (n, start, x)
    }

    /// Pixels `start..<end` of a row (relative to the clip) for the blitter: the coverage row's
    /// bytes there when `alpha` is negative, else one alpha (1…255).
    struct RowPiece {
        var start: Int32
        var end: Int32
        var alpha: Int32
    }

    /// Turns one row's accumulated differences into coverage bytes in `mask` (indexed by cell)
    /// and the pieces the blitter gets, clearing what it reads, gaps of up to `joinedGap`
    /// cells joining the runs beside them; returns how many pieces. No
    /// blitter call interrupts it, so its loop state stays in registers.
    ///
    /// The touched cells are those whose bit or whose left neighbour's bit is set; they come
    /// in runs. A run of four or more is summed and turned into alpha four cells at a time
    /// (`prefixSums`, `AlphaRule.alphas`), a shorter one a cell at a time.
    private static func scanRow<R: AlphaRule>(_: R.Type, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>,
                                              words: ClosedRange<Int>, width: Int, joinedGap: Int,
                                              mask: UnsafeMutablePointer<UInt8>, pieces: UnsafeMutablePointer<RowPiece>) -> Int {
        var w = words.lowerBound
        let lastWord = words.upperBound
        while w <= lastWord, bits[w] == 0 { w &+= 1 }
        if w > lastWord { return 0 }
        // A row with one run of touched cells (a thin stroke's row, a shape's top or bottom
        // row) takes a short path without the general loop's state.
        let first = bits[w]
        let firstCells = first | (first &<< 1)
        if first &>> 63 == 0 && firstCells & (firstCells &+ (firstCells & (0 &- firstCells))) == 0 {
            var rest = w &+ 1
            while rest <= lastWord, bits[rest] == 0 { rest &+= 1 }
            if rest > lastWord {
                bits[w] = 0
                let c0 = (w &<< 6) &+ firstCells.trailingZeroBitCount
                let c1 = (w &<< 6) &+ 64 &- firstCells.leadingZeroBitCount
                return singleRun(R.self, acc: acc, c0: c0, c1: c1, width: width, mask: mask, pieces: pieces)
            }
        }
        var n = 0
        var sum: Int32 = 0
        var x = 0             // first pixel not yet covered by a piece or the pending run
        var runStart = -1     // start of the pending coverage-row piece, or −1
        var carry: UInt64 = 0 // the last cell's bit of the previous word
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
                        if runStart >= 0 && c0 &- x <= joinedGap {
                            // A short gap of untouched cells joins the pending run: its
                            // alpha sixteen bytes a store (a `memset` call cost more), the
                            // last store's bytes past the gap rewritten by the run.
                            let fill = SIMD16<UInt8>(repeating: sum == 0 ? 0 : R.alpha(sum))
                            var i = x
                            repeat {
                                UnsafeMutableRawPointer(mask + i).storeBytes(of: fill, as: SIMD16<UInt8>.self)
                                i &+= 16
                            } while i < c0
                        } else {
                            // A gap of untouched cells: end the run, then a constant piece.
                            if runStart >= 0 {
                                pieces[n] = RowPiece(start: Int32(truncatingIfNeeded: runStart),
                                                     end: Int32(truncatingIfNeeded: x), alpha: -1)
                                n &+= 1
                                runStart = -1
                            }
                            if sum != 0 {
                                let a = R.alpha(sum)
                                if a != 0 {
                                    pieces[n] = RowPiece(start: Int32(truncatingIfNeeded: x),
                                                         end: Int32(truncatingIfNeeded: c0), alpha: Int32(a))
                                    n &+= 1
                                }
                            }
                        }
                    }
                    if runStart < 0 { runStart = c0 }
                    var c = c0
                    if end &- c0 >= 4 {
                        repeat {
                            let cells = UnsafeMutableRawPointer(acc + c)
                            var v = cells.loadUnaligned(as: SIMD4<Int32>.self)
                            let left = end &- c
                            if left >= 4 {
                                cells.storeBytes(of: .zero, as: SIMD4<Int32>.self)
                            } else {
                                // The last few cells: lanes past the run are kept as they are
                                // (they may be the next run's) and count as zero here.
                                let inRun = SIMD4<Int32>(0, 1, 2, 3) .< SIMD4(repeating: Int32(truncatingIfNeeded: left))
                                cells.storeBytes(of: v.replacing(with: 0, where: inRun), as: SIMD4<Int32>.self)
                                v = SIMD4(repeating: 0).replacing(with: v, where: inRun)
                            }
                            let sums = Rasterizer.prefixSums(v, sum)
                            sum = sums[3]
                            // Bytes past the run are rewritten by whatever covers them later.
                            UnsafeMutableRawPointer(mask + c).storeBytes(
                                of: SIMD4<UInt8>(truncatingIfNeeded: R.alphas(sums)), as: SIMD4<UInt8>.self)
                            c &+= 4
                        } while c < end
                    } else {
                        repeat {
                            sum &+= acc[c]
                            acc[c] = 0
                            mask[c] = R.alpha(sum)
                            c &+= 1
                        } while c < end
                    }
                    x = end
                }
                // Cells at `width` and beyond (right of the clip) are only cleared.
                var c = max(c0, end)
                while c < c1 { acc[c] = 0; c &+= 1 }
            } while word != 0
        }
        if runStart >= 0 {
            pieces[n] = RowPiece(start: Int32(truncatingIfNeeded: runStart), end: Int32(truncatingIfNeeded: x), alpha: -1)
            n &+= 1
        }
        return endRow(R.self, pieces, n, x: x, width: width, sum: sum)
    }

    /// `scanRow` for a row whose touched cells are the one run `c0..<c1`, with nothing covered
    /// left of it.
    @inline(__always)
    private static func singleRun<R: AlphaRule>(_: R.Type, acc: UnsafeMutablePointer<Int32>, c0: Int, c1: Int, width: Int,
                                                mask: UnsafeMutablePointer<UInt8>, pieces: UnsafeMutablePointer<RowPiece>) -> Int {
        let end = min(c1, width)
        var sum: Int32 = 0
        var c = c0
        while c < end {
            sum &+= acc[c]
            acc[c] = 0
            mask[c] = R.alpha(sum)
            c &+= 1
        }
        while c < c1 { acc[c] = 0; c &+= 1 }
        var n = 0
        if c0 < end {
            pieces[0] = RowPiece(start: Int32(truncatingIfNeeded: c0), end: Int32(truncatingIfNeeded: end), alpha: -1)
            n = 1
        }
        return endRow(R.self, pieces, n, x: end, width: width, sum: sum)
    }

    /// Appends the rest of a row right of `x`, at the running sum's alpha, to its first `n`
    /// pieces (unless that alpha is 0) and returns their count.
    @inline(__always)
    private static func endRow<R: AlphaRule>(_: R.Type, _ pieces: UnsafeMutablePointer<RowPiece>, _ n: Int,
                                             x: Int, width: Int, sum: Int32) -> Int {
        guard x < width && sum != 0 else { return n }
        let a = R.alpha(sum)
        if a == 0 { return n }
        pieces[n] = RowPiece(start: Int32(truncatingIfNeeded: x), end: Int32(truncatingIfNeeded: width), alpha: Int32(a))
        return n &+ 1
    }

    /// The running sums of four cells after `carry`: two shifted adds (`pslldq`, `paddd`).
    @inline(__always)
    static func prefixSums(_ v: SIMD4<Int32>, _ carry: Int32) -> SIMD4<Int32> {
        #if _endian(little)
        // Lanes moved up as one 128-bit integer (lane 0 is its low end): each shift is one
        // `pslldq`; the shifted vectors built lane by lane compiled to eleven shuffles and
        // moves (polys_nz_40 −1 % of its instructions).
        let s = v &+ unsafeBitCast(unsafeBitCast(v, to: UInt128.self) &<< 32, to: SIMD4<Int32>.self)
        return s &+ unsafeBitCast(unsafeBitCast(s, to: UInt128.self) &<< 64, to: SIMD4<Int32>.self)
            &+ SIMD4(repeating: carry)
        #else
        var s = v &+ SIMD4(0, v[0], v[1], v[2])
        s &+= SIMD4(0, 0, s[0], s[1])
        return s &+ SIMD4(repeating: carry)
        #endif
    }
}

/// Maps an accumulated coverage sum (`Rasterizer.fullCoverage` = one pixel's worth, signed by
/// winding) to 8-bit alpha. Every operation wraps, so no value traps; the sums a rule meets are
/// exact (`Rasterizer.exactEdges`), or exact modulo 2³² where that is all it needs
/// (`wrapsHarmlessly`).
protocol AlphaRule {
    static func alpha(_ sum: Int32) -> UInt8
    /// `alpha` of four sums, as 0…255 in each lane: the same operations lane by lane.
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32>
    /// The AVX2 kernel that composites a stretch of cells under this rule (CellsOverAVX2.c), if any.
    static var cellKernel: CellKernel? { get }
    /// The AVX2 kernel that turns a stretch of cells into coverage bytes under this rule, if any.
    static var coverageKernel: CoverageKernel? { get }
    /// Whether the alpha depends only on the sum modulo 2³², so that cells and running sums
    /// may wrap: even-odd's, whose period (2¹⁸) divides 2³².
    static var wrapsHarmlessly: Bool { get }
}

/// A kernel that writes the coverage of `count` cells as bytes and returns the running sum
/// (`crisp_cells_coverage_nonzero_avx2`): bytes, cells, count, sum.
typealias CoverageKernel = @convention(c) (UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int32>?, Int, Int32) -> Int32

/// A kernel that composites a solid colour over `count` native pixels from the cells under it
/// and returns the running sum (`crisp_over_cells_nonzero_avx2`): row, cells, count, colour, sum.
typealias CellKernel = @convention(c) (UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<Int32>?, Int, UInt32, Int32) -> Int32

/// 0…2¹⁷ to 0…255, rounded to nearest (halves up): (a·255 + 2¹⁶) / 2¹⁷.
@inline(__always)
private func level(_ a: Int32) -> Int32 { (a &* 255 &+ 65536) &>> 17 }

/// `level` four at a time, the product as a shift and a subtraction (SSE2 has no 32-bit
/// multiply); both wrap alike.
@inline(__always)
private func levels(_ a: SIMD4<Int32>) -> SIMD4<Int32> { ((a &<< 8) &- a &+ 65536) &>> 17 }

/// Non-zero winding: |sum| clamped to one pixel.
enum NonZeroRule: AlphaRule {
    static var cellKernel: CellKernel? { crisp_over_cells_nonzero_avx2 }
    static var coverageKernel: CoverageKernel? { crisp_cells_coverage_nonzero_avx2 }
    static var wrapsHarmlessly: Bool { false }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 {
        let m = sum &>> 31
        let a = (sum ^ m) &- m
        return UInt8(truncatingIfNeeded: level(a > Rasterizer.fullCoverage ? Rasterizer.fullCoverage : a))
    }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        let m = sums &>> 31
        let a = (sums ^ m) &- m
        let full = SIMD4(repeating: Rasterizer.fullCoverage)
        return levels(a.replacing(with: full, where: a .> full))
    }
}

/// Even-odd: the sum folded into 0…1 pixel with period 2 (a two's-complement mask takes the
/// sign along).
enum EvenOddRule: AlphaRule {
    static var cellKernel: CellKernel? { crisp_over_cells_evenodd_avx2 }
    static var coverageKernel: CoverageKernel? { crisp_cells_coverage_evenodd_avx2 }
    static var wrapsHarmlessly: Bool { true }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 {
        let a = sum & (2 &* Rasterizer.fullCoverage &- 1)
        return UInt8(truncatingIfNeeded: level(a > Rasterizer.fullCoverage ? 2 &* Rasterizer.fullCoverage &- a : a))
    }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        let full = SIMD4(repeating: Rasterizer.fullCoverage)
        let a = sums & (full &+ full &- 1)
        return levels(a.replacing(with: full &+ full &- a, where: a .> full))
    }
}

/// Anti-aliasing off: a pixel is painted when at least half of it is covered.
enum AliasedRule<Base: AlphaRule>: AlphaRule {
    static var cellKernel: CellKernel? { nil }
    static var coverageKernel: CoverageKernel? { nil }
    static var wrapsHarmlessly: Bool { Base.wrapsHarmlessly }

    @inline(__always)
    static func alpha(_ sum: Int32) -> UInt8 { Base.alpha(sum) >= 128 ? 255 : 0 }

    @inline(__always)
    static func alphas(_ sums: SIMD4<Int32>) -> SIMD4<Int32> {
        SIMD4(repeating: 0).replacing(with: 255, where: Base.alphas(sums) .>= 128)
    }
}
