import CrispGraphics
import CrispUI
import Foundation

/// A battery gauge in vectors: a rounded body outline, the terminal nub, and the charge level.
public final class BatteryView: View {
    /// Charge, 0…1. Changing it repaints the gauge.
    public var level: CGFloat = 0.8 { didSet { if level != oldValue { setNeedsDisplay() } } }
    /// Outline and nub colour.
    public var color: CGColor = .white { didSet { setNeedsDisplay() } }
    /// Charge colour when not low.
    public var chargeColor: CGColor = .white { didSet { setNeedsDisplay() } }
    /// Charge colour at or below 20 %.
    public var lowChargeColor = CGColor(red: 0.9, green: 0.2, blue: 0.15, alpha: 1)
    /// Whether the battery is on the charger: a lightning bolt over the gauge, outlined in
    /// `boltOutlineColor` so it reads over the charge.
    public var isCharging = false { didSet { if isCharging != oldValue { setNeedsDisplay() } } }
    /// The bolt's outline colour (the status bar's background).
    public var boltOutlineColor: CGColor = .black { didSet { setNeedsDisplay() } }

    /// The size the gauge is designed for, in points.
    public static let preferredSize = CGSize(width: 25, height: 11)

    public override func sizeThatFits(_ size: CGSize) -> CGSize { BatteryView.preferredSize }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        let nubWidth = max(b.width * 0.08, 1.5)
        let body = CGRect(x: b.minX + 0.5, y: b.minY + 0.5, width: b.width - nubWidth - 1.5, height: b.height - 1)
        let corner = min(body.height * 0.25, 2.5)
        ctx.setStrokeColor(color)
        ctx.setLineWidth(1)
        ctx.addPath(CGPath(roundedRect: body, cornerWidth: corner, cornerHeight: corner))
        ctx.strokePath()
        ctx.setFillColor(color)
        let nubHeight = body.height * 0.4
        ctx.addPath(CGPath(roundedRect: CGRect(x: body.maxX + 0.5, y: body.midY - nubHeight / 2, width: nubWidth, height: nubHeight),
                           cornerWidth: nubWidth / 2, cornerHeight: nubWidth / 2))
        ctx.fillPath()
        let clamped = min(max(level.isNaN ? 0 : level, 0), 1)
        let inner = body.insetBy(dx: 1.5, dy: 1.5)
        if clamped > 0, inner.width > 0, inner.height > 0 {
            ctx.setFillColor(clamped <= 0.2 && !isCharging ? lowChargeColor : chargeColor)
            ctx.fill(CGRect(x: inner.minX, y: inner.minY, width: inner.width * clamped, height: inner.height))
        }
        guard isCharging else { return }
        // The bolt, in fractions of the body: a zigzag from top right to bottom left.
        let bolt: [(CGFloat, CGFloat)] = [(0.58, -0.1), (0.28, 0.58), (0.47, 0.58), (0.40, 1.1), (0.72, 0.40), (0.53, 0.40)]
        let path = CGMutablePath()
        path.addLines(between: bolt.map { CGPoint(x: body.minX + $0.0 * body.width, y: body.minY + $0.1 * body.height) })
        path.closeSubpath()
        ctx.addPath(path)
        ctx.setFillColor(color)
        ctx.setStrokeColor(boltOutlineColor)
        ctx.setLineWidth(1)
        ctx.drawPath(using: .fillStroke)
    }
}
