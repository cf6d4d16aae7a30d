import CCrispKernels
import Foundation

// Stage 3 of the rasterizer: cells → coverage (or pixels).
//
// Contract: for each row of a band, in order, the running sum of its cells is turned into
// alpha by the fill rule (`AlphaRule`) and handed to the `SpanBlitter` left to right, pixels
// inside the clip only: constant spans between runs of touched cells (`blitSpan`, never alpha
// 0), coverage rows over them (`blitMask`, joined across gaps as the blitter's `joinedGap`
// says), or, when the blitter gives a `CellTarget` and the CPU has AVX2, the runs composited
// straight from the cells into the target's pixels. Every cell it reads and every touched bit
// is left zero, so the band's buffers are ready for the next band. Three row loops, chosen once
// per band (`resolveRows`): the fused AVX2 kernel (`resolveRowsOver`), the AVX2 coverage kernel
// (`resolveRowsCoverage`) and the portable `scanRow` (clip-mask writers, the aliased rules,
// CPUs without AVX2); they give a pixel the same alpha.
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
// Why it is shaped so (the measurements behind each point, and what was tried instead, are in
// docs/performance.md, "After branch `hair`", "`raster2`" and "`raster3`"):
// - A thin stroke's row is one short run with nothing covered on either side, so the resolve
//   skips the alpha of a zero running sum before and after its runs (every rule maps 0 to 0).
// - Short gaps join runs. Each gap between runs used to end a coverage row with `blitMask` and
//   start a constant `blitSpan`: two blitter calls (~100–200 instructions each before the
//   kernel) for every edge crossing. A gap of at most `mergedGap` (32) untouched cells is
//   written into the coverage row as its one alpha (0 included: every kernel skips zero
//   coverage), sixteen bytes a store, so a polygon's row is usually one `blitMask`; the kernels
//   give a pixel the same value from a span or from a row (`KernelDispatchTests`). A clip
//   mask's writer takes no joined gaps (`joinedGap` 0: it records a row's open run from the
//   spans written at full coverage); a gradient's blitter takes every gap (CompositeBlitter).
// - A row is resolved first and the blitter called after (`scanRow`, then the row's pieces):
//   the scan keeps no state across blitter calls (which spilled it to the stack and reloaded
//   it after each call), and it is compiled once per fill rule, not per rule and blitter.
// - A row whose touched cells are one run (a hairline's row; a shape's top and bottom rows) is
//   found with two bit tricks and resolved by a short loop without the general loop's state;
//   the prefix sum shifts its lanes as one 128-bit integer (a `pslldq` each).
// - A solid colour under source-over into native pixels (the blitter's `cellTarget`: nearly
//   every fill and stroke) is composited straight from the cells by one AVX2 call a stretch
//   (CCrispKernels/CellsOverAVX2.c): eight cells a step are loaded and cleared, summed, put
//   through the fill rule and blended, with no coverage bytes between and no cell-at-a-time
//   loop for short runs (a stretch's last one to seven cells are one masked step). Coverage
//   fused with compositing is Blend2D's first lead; here the scalar loop over a hairline row's
//   few cells and the kernel call after it were most of that row's cost.
// - Other blitters that take joined gaps (gradients, clipped fills, glyph and alpha masks) get
//   coverage bytes from the same steps (`resolveRowsCoverage`), joined as their `joinedGap`
//   says (`mergedGap`, or every gap for a gradient's). `scanRow` stays for a blitter that takes
//   no joined gaps (a clip mask's writer), the aliased rules and CPUs without AVX2.
// - A row is scanned a bit word at a time: a word's touched cells run from its lowest set bit
//   to one past its highest, so no carry passes between words. On the fused path a word is one
//   stretch whatever the gaps inside it (untouched cells hold 0, so the kernel gives a gap its
//   one alpha, as a span would), and only a gap of more than `mergedGap` cells between words
//   cuts a row; the coverage path keeps a `joinedGap` of `mergedGap` inside words too (each
//   marked bit smeared over the 33 cells after it), as `RasterizerGapTests` asks of a blitter's
//   spans, and takes every gap inside a word for a `joinedGap` of 64 or more.

extension Rasterizer {
    /// Resolves band rows `rows` (absolute; the band starts at row `bandTop`): each row's cells
    /// become coverage and pieces (`scanRow`), then the pieces go to the blitter.
    @inline(__always)
    func resolveRows<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
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
    func resolveRowsOver<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
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
    func resolveRowsCoverage<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
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
    func resolveStretches<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ rows: Range<Int>, bandTop: Int,
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
    static func span<R: AlphaRule, B: SpanBlitter>(_: R.Type, _ blitter: inout B, x: Int, y: Int, from: Int,
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
    static func stretches(bits: UnsafeMutablePointer<UInt64>, from: Int, count: Int, gap: Int, joiningAll: Bool,
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
    static func scanRow<R: AlphaRule>(_: R.Type, acc: UnsafeMutablePointer<Int32>, bits: UnsafeMutablePointer<UInt64>,
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
    static func singleRun<R: AlphaRule>(_: R.Type, acc: UnsafeMutablePointer<Int32>, c0: Int, c1: Int, width: Int,
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
    static func endRow<R: AlphaRule>(_: R.Type, _ pieces: UnsafeMutablePointer<RowPiece>, _ n: Int,
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
