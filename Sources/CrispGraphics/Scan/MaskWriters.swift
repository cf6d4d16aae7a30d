// The span consumers that write coverage rather than pixels: clip masks (`MaskWriter`) and the
// alpha a shadow is cast from or an image mask lets through (`AlphaWriter`). Like the
// compositor they are concrete types, and a previous clip mask multiplies their coverage per
// span.

/// Writes coverage × the paint's alpha into an 8-bit mask: the shape a shadow is cast from, or
/// what an image lets through when it becomes a clip.
struct AlphaWriter: SpanBlitter {
    /// The mask written (spans must lie inside its bounds).
    let mask: ClipMask
    /// Whose alpha multiplies the coverage; unpainted pixels count as transparent.
    let paint: Paint
    /// A clip mask multiplying the coverage first, if any.
    let clipMask: ClipMask?
    /// Scratch row for shaded colours (at least as wide as the mask).
    let shadeBuffer: UnsafeMutablePointer<UInt32>
    /// Scratch row for coverage multiplied by the clip mask (at least as wide as the mask).
    let maskScratch: UnsafeMutablePointer<UInt8>

    /// A run of one coverage, through the clip mask first when there is one.
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        if let clipMask {
            write(x: x, y: y, count: count, coverage: clipMask.masked(coverage, x: x, y: y, count: count, scratch: maskScratch))
            return
        }
        let out = mask.row(y) + (x - mask.bounds.x)
        if let color = paint.solidColor {
            out.update(repeating: Pixel.multiply8(UInt32(coverage), color >> 24), count: count)
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage), alpha(shadeBuffer[i])) }
    }

    /// A run with a coverage byte per pixel, through the clip mask first when there is one.
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        if let clipMask {
            write(x: x, y: y, count: count, coverage: clipMask.masked(coverage, x: x, y: y, count: count, scratch: maskScratch))
        } else {
            write(x: x, y: y, count: count, coverage: coverage)
        }
    }

    /// Writes pixels `x..<x+count` of row `y` with a coverage byte each.
    private func write(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if let color = paint.solidColor {
            let a = color >> 24
            for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), a) }
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), alpha(shadeBuffer[i])) }
    }

    /// The alpha of a shaded pixel, 0 where the paint does not reach.
    @inline(__always)
    private func alpha(_ p: UInt32) -> UInt32 { p == Pixel.unpainted ? 0 : p >> 24 }
}

/// Writes coverage into an 8-bit mask (used to build clip masks), multiplied by the previous
/// clip mask when there is one.
struct MaskWriter: SpanBlitter {
    /// The mask written (spans must lie inside its bounds).
    let mask: ClipMask
    /// The clip mask in force before, multiplying the coverage, if any.
    let clipMask: ClipMask?
    /// Scratch row for coverage multiplied by the clip mask (at least as wide as the mask).
    let maskScratch: UnsafeMutablePointer<UInt8>

    /// A run of one coverage, through the clip mask first when there is one.
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if let clipMask {
            out.update(from: clipMask.masked(coverage, x: x, y: y, count: count, scratch: maskScratch), count: count)
        } else {
            out.update(repeating: coverage, count: count)
        }
    }

    /// A run with a coverage byte per pixel, through the clip mask first when there is one.
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if let clipMask {
            out.update(from: clipMask.masked(coverage, x: x, y: y, count: count, scratch: maskScratch), count: count)
        } else {
            out.update(from: coverage, count: count)
        }
    }
}
