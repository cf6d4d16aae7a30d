// Blend operators as types: each gives its per-pixel formula, and the span kernels built on it
// (BlendOperator+Spans.swift) are compiled once per operator. A composite picks its operator
// once (`CGBlendMode.blendOperator`) and reaches the kernels through the metatype, once per
// span, never per pixel.

/// A compositing function on premultiplied pixels, with its span kernels.
protocol BlendOperator {
    /// The blended result at full coverage.
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32
    /// The result at coverage `c` (0…255); by default `lerp(D, blend(S, D), c)`. At c = 255 it
    /// must equal `blend(s, d)` (blitters call that directly for fully covered spans).
    static func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32
    /// Whether an opaque source at full coverage yields exactly the source (so a span can be
    /// stored without reading the destination).
    static var opaqueSourceReplaces: Bool { get }
    /// Blends one colour at one coverage (1…255) into `count` pixels.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage c: UInt32)
    /// Blends one colour into `count` pixels, each with its own coverage (0 leaves a pixel alone).
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                          coverage: UnsafePointer<UInt8>)
    /// Blends a row of colours at one coverage (1…255) into `count` pixels.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage c: UInt32)
    /// Blends a row of colours into `count` pixels, each with its own coverage (0 leaves a pixel
    /// alone).
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage: UnsafePointer<UInt8>)
}

extension BlendOperator {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32 {
        c == 255 ? blend(s, d) : Pixel.lerp(d, blend(s, d), c)
    }
}

enum SourceOver: BlendOperator {
    @inline(__always) static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { Pixel.sourceOver(s, d) }
    @inline(__always) static func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32 {
        Pixel.sourceOver(Pixel.scale(s, by: c), d)
    }
    static var opaqueSourceReplaces: Bool { true }
}

enum Copy: BlendOperator {
    @inline(__always) static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { s }
    static var opaqueSourceReplaces: Bool { true }
}

enum Clear: BlendOperator {
    @inline(__always) static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 { 0 }
    @inline(__always) static func blend(_ s: UInt32, _ d: UInt32, coverage c: UInt32) -> UInt32 {
        Pixel.scale(d, by: 255 &- c)
    }
    static var opaqueSourceReplaces: Bool { false }
}

/// A Porter–Duff operator `R = S·Fa + D·Fb` with factors from the two alphas.
protocol PorterDuffOperator: BlendOperator {
    /// (Fa, Fb) in 0…255 from source and destination alpha.
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32)
}

extension PorterDuffOperator {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let (fa, fb) = factors(sourceAlpha: s >> 24, destinationAlpha: d >> 24)
        return Pixel.weightedSum(s, fa, d, fb)
    }
    static var opaqueSourceReplaces: Bool { false }
}

enum SourceIn: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (da, 0) }
}
enum SourceOut: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (255 - da, 0) }
}
enum SourceAtop: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (da, 255 - sa) }
}
enum DestinationOver: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (255 - da, 255) }
}
enum DestinationIn: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (0, sa) }
}
enum DestinationOut: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (0, 255 - sa) }
}
enum DestinationAtop: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (255 - da, sa) }
}
enum Xor: PorterDuffOperator {
    static func factors(sourceAlpha sa: UInt32, destinationAlpha da: UInt32) -> (UInt32, UInt32) { (255 - da, 255 - sa) }
}

enum PlusLighter: BlendOperator {
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        Pixel.mapChannels(s, d) { min(255, $0 + $1) }
    }
    static var opaqueSourceReplaces: Bool { false }
}

enum PlusDarker: BlendOperator {
    /// Premultiplied form of `max(0, 1 − ((1 − D) + (1 − S)))`:
    /// `Ra = min(1, Sa + Da)`, `Rc = max(0, Ra − ((Da − Dc) + (Sa − Sc)))`. For opaque pixels this is
    /// `max(0, S + D − 1)`; a transparent source leaves D unchanged.
    @inline(__always)
    static func blend(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let sa = Int(s >> 24), da = Int(d >> 24)
        let ra = min(255, sa + da)
        func channel(_ shift: UInt32) -> UInt32 {
            let sc = Int((s >> shift) & 0xFF), dc = Int((d >> shift) & 0xFF)
            return UInt32(max(0, ra - ((da - dc) + (sa - sc))))
        }
        return Pixel.pack(a: UInt32(ra), r: channel(16), g: channel(8), b: channel(0))
    }
    static var opaqueSourceReplaces: Bool { false }
}

extension Pixel {
    /// `S·fa + D·fb` per channel (factors 0…255), rounded and clamped to 255.
    @inline(__always)
    static func weightedSum(_ s: UInt32, _ fa: UInt32, _ d: UInt32, _ fb: UInt32) -> UInt32 {
        var out: UInt32 = 0
        var shift: UInt32 = 0
        while shift < 32 {
            let v = ((s >> shift) & 0xFF) &* fa &+ ((d >> shift) & 0xFF) &* fb
            let c = min(255, (v &+ 127) / 255)
            out |= c << shift
            shift += 8
        }
        return out
    }

    /// Applies `f` to each colour channel pair; alpha is `f` of the alphas unless given.
    @inline(__always)
    static func mapChannels(_ s: UInt32, _ d: UInt32, alpha: UInt32? = nil,
                            _ f: (UInt32, UInt32) -> UInt32) -> UInt32 {
        let a = alpha ?? f(s >> 24, d >> 24)
        let r = min(a, f((s >> 16) & 0xFF, (d >> 16) & 0xFF))
        let g = min(a, f((s >> 8) & 0xFF, (d >> 8) & 0xFF))
        let b = min(a, f(s & 0xFF, d & 0xFF))
        return pack(a: a, r: r, g: g, b: b)
    }
}
