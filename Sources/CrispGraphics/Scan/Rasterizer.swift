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
// The stages, one file each (Scan/), and what each hands to the next:
//   ScanContract.swift        the types the Scan and Composite stages share: `SpanBlitter` (what
//                             a coverage consumer takes: spans, coverage rows, and optionally a
//                             `CellTarget` for fused compositing), `PixelRect`, `CoverageRule`,
//                             `Edge`.
//   Rasterizer.swift          (this file) the rasterizer's state, `reset`, and `render`: the
//                             banding driver that runs the next three stages band by band.
//   Rasterizer+Edges.swift    segments in raster coordinates → `Edge`s in 24.8 fixed point,
//                             dropped or moved onto the clip box's left side where they cannot
//                             show, clipped to ±2²¹ px.
//   Rasterizer+Accumulate.swift  edges → a band's cells (coverage differences, Int32) and
//                             touched bits (a bit a cell an edge reached), for a band's rows;
//                             the winding limit (`accumulateMany`).
//   Rasterizer+Resolve.swift  cells and touched bits → coverage for the blitter: constant
//                             spans, coverage rows, or (with a `cellTarget`) pixels composited
//                             straight from the cells by the AVX2 kernels; leaves every cell 0
//                             and every bit clear for the next band.
//   AlphaRule.swift           the fill rules: a running sum → 8-bit alpha, and their kernels.
//   Rasterizer+Curves.swift   curve edges: curves → monotone quadratics (`CurveEdge`), and
//                             their sweep, row by row and column by column inside the band,
//                             each piece's chord and its exact area against it into the same
//                             cells (docs/curves.md).
// The one place where the Scan stage calls into Composite is the resolve: `blitSpan`/`blitMask`
// on the `SpanBlitter`, or a `CellTarget` kernel (CCrispKernels/CellsOverAVX2.c).
//
// Work proceeds in horizontal bands of at most `bandBudget` cells so the buffer stays in L2.

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
    var clipLeft: CGFloat = 0, clipTop: CGFloat = 0, clipRight: CGFloat = 0, clipBottom: CGFloat = 0
    var clipIsEmpty = true
    // Hot state mutated once per segment: never accessed re-entrantly, so the dynamic
    // exclusivity checks (a runtime call per access) are switched off.
    // The outline's edges, in a buffer of our own: `Array.append` checks uniqueness and
    // capacity through calls on every segment, which cost more than the rest of `addLine`.
    @exclusivity(unchecked) var edges: UnsafeMutablePointer<Edge>
    @exclusivity(unchecked) var edgeCount = 0
    var edgeCapacity = 256
    /// Where `sortEdgesByTop` deals the edges out, and its per-row counts.
    var sortedEdges: UnsafeMutablePointer<Edge>
    var sortedCapacity = 256
    var rowStarts: [Int] = []
    // Bounds of the edges, fixed point.
    @exclusivity(unchecked) var minY = Int32.max
    @exclusivity(unchecked) var maxY = Int32.min
    @exclusivity(unchecked) var minX = Int32.max
    @exclusivity(unchecked) var maxX = Int32.min
    /// Segments offered (`addLine` calls, before clipping) since the rasterizer was made: a work
    /// count, so tests bound work by counts rather than by time.
    @exclusivity(unchecked) @_spi(Testing) public internal(set) var segmentsOffered = 0

    var accumulation: UnsafeMutablePointer<Int32>
    var accumulationCapacity = 0
    var touched: UnsafeMutablePointer<UInt64>
    var touchedCapacity = 0
    /// Per-row coverage scratch for the resolver and for clipped blitters.
    private(set) var coverage: UnsafeMutablePointer<UInt8>
    var coverageCapacity = 0
    /// A row's pieces for the blitter (`scanRow`): at most two a run of touched cells (a run
    /// is at least two cells long and runs are apart, so at most width / 3 + 1 start inside
    /// the clip) and one for the row's end.
    var rowPieces: UnsafeMutablePointer<RowPiece>
    var rowPiecesCapacity = 0
    /// A band's edges per row (`accumulateMany`), as differences from one row to the next.
    var rowEdgeCounts: [Int] = []
    /// The outline's curve edges (Rasterizer+Curves.swift), swept after the line edges.
    @exclusivity(unchecked) var curves: UnsafeMutablePointer<CurveEdge>
    @exclusivity(unchecked) var curveCount = 0
    var curveCapacity = 64
    /// The curve walk's parameters of one edge: its row and column crossings in a band.
    var curveScratch: UnsafeMutablePointer<Double>
    var curveScratchCapacity = 0

    init() {
        edges = .allocate(capacity: edgeCapacity)
        sortedEdges = .allocate(capacity: sortedCapacity)
        curves = .allocate(capacity: curveCapacity)
        curveScratch = .allocate(capacity: 1)
        accumulation = .allocate(capacity: 1)
        touched = .allocate(capacity: 1)
        coverage = .allocate(capacity: 1)
        rowPieces = .allocate(capacity: 1)
    }

    deinit {
        edges.deallocate()
        sortedEdges.deallocate()
        curves.deallocate()
        curveScratch.deallocate()
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
        curveCount = 0
        minY = .max
        maxY = .min
        minX = .max
        maxX = .min
    }

    @_spi(Testing) public var isEmpty: Bool { edgeCount == 0 && curveCount == 0 }

    /// A scratch row of at least `count` coverage bytes (valid until the next call).
    func scratchCoverage(count: Int) -> UnsafeMutablePointer<UInt8> {
        if count > coverageCapacity {
            coverage.deallocate()
            coverageCapacity = max(count, coverageCapacity * 2)
            coverage = .allocate(capacity: coverageCapacity)
        }
        return coverage
    }

    // MARK: Rendering

    /// Resolves the outline into spans for `blitter`, then forgets the outline.
    func render<B: SpanBlitter>(rule: CoverageRule, into blitter: inout B) {
        defer { reset(clip: clip) }
        guard edgeCount > 0 || curveCount > 0, !clip.isEmpty else { return }
        switch rule {
        case .nonZero: render(NonZeroRule.self, &blitter)
        case .evenOdd: render(EvenOddRule.self, &blitter)
        case .nonZeroAliased: render(AliasedRule<NonZeroRule>.self, &blitter)
        case .evenOddAliased: render(AliasedRule<EvenOddRule>.self, &blitter)
        }
    }

    func render<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ blitter: inout B) {
        // The winding limit counts edges: past it, curves become chords (line edges).
        if curveCount > 0 && !R.wrapsHarmlessly && edgeCount + curveCount > Rasterizer.exactEdges {
            flattenCurvesToEdges()
        }
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
        if curveCount > 0 && 4 * (bandRows + width + 8) > curveScratchCapacity {
            curveScratch.deallocate()
            curveScratchCapacity = 4 * (bandRows + width + 8)
            curveScratch = .allocate(capacity: curveScratchCapacity)
        }
        let geometry = BandGeometry(width: width, stride: stride, wordsPerRow: wordsPerRow,
                                    originX: clip.x << 8, bandRows: bandRows)

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
            if curveCount > 0 {
                Rasterizer.accumulateCurves(curves, count: curveCount, top: top, bottom: bottom, bandTop: firstRow,
                                            geometry, acc: acc, bits: bits, scratch: curveScratch)
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
            if curveCount > 0 {
                Rasterizer.accumulateCurves(curves, count: curveCount, top: top, bottom: bottom, bandTop: bandTop,
                                            geometry, acc: acc, bits: bits, scratch: curveScratch)
            }
            resolveRows(R.self, bandTop..<bandBottom, bandTop: bandTop, words: words, geometry, &blitter)
            bandTop = bandBottom
        }
    }

    /// The layout of a band's accumulation buffer and touched bits.
    struct BandGeometry {
        /// Pixels per row (the clip's width).
        var width: Int
        /// Cells per buffer row: the pixels and two more (a piece in the last column deposits
        /// into cell `width`; the resolver's runs may end one further).
        var stride: Int
        /// Touched-bit words per buffer row.
        var wordsPerRow: Int
        /// The clip's left side in fixed point: cell 0's left edge.
        var originX: Int
        /// Rows a band holds at most.
        var bandRows: Int
    }

    /// Orders the edges by the first row they reach (their top row, or `firstRow` for those that
    /// start above it), in linear time: counted per row, then dealt out. The order within a row
    /// does not matter — integer coverage adds up to the same value in any order. With fewer
    /// than one edge per eight rows a comparison sort does it.
    func sortEdgesByTop(firstRow: Int, rows: Int) {
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

    func ensureCapacity(cells: Int, words: Int, width: Int) {
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
}
