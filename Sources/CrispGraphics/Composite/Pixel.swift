import Foundation

// Pixels are premultiplied 8-bit BGRA in one UInt32, read as 0xAARRGGBB on little-endian
// machines: the layout of an X11 TrueColor ZPixmap of depth 24/32, so the X11 host presents the
// buffer with no conversion. Multiplication by an 8-bit factor works on two channels at once
// (red+blue in 0x00FF00FF, alpha+green shifted down), and x/255 is rounded exactly with
//     (x + 128 + ((x + 128) >> 8)) >> 8
// which is correct for every x in 0…255·255 (Blinn, "Three Wrongs Make a Right", 1995).

/// Pixel arithmetic on premultiplied `0xAARRGGBB` values.
@_spi(Testing) public enum Pixel {
    /// Packs premultiplied channels (each 0…255) into a pixel.
    @inline(__always)
    static func pack(a: UInt32, r: UInt32, g: UInt32, b: UInt32) -> UInt32 {
        (a << 24) | (r << 16) | (g << 8) | b
    }

    /// A premultiplied pixel from straight colour components in 0…1.
    static func premultiplied(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) -> UInt32 {
        let a = roundedHalfAway(alpha * 255)
        let r = roundedHalfAway(red * alpha * 255), g = roundedHalfAway(green * alpha * 255)
        let b = roundedHalfAway(blue * alpha * 255)
        return pack(a: UInt32(a), r: UInt32(min(r, a)), g: UInt32(min(g, a)), b: UInt32(min(b, a)))
    }

    /// `x.rounded()` (half away from zero), without the libm call it is on this target (SSE2
    /// has no rounding instruction): truncate, then compare the exact fraction with ½. Gradient
    /// tables round 4096 values each.
    @inline(__always)
    static func roundedHalfAway(_ x: CGFloat) -> CGFloat {
        guard abs(x) < 4_503_599_627_370_496 else { return x.rounded() }   // 2^52, and NaN
        let whole = CGFloat(Int64(x))
        let fraction = x - whole   // exact: the bits below the units
        return fraction >= 0.5 ? whole + 1 : fraction <= -0.5 ? whole - 1 : whole
    }

    @inline(__always) static func alpha(_ p: UInt32) -> UInt32 { p >> 24 }

    /// Multiplies all four channels by `f`/255 (f in 0…255), rounding exactly.
    @inline(__always)
    static func scale(_ p: UInt32, by f: UInt32) -> UInt32 {
        var rb = (p & 0x00FF_00FF) &* f &+ 0x0080_0080
        rb = ((rb &+ ((rb >> 8) & 0x00FF_00FF)) >> 8) & 0x00FF_00FF
        var ag = ((p >> 8) & 0x00FF_00FF) &* f &+ 0x0080_0080
        ag = (ag &+ ((ag >> 8) & 0x00FF_00FF)) & 0xFF00_FF00
        return rb | ag
    }

    /// Source-over: `src + dst·(1 − αsrc)`.
    @inline(__always)
    static func sourceOver(_ src: UInt32, _ dst: UInt32) -> UInt32 {
        src &+ scale(dst, by: 255 &- (src >> 24))
    }

    /// Linear interpolation `dst + (src − dst)·f/255`, computed as `src·f + dst·(255 − f)`.
    @inline(__always)
    static func lerp(_ dst: UInt32, _ src: UInt32, _ f: UInt32) -> UInt32 {
        scale(src, by: f) &+ scale(dst, by: 255 &- f)
    }

    /// Converts a premultiplied pixel to straight RGBA bytes (for PNG encoding).
    static func unpremultiplied(_ p: UInt32) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let a = p >> 24
        guard a != 0 else { return (0, 0, 0, 0) }
        let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
        if a == 255 { return (UInt8(r), UInt8(g), UInt8(b), 255) }
        func un(_ c: UInt32) -> UInt8 { UInt8(min(255, (c * 255 + a / 2) / a)) }
        return (un(r), un(g), un(b), UInt8(a))
    }

    /// Converts straight RGBA bytes to a premultiplied pixel.
    @inline(__always)
    static func premultiplied(r: UInt8, g: UInt8, b: UInt8, a: UInt8) -> UInt32 {
        let a32 = UInt32(a)
        if a32 == 255 { return pack(a: 255, r: UInt32(r), g: UInt32(g), b: UInt32(b)) }
        let rgb = (UInt32(r) << 16) | (UInt32(g) << 8) | UInt32(b)
        return (scale(rgb, by: a32) & 0x00FF_FFFF) | (a32 << 24)
    }
}
