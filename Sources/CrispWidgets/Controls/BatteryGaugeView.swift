import CrispGraphics
import CrispUI
import Foundation

/// A fine-grained battery: any level from 0 to 100 %, the fill drawn to the exact fraction
/// (no steps — the essay's point against five bitmaps), with the percentage as locale-formatted
/// text. The fill is green, turns red at 20 % and below, and blends from one to the other
/// through amber between 30 % and 20 %, so a draining battery changes colour smoothly. Dragging across the gauge sets
/// the level under the finger. Its state line is the level in percent (`80`, `42.5`).
public final class BatteryGaugeView: View {
    /// The charge, 0…100 (percent); values outside are clamped. Changing it repaints and calls
    /// `onChange`.
    public var level: CGFloat {
        didSet {
            let clamped = min(max(level.isNaN ? 0 : level, 0), 100)
            if clamped != level { level = clamped }
            guard level != oldValue else { return }
            setNeedsDisplay()
            publishState(ControlState.string(level))
            onChange?(self)
        }
    }
    /// Called after `level` changed.
    public var onChange: ((BatteryGaugeView) -> Void)?
    /// The percentage format, a `String(format:)` pattern with one `%d` (localized by the key
    /// `"%d%%"`: "80%", German "80 %").
    public private(set) var percentFormat = "%d%%"

    /// The fill colour above 30 %.
    public static let chargedColor = CGColor(red: 0.30, green: 0.82, blue: 0.32, alpha: 1)
    /// The fill colour at 20 % and below.
    public static let lowColor = CGColor(red: 0.92, green: 0.18, blue: 0.14, alpha: 1)
    /// The colour half way, at 25 %: amber, so the blend does not pass through olive.
    static let warningColor = CGColor(red: 0.96, green: 0.66, blue: 0.12, alpha: 1)

    private lazy var run = ValueAnimator<CGFloat>(level, owner: self)

    /// Whether the discharge-and-charge run is going.
    public var isRunning: Bool { run.isAnimating }

    /// Runs the level from 100 % down to 0 % and back up to 100 %, `duration` seconds in all
    /// (linear both ways), as a demonstration; a drag or a new run takes over.
    public func runDischargeAndCharge(duration: TimeInterval = 4) {
        run.onChange = { [unowned self] in self.level = $0.rounded(toPlaces: 1) }
        run.set(100)
        run.animate(to: 0, duration: duration / 2, curve: .linear) { [weak self] finished in
            guard finished, let self else { return }
            self.run.animate(to: 100, duration: duration / 2, curve: .linear)
        }
    }

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(level) }
        set {}
    }

    /// Creates a gauge at `level` percent.
    public init(level: CGFloat = 80) {
        self.level = min(max(level, 0), 100)
        super.init()
    }

    /// The fill colour for `level` percent: green at 30 and above, red at 20 and below, and in
    /// between a blend through amber (at 25).
    public static func fillColor(forLevel level: CGFloat) -> CGColor {
        let t = min(max((30 - level) / 10, 0), 1)
        return t < 0.5 ? chargedColor.mixed(with: warningColor, fraction: 2 * t) : warningColor.mixed(with: lowColor, fraction: 2 * t - 1)
    }

    /// The text shown, like "80%".
    public var percentText: String { String(format: percentFormat, Int(level.rounded())) }

    /// The body (without the terminal nub) in the bounds.
    var bodyRect: CGRect {
        let b = bounds.insetBy(dx: 1, dy: 1)
        let nub = b.height * 0.12
        return CGRect(x: b.minX, y: b.minY, width: b.width - nub * 1.6, height: b.height)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let body = bodyRect
        let line = max(body.height * 0.07, 1)
        let corner = body.height * 0.2
        let nubHeight = body.height * 0.38
        ctx.setFillColor(gray: 0.85, alpha: 1)
        ctx.addPath(CGPath(roundedRect: CGRect(x: body.maxX, y: body.midY - nubHeight / 2, width: bounds.maxX - 1 - body.maxX, height: nubHeight),
                           cornerWidth: body.height * 0.06, cornerHeight: body.height * 0.06))
        ctx.fillPath()

        let inner = body.insetBy(dx: line * 1.9, dy: line * 1.9)
        let fraction = level / 100
        if fraction > 0 {
            let fill = CGRect(x: inner.minX, y: inner.minY, width: inner.width * fraction, height: inner.height)
            let colour = BatteryGaugeView.fillColor(forLevel: level)
            ctx.saveGState()
            ctx.addPath(CGPath(roundedRect: inner, cornerWidth: corner * 0.5, cornerHeight: corner * 0.5))
            ctx.clip()
            ctx.clip(to: fill)
            ctx.drawLinearGradient(.between(colour.shaded(0.35), colour.shaded(-0.15)), start: CGPoint(x: 0, y: inner.minY),
                                   end: CGPoint(x: 0, y: inner.maxY), options: [])
            ctx.restoreGState()
        }
        ctx.addPath(CGPath(roundedRect: body.insetBy(dx: line / 2, dy: line / 2), cornerWidth: corner, cornerHeight: corner))
        ctx.setStrokeColor(gray: 0.85, alpha: 1)
        ctx.setLineWidth(line)
        ctx.strokePath()

        guard let font = try? CTFont.uiFont(.emphasizedSystem, size: inner.height * 0.55) else { return }
        let text = percentText
        let size = text.size(withFont: font)
        let origin = CGPoint(x: inner.midX - size.width / 2, y: inner.midY - size.height / 2)
        ctx.saveGState()
        ctx.setShadow(offset: .zero, blur: 2, color: CGColor(gray: 0, alpha: 0.8))
        text.draw(at: origin, font: font, color: .white, in: ctx)
        ctx.restoreGState()
    }

    // MARK: Touches: the level follows the finger across the fill's extent.

    private func setLevel(at touch: Touch) {
        if run.isAnimating { run.set(level) }
        let inner = bodyRect.insetBy(dx: max(bodyRect.height * 0.07, 1) * 1.9, dy: 0)
        let x = touch.location(in: self).x
        level = ((x - inner.minX) / max(inner.width, 1) * 100).rounded(toPlaces: 1)
    }

    public override func touchesBegan(_ touches: Set<Touch>) { touches.first.map(setLevel) }
    public override func touchesMoved(_ touches: Set<Touch>) { touches.first.map(setLevel) }
    public override func touchesEnded(_ touches: Set<Touch>) { touches.first.map(setLevel) }
    public override func touchesCancelled(_ touches: Set<Touch>) {}

    public override func applyLocalization(_ localization: Localization) {
        percentFormat = localization.string(forKey: "%d%%")
        setNeedsDisplay()
        super.applyLocalization(localization)
    }
}
