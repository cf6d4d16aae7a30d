import CrispGraphics
import CrispUI
import Foundation

/// A bitmap on its own, like `UIImageView` with `.scaleToFill`: the picture stretched to the
/// bounds, upright, with a thin dark frame — the "before" of the bitmap-inside-vectors demo.
public final class BitmapView: View {
    /// The picture, or nil (then only the frame shows).
    public var image: CGImage? { didSet { setNeedsDisplay() } }

    /// Creates a view of `image`.
    public init(image: CGImage?) {
        self.image = image
        super.init()
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        if let image { UIImage(cgImage: image).draw(in: b) }
        ctx.setStrokeColor(gray: 0.5, alpha: 1)
        ctx.setLineWidth(1)
        ctx.stroke(b.insetBy(dx: 0.5, dy: 0.5))
    }
}
