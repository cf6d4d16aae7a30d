import CrispGraphics
import Foundation

extension CGColor {
    /// Straight red, green, blue and alpha, 0…1 (grey colours repeat their grey).
    var straightRGBA: (r: CGFloat, g: CGFloat, b: CGFloat, a: CGFloat) {
        let c = components ?? [0, 1]
        return c.count >= 4 ? (c[0], c[1], c[2], c[3]) : (c[0], c[0], c[0], c.count > 1 ? c[1] : 1)
    }

    /// This colour moved `fraction` (0…1) of the way to `other`, component by component on
    /// straight sRGB values — the rule `CGGradient` uses, so a colour blended here matches a
    /// gradient between the same two colours.
    func mixed(with other: CGColor, fraction: CGFloat) -> CGColor {
        let t = min(max(fraction.isNaN ? 0 : fraction, 0), 1)
        let a = straightRGBA, b = other.straightRGBA
        return CGColor(red: a.r + (b.r - a.r) * t, green: a.g + (b.g - a.g) * t, blue: a.b + (b.b - a.b) * t,
                       alpha: a.a + (b.a - a.a) * t)
    }

    /// This colour made lighter (`amount` > 0, towards white) or darker (< 0, towards black).
    func shaded(_ amount: CGFloat) -> CGColor {
        amount >= 0 ? mixed(with: CGColor(gray: 1, alpha: straightRGBA.a), fraction: amount)
                    : mixed(with: CGColor(gray: 0, alpha: straightRGBA.a), fraction: -amount)
    }
}

extension CGGradient {
    /// A two-colour gradient from `start` (location 0) to `end` (location 1).
    static func between(_ start: CGColor, _ end: CGColor) -> CGGradient {
        CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: [start, end], locations: nil)!
    }
}
