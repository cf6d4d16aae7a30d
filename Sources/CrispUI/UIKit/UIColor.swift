import CrispGraphics
import Foundation

/// A colour in UIKit's spelling, wrapping a `CGColor`, so ported drawing code such as
/// `UIColor(red: 0.8, green: 0.1, blue: 0.1, alpha: 1).setFill()` works as written.
///
/// Components are in sRGB, 0…1 (kept as given, as UIKit does; drawing clamps).
public final class UIColor: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The colour as Core Graphics sees it.
    public let cgColor: CGColor

    /// Wraps `cgColor`.
    public init(cgColor: CGColor) { self.cgColor = cgColor }

    /// An sRGB colour from red, green, blue and alpha in 0…1.
    public convenience init(red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(red: red, green: green, blue: blue, alpha: alpha))
    }

    /// A grey from a white level and alpha in 0…1.
    public convenience init(white: CGFloat, alpha: CGFloat) {
        self.init(cgColor: CGColor(gray: white, alpha: alpha))
    }

    /// An sRGB colour from hue, saturation, brightness (HSB, also called HSV) and alpha in 0…1.
    ///
    /// Hue 0 and 1 are red, 1/3 green, 2/3 blue; values outside 0…1 wrap around. Saturation
    /// and brightness are clamped to 0…1.
    /// ```
    /// h6 = 6·hue, c = brightness·saturation, x = c·(1 − |h6 mod 2 − 1|), m = brightness − c
    /// ```
    public convenience init(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, alpha: CGFloat) {
        func unit(_ v: CGFloat) -> CGFloat { v.isNaN ? 0 : min(max(v, 0), 1) }
        let h = hue.isFinite ? hue - hue.rounded(.down) : 0
        let s = unit(saturation), v = unit(brightness)
        let h6 = h * 6
        let c = v * s
        let x = c * (1 - abs(h6.truncatingRemainder(dividingBy: 2) - 1))
        let m = v - c
        let (r, g, b): (CGFloat, CGFloat, CGFloat) = switch Int(h6) {
        case 0: (c, x, 0)
        case 1: (x, c, 0)
        case 2: (0, c, x)
        case 3: (0, x, c)
        case 4: (x, 0, c)
        default: (c, 0, x)
        }
        self.init(red: r + m, green: g + m, blue: b + m, alpha: alpha)
    }

    /// Fully transparent black.
    public static let clear = UIColor(white: 0, alpha: 0)
    /// Opaque white.
    public static let white = UIColor(white: 1, alpha: 1)
    /// Opaque black.
    public static let black = UIColor(white: 0, alpha: 1)
    /// Opaque 50 % grey.
    public static let gray = UIColor(white: 0.5, alpha: 1)
    /// Opaque red (1, 0, 0).
    public static let red = UIColor(red: 1, green: 0, blue: 0, alpha: 1)
    /// Opaque green (0, 1, 0).
    public static let green = UIColor(red: 0, green: 1, blue: 0, alpha: 1)
    /// Opaque blue (0, 0, 1).
    public static let blue = UIColor(red: 0, green: 0, blue: 1, alpha: 1)

    /// The same colour with a different alpha.
    public func withAlphaComponent(_ alpha: CGFloat) -> UIColor {
        UIColor(cgColor: cgColor.copy(alpha: alpha) ?? cgColor)
    }

    /// Makes this the fill colour of the current context (`UIGraphicsGetCurrentContext()`);
    /// nothing happens outside drawing.
    public func setFill() { UIGraphicsGetCurrentContext()?.setFillColor(cgColor) }

    /// Makes this the stroke colour of the current context; nothing happens outside drawing.
    public func setStroke() { UIGraphicsGetCurrentContext()?.setStrokeColor(cgColor) }

    /// Makes this both the fill and the stroke colour of the current context.
    public func set() {
        setFill()
        setStroke()
    }

    /// Colours are equal when their `CGColor`s are (same space, same components).
    public static func == (lhs: UIColor, rhs: UIColor) -> Bool { lhs.cgColor == rhs.cgColor }

    /// Hashes the `CGColor`.
    public func hash(into hasher: inout Hasher) { hasher.combine(cgColor) }

    /// The components, as `CGColor` describes them.
    public var description: String { "UIColor(\(cgColor))" }
}
