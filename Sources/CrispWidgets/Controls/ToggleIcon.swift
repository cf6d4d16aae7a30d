import CrispGraphics
import Foundation

/// The symbols on the bar's toggle buttons, as paths in a unit square (origin top-left, y
/// down), filled with the non-zero rule. `path(in:)` scales them to any rectangle, so an icon is
/// as sharp at 8× as at 1×.
public enum ToggleIcon: CaseIterable, Sendable {
    /// A five-pointed star.
    case star
    /// A shield with a cross band.
    case shield
    /// A lightning bolt.
    case bolt
    /// A flag on a pole.
    case flag

    /// The icon scaled into `rect`.
    public func path(in rect: CGRect) -> CGPath {
        let p = CGMutablePath()
        func pt(_ x: CGFloat, _ y: CGFloat) -> CGPoint { CGPoint(x: rect.minX + x * rect.width, y: rect.minY + y * rect.height) }
        switch self {
        case .star:
            let outer: CGFloat = 0.5, inner: CGFloat = 0.2
            for i in 0..<10 {
                let r = i % 2 == 0 ? outer : inner
                let a = -CGFloat.pi / 2 + CGFloat(i) * .pi / 5
                let point = pt(0.5 + r * cos(a), 0.54 + r * sin(a))
                if i == 0 { p.move(to: point) } else { p.addLine(to: point) }
            }
            p.closeSubpath()
        case .shield:
            p.move(to: pt(0.5, 0.02))
            p.addLine(to: pt(0.92, 0.16))
            p.addCurve(to: pt(0.5, 0.98), control1: pt(0.92, 0.6), control2: pt(0.72, 0.84))
            p.addCurve(to: pt(0.08, 0.16), control1: pt(0.28, 0.84), control2: pt(0.08, 0.6))
            p.closeSubpath()
            // The band, cut out (drawn the other way round so non-zero leaves a hole).
            p.move(to: pt(0.44, 0.18))
            p.addLine(to: pt(0.44, 0.84))
            p.addLine(to: pt(0.56, 0.84))
            p.addLine(to: pt(0.56, 0.18))
            p.closeSubpath()
        case .bolt:
            p.addLines(between: [pt(0.6, 0.0), pt(0.16, 0.56), pt(0.46, 0.56), pt(0.36, 1.0), pt(0.84, 0.4),
                                 pt(0.54, 0.4), pt(0.66, 0.0)])
            p.closeSubpath()
        case .flag:
            p.addRect(CGRect(x: rect.minX + 0.14 * rect.width, y: rect.minY, width: 0.09 * rect.width, height: rect.height))
            p.move(to: pt(0.23, 0.04))
            p.addCurve(to: pt(0.9, 0.1), control1: pt(0.45, -0.06), control2: pt(0.65, 0.2))
            p.addLine(to: pt(0.9, 0.56))
            p.addCurve(to: pt(0.23, 0.52), control1: pt(0.65, 0.66), control2: pt(0.45, 0.42))
            p.closeSubpath()
        }
        return p
    }
}
