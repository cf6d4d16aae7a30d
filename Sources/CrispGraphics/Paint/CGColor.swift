import Foundation

/// A colour space: the model that gives a colour's components their meaning.
///
/// Crisp draws in sRGB: every RGB space is treated as sRGB and every gray space as sRGB gray
/// (no colour management), which is what the peers do and what iOS apps of the era assumed.
public final class CGColorSpace: Equatable, Sendable, CustomStringConvertible {
    /// The colour space's model.
    public enum Model: Int32, Sendable {
        /// One gray component.
        case monochrome = 0
        /// Red, green and blue components.
        case rgb = 1
    }

    /// The model (gray or RGB).
    public let model: Model
    /// The colour space's name, like `CGColorSpace.sRGB`.
    public let name: String?

    /// The number of colour components, not counting alpha.
    public var numberOfComponents: Int { model == .rgb ? 3 : 1 }

    /// Creates a named colour space; nil for names Crisp does not know.
    public init?(name: String) {
        switch name {
        case CGColorSpace.sRGB, CGColorSpace.genericRGBLinear, CGColorSpace.displayP3, CGColorSpace.extendedSRGB:
            model = .rgb
        case CGColorSpace.genericGrayGamma2_2, CGColorSpace.linearGray, CGColorSpace.extendedGray:
            model = .monochrome
        default:
            return nil
        }
        self.name = name
    }

    init(model: Model, name: String) {
        self.model = model
        self.name = name
    }

    /// The name of the sRGB space.
    public static let sRGB = "kCGColorSpaceSRGB"
    /// The name of extended sRGB (drawn as sRGB).
    public static let extendedSRGB = "kCGColorSpaceExtendedSRGB"
    /// The name of linear RGB (drawn as sRGB).
    public static let genericRGBLinear = "kCGColorSpaceGenericRGBLinear"
    /// The name of Display P3 (drawn as sRGB).
    public static let displayP3 = "kCGColorSpaceDisplayP3"
    /// The name of gray with gamma 2.2 (drawn as sRGB gray).
    public static let genericGrayGamma2_2 = "kCGColorSpaceGenericGrayGamma2_2"
    /// The name of linear gray (drawn as sRGB gray).
    public static let linearGray = "kCGColorSpaceLinearGray"
    /// The name of extended gray (drawn as sRGB gray).
    public static let extendedGray = "kCGColorSpaceExtendedGray"

    static let deviceRGB = CGColorSpace(model: .rgb, name: "kCGColorSpaceDeviceRGB")
    static let deviceGray = CGColorSpace(model: .monochrome, name: "kCGColorSpaceDeviceGray")

    public static func == (lhs: CGColorSpace, rhs: CGColorSpace) -> Bool { lhs.model == rhs.model && lhs.name == rhs.name }

    public var description: String { "CGColorSpace(\(name ?? "unnamed"))" }
}

/// The device RGB colour space (treated as sRGB).
public func CGColorSpaceCreateDeviceRGB() -> CGColorSpace { .deviceRGB }

/// The device gray colour space.
public func CGColorSpaceCreateDeviceGray() -> CGColorSpace { .deviceGray }

/// An immutable colour: components in a colour space plus alpha.
///
/// Components are stored as given (CoreGraphics does not clamp them either); drawing clamps
/// each to 0…1. The colour is drawn as premultiplied 8-bit BGRA.
public final class CGColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The colour space the components are in.
    public let colorSpace: CGColorSpace?
    /// The colour components followed by alpha: `[gray, alpha]` or `[red, green, blue, alpha]`.
    public let components: [CGFloat]?

    /// The number of components, alpha included.
    public var numberOfComponents: Int { components?.count ?? 0 }

    /// The alpha component, 0…1.
    public var alpha: CGFloat { components?.last ?? 1 }

    /// Creates an sRGB colour from red, green, blue and alpha in 0…1.
    public init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        colorSpace = CGColorSpace(name: CGColorSpace.sRGB)
        components = [red, green, blue, alpha]
    }

    /// Creates an sRGB colour, as `CGColor(srgbRed:green:blue:alpha:)`.
    public convenience init(srgbRed red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// Creates a gray colour from white level and alpha in 0…1.
    public init(gray: CGFloat, alpha: CGFloat) {
        colorSpace = CGColorSpace(name: CGColorSpace.genericGrayGamma2_2)
        components = [gray, alpha]
    }

    /// Creates a colour from components (colour components followed by alpha) in `space`;
    /// nil when the count does not match the space.
    public init?(colorSpace space: CGColorSpace, components: UnsafePointer<CGFloat>) {
        colorSpace = space
        self.components = Array(UnsafeBufferPointer(start: components, count: space.numberOfComponents + 1))
    }

    /// A copy of the colour with a different alpha.
    public func copy(alpha: CGFloat) -> CGColor? {
        guard let comps = components, let space = colorSpace else { return nil }
        var c = comps
        c[c.count - 1] = alpha
        return c.withUnsafeBufferPointer { CGColor(colorSpace: space, components: $0.baseAddress!) }
    }

    /// Opaque black.
    public static let black = CGColor(gray: 0, alpha: 1)
    /// Opaque white.
    public static let white = CGColor(gray: 1, alpha: 1)
    /// Fully transparent black.
    public static let clear = CGColor(gray: 0, alpha: 0)

    /// Red, green, blue and alpha, each clamped to 0…1 (NaN counts as 0).
    var rgba: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        func clamp(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        guard let c = components, !c.isEmpty else { return (0, 0, 0, 1) }
        if c.count >= 4 { return (clamp(c[0]), clamp(c[1]), clamp(c[2]), clamp(c[3])) }
        let g = clamp(c[0])
        return (g, g, g, c.count > 1 ? clamp(c[1]) : 1)
    }

    /// The colour as a premultiplied `0xAARRGGBB` pixel, with an extra alpha factor.
    func premultipliedPixel(alpha extra: CGFloat = 1) -> UInt32 {
        let (r, g, b, a) = rgba
        return Pixel.premultiplied(red: r, green: g, blue: b, alpha: a * (extra.isNaN ? 0 : min(max(extra, 0), 1)))
    }

    public static func == (lhs: CGColor, rhs: CGColor) -> Bool {
        lhs.colorSpace == rhs.colorSpace && lhs.components == rhs.components
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(components) }

    public var description: String { "CGColor(\(colorSpace?.name ?? "?"), \(components ?? []))" }
}
