import CrispGraphics
import Foundation

/// The drawing side of a view, in Core Animation's spelling (`view.layer`, `CALayer`).
///
/// Crisp draws views directly into the window's pixels, so a layer keeps no bitmap of its own;
/// it renders its view on demand with `render(in:)`. The CoreAnimation look (shadow, corner
/// radius, border) will be properties of this class.
public final class Layer {
    /// The view this layer draws (UIKit: the layer's delegate). Held weakly: the view owns its layer.
    public private(set) weak var view: View?

    /// True while the view's `draw(_:)` runs.
    var isDrawing = false
    /// Whether the view has rendered itself from its own drawing, so the window keeps what it
    /// showed on screen for the next such render.
    var keepsLastAppearance = false
    /// What the view showed on screen at the end of the last frame it was drawn in: the pixels,
    /// and where they were in window points.
    var lastAppearance: (image: CGImage, rectInWindow: CGRect)?

    init(view: View) { self.view = view }

    /// Draws the view and its subviews into `context`, UIKit-style, like `CALayer.render(in:)`.
    ///
    /// The context's current user space is taken as the view's own coordinates (its bounds),
    /// y down: use a UIKit context — `UIGraphicsBeginImageContext…`, or the context of a
    /// `draw(_:)` — or flip a bitmap context first. The view's alpha applies; its frame and
    /// transform do not (they place it in its superview). Only what lies in the context's clip
    /// is drawn; `UIGraphicsGetCurrentContext()` is `context` meanwhile.
    ///
    /// A view whose `draw(_:)` is running — this one, or one below it, rendering an ancestor
    /// from its own drawing, as a loupe does — is not drawn again (that would recurse): it
    /// shows the pixels it had on screen at the end of the last frame, or nothing the first time
    /// (and always nothing outside a window).
    public func render(in context: CGContext) {
        guard let view else { return }
        let ctm = context.ctm
        GraphicsContextStack.current.push(context, scale: abs(ctm.a * ctm.d - ctm.b * ctm.c).squareRoot())
        defer { UIGraphicsPopContext() }
        ViewRenderer(context: context, isOnScreen: false).draw(view, dirty: context.boundingBoxOfClipPath, alpha: 1)
    }
}
