import CrispGraphics
import CrispUI
import Foundation

/// Draws the contents of a `RightHandedView` that is not subclassed (the essay's
/// `RHViewDelegate`).
///
/// A view has either a delegate or a subclass that draws, never both.
public protocol RightHandedViewDelegate: AnyObject {
    /// Draws `view`'s contents into `context`, whose user space is right-handed: origin at the
    /// bounds' bottom-left, y up, in points. `rect` is the area to draw, in that space.
    func drawView(_ view: RightHandedView, in rect: CGRect, context: CGContext)
}
