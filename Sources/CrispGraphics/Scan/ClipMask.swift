/// An 8-bit coverage mask over a pixel rectangle: the non-rectangular part of a clip.
/// Immutable once built (and summarized); graphics states share it.
@_spi(Testing) public final class ClipMask {
    /// The pixels the mask covers (raster coordinates); outside them the clip lets nothing through.
    @_spi(Testing) public let bounds: PixelRect
    /// Coverage bytes, row after row, `bounds.width` per row.
    @_spi(Testing) public let data: UnsafeMutablePointer<UInt8>
    /// Per row, where it lets anything through and a fully open run (set by `summarizeRows()`
    /// or recorded by the writer, `recordRowRuns()`; nil before).
    @_spi(Testing) public private(set) var rowRuns: UnsafeMutablePointer<RowRuns>?

    /// What one mask row lets through, as raster columns: nothing outside `start..<end` (none of
    /// it when `start >= end`), and everything (coverage 255) in `fullStart..<fullEnd`, which
    /// lies inside it (possibly empty).
    @_spi(Testing) public struct RowRuns {
        @_spi(Testing) public internal(set) var start: Int32, end: Int32, fullStart: Int32, fullEnd: Int32
    }

    /// A zeroed mask over `bounds`.
    @_spi(Testing) public init(bounds: PixelRect) {
        self.bounds = bounds
        let n = max(1, bounds.width * bounds.height)
        data = .allocate(capacity: n)
        data.initialize(repeating: 0, count: n)
    }

    deinit {
        data.deallocate()
        rowRuns?.deallocate()
    }

    /// Records each row's `RowRuns`, once the mask is complete: compositing through the mask then
    /// skips what it hides and treats its open middle as no mask at all (a rounded rectangle's
    /// clip is mostly that middle).
    @discardableResult
    @_spi(Testing) public func summarizeRows() -> UnsafeMutablePointer<RowRuns> {
        let height = bounds.height, width = bounds.width
        let runs = rowRuns ?? .allocate(capacity: max(1, height))
        rowRuns = runs
        guard height > 0, width > 0 else { return runs }
        let x0 = Int32(bounds.x)
        for r in 0..<height {
            let m = UnsafeRawPointer(data + r * width)
            // Eight bytes at a time through the long stretches (hidden ends, the open middle).
            var start = 0
            while start &+ 8 <= width && m.loadUnaligned(fromByteOffset: start, as: UInt64.self) == 0 { start &+= 8 }
            while start < width && m.load(fromByteOffset: start, as: UInt8.self) == 0 { start &+= 1 }
            var end = width
            while end &- 8 >= start && m.loadUnaligned(fromByteOffset: end &- 8, as: UInt64.self) == 0 { end &-= 8 }
            while end > start && m.load(fromByteOffset: end &- 1, as: UInt8.self) == 0 { end &-= 1 }
            var bestStart = start, bestEnd = start
            var i = start
            while i < end {
                if m.load(fromByteOffset: i, as: UInt8.self) != 255 { i &+= 1; continue }
                let runStart = i
                while i &+ 8 <= end && m.loadUnaligned(fromByteOffset: i, as: UInt64.self) == .max { i &+= 8 }
                while i < end && m.load(fromByteOffset: i, as: UInt8.self) == 255 { i &+= 1 }
                if i &- runStart > bestEnd &- bestStart { (bestStart, bestEnd) = (runStart, i) }
            }
            runs[r] = RowRuns(start: x0 + Int32(start), end: x0 + Int32(end),
                              fullStart: x0 + Int32(bestStart), fullEnd: x0 + Int32(bestEnd))
        }
        return runs
    }

    /// The row runs, every row empty, for a writer to record span by span (`MaskWriter`) in
    /// place of `summarizeRows()`. Empty is `start` above `end`; a writer lowers `start`,
    /// raises `end` and keeps in `fullStart..<fullEnd` a run it wrote at full coverage.
    func recordRowRuns() -> UnsafeMutablePointer<RowRuns> {
        let rows = max(1, bounds.height)
        let runs = rowRuns ?? .allocate(capacity: rows)
        runs.initialize(repeating: RowRuns(start: .max, end: .min, fullStart: 0, fullEnd: 0), count: rows)
        rowRuns = runs
        return runs
    }

    /// Finishes row runs recorded by a writer: each row's ends move in over zero bytes (a
    /// coverage row can end in some) and its open run out over the full-coverage bytes beside
    /// it (the ends of the coverage rows on either side of a full span), as `summarizeRows()`
    /// would find them. Only the bytes at the runs' ends are read.
    func finishRowRuns() {
        guard let runs = rowRuns else { return }
        let x0 = bounds.x
        for r in 0..<bounds.height {
            var run = runs[r]
            guard run.start < run.end else { continue }
            let m = data + (r * bounds.width - x0)
            while run.start < run.end && m[Int(run.start)] == 0 { run.start &+= 1 }
            while run.end > run.start && m[Int(run.end) &- 1] == 0 { run.end &-= 1 }
            if run.fullStart < run.fullEnd {
                while run.fullStart > run.start && m[Int(run.fullStart) &- 1] == 255 { run.fullStart &-= 1 }
                while run.fullEnd < run.end && m[Int(run.fullEnd)] == 255 { run.fullEnd &+= 1 }
            }
            runs[r] = run
        }
    }

    /// The mask bytes of raster row `y`, starting at `bounds.x`.
    @inline(__always)
    @_spi(Testing) public func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { data + (y - bounds.y) * bounds.width }

    /// The mask as plain pointers for a span consumer, which keeps the mask itself alive beside
    /// it. Summarizes the rows first if that has not been done.
    var rows: ClipRows {
        ClipRows(data: UnsafePointer(data), runs: UnsafePointer(rowRuns ?? summarizeRows()),
                 x: bounds.x, y: bounds.y, width: bounds.width)
    }
}

/// A finished clip mask as plain pointers: what each row lets through (`ClipMask.RowRuns`) and
/// its coverage bytes. The span consumers apply the clip through it rather than through the
/// `ClipMask` reference: a class field read in a mutating span method, around the call that
/// blends, retained and released the mask on every span (callgrind). The consumer holds the
/// mask, so the pointers stay valid while it runs.
///
/// A span is cut to the columns its mask row lets through (hidden pixels are left alone by
/// every consumer, so skipping them changes nothing), and only the part outside the row's
/// fully open run is multiplied by the mask: coverage times 255 is that coverage, exactly.
struct ClipRows {
    let data: UnsafePointer<UInt8>
    let runs: UnsafePointer<ClipMask.RowRuns>
    /// The mask's bounds: first column, first row, width.
    let x: Int, y: Int, width: Int

    /// Whether the mask lets pixels `x..<x+count` of row `y` fully through (all in the row's
    /// open run): then a span there is drawn as if there were no mask.
    @inline(__always)
    func isOpen(x: Int, y: Int, count: Int) -> Bool {
        let run = runs[y &- self.y]
        return x >= Int(run.fullStart) && x &+ count <= Int(run.fullEnd)
    }

    /// Pixels `x..<x+count` of row `y` at one coverage: `open(x, count)` for the part the mask
    /// lets fully through, `masked(x, count, coverage)` with a coverage row for each part on
    /// either side of it. Nothing for hidden pixels.
    @inline(__always)
    func span(x: Int, y: Int, count: Int, coverage: UInt8, scratch: UnsafeMutablePointer<UInt8>,
              open: (Int, Int) -> Void, masked: (Int, Int, UnsafePointer<UInt8>) -> Void) {
        let run = runs[y &- self.y]
        let start = max(x, Int(run.start)), end = min(x &+ count, Int(run.end))
        guard start < end else { return }
        let fullStart = min(max(Int(run.fullStart), start), end), fullEnd = min(max(Int(run.fullEnd), fullStart), end)
        if start < fullStart {
            masked(start, fullStart &- start, multiply(coverage, x: start, y: y, count: fullStart &- start, into: scratch))
        }
        if fullStart < fullEnd { open(fullStart, fullEnd &- fullStart) }
        if fullEnd < end {
            masked(fullEnd, end &- fullEnd, multiply(coverage, x: fullEnd, y: y, count: end &- fullEnd, into: scratch))
        }
    }

    /// Pixels `x..<x+count` of row `y` with a coverage byte each, cut to the columns the mask
    /// row lets through (`x` and `count` updated): the coverage itself when they all lie in the
    /// row's fully open run, else the coverage times the mask, in `scratch` (which may not be
    /// `coverage`). Nil when the row hides them all.
    @inline(__always)
    func row(x: inout Int, y: Int, count: inout Int, coverage: UnsafePointer<UInt8>,
             scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8>? {
        let run = runs[y &- self.y]
        let start = max(x, Int(run.start)), end = min(x &+ count, Int(run.end))
        guard start < end else { return nil }
        let c = coverage + (start &- x)
        x = start
        count = end &- start
        if start >= Int(run.fullStart) && end <= Int(run.fullEnd) { return c }
        let m = data + ((y &- self.y) &* width &+ (start &- self.x))
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), UInt32(c[i])) }
        return UnsafePointer(scratch)
    }

    /// The mask bytes of pixels `x..<x+count` of row `y` times `coverage`: the mask row itself
    /// at full coverage, else written to `scratch`.
    @inline(__always)
    private func multiply(_ coverage: UInt8, x: Int, y: Int, count: Int,
                          into scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let m = data + ((y &- self.y) &* width &+ (x &- self.x))
        if coverage == 255 { return m }
        let c = UInt32(coverage)
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), c) }
        return UnsafePointer(scratch)
    }
}

extension Pixel {
    /// `a·b/255` rounded, for 8-bit factors.
    @inline(__always)
    @_spi(Testing) public static func multiply8(_ a: UInt32, _ b: UInt32) -> UInt8 {
        let v = a &* b &+ 128
        return UInt8(truncatingIfNeeded: (v &+ (v >> 8)) >> 8)
    }
}
