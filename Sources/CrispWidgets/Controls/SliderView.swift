import CrispGraphics
import CrispUI
import Foundation

/// A horizontal slider like `UISlider`: a thin track, filled in the theme's accent colour up to
/// a round knob. Dragging anywhere on it moves the knob under the finger. Its state line is the
/// value (`3.7`).
public final class SliderView: View, ThemeFollowing {
    /// The smallest value (left end).
    public let minimumValue: CGFloat
    /// The largest value (right end).
    public let maximumValue: CGFloat
    /// The value, clamped to `minimumValue…maximumValue`; changing it repaints and calls `onChange`.
    public var value: CGFloat {
        didSet {
            let clamped = min(max(value.isNaN ? minimumValue : value, minimumValue), maximumValue)
            if clamped != value { value = clamped }
            guard value != oldValue else { return }
            setNeedsDisplay()
            publishState(ControlState.string(value))
            onChange?(self)
        }
    }
    /// The colours (the filled part).
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }
    /// Called after `value` changed.
    public var onChange: ((SliderView) -> Void)?
    /// Snaps dragged values to multiples of this (0: no snapping). Default 0.1.
    public var step: CGFloat = 0.1

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(value) }
        set {}
    }

    /// Creates a slider over `range` at `value`.
    public init(range: ClosedRange<CGFloat>, value: CGFloat) {
        minimumValue = range.lowerBound
        maximumValue = range.upperBound
        self.value = min(max(value, range.lowerBound), range.upperBound)
        super.init()
    }

    /// The knob's diameter: the height, at most 28 points' worth of it.
    var knobDiameter: CGFloat { min(bounds.height, 28) }

    /// The x range the knob's centre travels.
    var travel: ClosedRange<CGFloat> {
        let r = knobDiameter / 2
        return (bounds.minX + r)...max(bounds.maxX - r, bounds.minX + r)
    }

    /// Whether the minimum is at the right end, as a UISlider's is in a right-to-left layout.
    var isMirrored: Bool { effectiveUserInterfaceLayoutDirection == .rightToLeft }

    /// The knob's centre x for the current value.
    var knobX: CGFloat {
        let t = (value - minimumValue) / max(maximumValue - minimumValue, .ulpOfOne)
        return travel.lowerBound + (travel.upperBound - travel.lowerBound) * (isMirrored ? 1 - t : t)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let d = knobDiameter, y = bounds.midY
        let trackHeight = max(d * 0.2, 2)
        let track = CGRect(x: travel.lowerBound, y: y - trackHeight / 2, width: travel.upperBound - travel.lowerBound, height: trackHeight)
        let cap = trackHeight / 2
        ctx.setFillColor(gray: 0.25, alpha: 1)
        ctx.addPath(CGPath(roundedRect: track, cornerWidth: cap, cornerHeight: cap))
        ctx.fillPath()
        ctx.setFillColor(theme.accent)
        // The filled part runs from the minimum's end to the knob.
        let filled = isMirrored ? CGRect(x: knobX, y: track.minY, width: track.maxX - knobX, height: trackHeight)
                                : CGRect(x: track.minX, y: track.minY, width: knobX - track.minX, height: trackHeight)
        ctx.addPath(CGPath(roundedRect: filled, cornerWidth: cap, cornerHeight: cap))
        ctx.fillPath()
        let knob = CGRect(x: knobX - d / 2, y: y - d / 2, width: d, height: d).insetBy(dx: 1, dy: 1)
        ctx.saveGState()
        ctx.setShadow(offset: .zero, blur: 2, color: CGColor(gray: 0, alpha: 0.6))
        ctx.setFillColor(gray: 0.95, alpha: 1)
        ctx.fillEllipse(in: knob)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.addEllipse(in: knob)
        ctx.clip()
        ctx.drawLinearGradient(.between(CGColor(gray: 1, alpha: 1), CGColor(gray: 0.78, alpha: 1)),
                               start: CGPoint(x: 0, y: knob.minY), end: CGPoint(x: 0, y: knob.maxY), options: [])
        ctx.restoreGState()
    }

    private func setValue(at touch: Touch) {
        let x = touch.location(in: self).x
        let along = min(max((x - travel.lowerBound) / max(travel.upperBound - travel.lowerBound, 1), 0), 1)
        let t = isMirrored ? 1 - along : along
        var v = minimumValue + (maximumValue - minimumValue) * t
        if step > 0 { v = (v / step).rounded() * step }
        value = v
    }

    public override func touchesBegan(_ touches: Set<Touch>) { touches.first.map(setValue) }
    public override func touchesMoved(_ touches: Set<Touch>) { touches.first.map(setValue) }
    public override func touchesEnded(_ touches: Set<Touch>) {}
    public override func touchesCancelled(_ touches: Set<Touch>) {}
}
