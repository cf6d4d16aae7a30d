/// A destination in a non-native `PixelLayout`, as the compositor sees it: spans are loaded into
/// a native scratch row, blended there and stored back (see PixelLayout.swift).
struct LayoutRows {
    /// The layout of the destination's bytes.
    let layout: PixelLayout
    /// The destination's first byte (raster row 0, column 0).
    let bytes: UnsafeMutableRawPointer
    /// Bytes from one row to the next.
    let bytesPerRow: Int
    /// A native scratch row, at least as wide as any span.
    let scratch: UnsafeMutablePointer<UInt32>

    /// The first byte of pixel `x` in row `y`.
    @inline(__always)
    func address(x: Int, y: Int) -> UnsafeMutableRawPointer { bytes + (y &* bytesPerRow &+ x &* layout.bytesPerPixel) }

    /// Whether every pixel's word is 4-byte aligned (so words can be blended in place).
    var isWordAligned: Bool { layout.bytesPerPixel == 4 && (Int(bitPattern: bytes) | bytesPerRow) & 3 == 0 }

    /// Loads pixels `x..<x+count` of row `y` into `scratch` as native pixels.
    func load(x: Int, y: Int, count: Int) { layout.load(address(x: x, y: y), count: count, into: scratch) }

    /// Stores the first `count` pixels of `scratch` back to pixels `x..<x+count` of row `y`.
    func store(x: Int, y: Int, count: Int) { layout.store(scratch, count: count, to: address(x: x, y: y)) }
}
