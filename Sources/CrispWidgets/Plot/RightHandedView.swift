import CrispGraphics
import CrispUI
import Foundation

// A view that draws in a right-handed coordinate system — origin at the bottom-left, y up, as in
// high-school algebra and in Quartz's own default — instead of UIKit's left-handed one (origin
// top-left, y down, which suits text). Scatter plots and graphs read naturally in it.
//
// Two tasks (translate the origin to the bottom of the bounds, flip the y axis) and three
// requirements, after the essay behind it (seed 002, `RHView`): intercept `draw(_:)`, offer a
// delegate as well as subclassing, and give the flip as a utility for other contexts (layers,
// image contexts).
//
// The essay's code computes `CGAffineTransformTranslate(ctm, 0, height)` and
// `CGAffineTransformScale(ctm, 1, -1)` and throws both results away (the functions return a new
// matrix; they do not change their argument), then concatenates the unchanged CTM onto the
// context — so as written the flip never happens (and the CTM is applied twice). What it means,
// and what this file does, is to concatenate `translate(0, height) · scale(1, −1)` onto the CTM,
// and to convert the dirty rectangle with that same flip (not with the whole CTM, which would
// take it into device pixels).

/// A `UIView` whose drawing happens in a right-handed coordinate system: origin at the bounds'
/// bottom-left corner, y pointing up, in points.
///
/// Draw by subclassing and overriding `draw(_:in:)`, or by setting a `delegate` — not both:
/// a view with a delegate whose class overrides `draw(_:in:)` stops at a precondition the first
/// time it draws (an override must not call `super`). `draw(_:)` is final: it sets up the
/// coordinates and dispatches.
///
/// Text: the text matrix is set to the identity for the call (and restored after), so text drawn
/// with `CTLineDraw` or `showGlyphs` at a text position stands upright and reads left to right
/// in the y-up space; `String.draw(at:font:color:in:)` works too, with its point as the box's
/// bottom-left corner.
open class RightHandedView: View {
    /// Draws the view instead of a subclass; held weakly, as UIKit delegates are.
    public weak var delegate: RightHandedViewDelegate?

    /// Set by the base `draw(_:in:)`: whether the last drawing reached it (so the class does not
    /// override it).
    private var reachedBaseDrawing = false

    /// Draws the view's contents into `context`, whose user space is right-handed (origin at the
    /// bounds' bottom-left, y up, in points); `rect` is the area to draw in that space.
    ///
    /// Subclasses override this (without calling `super`); the default draws nothing. It is the
    /// essay's `-drawRect:inContext:`.
    open func draw(_ rect: CGRect, in context: CGContext) {
        reachedBaseDrawing = true
    }

    /// The flip between the view's own (y-down) coordinates and the right-handed ones; it is its
    /// own inverse:
    ///
    /// ```
    /// x' = x
    /// y' = bounds.minY + bounds.maxY − y
    /// ```
    public var flipTransform: CGAffineTransform {
        let b = bounds
        return CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: b.minY + b.maxY)
    }

    /// `rect` (view coordinates, y down) in the right-handed coordinates, and back.
    public func convertToRightHanded(_ rect: CGRect) -> CGRect { rect.applying(flipTransform) }

    /// `point` (view coordinates, y down) in the right-handed coordinates, and back.
    public func convertToRightHanded(_ point: CGPoint) -> CGPoint { point.applying(flipTransform) }

    /// Toggles `context`'s user space between this view's y-down coordinates and its right-handed
    /// ones (moves the origin between the bounds' top-left and bottom-left, and flips the y axis),
    /// and returns the context.
    ///
    /// For drawing into a layer or an image context in the same coordinates as the view. The text
    /// matrix is left alone: in a context that ends up y-up (a view or UIKit image context
    /// flipped once) the identity text matrix draws text upright.
    @discardableResult
    public func flipContext(_ context: CGContext) -> CGContext {
        context.concatenate(flipTransform)
        return context
    }

    /// Flips the context, sets an identity text matrix and hands drawing to the delegate or the
    /// subclass (see the type's note).
    public final override func draw(_ rect: CGRect) {
        guard let context = UIGraphicsGetCurrentContext() else { return }
        let converted = convertToRightHanded(rect)
        let savedTextMatrix = context.textMatrix
        context.saveGState()
        flipContext(context)
        context.textMatrix = .identity
        reachedBaseDrawing = false
        draw(converted, in: context)
        if let delegate {
            if let conflict = RightHandedView.drawingConflict(hasDelegate: true, overridesDrawing: !reachedBaseDrawing, type: type(of: self)) {
                preconditionFailure(conflict)
            }
            delegate.drawView(self, in: converted, context: context)
        }
        context.restoreGState()
        context.textMatrix = savedTextMatrix
    }

    /// The message of the precondition that a view draws through a delegate or a subclass but
    /// not both; nil when there is no conflict.
    @_spi(Testing) public static func drawingConflict(hasDelegate: Bool, overridesDrawing: Bool, type: RightHandedView.Type) -> String? {
        guard hasDelegate, overridesDrawing else { return nil }
        return "RightHandedView: \(type) overrides draw(_:in:) and also has a delegate; draw with one or the other, not both"
    }
}
