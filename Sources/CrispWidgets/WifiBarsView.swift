import CrispGraphics
import CrispUI
import Foundation

/// The Wi-Fi strength in vectors: a fan of three sectors opening upwards from a point at the
/// bottom centre, the inner `strength` filled, the rest drawn faintly.
public final class WifiBarsView: View {
    /// Filled sectors, 0…3.
    public var strength = 3 { didSet { if strength != oldValue { setNeedsDisplay() } } }
    /// Fan colour.
    public var color: CGColor = .white { didSet { setNeedsDisplay() } }

    /// The size the fan is designed for, in points.
    public static let preferredSize = CGSize(width: 14, height: 10)

    public override func sizeThatFits(_ size: CGSize) -> CGSize { WifiBarsView.preferredSize }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        let centre = CGPoint(x: b.midX, y: b.maxY)
        // 45° either side of straight up (y grows downwards, so up is -90°).
        let start = -CGFloat.pi * 3 / 4, end = -CGFloat.pi / 4
        let outer = min(b.height, b.width / (2 * sin(CGFloat.pi / 4)))
        let step = outer / 3, gap = min(1, step / 3)
        for i in 0..<3 {
            let r1 = step * CGFloat(i + 1), r0 = i == 0 ? 0 : step * CGFloat(i) + gap
            let path = CGMutablePath()
            path.addArc(center: centre, radius: r1, startAngle: start, endAngle: end, clockwise: false)
            if r0 > 0 {
                path.addArc(center: centre, radius: r0, startAngle: end, endAngle: start, clockwise: true)
            } else {
                path.addLine(to: centre)
            }
            path.closeSubpath()
            ctx.setFillColor(i < strength ? color : (color.copy(alpha: 0.3) ?? color))
            ctx.addPath(path)
            ctx.fillPath()
        }
    }
}
