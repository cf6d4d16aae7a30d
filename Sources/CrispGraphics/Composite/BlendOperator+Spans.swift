// The blend stage's span kernels: for each operator, the four ways a span arrives — one colour or
// a shaded row of colours, at one coverage or with a coverage row — as a loop over the operator's
// per-pixel formula (`blend(_:_:)`, `blend(_:_:coverage:)`), so the arithmetic is exactly the
// formula's. They are protocol requirements with default implementations: every operator's
// witness table holds its own specialization of each loop, 28 operators × 4 small loops in all,
// and a composite reaches them through the operator's metatype once per span.
//
// Kernels know nothing of paints, clip masks or pixels the paint leaves unpainted: the
// compositor (`CompositeBlitter`) multiplies the clip mask into the coverage row first and calls
// a kernel only on runs of painted pixels. Rejected: a Bool or a generic flag for unpainted
// pixels inside each kernel (a branch per pixel, or twice the loops for two paints out of five).

extension BlendOperator {
    /// One colour at one coverage: the formula at coverage `c` for each pixel.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32, coverage c: UInt32) {
        for i in 0..<count { row[i] = blend(s, row[i], coverage: c) }
    }

    /// One colour with a coverage row.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, source s: UInt32,
                          coverage: UnsafePointer<UInt8>) {
        // Fully covered pixels of an opaque source under a replacing operator are the source
        // itself (what the formula gives too), stored without reading the destination.
        let stores = opaqueSourceReplaces && s >> 24 == 255
        for i in 0..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            row[i] = c == 255 && stores ? s : blend(s, row[i], coverage: c)
        }
    }

    /// A shaded row at one coverage.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage c: UInt32) {
        if c == 255 {
            // Full coverage: the operator's own result, with no coverage arithmetic.
            for i in 0..<count { row[i] = blend(sources[i], row[i]) }
            return
        }
        for i in 0..<count { row[i] = blend(sources[i], row[i], coverage: c) }
    }

    /// A shaded row with a coverage row.
    static func blendSpan(_ row: UnsafeMutablePointer<UInt32>, count: Int, sources: UnsafePointer<UInt32>,
                          coverage: UnsafePointer<UInt8>) {
        for i in 0..<count {
            let c = UInt32(coverage[i])
            if c == 0 { continue }
            row[i] = blend(sources[i], row[i], coverage: c)
        }
    }
}

extension CGBlendMode {
    /// The operator that implements this mode: the one switch over blend modes a composite makes.
    var blendOperator: any BlendOperator.Type {
        switch self {
        case .normal: SourceOver.self
        case .copy: Copy.self
        case .clear: Clear.self
        case .sourceIn: SourceIn.self
        case .sourceOut: SourceOut.self
        case .sourceAtop: SourceAtop.self
        case .destinationOver: DestinationOver.self
        case .destinationIn: DestinationIn.self
        case .destinationOut: DestinationOut.self
        case .destinationAtop: DestinationAtop.self
        case .xor: Xor.self
        case .plusLighter: PlusLighter.self
        case .plusDarker: PlusDarker.self
        case .multiply: MultiplyBlend.self
        case .screen: ScreenBlend.self
        case .overlay: OverlayBlend.self
        case .darken: DarkenBlend.self
        case .lighten: LightenBlend.self
        case .colorDodge: ColorDodgeBlend.self
        case .colorBurn: ColorBurnBlend.self
        case .softLight: SoftLightBlend.self
        case .hardLight: HardLightBlend.self
        case .difference: DifferenceBlend.self
        case .exclusion: ExclusionBlend.self
        case .hue: HueBlend.self
        case .saturation: SaturationBlend.self
        case .color: ColorBlend.self
        case .luminosity: LuminosityBlend.self
        }
    }
}
