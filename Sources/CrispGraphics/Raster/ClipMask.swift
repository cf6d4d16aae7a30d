/// An 8-bit coverage mask over a pixel rectangle: the non-rectangular part of a clip.
/// Immutable once built; graphics states share it.
final class ClipMask {
    /// The pixels the mask covers (raster coordinates); outside them the clip lets nothing through.
    let bounds: PixelRect
    /// Coverage bytes, row after row, `bounds.width` per row.
    let data: UnsafeMutablePointer<UInt8>

    /// A zeroed mask over `bounds`.
    init(bounds: PixelRect) {
        self.bounds = bounds
        let n = max(1, bounds.width * bounds.height)
        data = .allocate(capacity: n)
        data.initialize(repeating: 0, count: n)
    }

    deinit { data.deallocate() }

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
