import CrispGraphics
import CrispUI
import Foundation

/// An iOS-style on/off switch in vectors, for comparison with the essay's check box: a rounded
/// track whose blue "ON" half and grey "OFF" half slide under a round knob. A tap flips it; the
/// knob can also be dragged, and on release it goes to the nearer end. The knob snaps to its
/// end with a lightly damped spring.
///
/// `knobPosition` runs from 0 (off) to 1 (on) and is what is drawn; `isOn` is the value.
public final class SwitchView: View {
    /// The value; setting it moves the knob to its end and calls `onChange`.
    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            if !isDragging { snapKnob() }
            publishState(ControlState.string(isOn))
            onChange?(self)
        }
    }
    /// Where the knob is drawn, 0 (off) … 1 (on); setting it stops a snap in progress.
    public var knobPosition: CGFloat {
        get { knob.value }
        set { knob.set(newValue) }
    }
    /// Seconds the knob's spring takes to settle.
    public static let snapDuration: TimeInterval = 0.4
    private lazy var knob = ValueAnimator<CGFloat>(isOn ? 1 : 0, owner: self)
    /// The text on the on half ("ON", localized by the key "on").
    public private(set) var onText = "ON"
    /// The text on the off half ("OFF", localized by the key "off").
    public private(set) var offText = "OFF"
    /// Called after `isOn` changed.
    public var onChange: ((SwitchView) -> Void)?

    /// The track's proportions, width over height (UIKit's switch is 79 × 27 points).
    public static let aspectRatio: CGFloat = 79.0 / 27.0

    private var isDragging = false
    private var dragStart: (x: CGFloat, position: CGFloat) = (0, 0)
    private var dragDistance: CGFloat = 0

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(isOn) }
        set {}
    }

    /// Creates a switch, off unless `isOn`.
    public init(isOn: Bool = false) {
        self.isOn = isOn
        super.init()
        // The animator exists from the start, so the first change animates from the first state.
        _ = knob
    }

    /// Sends the knob to the end for `isOn` on the spring.
    private func snapKnob() {
        knob.animateSpring(to: isOn ? 1 : 0, damping: 0.55, duration: SwitchView.snapDuration)
    }

    /// The track: the bounds at `aspectRatio`, centred.
    var trackRect: CGRect {
        let b = bounds
        let h = min(b.height, b.width / SwitchView.aspectRatio)
        let w = h * SwitchView.aspectRatio
        return CGRect(x: b.midX - w / 2, y: b.midY - h / 2, width: w, height: h)
    }

    /// Whether the switch runs right to left (on with the knob at the left), as UISwitch does
    /// in a right-to-left layout.
    var isMirrored: Bool { effectiveUserInterfaceLayoutDirection == .rightToLeft }

    /// The knob's rectangle for `position`.
    func knobRect(at position: CGFloat) -> CGRect {
        let t = trackRect
        let d = t.height
        let along = (t.width - d) * min(max(position, 0), 1)
        return CGRect(x: isMirrored ? t.maxX - d - along : t.minX + along, y: t.minY, width: d, height: d)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let track = trackRect
        let r = track.height / 2
        let knob = knobRect(at: knobPosition)
        let pill = CGPath(roundedRect: track, cornerWidth: r, cornerHeight: r)
        ctx.saveGState()
        ctx.addPath(pill)
        ctx.clip()
        // The on half ends under the knob's centre, the off half starts there.
        // (Right to left, the on half is the right one.)
        let split = knob.midX, mirrored = isMirrored
        let leftPart = CGRect(x: track.minX, y: track.minY, width: split - track.minX, height: track.height)
        let rightPart = CGRect(x: split, y: track.minY, width: track.maxX - split, height: track.height)
        let onPart = mirrored ? rightPart : leftPart, offPart = mirrored ? leftPart : rightPart
        ctx.saveGState()
        ctx.clip(to: onPart)
        ctx.drawLinearGradient(.between(CGColor(red: 0.0, green: 0.38, blue: 0.86, alpha: 1), CGColor(red: 0.3, green: 0.62, blue: 1.0, alpha: 1)),
                               start: CGPoint(x: 0, y: track.minY), end: CGPoint(x: 0, y: track.maxY), options: [])
        ctx.restoreGState()
        ctx.saveGState()
        ctx.clip(to: offPart)
        ctx.drawLinearGradient(.between(CGColor(gray: 0.84, alpha: 1), CGColor(gray: 0.98, alpha: 1)),
                               start: CGPoint(x: 0, y: track.minY), end: CGPoint(x: 0, y: track.maxY), options: [])
        ctx.restoreGState()
        // The texts ride with the knob, each centred in the stretch of track its half shows at its end.
        if let font = try? CTFont.uiFont(.emphasizedSystem, size: track.height * 0.5) {
            let travel = track.width - track.height
            let onSize = onText.size(withFont: font), offSize = offText.size(withFont: font)
            let onCentre = mirrored ? knob.maxX + travel / 2 : knob.minX - travel / 2
            let offCentre = mirrored ? knob.minX - travel / 2 : knob.maxX + travel / 2
            onText.draw(at: CGPoint(x: (onCentre - onSize.width / 2).rounded(), y: track.midY - onSize.height / 2),
                        font: font, color: .white, in: ctx)
            offText.draw(at: CGPoint(x: (offCentre - offSize.width / 2).rounded(), y: track.midY - offSize.height / 2),
                         font: font, color: CGColor(gray: 0.45, alpha: 1), in: ctx)
        }
        // An inner shadow along the top edge.
        ctx.drawLinearGradient(.between(CGColor(gray: 0, alpha: 0.25), CGColor(gray: 0, alpha: 0)),
                               start: CGPoint(x: 0, y: track.minY), end: CGPoint(x: 0, y: track.minY + track.height * 0.3), options: [])
        ctx.restoreGState()
        ctx.addPath(CGPath(roundedRect: track.insetBy(dx: 0.25, dy: 0.25), cornerWidth: r - 0.25, cornerHeight: r - 0.25))
        ctx.setStrokeColor(gray: 0.45, alpha: 1)
        ctx.setLineWidth(0.5)
        ctx.strokePath()

        // The knob.
        let inset = knob.insetBy(dx: 0.5, dy: 0.5)
        ctx.saveGState()
        ctx.addEllipse(in: inset)
        ctx.clip()
        ctx.drawLinearGradient(.between(CGColor(gray: 0.80, alpha: 1), CGColor(gray: 0.99, alpha: 1)),
                               start: CGPoint(x: 0, y: inset.minY), end: CGPoint(x: 0, y: inset.maxY), options: [])
        ctx.restoreGState()
        ctx.setStrokeColor(gray: 0.5, alpha: 1)
        ctx.setLineWidth(0.75)
        ctx.strokeEllipse(in: inset)
    }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        isDragging = true
        dragStart = (touch.location(in: self).x, knobPosition)
        dragDistance = 0
    }

    public override func touchesMoved(_ touches: Set<Touch>) {
        guard isDragging, let touch = touches.first else { return }
        let dx = (touch.location(in: self).x - dragStart.x) * (isMirrored ? -1 : 1)
        dragDistance = max(dragDistance, abs(dx))
        let travel = max(trackRect.width - trackRect.height, 1)
        knobPosition = min(max(dragStart.position + dx / travel, 0), 1)
    }

    public override func touchesEnded(_ touches: Set<Touch>) {
        guard isDragging else { return }
        isDragging = false
        // Hardly moved: a tap flips the switch; a drag lands on the nearer end.
        isOn = dragDistance < 4 ? !isOn : knobPosition >= 0.5
        snapKnob()
    }

    public override func touchesCancelled(_ touches: Set<Touch>) {
        guard isDragging else { return }
        isDragging = false
        snapKnob()
    }

    public override func applyLocalization(_ localization: Localization) {
        onText = localization.string(forKey: "on")
        offText = localization.string(forKey: "off")
        setNeedsDisplay()
        super.applyLocalization(localization)
    }
}
