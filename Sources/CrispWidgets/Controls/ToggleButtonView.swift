import CrispGraphics
import CrispUI
import Foundation

/// One of the bar's toggle buttons: a glassy rounded plate with an icon drawn from paths. When
/// active, a soft light in the theme's glow colour fills the plate and the icon glows. A tap
/// toggles it.
///
/// Everything is drawn relative to the bounds, so the same code draws the bar's 36-pt button
/// and the zoom panel's 8× one. Its state line reads `on` or `off`.
public final class ToggleButtonView: View, ThemeFollowing {
    /// The symbol on the plate.
    public let icon: ToggleIcon
    /// Whether the toggle is on; changing it repaints and publishes the state.
    public var isActive: Bool {
        didSet {
            guard isActive != oldValue else { return }
            setNeedsDisplay()
            publishState(ControlState.string(isActive))
            onChange?(self)
        }
    }
    /// The colours (the glow, shown only while active).
    public var theme: Theme = .blue { didSet { if theme != oldValue, showsTheme { setNeedsDisplay() } } }
    /// Whether the theme's glow shows: while active.
    public var showsTheme: Bool { isActive }
    /// Called after `isActive` changed.
    public var onChange: ((ToggleButtonView) -> Void)?

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(isActive) }
        set {}
    }

    /// Creates a toggle showing `icon`.
    public init(icon: ToggleIcon, isActive: Bool = false) {
        self.icon = icon
        self.isActive = isActive
        super.init()
        addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.isActive.toggle() })
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let side = min(bounds.width, bounds.height)
        let plate = CGRect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side)
            .insetBy(dx: side * 0.04, dy: side * 0.04)
        let corner = plate.width * 0.22
        let shape = CGPath(roundedRect: plate, cornerWidth: corner, cornerHeight: corner)

        // The glass: a light top fading to almost nothing, the theme's glow below when active.
        ctx.saveGState()
        ctx.addPath(shape)
        ctx.clip()
        if isActive {
            let glow = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                  colors: [theme.glow.copy(alpha: 0.75)!, theme.glow.copy(alpha: 0.25)!, theme.glow.copy(alpha: 0)!],
                                  locations: [0, 0.55, 1])!
            ctx.drawRadialGradient(glow, startCenter: CGPoint(x: plate.midX, y: plate.midY), startRadius: 0,
                                   endCenter: CGPoint(x: plate.midX, y: plate.midY), endRadius: plate.width * 0.75, options: [])
        }
        ctx.drawLinearGradient(.between(CGColor(gray: 1, alpha: 0.28), CGColor(gray: 1, alpha: 0.04)),
                               start: CGPoint(x: plate.midX, y: plate.minY), end: CGPoint(x: plate.midX, y: plate.midY),
                               options: [.drawsAfterEndLocation])
        ctx.restoreGState()
        ctx.addPath(CGPath(roundedRect: plate.insetBy(dx: side * 0.01, dy: side * 0.01), cornerWidth: corner, cornerHeight: corner))
        ctx.setStrokeColor(isActive ? theme.glow.copy(alpha: 0.9)! : CGColor(gray: 1, alpha: 0.3))
        ctx.setLineWidth(max(side * 0.025, 0.5))
        ctx.strokePath()

        // The icon, with a halo of its own light when active.
        let iconRect = plate.insetBy(dx: plate.width * 0.24, dy: plate.height * 0.24)
        ctx.saveGState()
        if isActive {
            ctx.setShadow(offset: .zero, blur: side * 0.18, color: theme.glow)
            ctx.setFillColor(theme.glow.shaded(0.55))
        } else {
            ctx.setFillColor(gray: 0.78, alpha: 0.55)
        }
        ctx.addPath(icon.path(in: iconRect))
        ctx.fillPath()
        ctx.restoreGState()
    }
}
