import CrispGraphics
import Foundation

/// The drawing side of a view, in Core Animation's spelling (`view.layer`, `CALayer`): how the
/// window composes the view — its shadow, rounded corners, border, clipping — and whether it
/// keeps the view's drawing as a bitmap between frames.
///
/// Crisp draws views straight into the window's pixels; what Core Animation does on the GPU
/// (Layer+Composition.swift) happens when the window composes the view in a frame:
/// 1. the shadow, beneath everything: cast by `shadowPath` when it is set (one filled path,
///    fast), else by everything the view shows (its background, drawing, subviews and border,
///    gathered in a transparency layer);
/// 2. the background (rounded by `cornerRadius`) and `draw(_:)` — from the cached bitmap when
///    `cachesContents` is on;
/// 3. the subviews, clipped to the rounded bounds when `masksToBounds`;
/// 4. the border, inside the bounds, above the subviews.
///
/// Differences from Core Animation that remain:
/// - `shadowRadius` is drawn as a Core Graphics shadow blur of `2 · shadowRadius` (a Gaussian
///   of standard deviation `shadowRadius`), in points; Core Animation's exact kernel is
///   undocumented.
/// - The shadow offset and blur are in the window's points and ignore the view's `transform`
///   and its ancestors' (Core Graphics' rule for shadows), where Core Animation transforms a
///   shadow with its layer.
/// - There is no implicit animation: the properties change at once (animate the view instead).
/// - A layer is not a separate object tree: no sublayers, anchor point or z position.
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

    // MARK: Shadow

    /// The shadow's colour before `shadowOpacity` applies. Default opaque black; nil casts none.
    public var shadowColor: CGColor? = CGColor(gray: 0, alpha: 1) {
        willSet { view?.layerAppearanceWillChange() }
        didSet { view?.layerAppearanceDidChange() }
    }

    /// The shadow's opacity, 0…1 (multiplied into `shadowColor`'s alpha). Default 0: no shadow,
    /// as in Core Animation.
    public var shadowOpacity: Float = 0 {
        willSet { view?.layerAppearanceWillChange() }
        didSet { view?.layerAppearanceDidChange() }
    }

    /// How far the shadow falls, in points, in the window's y-down space. Default (0, −3), as in
    /// Core Animation: on iOS (y down) that casts the shadow *up*.
    public var shadowOffset = CGSize(width: 0, height: -3) {
        willSet { view?.layerAppearanceWillChange() }
        didSet { view?.layerAppearanceDidChange() }
    }

    /// The shadow's blur radius in points. Default 3. Drawn as a Core Graphics shadow blur of
    /// `2 · shadowRadius` (a Gaussian of standard deviation `shadowRadius`).
    public var shadowRadius: CGFloat = 3 {
        willSet { view?.layerAppearanceWillChange() }
        didSet { view?.layerAppearanceDidChange() }
    }

    /// The outline that casts the shadow, in the view's coordinates (filled non-zero). Nil: the
    /// shadow is cast by what the view shows, which costs a transparency layer per frame;
    /// setting it (as Core Animation's documentation advises) is much cheaper.
    public var shadowPath: CGPath? {
        willSet { view?.layerAppearanceWillChange() }
        didSet { view?.layerAppearanceDidChange() }
    }

    // MARK: Corners, clipping, border

    /// The radius of the corners of the background and the border, in points; with
    /// `masksToBounds`, of the clip too. Default 0. Drawn as circular arcs (Core Animation's
    /// "continuous" corner curve is not emulated).
    public var cornerRadius: CGFloat = 0 {
        didSet {
            guard cornerRadius != oldValue else { return }
            view?.setNeedsDisplay()   // the background is rounded in the contents
            view?.layerAppearanceDidChange()
        }
    }

    /// Whether the view's drawing and its subviews are clipped to its bounds, rounded by
    /// `cornerRadius`. The same property as the view's `clipsToBounds`, as in UIKit.
    public var masksToBounds: Bool {
        get { view?.clipsToBounds ?? false }
        set { view?.clipsToBounds = newValue }
    }

    /// The width of the border drawn inside the bounds, above the subviews, in points. Default 0.
    public var borderWidth: CGFloat = 0 {
        didSet { if borderWidth != oldValue { view?.layerAppearanceDidChange() } }
    }

    /// The border's colour. Default opaque black.
    public var borderColor: CGColor? = CGColor(gray: 0, alpha: 1) {
        didSet { if borderColor != oldValue { view?.layerAppearanceDidChange() } }
    }

    // MARK: Cached contents

    /// Whether the window keeps the view's background and `draw(_:)` output as a bitmap in
    /// device pixels between frames (Core Animation keeps a layer's `contents` this way), so a
    /// repaint that only passes over the view — a neighbour moving, a drag across it — copies
    /// pixels instead of drawing. Default false.
    ///
    /// The bitmap is drawn again after `setNeedsDisplay()` (of any part: the whole view is
    /// redrawn), when the view's size changes, and when the screen's size or scale changes. It
    /// is used only while the view lands on whole device pixels without rotation or scaling
    /// (otherwise the view draws directly, as without the cache). The window bounds the total
    /// memory (`window.contentsCache.limitInBytes`) and evicts the least recently used bitmaps first.
    ///
    /// Only for views whose drawing depends on nothing but what calls `setNeedsDisplay()`
    /// (a view that renders its ancestors, as a loupe does, must not cache).
    public var cachesContents = false {
        didSet { if !cachesContents { view?.window?.contentsCache.remove(view!) } }
    }

    // MARK: Rendering

    /// Draws the view and its subviews into `context`, UIKit-style, like `CALayer.render(in:)`.
    ///
    /// The context's current user space is taken as the view's own coordinates (its bounds),
    /// y down: use a UIKit context — `UIGraphicsBeginImageContext…`, or the context of a
    /// `draw(_:)` — or flip a bitmap context first. The view's alpha applies; its frame and
    /// transform do not (they place it in its superview). Only what lies in the context's clip
    /// is drawn; `UIGraphicsGetCurrentContext()` is `context` meanwhile. Views that cache their
    /// contents and land on whole device pixels at the screen's scale are copied from the
    /// window's cache, as on screen (so the result matches the window pixel for pixel).
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

    // MARK: Geometry of the look

    /// Whether a shadow is to be drawn.
    var castsShadow: Bool {
        guard shadowOpacity > 0, let color = shadowColor, color.alpha > 0, shadowOffset.width.isFinite,
              shadowOffset.height.isFinite, shadowRadius.isFinite else { return false }
        return true
    }

    /// The shadow colour with `shadowOpacity` applied.
    var effectiveShadowColor: CGColor? {
        guard let color = shadowColor else { return nil }
        return color.copy(alpha: color.alpha * CGFloat(min(max(shadowOpacity, 0), 1)))
    }

    /// How far the shadow's blur spreads beyond its caster, in points: a generous bound on the
    /// box blur's reach (about 2.8 standard deviations plus a pixel).
    var shadowReach: CGFloat { 3 * max(shadowRadius, 0) + 2 }

    /// The area the shadow of `caster` (view coordinates) can touch, in the view's coordinates.
    func shadowArea(of caster: CGRect) -> CGRect {
        caster.offsetBy(dx: shadowOffset.width, dy: shadowOffset.height).insetBy(dx: -shadowReach, dy: -shadowReach)
    }

    /// The corner radius as drawn: at most half the shorter side.
    func clampedCornerRadius(in rect: CGRect) -> CGFloat {
        max(min(cornerRadius, rect.width / 2, rect.height / 2), 0)
    }

    /// The bounds rounded by `cornerRadius` (nil when the corners are square).
    func roundedBoundsPath() -> CGPath? {
        guard let b = view?.bounds else { return nil }
        let r = clampedCornerRadius(in: b)
        guard r > 0 else { return nil }
        return CGPath(roundedRect: b, cornerWidth: r, cornerHeight: r, transform: nil)
    }
}
