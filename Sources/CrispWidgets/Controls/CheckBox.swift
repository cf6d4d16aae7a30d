import CrispGraphics
import CrispUI
import Foundation

/// The essay's `CheckBox`, ported from Objective-C line by line: a light grey square, a dark
/// grey border one eighth of the width thick, and a three-point check mark, all relative to the
/// view's size. Checked at start; a single tap toggles it. Its state line reads `on` (checked)
/// or `off`.
///
/// The original's `drawRect:` reads its `rect` argument as the view's bounds, which it is only
/// when the whole view is drawn; the port uses `bounds` so that a partial repaint draws the same
/// pixels. As in the original, the border is stroked on the bounds' edge, so half of it falls
/// outside the view and is clipped: the visible border is 1/16 of the width.
public final class CheckBox: View {
    /// Whether the box is checked (`@property (readonly) BOOL checked` in the essay; settable
    /// here so a program can set it too).
    public var checked: Bool {
        didSet {
            guard checked != oldValue else { return }
            setNeedsDisplay()
            publishState(ControlState.string(checked))
            onChange?(self)
        }
    }
    /// Called after `checked` changed.
    public var onChange: ((CheckBox) -> Void)?

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { ControlState.string(checked) }
        set {}
    }

    /// `initWithFrame:` — checked, with a single-tap recognizer calling `hasBeenSingleTapped`.
    public override init(frame rect: CGRect = .zero) {
        checked = true
        super.init(frame: rect)
        let singleTapGestureRecognizer = TapGestureRecognizer()
        singleTapGestureRecognizer.addTarget(self, action: CheckBox.hasBeenSingleTapped)
        singleTapGestureRecognizer.numberOfTapsRequired = 1
        addGestureRecognizer(singleTapGestureRecognizer)
    }

    /// `hasBeenSingleTapped:` — toggles the state and asks to be drawn again.
    func hasBeenSingleTapped(_ gestureRecognizer: GestureRecognizer) {
        checked = !checked
        setNeedsDisplay()
    }

    public override func draw(_ dirtyRect: CGRect) {
        let rect = bounds
        guard let context = UIGraphicsGetCurrentContext() else { return }

        // white square
        context.setFillColor(red: 0.9, green: 0.9, blue: 0.9, alpha: 1.0)
        context.fill(rect)

        // grey border
        context.setLineWidth(rect.size.width / 8.0)
        context.setStrokeColor(red: 0.3, green: 0.3, blue: 0.3, alpha: 1.0)
        context.stroke(rect)

        // checkmark
        if checked {
            context.setStrokeColor(red: 0.0, green: 0.0, blue: 0.0, alpha: 1.0)
            let addLines = [
                CGPoint(x: rect.size.width * 0.2, y: rect.size.height * 0.4),
                CGPoint(x: rect.size.width * 0.45, y: rect.size.height * 0.7),
                CGPoint(x: rect.size.width * 0.8, y: rect.size.height * 0.2),
            ]
            context.addLines(between: addLines)
            context.strokePath()
        }
    }
}
