import CrispGraphics
import CrispUI
import Foundation

/// A bitmap set into a vector-drawn button: a rounded frame with a vertical gradient, the
/// picture inset in it, a glossy highlight over the top half, and a pressed state (darker,
/// the picture a little lower, no gloss). Without a picture — a missing or broken file — the
/// button draws its frame alone.
///
/// The frame is drawn again at every scale; the picture is a 1× bitmap, so at 2× it is
/// visibly softer than the frame around it. That contrast is the point of the demo. Its state
/// line reads `pressed` or `released`.
public final class BitmapButtonView: View, ThemeFollowing {
    /// The picture, or nil.
    public var image: CGImage? { didSet { setNeedsDisplay() } }
    /// Whether the button shows pressed (a finger is down on it); changing it repaints and calls
    /// `onChange`.
    public var isPressed = false {
        didSet {
            guard isPressed != oldValue else { return }
            setNeedsDisplay()
            publishState(isPressed ? "pressed" : "released")
            onChange?(self)
        }
    }
    /// The colours (the frame's gradient).
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }
    /// Called after `isPressed` changed.
    public var onChange: ((BitmapButtonView) -> Void)?
    /// Called when a press is released over the button.
    public var onTap: (() -> Void)?

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { isPressed ? "pressed" : "released" }
        set {}
    }

    /// Creates a button showing `image`.
    public init(image: CGImage?) {
        self.image = image
        super.init()
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let side = min(bounds.width, bounds.height)
        let frame = CGRect(x: bounds.midX - side / 2, y: bounds.midY - side / 2, width: side, height: side).insetBy(dx: 1, dy: 1)
        let corner = side * 0.2
        let shape = CGPath(roundedRect: frame, cornerWidth: corner, cornerHeight: corner)
        let top = isPressed ? theme.barTop.shaded(-0.3) : theme.barTop.shaded(0.35)
        let bottom = isPressed ? theme.barBottom.shaded(-0.2) : theme.barBottom
        ctx.saveGState()
        ctx.addPath(shape)
        ctx.clip()
        ctx.drawLinearGradient(.between(top, bottom), start: CGPoint(x: 0, y: frame.minY), end: CGPoint(x: 0, y: frame.maxY), options: [])
        ctx.restoreGState()

        // The picture in a rounded window, upright in the flipped view context.
        let inset = side * 0.14
        var window = frame.insetBy(dx: inset, dy: inset)
        if isPressed { window = window.offsetBy(dx: 0, dy: side * 0.02) }
        let windowCorner = corner * 0.5
        if let image {
            ctx.saveGState()
            ctx.addPath(CGPath(roundedRect: window, cornerWidth: windowCorner, cornerHeight: windowCorner))
            ctx.clip()
            UIImage(cgImage: image).draw(in: window)
            ctx.restoreGState()
        }
        ctx.addPath(CGPath(roundedRect: window, cornerWidth: windowCorner, cornerHeight: windowCorner))
        ctx.setStrokeColor(gray: 0, alpha: 0.6)
        ctx.setLineWidth(max(side * 0.02, 0.5))
        ctx.strokePath()

        // Gloss: a white wash over the upper half, cut by a gentle curve.
        if !isPressed {
            ctx.saveGState()
            ctx.addPath(shape)
            ctx.clip()
            ctx.beginPath()
            ctx.move(to: CGPoint(x: frame.minX, y: frame.minY))
            ctx.addLine(to: CGPoint(x: frame.maxX, y: frame.minY))
            ctx.addLine(to: CGPoint(x: frame.maxX, y: frame.minY + frame.height * 0.42))
            ctx.addQuadCurve(to: CGPoint(x: frame.minX, y: frame.minY + frame.height * 0.42),
                             control: CGPoint(x: frame.midX, y: frame.minY + frame.height * 0.56))
            ctx.closePath()
            ctx.clip()
            ctx.drawLinearGradient(.between(CGColor(gray: 1, alpha: 0.55), CGColor(gray: 1, alpha: 0.08)),
                                   start: CGPoint(x: 0, y: frame.minY), end: CGPoint(x: 0, y: frame.minY + frame.height * 0.5), options: [])
            ctx.restoreGState()
        }
        ctx.addPath(CGPath(roundedRect: frame.insetBy(dx: 0.5, dy: 0.5), cornerWidth: corner, cornerHeight: corner))
        ctx.setStrokeColor(gray: 0, alpha: 0.7)
        ctx.setLineWidth(1)
        ctx.strokePath()
    }

    // MARK: Touches: pressed while the finger is down over the button.

    public override func touchesBegan(_ touches: Set<Touch>) { isPressed = true }

    public override func touchesMoved(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        isPressed = bounds.insetBy(dx: -10, dy: -10).contains(touch.location(in: self))
    }

    public override func touchesEnded(_ touches: Set<Touch>) {
        let wasPressed = isPressed
        isPressed = false
        if wasPressed { onTap?() }
    }

    public override func touchesCancelled(_ touches: Set<Touch>) { isPressed = false }
}
