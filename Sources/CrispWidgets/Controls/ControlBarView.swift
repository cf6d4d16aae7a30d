import CrispGraphics
import CrispUI
import Foundation

/// The essay's status-bar fragment: a vertical gradient in the theme's colours with four
/// toggle buttons on the left (the second one on) and three service switches on the right (GPS
/// and network on, sound off; GPS and network showing error crosses, so nothing animates at
/// start). Identifiers: `toggle.1`…`toggle.4`, `switch.gps`, `switch.network`, `switch.sound`.
///
/// Sizes follow the bar's height: toggles are 0.8 of it square, switches 0.6 of it high and
/// twice that wide.
public final class ControlBarView: View, ThemeFollowing {
    /// The toggle buttons, left to right.
    public let toggles: [ToggleButtonView]
    /// The GPS switch.
    public let gpsSwitch = ServiceSwitchView(symbol: .gps, isOn: true, hasError: true)
    /// The network switch.
    public let networkSwitch = ServiceSwitchView(symbol: .network, isOn: true, hasError: true)
    /// The sound switch.
    public let soundSwitch = ServiceSwitchView(symbol: .sound, isOn: false)
    /// The three switches, left to right.
    public var switches: [ServiceSwitchView] { [gpsSwitch, networkSwitch, soundSwitch] }
    /// The colours (the gradient).
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }

    /// Creates the bar in its starting state.
    public init() {
        toggles = ToggleIcon.allCases.enumerated().map { ToggleButtonView(icon: $1, isActive: $0 == 1) }
        super.init()
        for (i, t) in toggles.enumerated() { t.accessibilityIdentifier = "toggle.\(i + 1)" }
        for s in switches { s.accessibilityIdentifier = "switch.\(s.symbol.rawValue)" }
        for v in toggles as [View] + switches as [View] { addSubview(v) }
    }

    /// The width the bar's content needs at `height`: four toggles (0.8 h), three switches
    /// (1.2 h) and nine gaps of 0.08 h (between them, at the edges and in the middle).
    public static func contentWidth(height: CGFloat) -> CGFloat { height * (4 * 0.8 + 3 * 1.2 + 9 * 0.08) }

    public override func layoutSubviews() {
        // Right to left the toggles start at the right and the switches end at the left.
        layoutMirroredForDirection {
            let b = bounds
            let h = b.height
            let toggle = h * 0.8, switchHeight = h * 0.6, switchWidth = h * 1.2, gap = h * 0.08
            var x = b.minX + gap * 1.5
            for t in toggles {
                t.frame = CGRect(x: x, y: b.midY - toggle / 2, width: toggle, height: toggle)
                x += toggle + gap
            }
            x = b.maxX - gap * 1.5 - 3 * switchWidth - 2 * gap
            for s in switches {
                s.frame = CGRect(x: x, y: b.midY - switchHeight / 2, width: switchWidth, height: switchHeight)
                x += switchWidth + gap
            }
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        let corner = min(b.height * 0.18, 8)
        ctx.saveGState()
        ctx.addPath(CGPath(roundedRect: b, cornerWidth: corner, cornerHeight: corner))
        ctx.clip()
        ctx.drawLinearGradient(.between(theme.barTop, theme.barBottom), start: CGPoint(x: 0, y: b.minY), end: CGPoint(x: 0, y: b.maxY), options: [])
        // A bright line along the top edge, the shine of a bevel.
        ctx.setFillColor(gray: 1, alpha: 0.35)
        ctx.fill(CGRect(x: b.minX, y: b.minY, width: b.width, height: max(b.height * 0.02, 0.5)))
        ctx.restoreGState()
    }
}
