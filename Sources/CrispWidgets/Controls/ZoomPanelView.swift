import CrispGraphics
import CrispUI
import Foundation

/// Lossless zoom: one toggle and one switch of the bar, magnified 1× to 8×, each on a stage of
/// its own (the toggle centred on its icon, the switch moving towards its knob as the factor
/// grows), with a slider (and the mouse wheel over the panel) to set the factor and the factor
/// as text.
///
/// Nothing is scaled as pixels: the magnified controls are ordinary control views whose frames
/// grow with the factor, so every zoom level is drawn again from the vectors and an edge is as
/// sharp at 8× as at 1×. At 1× they are as big as on a bar `baseHeight` high.
public final class ZoomPanelView: View, ThemeFollowing {
    /// The magnified toggle (on, so its glow shows).
    public let toggle = ToggleButtonView(icon: .star, isActive: true)
    /// The magnified switch (network, on).
    public let serviceSwitch = ServiceSwitchView(symbol: .network, isOn: true)
    /// The zoom factor's slider, 1…8.
    public let slider = SliderView(range: ZoomPanelView.zoomRange, value: 1)
    /// The zoom factor as text, like "3.7×".
    public let factorLabel = Label(text: "1×", fontSize: 12)
    /// The range of zoom factors.
    public static let zoomRange: ClosedRange<CGFloat> = 1...8
    /// How much one wheel notch multiplies the factor.
    public static let wheelStep: CGFloat = 1.25

    /// The height of the bar whose controls are shown (1× makes them that size). Default 40.
    public var baseHeight: CGFloat = 40 { didSet { if baseHeight != oldValue { setNeedsLayout() } } }
    /// The colours.
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }

    private let toggleStage = View()
    private let switchStage = View()

    /// Creates the panel at 1×.
    public init() {
        super.init()
        for stage in [toggleStage, switchStage] {
            stage.clipsToBounds = true
            stage.isUserInteractionEnabled = false
        }
        factorLabel.textColor = .white
        factorLabel.alignment = .right
        toggleStage.addSubview(toggle)
        switchStage.addSubview(serviceSwitch)
        for v in [toggleStage, switchStage, slider, factorLabel] as [View] { addSubview(v) }
        slider.onChange = { [unowned self] slider in
            self.factorLabel.text = ControlState.string(slider.value) + "×"
            self.setNeedsLayout()
        }
    }

    /// The zoom factor, 1…8 (the slider's value).
    public var zoom: CGFloat {
        get { slider.value }
        set { slider.value = newValue }
    }

    public override func scrollWheel(_ delta: CGFloat) {
        let factor = zoom * pow(ZoomPanelView.wheelStep, delta)
        zoom = (factor * 10).rounded() / 10
    }

    /// The height of the slider row for the current width.
    var controlRowHeight: CGFloat { min(max(bounds.width * 0.12, 20), 32) }

    public override func layoutSubviews() {
        // Right to left: the switch's stage on the left, the factor left of the slider.
        layoutMirroredForDirection {
            let b = bounds
            let pad = min(b.width, b.height) * 0.05
            let row = controlRowHeight
            let stageHeight = max(b.height - 2 * pad - row - pad * 0.5, 0)
            let stageWidth = max((b.width - 3 * pad) / 2, 0)
            toggleStage.frame = CGRect(x: b.minX + pad, y: b.minY + pad, width: stageWidth, height: stageHeight)
            switchStage.frame = CGRect(x: toggleStage.frame.maxX + pad, y: b.minY + pad, width: stageWidth, height: stageHeight)
            factorLabel.fontSize = row * 0.5
            factorLabel.alignment = effectiveUserInterfaceLayoutDirection == .rightToLeft ? .left : .right
            let labelWidth = factorLabel.fontSize * 2.6
            factorLabel.frame = CGRect(x: b.maxX - pad - labelWidth, y: b.maxY - pad - row, width: labelWidth, height: row)
            slider.frame = CGRect(x: b.minX + pad, y: b.maxY - pad - row, width: max(factorLabel.frame.minX - pad * 0.5 - b.minX - pad, 0),
                                  height: row)

            // The pair, magnified: the toggle centred; the switch centred at 1×, its knob centred
            // from 3× on (the knob is where the detail is), moving smoothly in between.
            let z = zoom, h = baseHeight * z
            let toggleSide = h * 0.8, switchSize = CGSize(width: h * 1.2, height: h * 0.6)
            let t = toggleStage.bounds, s = switchStage.bounds
            toggle.frame = CGRect(x: t.midX - toggleSide / 2, y: t.midY - toggleSide / 2, width: toggleSide, height: toggleSide)
            let knobOffset = switchSize.width / 2 - switchSize.height / 2
            let shift = knobOffset * min(max((z - 1) / 2, 0), 1) * (serviceSwitch.isOn ? 1 : -1)
            serviceSwitch.frame = switchStage.directionalFrame(CGRect(x: s.midX - switchSize.width / 2 - shift, y: s.midY - switchSize.height / 2,
                                                                      width: switchSize.width, height: switchSize.height))
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        let corner = min(b.width, b.height) * 0.06
        ctx.addPath(CGPath(roundedRect: b, cornerWidth: corner, cornerHeight: corner))
        ctx.setFillColor(gray: 0.12, alpha: 1)
        ctx.fillPath()
        for s in [toggleStage.frame, switchStage.frame] {
            ctx.saveGState()
            ctx.clip(to: s)
            ctx.drawLinearGradient(.between(theme.barTop, theme.barBottom), start: CGPoint(x: 0, y: s.minY), end: CGPoint(x: 0, y: s.maxY), options: [])
            ctx.restoreGState()
        }
    }
}
