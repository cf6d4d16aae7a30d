import CrispGraphics
import CrispUI
import Foundation

/// The cellular signal strength in vectors: five bars of rising height, the first `strength`
/// filled, the rest outlined faintly.
public final class SignalBarsView: View {
    /// Filled bars, 0…5.
    public var strength = 4 { didSet { if strength != oldValue { setNeedsDisplay() } } }
    /// Bar colour.
    public var color: CGColor = .white { didSet { setNeedsDisplay() } }

    /// The size the bars are designed for, in points.
    public static let preferredSize = CGSize(width: 19, height: 10)

    public override func sizeThatFits(_ size: CGSize) -> CGSize { SignalBarsView.preferredSize }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        let gap: CGFloat = 1, count = 5
        let barWidth = (b.width - gap * CGFloat(count - 1)) / CGFloat(count)
        for i in 0..<count {
            let h = b.height * CGFloat(i + 2) / CGFloat(count + 1)
            let bar = CGRect(x: b.minX + CGFloat(i) * (barWidth + gap), y: b.maxY - h, width: barWidth, height: h)
            if i < strength {
                ctx.setFillColor(color)
                ctx.fill(bar)
            } else {
                ctx.setFillColor(color.copy(alpha: 0.3) ?? color)
                ctx.fill(bar)
            }
        }
    }
}
