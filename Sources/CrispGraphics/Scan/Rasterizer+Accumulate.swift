import CCrispKernels
import Foundation

// Stage 2 of the rasterizer: edges → cells.
//
// Contract: for a band of rows (`top`..<`bottom` in fixed point, starting at pixel row
// `bandTop`), each edge adds, in every row it crosses inside the band, the signed area it
// sweeps to the band's cells (Int32, `stride` cells a row, relative to the clip's left side),
// and sets the touched bit of each cell it deposits into (a set bit stands for its cell and the
// next). The cells hold differences: the running sum along a row is the winding-weighted
// coverage of each pixel, 2¹⁷ a full pixel. Columns left of the clip add their total to cell
// 0; columns right of it add nothing. The cells and bits are expected all zero on entry (the
// resolve leaves them so); the order of edges does not matter (integer sums).
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
// Why integers: the Float sweep this replaced (edges relative to the clip's origin, x a row by a
// multiply with the slope, the cell values in Float) fixed every rounding in the goldens, so
// its resolve had to add cells one at a time in order (about 60 instructions a row segment of
// dependent float arithmetic), and it gave a pixel different values under different clips.
// Exact-remainder DDAs for the row boundaries and the column heights were tried and cost more
// than the closed form (a division at the first boundary and one for the step, a branch a row,
// about 12 instructions a column crossed against 4). Figures: docs/performance.md, "After
// branch `fixedpoint`".
//
// The edge loop: a band's edges are deposited by one loop with each edge inlined (a call an
// edge cost about 25 instructions, and a stroke's outline is many short edges), an edge's first
// and last rows go first, from x computed directly, and its whole rows run in out-of-line loops
// that keep their state in registers (docs/performance.md, "After branch `curves3`").
//
// The winding limit. Cells and running sums are Int32 and every addition
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
// ordinary drawing pays one comparison a band (docs/performance.md, "After branch `wrap1`").
// Rejected: 64-bit cells or running sums everywhere
// (twice the buffer and half the lanes of every step, for what no ordinary drawing reaches);
// saturating additions (the cells are differences: a clamped difference is wrong for every
// sum after it); detecting the wrap in the resolve (a wrapped sum looks like a right one).
// `WindingLimitTests` draws up to 100 000 coincident copies through every row loop.

extension Rasterizer {
    /// Deposits a band's edges (`edges[0..<count]`, or those at `indices`) for a non-zero rule
    /// when there are more than `exactEdges` of them: as usual if no row of the band has more
    /// than `exactEdges` edges with a piece in it, else `exactEdges` edges at a time, each
    /// group's exact cells added into 64-bit cells and cleared; then each row's running sums,
    /// clamped to ±one pixel (which leaves every non-zero alpha as it is), go back into the
    /// 32-bit cells as differences, for any row loop to resolve. A cell only changes where a
    /// deposit reached it, so the touched bits still mark every cell that is not 0.
    @inline(never)
    func accumulateMany(_ edges: UnsafeMutablePointer<Edge>, count: Int, indices: UnsafeBufferPointer<Int>?,
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
    static func floorDivide(_ n: Int, _ d: Int) -> (quotient: Int, remainder: Int) {
        var q = n / d, r = n &- q &* d
        if r < 0 { q &-= 1; r &+= d }
        return (q, r)
    }

    /// Deposits edges `0..<count`, in one loop: each edge's `accumulate` inlined, so an edge pays
    /// no call (about 25 instructions of saved registers and arguments read from the stack), and
    /// the band's geometry stays in registers across edges.
    @inline(never)
    static func accumulate(_ edges: UnsafeMutablePointer<Edge>, count: Int, top: Int32, bottom: Int32, bandTop: Int,
                                   _ g: BandGeometry, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>) {
        var i = 0
        while i < count {
            accumulate(edges[i], top: top, bottom: bottom, bandTop: bandTop, g, acc: acc, bits: bits)
            i &+= 1
        }
    }

    /// Deposits the edges at `indices` (a band's active edges), in one loop like the above.
    @inline(never)
    static func accumulate(_ edges: UnsafeMutablePointer<Edge>, indices: UnsafeBufferPointer<Int>, top: Int32,
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
    static func accumulate(_ e: Edge, top: Int32, bottom: Int32, bandTop: Int, _ g: BandGeometry,
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
    static func accumulateNarrowRows(_ rows: Int, _ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                             _ x: Int, _ xt: Int, step: Int, d: Int, _ g: BandGeometry) {
        var acc = acc, bits = bits, x = x, xt = xt
        accumulateWholeRows(rows, narrow: true, &acc, &bits, &x, &xt, step: step, d: d, g)
    }

    /// `accumulateWholeRows` for an edge moving a pixel or more a row.
    @inline(never)
    static func accumulateWideRows(_ rows: Int, _ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
                                           _ x: Int, _ xt: Int, step: Int, d: Int, _ g: BandGeometry) {
        var acc = acc, bits = bits, x = x, xt = xt
        accumulateWholeRows(rows, narrow: false, &acc, &bits, &x, &xt, step: step, d: d, g)
    }

    /// Deposits `rows` whole rows of signed height `d` from x (fixed point) on, x·2³² at the
    /// next row boundary being `xt`, stepping by `step` a row; `narrow` (a constant at each
    /// call, so each call is its own loop) for an edge moving less than a pixel a row.
    @inline(__always)
    static func accumulateWholeRows(_ rows: Int, narrow: Bool, _ acc: inout UnsafeMutablePointer<Int32>,
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
    static func accumulateNarrowRow(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
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
    static func accumulateRowOutOfLine(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
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
    static func accumulateRow(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
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
    static func accumulateInColumn(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
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
    static func accumulateColumns(_ acc: UnsafeMutablePointer<Int32>, _ bits: UnsafeMutablePointer<UInt64>,
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
    static func markCells(_ bits: UnsafeMutablePointer<UInt64>, _ from: Int, _ through: Int) {
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
}
