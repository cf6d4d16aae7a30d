// The PDF / W3C compositing blend modes (multiply … luminosity) on premultiplied pixels.
//
// With Cs, Cb the unpremultiplied source and backdrop colours and αs, αb their alphas, every
// mode composites as
//     αo = αs + αb − αs·αb
//     co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs)
// (W3C "Compositing and Blending Level 1", §5.8 and §10). B is per channel for the separable
// modes and on the whole colour for the non-separable ones (hue, saturation, color, luminosity).
// The arithmetic is in Float: these modes are rare, so clarity beats integer tricks here.

/// A blend mode given by its mixing function B.
protocol PDFBlendOperator: BlendOperator {
    /// B(Cb, Cs) on unpremultiplied colours in 0…1.
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float>
}

extension PDFBlendOperator {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = Float(s >> 24) / 255, da = Float(d >> 24) / 255
        if sa == 0 { return d }
        let sp = SIMD3<Float>(Float((s >> 16) & 0xFF), Float((s >> 8) & 0xFF), Float(s & 0xFF)) / 255
        let dp = SIMD3<Float>(Float((d >> 16) & 0xFF), Float((d >> 8) & 0xFF), Float(d & 0xFF)) / 255
        if da == 0 { return s }
        let cs = sp / sa, cb = dp / da
        let mixed = mix(backdrop: cb, source: cs).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
        let ao = sa + da - sa * da
        let co = sp * (1 - da) + dp * (1 - sa) + (sa * da) * mixed
        let a8 = (ao * 255).rounded()
        let c8 = (co * 255).rounded(.toNearestOrAwayFromZero).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: a8))
        return Pixel.pack(a: UInt32(a8), r: UInt32(c8.x), g: UInt32(c8.y), b: UInt32(c8.z))
    }
    static var opaqueSourceReplaces: Bool { false }
}

/// A separable mode: B applied to each channel.
protocol SeparableBlendOperator: PDFBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float
}

extension SeparableBlendOperator {
    @inline(__always)
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float> {
        SIMD3(mixChannel(backdrop: cb.x, source: cs.x), mixChannel(backdrop: cb.y, source: cs.y),
              mixChannel(backdrop: cb.z, source: cs.z))
    }
}

enum MultiplyBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { cb * cs }
}
enum ScreenBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { cb + cs - cb * cs }
}
enum OverlayBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { HardLightBlend.mixChannel(backdrop: cs, source: cb) }
}
enum DarkenBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { min(cb, cs) }
}
enum LightenBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { max(cb, cs) }
}
enum ColorDodgeBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float {
        if cb == 0 { return 0 }
        if cs >= 1 { return 1 }
        return min(1, cb / (1 - cs))
    }
}
enum ColorBurnBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float {
        if cb >= 1 { return 1 }
        if cs <= 0 { return 0 }
        return 1 - min(1, (1 - cb) / cs)
    }
}
enum HardLightBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float {
        cs <= 0.5 ? cb * 2 * cs : ScreenBlend.mixChannel(backdrop: cb, source: 2 * cs - 1)
    }
}
enum SoftLightBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float {
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
        return cb + (2 * cs - 1) * (d - cb)
    }
}
enum DifferenceBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { abs(cb - cs) }
}
enum ExclusionBlend: SeparableBlendOperator {
    static func mixChannel(backdrop cb: Float, source cs: Float) -> Float { cb + cs - 2 * cb * cs }
}

// Non-separable helpers (W3C §10.2): luminosity with Rec. 601 weights, saturation as max − min.

@inline(__always) private func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

@inline(__always) private func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
    let l = lum(c)
    let n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
    var r = c
    if n < 0 { r = SIMD3(repeating: l) + (r - SIMD3(repeating: l)) * (l / (l - n)) }
    if x > 1 { r = SIMD3(repeating: l) + (r - SIMD3(repeating: l)) * ((1 - l) / (x - l)) }
    return r
}

@inline(__always) private func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
    clipColor(c + SIMD3(repeating: l - lum(c)))
}

@inline(__always) private func sat(_ c: SIMD3<Float>) -> Float { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }

@inline(__always) private func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
    let mx = max(c.x, c.y, c.z), mn = min(c.x, c.y, c.z)
    guard mx > mn else { return .zero }
    return (c - SIMD3(repeating: mn)) * (s / (mx - mn))
}

enum HueBlend: PDFBlendOperator {
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float> { setLum(setSat(cs, sat(cb)), lum(cb)) }
}
enum SaturationBlend: PDFBlendOperator {
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float> { setLum(setSat(cb, sat(cs)), lum(cb)) }
}
enum ColorBlend: PDFBlendOperator {
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float> { setLum(cs, lum(cb)) }
}
enum LuminosityBlend: PDFBlendOperator {
    static func mix(backdrop cb: SIMD3<Float>, source cs: SIMD3<Float>) -> SIMD3<Float> { setLum(cb, lum(cs)) }
}
