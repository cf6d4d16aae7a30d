// The blitters turn coverage spans into pixels. Each is generic over its paint and blend
// operator so that every (paint, blend) pair gets its own specialized inner loop; all branching
// on state happens before the pixel loop. Constant-coverage spans of an opaque constant paint
// under a replacing operator become plain stores (`update(repeating:)`, memset-class); fully
// covered spans of any other opaque paint are shaded straight into the destination row.

/// A source of premultiplied colour for each pixel.
protocol PaintSource {
    /// Whether the paint is one colour everywhere (`constantColor` is then meaningful).
    static var isConstant: Bool { get }
    /// The colour of a constant paint.
    var constantColor: UInt32 { get }
    /// Whether every pixel the paint yields is opaque (and so never `Pixel.unpainted`): an
    /// opaque non-constant paint at full coverage is shaded straight into the destination.
    var isOpaque: Bool { get }
    /// Whether `shade` may write `Pixel.unpainted` for pixels the paint does not reach (a
    /// gradient without extension beyond its ends); blending then leaves them untouched.
    static var mayLeaveUnpainted: Bool { get }
    /// Writes the paint's colours for pixels `x..<x+count` of row `y` (device pixels).
    mutating func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>)
}

extension PaintSource {
    static var isConstant: Bool { false }
    var constantColor: UInt32 { 0 }
    static var mayLeaveUnpainted: Bool { false }
}

extension Pixel {
    /// A value no premultiplied pixel can have (colour above alpha): "the paint does not reach
    /// this pixel".
    static let unpainted: UInt32 = 0x00FF_FFFF
}

/// One premultiplied colour.
struct SolidPaint: PaintSource {
    let color: UInt32
    static var isConstant: Bool { true }
    static var mayLeaveUnpainted: Bool { false }
    var constantColor: UInt32 { color }
    var isOpaque: Bool { color >> 24 == 255 }
    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        out.update(repeating: color, count: count)
    }
}

/// Paints coverage into a 32-bit premultiplied pixel buffer.
struct PaintBlitter<P: PaintSource, M: BlendOperator>: SpanBlitter {
    let pixels: UnsafeMutablePointer<UInt32>
    /// Pixels from one row to the next.
    let rowStride: Int
    var paint: P
    /// Scratch row for non-constant paints (at least as wide as the clip box).
    let shadeBuffer: UnsafeMutablePointer<UInt32>

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let row = pixels + y * rowStride + x
        let c = UInt32(coverage)
        if P.isConstant {
            let src = paint.constantColor
            if c == 255, M.opaqueSourceReplaces, paint.isOpaque {
                row.update(repeating: src, count: count)
                return
            }
            M.blendSpan(row, count: count, source: src, coverage: c)
        } else {
            if c == 255, M.opaqueSourceReplaces, paint.isOpaque {
                paint.shade(x: x, y: y, count: count, into: row)
                return
            }
            paint.shade(x: x, y: y, count: count, into: shadeBuffer)
            if c == 255 {
                // Full coverage: the operator's own result, with no coverage arithmetic.
                for i in 0..<count {
                    let src = shadeBuffer[i]
                    if P.mayLeaveUnpainted, src == Pixel.unpainted { continue }
                    row[i] = M.blend(src, row[i])
                }
                return
            }
            for i in 0..<count {
                let src = shadeBuffer[i]
                if P.mayLeaveUnpainted, src == Pixel.unpainted { continue }
                row[i] = M.blend(src, row[i], coverage: c)
            }
        }
    }

    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let row = pixels + y * rowStride + x
        if P.isConstant {
            let src = paint.constantColor
            let store = M.opaqueSourceReplaces && paint.isOpaque
            for i in 0..<count {
                let c = UInt32(coverage[i])
                if c == 0 { continue }
                row[i] = (c == 255 && store) ? src : M.blend(src, row[i], coverage: c)
            }
        } else {
            paint.shade(x: x, y: y, count: count, into: shadeBuffer)
            for i in 0..<count {
                let c = UInt32(coverage[i])
                let src = shadeBuffer[i]
                if c == 0 || (P.mayLeaveUnpainted && src == Pixel.unpainted) { continue }
                row[i] = M.blend(src, row[i], coverage: c)
            }
        }
    }
}

/// Multiplies coverage by a clip mask before passing it on.
struct MaskedBlitter<Inner: SpanBlitter>: SpanBlitter {
    var inner: Inner
    let mask: ClipMask
    /// Scratch row at least as wide as the mask.
    let scratch: UnsafeMutablePointer<UInt8>

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let m = mask.row(y) + (x - mask.bounds.x)
        if coverage == 255 {
            inner.blitMask(x: x, y: y, count: count, coverage: m)
            return
        }
        let c = UInt32(coverage)
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), c) }
        inner.blitMask(x: x, y: y, count: count, coverage: scratch)
    }

    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let m = mask.row(y) + (x - mask.bounds.x)
        for i in 0..<count { scratch[i] = Pixel.multiply8(UInt32(m[i]), UInt32(coverage[i])) }
        inner.blitMask(x: x, y: y, count: count, coverage: scratch)
    }
}

/// Writes coverage × the paint's alpha into an 8-bit mask: the shape a shadow is cast from.
struct AlphaWriter<P: PaintSource>: SpanBlitter {
    let mask: ClipMask
    var paint: P
    let shadeBuffer: UnsafeMutablePointer<UInt32>

    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if P.isConstant {
            out.update(repeating: Pixel.multiply8(UInt32(coverage), paint.constantColor >> 24), count: count)
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage), alpha(shadeBuffer[i])) }
    }

    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        let out = mask.row(y) + (x - mask.bounds.x)
        if P.isConstant {
            let a = paint.constantColor >> 24
            for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), a) }
            return
        }
        paint.shade(x: x, y: y, count: count, into: shadeBuffer)
        for i in 0..<count { out[i] = Pixel.multiply8(UInt32(coverage[i]), alpha(shadeBuffer[i])) }
    }

    @inline(__always)
    private func alpha(_ p: UInt32) -> UInt32 { p == Pixel.unpainted ? 0 : p >> 24 }
}

/// Writes coverage into an 8-bit mask (used to build clip masks).
struct MaskWriter: SpanBlitter {
    let mask: ClipMask

    @inline(__always)
    mutating func blitSpan(x: Int, y: Int, count: Int, coverage: UInt8) {
        (mask.row(y) + (x - mask.bounds.x)).update(repeating: coverage, count: count)
    }

    @inline(__always)
    mutating func blitMask(x: Int, y: Int, count: Int, coverage: UnsafePointer<UInt8>) {
        (mask.row(y) + (x - mask.bounds.x)).update(from: coverage, count: count)
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

/// An 8-bit coverage mask over a pixel rectangle: the non-rectangular part of a clip.
/// Immutable once built; graphics states share it.
final class ClipMask {
    let bounds: PixelRect
    let data: UnsafeMutablePointer<UInt8>

    /// A zeroed mask over `bounds`.
    init(bounds: PixelRect) {
        self.bounds = bounds
        let n = max(1, bounds.width * bounds.height)
        data = .allocate(capacity: n)
        data.initialize(repeating: 0, count: n)
    }

    deinit { data.deallocate() }

    @inline(__always)
    func row(_ y: Int) -> UnsafeMutablePointer<UInt8> { data + (y - bounds.y) * bounds.width }
}
