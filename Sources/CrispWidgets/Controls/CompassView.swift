import CrispGraphics
import CrispUI
import Foundation

/// The essay's compass-inaccuracy indicator: a dial whose needle turns away from north by the
/// compass's inaccuracy in degrees (0–90), with a translucent wedge showing the ± range and the
/// value as text ("±12°") below. Dragging sideways on it sets the inaccuracy (the whole width
/// is 90°). Its state line is the inaccuracy in degrees (`12`).
///
/// `needleAngle` (degrees, clockwise from north) is what is drawn; whenever the inaccuracy
/// changes it follows on a damped spring, so the needle swings there and comes to rest (no
/// perpetual motion: the screen goes idle again).
public final class CompassView: View, ThemeFollowing {
    /// The inaccuracy in degrees, 0…90 (clamped). Changing it repaints and calls `onChange`.
    public var inaccuracy: CGFloat {
        didSet {
            let clamped = min(max(inaccuracy.isNaN ? 0 : inaccuracy, 0), 90)
            if clamped != inaccuracy { inaccuracy = clamped }
            guard inaccuracy != oldValue else { return }
            setNeedsDisplay()
            needle.animateSpring(to: inaccuracy, damping: CompassView.swingDamping, duration: CompassView.swingDuration)
            publishState(ControlState.string(inaccuracy))
            onChange?(self)
        }
    }
    /// The needle's drawn angle in degrees clockwise from north (on its way to `inaccuracy`).
    public var needleAngle: CGFloat { needle.value }
    /// How the needle's spring is damped (0…1; lower swings more).
    public static let swingDamping: CGFloat = 0.3
    /// Seconds the needle swings before it rests.
    public static let swingDuration: TimeInterval = 1.4
    private lazy var needle = ValueAnimator<CGFloat>(inaccuracy, owner: self)
    /// The colours (the wedge; at 0° the compass shows none). A new theme repaints only the
    /// wedge's rectangle.
    public var theme: Theme = .blue {
        didSet {
            guard theme != oldValue, let wedge = wedgePath() else { return }
            setNeedsDisplay(wedge.boundingBoxOfPath.insetBy(dx: -1, dy: -1))
        }
    }
    /// Whether the themed wedge shows: above 0°.
    public var showsTheme: Bool { inaccuracy > 0 }
    /// Called after `inaccuracy` changed.
    public var onChange: ((CompassView) -> Void)?
    /// The dial's letters, localized by the keys "N", "E", "S", "W".
    public private(set) var cardinals = ["N", "E", "S", "W"]

    private var dragStart: (x: CGFloat, value: CGFloat)?

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(inaccuracy) }
        set {}
    }

    /// Creates a compass showing `inaccuracy` degrees.
    public init(inaccuracy: CGFloat = 12) {
        self.inaccuracy = inaccuracy
        super.init()
        // The animator exists from the start, so the first change swings from the first angle.
        _ = needle
    }

    /// The text under the dial, like "±12°".
    public var valueText: String { "±\(Int(inaccuracy.rounded()))°" }

    /// The text line's height for the current size.
    var textHeight: CGFloat { max(min(bounds.width, bounds.height) * 0.16, 8) }

    /// The dial's rectangle: a square above the text line.
    var dialRect: CGRect {
        let b = bounds
        let side = min(b.width, b.height - textHeight * 1.2)
        return CGRect(x: b.midX - side / 2, y: b.minY, width: side, height: side)
    }

    /// The wedge: ± inaccuracy around north, in the theme's accent; nil at 0°.
    @_spi(Testing) public func wedgePath() -> CGPath? {
        let dial = dialRect.insetBy(dx: 1, dy: 1)
        let spread = inaccuracy * .pi / 180
        guard dial.width > 4, spread > 0 else { return nil }
        let c = CGPoint(x: dial.midX, y: dial.midY), r = dial.width / 2
        let wedge = CGMutablePath()
        wedge.move(to: c)
        wedge.addArc(center: c, radius: r * 0.86, startAngle: -.pi / 2 - spread, endAngle: -.pi / 2 + spread, clockwise: false)
        wedge.closeSubpath()
        return wedge
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let dial = dialRect.insetBy(dx: 1, dy: 1)
        guard dial.width > 4 else { return }
        let c = CGPoint(x: dial.midX, y: dial.midY), r = dial.width / 2

        // Face: a dark disc with a lighter centre and a metal rim.
        ctx.saveGState()
        ctx.addEllipse(in: dial)
        ctx.clip()
        ctx.drawRadialGradient(.between(CGColor(gray: 0.32, alpha: 1), CGColor(gray: 0.1, alpha: 1)), startCenter: c, startRadius: 0,
                               endCenter: c, endRadius: r, options: [])
        if let wedge = wedgePath() {
            ctx.addPath(wedge)
            ctx.setFillColor(theme.accent.copy(alpha: 0.35)!)
            ctx.fillPath()
        }
        ctx.restoreGState()
        ctx.setStrokeColor(gray: 0.7, alpha: 1)
        ctx.setLineWidth(max(r * 0.05, 1))
        ctx.strokeEllipse(in: dial.insetBy(dx: r * 0.025, dy: r * 0.025))

        // Ticks every 30°, longer at the cardinal points.
        ctx.setStrokeColor(gray: 0.85, alpha: 1)
        for i in 0..<12 {
            let a = CGFloat(i) * .pi / 6
            let inner = r * (i % 3 == 0 ? 0.72 : 0.8)
            ctx.setLineWidth(max(r * (i % 3 == 0 ? 0.035 : 0.02), 0.5))
            ctx.strokeLineSegments(between: [CGPoint(x: c.x + sin(a) * inner, y: c.y - cos(a) * inner),
                                             CGPoint(x: c.x + sin(a) * r * 0.88, y: c.y - cos(a) * r * 0.88)])
        }
        if let font = try? CTFont.uiFont(.emphasizedSystem, size: r * 0.2) {
            for (i, letter) in cardinals.enumerated() {
                let a = CGFloat(i) * .pi / 2
                let size = letter.size(withFont: font)
                let p = CGPoint(x: c.x + sin(a) * r * 0.58 - size.width / 2, y: c.y - cos(a) * r * 0.58 - size.height / 2)
                letter.draw(at: p, font: font, color: i == 0 ? CGColor(red: 1, green: 0.4, blue: 0.35, alpha: 1) : CGColor(gray: 0.85, alpha: 1), in: ctx)
            }
        }

        // The needle: a red north half and a white south half, turned by needleAngle.
        ctx.saveGState()
        ctx.translateBy(x: c.x, y: c.y)
        ctx.rotate(by: needleAngle * .pi / 180)
        let w = r * 0.1, l = r * 0.44
        // One shadow for the whole needle (the outline filled once, dark, with the shadow on),
        // then the halves over it: no transparency layer, which would cost a canvas-sized buffer.
        let outline = CGMutablePath()
        outline.addLines(between: [CGPoint(x: 0, y: -l), CGPoint(x: w, y: 0), CGPoint(x: 0, y: l), CGPoint(x: -w, y: 0)])
        outline.closeSubpath()
        ctx.saveGState()
        ctx.setShadow(offset: .zero, blur: r * 0.08, color: CGColor(gray: 0, alpha: 0.7))
        ctx.setFillColor(gray: 0.15, alpha: 1)
        ctx.addPath(outline)
        ctx.fillPath()
        ctx.restoreGState()
        ctx.setFillColor(red: 0.9, green: 0.15, blue: 0.12, alpha: 1)
        ctx.addLines(between: [CGPoint(x: -w, y: 0), CGPoint(x: 0, y: -l), CGPoint(x: w, y: 0)])
        ctx.fillPath()
        ctx.setFillColor(gray: 0.92, alpha: 1)
        ctx.addLines(between: [CGPoint(x: -w, y: 0), CGPoint(x: 0, y: l), CGPoint(x: w, y: 0)])
        ctx.fillPath()
        ctx.setFillColor(gray: 0.25, alpha: 1)
        ctx.fillEllipse(in: CGRect(x: -w * 0.45, y: -w * 0.45, width: w * 0.9, height: w * 0.9))
        ctx.restoreGState()

        // The value.
        if let font = try? CTFont.uiFont(.emphasizedSystem, size: textHeight) {
            let text = valueText
            let size = text.size(withFont: font)
            text.draw(at: CGPoint(x: bounds.midX - size.width / 2, y: bounds.maxY - size.height), font: font,
                      color: CGColor(gray: 0.9, alpha: 1), in: ctx)
        }
    }

    // MARK: Touches: a horizontal drag across the width spans 90°.

    public override func touchesBegan(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        dragStart = (touch.location(in: self).x, inaccuracy)
    }

    public override func touchesMoved(_ touches: Set<Touch>) {
        guard let start = dragStart, let touch = touches.first else { return }
        let dx = touch.location(in: self).x - start.x
        inaccuracy = (start.value + dx / max(bounds.width, 1) * 90).rounded()
    }

    public override func touchesEnded(_ touches: Set<Touch>) { dragStart = nil }
    public override func touchesCancelled(_ touches: Set<Touch>) { dragStart = nil }

    public override func applyLocalization(_ localization: Localization) {
        cardinals = ["N", "E", "S", "W"].map { localization.string(forKey: $0) }
        setNeedsDisplay()
        super.applyLocalization(localization)
    }
}
