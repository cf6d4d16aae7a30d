import CrispGraphics
import CrispUI
import Foundation

/// A bitmap inside a purely vector "glow bubble": a soft radial light in the theme's glow
/// colour around a round window holding the picture, a rim, and a specular highlight at the top
/// left. Without a picture it draws the bubble alone.
public final class GlowBubbleView: View, ThemeFollowing {
    /// The picture, or nil.
    public var image: CGImage? { didSet { setNeedsDisplay() } }
    /// The colours (the glow).
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }

    /// Creates a bubble showing `image`.
    public init(image: CGImage?) {
        self.image = image
        super.init()
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let side = min(bounds.width, bounds.height)
        let c = CGPoint(x: bounds.midX, y: bounds.midY)
        let outer = side / 2, r = side * 0.34
        let glow = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                              colors: [theme.glow.copy(alpha: 0.9)!, theme.glow.copy(alpha: 0.35)!, theme.glow.copy(alpha: 0)!],
                              locations: [0, 0.45, 1])!
        ctx.drawRadialGradient(glow, startCenter: c, startRadius: r * 0.9, endCenter: c, endRadius: outer, options: [])
        let disc = CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
        ctx.saveGState()
        ctx.addEllipse(in: disc)
        ctx.clip()
        if let image {
            UIImage(cgImage: image).draw(in: disc)
        } else {
            ctx.setFillColor(theme.barBottom)
            ctx.fill(disc)
        }
        // Specular highlight: a white ellipse fading downwards, upper left.
        let spot = CGRect(x: c.x - r * 0.72, y: c.y - r * 0.9, width: r * 1.2, height: r * 0.8)
        ctx.addEllipse(in: spot)
        ctx.clip()
        ctx.drawLinearGradient(.between(CGColor(gray: 1, alpha: 0.85), CGColor(gray: 1, alpha: 0.05)),
                               start: CGPoint(x: 0, y: spot.minY), end: CGPoint(x: 0, y: spot.maxY), options: [])
        ctx.restoreGState()
        ctx.setStrokeColor(theme.glow.shaded(0.5).copy(alpha: 0.9)!)
        ctx.setLineWidth(max(side * 0.02, 0.75))
        ctx.strokeEllipse(in: disc)
    }
}
