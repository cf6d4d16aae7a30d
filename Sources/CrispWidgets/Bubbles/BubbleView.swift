import CrispGraphics
import CrispUI
import Foundation

/// The essay's embossed data-visualization circle (seed 003, "Nice emboss effect using Core
/// Graphics"): a colour gradient, an inner shadow, a white shine and a thin border, drawn by
/// its `drawRect:` ported line by line — plus, as in the essay, an outer drop shadow that is a
/// Core Animation layer shadow, not Core Graphics (`layer.shadowPath` is the circle).
///
/// The colour runs from red (`percentValue` 0) to green (1): hue `percentValue · 1/3`, with
/// saturation/brightness 0.9/0.8 at the top and 0.7/0.6 at the bottom. Drawn in a UIKit context
/// (y down, shadows in points, a negative offset going up and left), the inner shadow darkens
/// the bottom-right rim and the shine lights the top-left one: lit from the top left, like
/// Photoshop's bevel and emboss.
///
/// Port notes:
/// - The essay reads `drawRect:`'s `rect` as the bounds, which it is only when the whole view
///   is drawn; the port uses `bounds` so a partial repaint draws the same pixels.
/// - The essay saves the graphics state twice and restores it once; UIKit (and CrispUI)
///   restore what a `drawRect:` leaves saved, so the port keeps the calls as written.
/// - `[UIColor clearColor] setFill]` then `CGContextFillRect` paints nothing (source-over with
///   a transparent colour); kept as written.
public final class BubbleView: View {
    /// The value shown, 0…1 (`_percentValue` in the essay): the hue from red (0) to green (1).
    /// Setting it repaints.
    public var percentValue: CGFloat = 0 {
        didSet { if percentValue != oldValue { setNeedsDisplay() } }
    }

    /// Creates a bubble showing `percentValue`, with the essay's Core Animation drop shadow
    /// (down and right, light from the top left) cast by the circle's path, and its contents
    /// cached (a bubble is only drawn again when its value or size changes).
    public init(frame: CGRect = .zero, percentValue: CGFloat = 0) {
        self.percentValue = percentValue
        super.init(frame: frame)
        layer.shadowColor = CGColor(gray: 0, alpha: 1)
        layer.shadowOpacity = 0.45
        layer.shadowOffset = CGSize(width: 2, height: 3)
        layer.shadowRadius = 2.5
        layer.cachesContents = true
        updateShadowPath()
    }

    /// The circle the essay fills, in the view's coordinates: centred, of radius half the
    /// shorter side less the 1-point border.
    public var circleRect: CGRect {
        let b = bounds
        let r = max(min(b.width, b.height) / 2 - 1, 0)
        return CGRect(x: b.midX - r, y: b.midY - r, width: 2 * r, height: 2 * r)
    }

    public override func layoutSubviews() { updateShadowPath() }

    private func updateShadowPath() {
        let path = CGPath(ellipseIn: circleRect, transform: nil)
        if layer.shadowPath.map({ $0.boundingBoxOfPath != circleRect }) ?? true { layer.shadowPath = path }
    }

    /// Whether `point` (view coordinates) is on the circle.
    public override func point(inside point: CGPoint) -> Bool {
        let c = circleRect
        let dx = point.x - c.midX, dy = point.y - c.midY
        return dx * dx + dy * dy <= (c.width / 2) * (c.width / 2)
    }

    // The essay's drawRect:, line by line.
    public override func draw(_ dirtyRect: CGRect) {
        let rect = bounds
        // Drawing code
        guard let currentContext = UIGraphicsGetCurrentContext() else { return }
        currentContext.saveGState()

        UIColor.clear.setFill()
        currentContext.fill(rect)

        let diameter = min(rect.size.height, rect.size.width)
        let borderWidth: CGFloat = 1
        let circle = CGMutablePath()
        circle.addArc(center: CGPoint(x: rect.midX, y: rect.midY), radius: (diameter / 2.0) - borderWidth,
                      startAngle: .pi, endAngle: -.pi, clockwise: false)
        // percentValue goes from 0 to 1 and defines the circle main color from red (0) to green (1)
        let color1 = UIColor(hue: percentValue * (1.0 / 3.0), saturation: 0.9, brightness: 0.8, alpha: 1).cgColor
        let color2 = UIColor(hue: percentValue * (1.0 / 3.0), saturation: 0.7, brightness: 0.6, alpha: 1).cgColor
        let gradient: CGGradient?
        let locations: [CGFloat] = [0.0, 1.0]
        let colors = [color1, color2]

        gradient = CGGradient(colorsSpace: nil, colors: colors, locations: locations)

        let currentBounds = self.bounds
        let topCenter = CGPoint(x: currentBounds.midX, y: 0.0)
        let midCenter = CGPoint(x: currentBounds.midX, y: currentBounds.maxY)
        // fill the circle with gradient
        currentContext.addPath(circle)
        currentContext.saveGState()
        currentContext.clip()
        if let gradient {
            currentContext.drawLinearGradient(gradient, start: topCenter, end: midCenter, options: [])
        }

        // inner shadow to simulate emboss
        let innerShadowPath = CGMutablePath()
        innerShadowPath.addRect(rect.insetBy(dx: -100, dy: -100))
        innerShadowPath.addEllipse(in: rect.insetBy(dx: borderWidth - 1, dy: borderWidth - 1))
        currentContext.setShadow(offset: CGSize(width: -4, height: -4), blur: 3)
        UIColor.white.setFill()
        currentContext.addPath(innerShadowPath)
        currentContext.fillPath(using: .evenOdd)

        // white shine
        let whiteShinePath = CGMutablePath()
        whiteShinePath.addEllipse(in: rect.insetBy(dx: borderWidth + 5, dy: borderWidth + 5))
        currentContext.setShadow(offset: CGSize(width: -3, height: -3), blur: 2, color: UIColor(white: 1, alpha: 0.4).cgColor)

        let innerClippingPath = CGMutablePath()
        innerClippingPath.addRect(rect.insetBy(dx: -100, dy: -100))
        innerClippingPath.addEllipse(in: rect.insetBy(dx: borderWidth + 4, dy: borderWidth + 4))
        currentContext.addPath(innerClippingPath)
        currentContext.clip(using: .evenOdd)

        currentContext.addPath(whiteShinePath)
        currentContext.fillPath()
        let circleBorder = CGMutablePath()
        circleBorder.addArc(center: CGPoint(x: rect.midX, y: rect.midY), radius: (diameter - (borderWidth * 2)) / 2.0,
                            startAngle: .pi, endAngle: -.pi, clockwise: false)
        UIColor(white: 0.2, alpha: 1).setStroke()
        currentContext.setLineWidth(borderWidth)
        currentContext.addPath(circleBorder)
        currentContext.strokePath()
        currentContext.restoreGState()
    }
}
