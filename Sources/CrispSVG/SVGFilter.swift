import CrispGraphics
import Foundation

// A `filter` resolved for one element (Filter Effects 1): its region and primitive subregions in
// the element's user space, the primitives' parameters in user units, their inputs as indices.
// SVGBuilder+FilterGraph reads it from the <filter> element (or a CSS filter function);
// SVGDocument+Filter runs it on bitmaps when the element is drawn (SVGFilterRaster holds the
// pixel operations).

/// One filter primitive of a resolved filter.
struct SVGFilterPrimitive {
    enum Input: Equatable {
        case sourceGraphic
        case sourceAlpha
        /// The result of an earlier primitive (index in the filter's list).
        case result(Int)
    }

    enum EdgeMode { case none, duplicate, wrap }

    enum CompositeOperator { case over, `in`, out, atop, xor, lighter, arithmetic }

    enum BlendMode: String, CaseIterable {
        case normal, multiply, screen, overlay, darken, lighten
        case colorDodge = "color-dodge", colorBurn = "color-burn", hardLight = "hard-light", softLight = "soft-light"
        case difference, exclusion, hue, saturation, color, luminosity
    }

    /// An feFuncX transfer function, on straight values in 0…1.
    enum Transfer {
        case identity
        case table([Float])
        case discrete([Float])
        case linear(slope: Float, intercept: Float)
        case gamma(amplitude: Float, exponent: Float, offset: Float)
    }

    enum LightSource {
        /// Unit vector towards the light.
        case distant(azimuth: Double, elevation: Double)
        case point(x: Double, y: Double, z: Double)
        case spot(x: Double, y: Double, z: Double, atX: Double, atY: Double, atZ: Double, exponent: Double, cone: Double?)
    }

    struct Lighting {
        var specular: Bool
        var surfaceScale: Double
        /// diffuseConstant or specularConstant.
        var constant: Double
        var exponent: Double
        /// lighting-color, straight sRGB.
        var color: SVGColor
        var light: LightSource
    }

    struct Turbulence {
        var baseFrequencyX: Double
        var baseFrequencyY: Double
        var octaves: Int
        var seed: Int
        var stitch: Bool
        var fractalNoise: Bool
    }

    struct Convolve {
        var orderX: Int
        var orderY: Int
        var kernel: [Float]
        var divisor: Float
        var bias: Float
        var targetX: Int
        var targetY: Int
        var edgeMode: EdgeMode
        var preserveAlpha: Bool
    }

    enum Kind {
        /// Standard deviations in user units per axis.
        case blur(x: CGFloat, y: CGFloat, edge: EdgeMode)
        case offset(dx: CGFloat, dy: CGFloat)
        /// Straight sRGB, flood-opacity folded into alpha.
        case flood(SVGColor)
        case composite(CompositeOperator, k: [Float])
        case merge
        case blend(BlendMode)
        /// 20 values, row-major 4×5, on straight values.
        case colorMatrix([Float])
        /// R, G, B, A.
        case componentTransfer([Transfer])
        case morphology(dilate: Bool, x: CGFloat, y: CGFloat)
        case tile
        case dropShadow(dx: CGFloat, dy: CGFloat, x: CGFloat, y: CGFloat, color: SVGColor)
        case turbulence(Turbulence)
        /// Scale in user units per axis; channel indices 0…3 (R, G, B, A).
        case displacement(scaleX: CGFloat, scaleY: CGFloat, xChannel: Int, yChannel: Int)
        case convolve(Convolve)
        case lighting(Lighting)
        /// feImage: an element or a placed image, drawn in the filtered element's user space.
        case image(SVGRenderNode)
        /// The result is transparent black (an feImage without a usable reference, an invalid primitive).
        case transparent
        /// The result is the first input unchanged (an invalid value that disables the primitive).
        case passThrough
    }

    var kind: Kind
    var inputs: [Input]
    /// The subregion in user space, inside the filter region.
    var subregion: CGRect
    /// color-interpolation-filters: linearRGB (true) or sRGB.
    var linearRGB: Bool
}

/// A filter resolved for one element: its region in the element's user space and its primitives.
@_spi(Testing) public struct SVGFilter {
    var region: CGRect
    var primitives: [SVGFilterPrimitive]
}
