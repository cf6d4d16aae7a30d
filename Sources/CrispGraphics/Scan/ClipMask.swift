/// An 8-bit coverage mask over a pixel rectangle: the non-rectangular part of a clip.
/// Immutable once built (and summarized); graphics states share it.
final class ClipMask {
    /// The pixels the mask covers (raster coordinates); outside them the clip lets nothing through.
    let bounds: PixelRect
    /// Coverage bytes, row after row, `bounds.width` per row.
    let data: UnsafeMutablePointer<UInt8>
    /// Per row, where it lets anything through and its longest fully open run (set by
    /// `summarizeRows()`, nil before).
    private(set) var rowRuns: UnsafeMutablePointer<RowRuns>?

    /// What one mask row lets through, as raster columns: nothing outside `start..<end`, and
    /// everything (coverage 255) in `fullStart..<fullEnd`, which lies inside it (possibly empty).
    struct RowRuns {
        var start: Int32, end: Int32, fullStart: Int32, fullEnd: Int32
    }

    /// A zeroed mask over `bounds`.
    init(bounds: PixelRect) {
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
    func summarizeRows() {
        let height = bounds.height, width = bounds.width
        guard height > 0, width > 0 else { return }
        let runs = rowRuns ?? .allocate(capacity: height)
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
        rowRuns = runs
    }

    /// The mask bytes of raster row `y`, starting at `bounds.x`.
    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { data + (y - bounds.y) * bounds.width }

    /// The coverage of pixels `x..<x+count` of row `y` (inside the mask) multiplied by the mask:
    /// the mask row itself at full coverage, otherwise `scratch`, filled.
    @inline(__always)
    func masked(_ coverage: UInt8, x: Int, y: Int, count: Int,
                scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let m = row(y) + (x - bounds.x)
        if coverage == 255 { return UnsafePointer(m) }
        let c = UInt32(coverage)
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), c) }
        return UnsafePointer(scratch)
    }

    /// A coverage row for pixels `x..<x+count` of row `y` (inside the mask) multiplied by the
    /// mask, written to `scratch` (which may not be `coverage`).
    @inline(__always)
    func masked(_ coverage: UnsafePointer<UInt8>, x: Int, y: Int, count: Int,
                scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        let m = row(y) + (x - bounds.x)
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), UInt32(coverage[i])) }
        return UnsafePointer(scratch)
    }
}

extension Pixel {
    /// `a·b/255` rounded, for 8-bit factors.
    @inline(__always)
    static func multiply8(_ a: UInt32, _ b: UInt32) -> UInt8 {
        let v = a &* b &+ 128
        return UInt8(truncatingIfNeeded: (v &+ (v >> 8)) >> 8)
    }
}
