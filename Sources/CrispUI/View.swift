import CrispGraphics
import Foundation

/// A rectangular area of the screen that draws itself and receives touches, shaped like UIKit's
/// `UIView`.
///
/// Geometry is in points, UIKit-style: `frame` is the view's rectangle in its superview's
/// coordinates, `bounds` its own coordinate system (origin top-left, y down). A view's
/// coordinates map to its superview's by a translation of `frame.origin - bounds.origin`, and
/// by `transform` about the centre when it is not the identity.
///
/// Drawing is on demand: `setNeedsDisplay()` marks an area dirty, and the window's next frame
/// calls `draw(_:)` of every view that intersects the dirty area, clipped to it. Layout is on
/// demand too: `setNeedsLayout()` marks the view, and the next frame (or `layoutIfNeeded()`)
/// calls `layoutSubviews()`.
///
/// UI objects are not thread-safe: use a view tree from one thread at a time (the host's).
open class View {
    // MARK: Geometry

    private var storedFrame: CGRect
    private var storedBoundsOrigin: CGPoint = .zero
    /// While this view runs `layoutMirroredForDirection(_:)` right to left: its bounds, across
    /// whose centre line the subviews' frames are mirrored.
    fileprivate var mirroredLayoutBounds: CGRect?
    /// The superview's `mirroredLayoutBounds` (kept here so that reading `frame` stays a field
    /// load, not a walk up a weak reference).
    fileprivate var superviewMirroredLayoutBounds: CGRect?
    /// The frame set during the superview's mirrored layout, as written (left to right).
    fileprivate var pendingLayoutFrame: CGRect?

    /// The view's rectangle in its superview's coordinates, in points, before `transform`.
    ///
    /// Changing it repaints the old and the new area; changing its size also asks for layout.
    /// Animatable (`View.animate`). Unlike UIKit, where `frame` is undefined for a transformed
    /// view, it stays the untransformed rectangle (its centre is `center`, its size the bounds').
    open var frame: CGRect {
        get {
            if let mirror = superviewMirroredLayoutBounds {
                return pendingLayoutFrame ?? storedFrame.mirroredHorizontally(in: mirror)
            }
            return storedFrame
        }
        set {
            if superviewMirroredLayoutBounds != nil {
                // Inside the superview's `layoutMirroredForDirection(_:)`: kept as written (left
                // to right) and set, mirrored, once when that layout ends.
                pendingLayoutFrame = newValue
                return
            }
            let old = storedFrame
            guard newValue != old else { return }
            willChangeAnimatedProperty(.frame)
            let oldVisible = visibleFrameInSuperview
            storedFrame = newValue
            if old.size != newValue.size {
                setNeedsLayout()
            }
            invalidateInSuperview(oldVisible)
            invalidateInSuperview(visibleFrameInSuperview)
        }
    }

    /// The view's own coordinate system: origin (usually zero) and size, in points. Animatable.
    open var bounds: CGRect {
        get { CGRect(origin: storedBoundsOrigin, size: (pendingLayoutFrame ?? storedFrame).size) }
        set {
            let sizeChanged = newValue.size != (pendingLayoutFrame ?? storedFrame).size
            if newValue.origin != storedBoundsOrigin { willChangeAnimatedProperty(.boundsOrigin) }
            storedBoundsOrigin = newValue.origin
            if sizeChanged {
                let f = frame
                frame = CGRect(x: f.midX - newValue.width / 2, y: f.midY - newValue.height / 2,
                               width: newValue.width, height: newValue.height)
            }
            setNeedsDisplay()
        }
    }

    /// The centre of the frame, in the superview's coordinates. Animatable (as part of `frame`).
    public var center: CGPoint {
        get { let f = frame; return CGPoint(x: f.midX, y: f.midY) }
        set {
            let size = (pendingLayoutFrame ?? storedFrame).size
            frame = CGRect(x: newValue.x - size.width / 2, y: newValue.y - size.height / 2,
                           width: size.width, height: size.height)
        }
    }

    // MARK: Appearance

    /// The colour that fills the bounds before `draw(_:)`; nil for none (transparent).
    /// Animatable (nil animates as transparent black).
    open var backgroundColor: CGColor? {
        willSet { if newValue != backgroundColor { willChangeAnimatedProperty(.backgroundColor) } }
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }

    /// An affine transform applied about the centre of the bounds, in the superview's
    /// coordinates, as UIKit's `transform` (a layer's default anchor point is its centre).
    ///
    /// Drawing, hit testing, point conversion and repainting all follow it. Animatable
    /// (coefficient by coefficient; see `CGAffineTransform.interpolated(to:fraction:)`).
    open var transform: CGAffineTransform = .identity {
        willSet {
            if newValue != transform {
                willChangeAnimatedProperty(.transform)
                invalidateInSuperview(visibleFrameInSuperview)
            }
        }
        didSet { if transform != oldValue { invalidateInSuperview(visibleFrameInSuperview) } }
    }

    /// Whether the view and its subviews are left out of drawing and hit testing.
    open var isHidden = false {
        didSet { if isHidden != oldValue { invalidateInSuperview(visibleFrameInSuperview) } }
    }

    /// Opacity, 0…1, multiplied into everything the view and its subviews draw.
    ///
    /// Unlike Core Animation, overlapping drawing inside a translucent view is not composited as
    /// a group: each drawing operation is made translucent on its own. A view with alpha below
    /// 0.01 is skipped by hit testing, as in UIKit. Animatable.
    open var alpha: CGFloat = 1 {
        willSet { if newValue != alpha { willChangeAnimatedProperty(.alpha) } }
        didSet { if alpha != oldValue { invalidateInSuperview(visibleFrameInSuperview) } }
    }

    /// Whether drawing by the view and its subviews is clipped to its bounds (rounded by
    /// `layer.cornerRadius`). Default false. The same property as `layer.masksToBounds`.
    open var clipsToBounds = false {
        didSet {
            guard clipsToBounds != oldValue else { return }
            window?.contentsCache.remove(self)   // a cached look is clipped
            invalidateInSuperview(visibleFrameInSuperview)
        }
    }

    /// Whether the view (and its subviews) receive touches. Default true.
    open var isUserInteractionEnabled = true

    /// A number the app may use to find the view.
    open var tag = 0

    /// A stable name by which tests and scripts find the view (UIKit's
    /// `accessibilityIdentifier`): its window reports the view's frame as `layout` lines and
    /// `publishState(_:)` its value as `state` lines (see `Window.statusSink`). Nil: not reported.
    open var accessibilityIdentifier: String?
    /// The view's current value as its `state` status line shows it (UIKit's
    /// `accessibilityValue`): by default the last value given to `publishState(_:)` or set
    /// here (nil before any: no line); controls override it to compute their value. The window
    /// writes it as a `state` line right after the view's first `layout` line (in the first
    /// frame, and whenever the view joins the window again, as when its screen appears), so a
    /// script can read every value without waiting for it to change.
    open var accessibilityValue: String? {
        get { publishedState }
        set { publishedState = newValue }
    }
    /// The value last published or set as `accessibilityValue`.
    var publishedState: String?
    /// The frame last reported in a `layout` line, in window pixels (Window+Status.swift).
    var reportedLayout: CGRect?

    /// The view's layer: its Core Animation look (shadow, corners, border), its cached contents,
    /// and `layer.render(in:)`, which draws the view and its subviews into a context.
    public var layer: Layer {
        if let storedLayer { return storedLayer }
        let made = Layer(view: self)
        storedLayer = made
        return made
    }
    /// The layer if it was ever asked for (views without one have the default look).
    private(set) var storedLayer: Layer?

    // MARK: Hierarchy

    /// How the view's content relates to the layout direction (`LayoutDirection.swift`):
    /// `.unspecified` follows the superview; the others fix the direction of the view and of
    /// the views below it (see `effectiveUserInterfaceLayoutDirection`).
    open var semanticContentAttribute: SemanticContentAttribute = .unspecified {
        didSet { if semanticContentAttribute != oldValue { layoutDirectionDidChange() } }
    }

    /// The view this view is a subview of.
    public private(set) weak var superview: View?
    /// The subviews, back to front.
    public private(set) var subviews: [View] = []

    var needsLayout = true
    /// Whether this view or a view below it needs layout.
    var subtreeNeedsLayout = true

    /// Gesture recognizers attached to the view.
    public private(set) var gestureRecognizers: [GestureRecognizer] = []

    /// The running `View.animate` animation of each animating property (View+Animation.swift).
    var propertyAnimations: [AnimatedProperty: ViewAnimationGroup] = [:]
    /// True while an animation frame sets a property (so the setter does not see a change).
    var isApplyingAnimation = false

    /// Creates a view with `frame` (in the future superview's coordinates).
    public init(frame: CGRect = .zero) {
        storedFrame = frame
    }

    /// The window at the root of the view's tree, if any.
    public var window: Window? {
        var v: View? = self
        while let current = v {
            if let w = current as? Window { return w }
            v = current.superview
        }
        return nil
    }

    /// Adds `view` on top of the other subviews, removing it from its old superview first.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` among the subviews (0 is the back).
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self, "a view cannot be its own subview")
        precondition(!isDescendant(of: view), "adding \(view) to \(self) would make a cycle")
        let oldWindow = view.window
        let oldDirection = view.effectiveUserInterfaceLayoutDirection
        if view.superview != nil { view.detachFromSuperview() }
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        view.superviewMirroredLayoutBounds = mirroredLayoutBounds
        view.markSubtreeNeedsLayout()
        view.setNeedsLayout()
        if view.effectiveUserInterfaceLayoutDirection != oldDirection { view.layoutDirectionDidChange() }
        invalidateInSuperview(nil)
        invalidateArea(view.visibleFrameInSuperview)
        if view.window !== oldWindow { view.notifyDidMoveToWindow() }
    }

    /// Moves a subview to the front (drawn last, hit first).
    public func bringSubviewToFront(_ view: View) {
        guard let i = subviews.firstIndex(where: { $0 === view }) else { return }
        subviews.remove(at: i)
        subviews.append(view)
        invalidateArea(view.visibleFrameInSuperview)
    }

    /// Removes the view from its superview (and so from its window).
    public func removeFromSuperview() {
        guard superview != nil else { return }
        let hadWindow = window != nil
        detachFromSuperview()
        if hadWindow { notifyDidMoveToWindow() }
    }

    private func detachFromSuperview() {
        guard let parent = superview else { return }
        parent.invalidateArea(visibleFrameInSuperview)
        window?.viewWillLeaveWindow(self)
        parent.subviews.removeAll { $0 === self }
        superview = nil
        superviewMirroredLayoutBounds = nil
        pendingLayoutFrame = nil
        forgetReportedLayout()
    }

    /// Forgets the reported frames of this view and its subviews, so they are reported again
    /// when they join a window.
    private func forgetReportedLayout() {
        reportedLayout = nil
        for sub in subviews { sub.forgetReportedLayout() }
    }

    /// Whether the view is `view` or below it.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    private func notifyDidMoveToWindow() {
        didMoveToWindow()
        for sub in subviews { sub.notifyDidMoveToWindow() }
    }

    /// Called after the view joined or left a window (also when an ancestor did).
    open func didMoveToWindow() {}

    /// Attaches a gesture recognizer; the view keeps it.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        gestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    /// Detaches a gesture recognizer.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        gestureRecognizers.removeAll { $0 === recognizer }
        if recognizer.view === self { recognizer.view = nil }
    }

    // MARK: Drawing

    /// Draws the view's content into the current graphics context (`UIGraphicsGetCurrentContext()`).
    ///
    /// The context is flipped UIKit-style (origin at the bounds' top-left, y down), in points,
    /// scaled by the screen scale, and clipped to the dirty area; `rect` is that area in the
    /// view's coordinates. The background colour has already been filled. The default
    /// implementation draws nothing.
    open func draw(_ rect: CGRect) {}

    /// Marks the whole view as needing to be drawn again.
    public func setNeedsDisplay() { setNeedsDisplay(bounds) }

    /// Marks `rect` (view coordinates) as needing to be drawn again; the window repaints the union
    /// of the dirty areas of a frame, merged into few rectangles. The view's cached contents
    /// (`layer.cachesContents`) are drawn again whole; a shadow cast by the view's drawing (no
    /// `layer.shadowPath`) is repainted where `rect`'s shadow falls.
    public func setNeedsDisplay(_ rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty, let window else { return }
        if let storedLayer {
            if storedLayer.cachesContents { window.contentsCache.remove(self) }
            if storedLayer.castsShadow, storedLayer.shadowPath == nil {
                window.invalidate(convert(rect.union(storedLayer.shadowArea(of: rect)), to: window))
                return
            }
        }
        window.invalidate(convert(rect, to: window))
    }

    /// Marks `rect` (view coordinates) for repainting without touching the view's cached
    /// contents: something over or beside the view changed, not the view's drawing.
    func invalidateArea(_ rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty, let window else { return }
        window.invalidate(convert(rect, to: window))
    }

    /// Marks a rectangle in the superview's coordinates dirty there, or everything when nil.
    private func invalidateInSuperview(_ rect: CGRect?) {
        guard let superview else {
            invalidateArea(visibleBounds)
            return
        }
        superview.invalidateArea(rect ?? visibleFrameInSuperview)
    }

    /// The layer's look is about to change: the area it covers now is repainted.
    func layerAppearanceWillChange() { invalidateInSuperview(visibleFrameInSuperview) }

    /// The layer's look changed: the area it covers now is repainted, and a cached look (which
    /// holds the shadow) is drawn again.
    func layerAppearanceDidChange() {
        window?.contentsCache.remove(self)
        layerAppearanceWillChange()
    }

    // MARK: Localization

    /// Shows the view's text in the language of `localization`, then does the same for every
    /// subview. The default implementation only recurses; `Label` looks up its
    /// `localizationKey`. Views whose text changes size ask their superview for a new layout.
    open func applyLocalization(_ localization: Localization) {
        for subview in subviews { subview.applyLocalization(localization) }
    }

    // MARK: Layout

    /// Lays out the subviews. Called by `layoutIfNeeded()` when the view needs layout (after
    /// `setNeedsLayout()` or a change of size). The default implementation does nothing.
    open func layoutSubviews() {}

    /// Asks for `layoutSubviews()` before the next frame is drawn.
    public func setNeedsLayout() {
        needsLayout = true
        var v: View? = self
        while let current = v {
            current.subtreeNeedsLayout = true
            v = current.superview
        }
    }

    private func markSubtreeNeedsLayout() {
        subtreeNeedsLayout = true
        for sub in subviews { sub.markSubtreeNeedsLayout() }
    }

    /// Lays out this view and every view below it that needs layout, now.
    public func layoutIfNeeded() {
        guard subtreeNeedsLayout else { return }
        defer { didFinishLayoutPass() }
        // A layoutSubviews may invalidate layout again (for instance by resizing a subview);
        // repeat a few times, then give up rather than loop forever.
        for _ in 0..<8 {
            subtreeNeedsLayout = false
            if needsLayout {
                needsLayout = false
                layoutSubviews()
            }
            for sub in subviews { sub.layoutIfNeeded() }
            if !subtreeNeedsLayout { return }
        }
    }

    /// Called at the end of a `layoutIfNeeded()` that laid something out (the window reports
    /// `layout` status lines here).
    func didFinishLayoutPass() {}

    /// The size that best fits the view's content within `size`. The default returns the
    /// current size.
    open func sizeThatFits(_ size: CGSize) -> CGSize { bounds.size }

    // MARK: Hit testing

    /// Whether `point` (view coordinates) is inside the view. The default tests the bounds,
    /// left and top edges included, right and bottom edges excluded.
    open func point(inside point: CGPoint) -> Bool {
        let b = bounds
        return point.x >= b.minX && point.x < b.maxX && point.y >= b.minY && point.y < b.maxY
    }

    /// The frontmost descendant (or the view itself) that contains `point` (view coordinates)
    /// and takes touches; nil when the point is outside, or the view is hidden, transparent
    /// (alpha < 0.01), not interactive, or animating (a `View.animate` animation without
    /// `.allowUserInteraction` is running on it).
    ///
    /// As in UIKit, a subview that sticks out of its superview cannot be hit outside the
    /// superview's bounds.
    open func hitTest(_ point: CGPoint) -> View? {
        guard !isHidden, alpha >= 0.01, isUserInteractionEnabled, !isInteractionBlockedByAnimation,
              self.point(inside: point) else { return nil }
        for sub in subviews.reversed() {
            if let hit = sub.hitTest(sub.convertFromSuperview(point)) { return hit }
        }
        return self
    }

    // MARK: Touches (the default forwards to the superview, as UIKit's responder chain does)

    /// A touch went down on this view.
    open func touchesBegan(_ touches: Set<Touch>) { superview?.touchesBegan(touches) }
    /// A touch that began on this view moved.
    open func touchesMoved(_ touches: Set<Touch>) { superview?.touchesMoved(touches) }
    /// A touch that began on this view lifted.
    open func touchesEnded(_ touches: Set<Touch>) { superview?.touchesEnded(touches) }
    /// A touch that began on this view was taken away (by a gesture recognizer or the system).
    open func touchesCancelled(_ touches: Set<Touch>) { superview?.touchesCancelled(touches) }

    // MARK: Scroll wheel

    /// The mouse wheel turned over this view by `delta` notches (positive: away from the user,
    /// "up"). The default forwards to the superview.
    open func scrollWheel(_ delta: CGFloat) { superview?.scrollWheel(delta) }
}

extension View: CustomStringConvertible {
    public var description: String { "\(type(of: self))(frame: \(frame))" }
}

extension View {
    /// Runs `layout`, code written left to right that sets (and may read back) the frames of
    /// this view's subviews, and mirrors what it set across `bounds` in a right-to-left layout
    /// (left to right it just runs `layout`). Inside, a subview's `frame` reads as written, left
    /// to right; when `layout` returns, each subview it placed takes its mirrored frame with one
    /// ordinary frame change, so a relayout that moves nothing repaints nothing and an animated
    /// layout starts from where the view was on screen. Subviews `layout` does not place keep
    /// their frames. Call it from `layoutSubviews()`:
    ///
    /// ```swift
    /// override func layoutSubviews() {
    ///     layoutMirroredForDirection {
    ///         icon.frame = CGRect(x: 8, y: 8, width: 24, height: 24)
    ///         title.frame = CGRect(x: icon.frame.maxX + 8, y: 8, width: 120, height: 24)
    ///     }
    /// }
    /// ```
    public func layoutMirroredForDirection(_ layout: () -> Void) {
        guard mirroredLayoutBounds == nil, effectiveUserInterfaceLayoutDirection == .rightToLeft else {
            layout()
            return
        }
        let b = bounds
        mirroredLayoutBounds = b
        for view in subviews { view.superviewMirroredLayoutBounds = b }
        layout()
        mirroredLayoutBounds = nil
        for view in subviews {
            view.superviewMirroredLayoutBounds = nil
            guard let written = view.pendingLayoutFrame else { continue }
            view.pendingLayoutFrame = nil
            view.frame = written.mirroredHorizontally(in: b)
        }
    }
}
