import CrispGraphics
import Foundation

/// The root of a view tree shown on a `Screen`, like `UIWindow`: it lays out the status bar and
/// the app's root view, keeps the dirty region, draws frames, and turns pointer input into
/// touches and gestures.
///
/// A host (headless or X11) owns the pixels: it calls `renderFrame(into:)` when
/// `needsFrame` is true and presents the rectangles it returns, and forwards pointer and key
/// input with `handlePointer(_:at:)` and `handleKey(_:)`.
open class Window: View {
    /// The screen the window fills.
    public let screen: Screen
    /// The loop that runs the window's timers and frame callbacks.
    public let eventLoop: EventLoop

    /// The status bar view, laid out at `screen.statusBarFrame`.
    public var statusBar: View? {
        didSet { replaceSubview(oldValue, with: statusBar, atFront: true) }
    }
    /// The app's content, laid out at `screen.applicationFrame` (below the status bar).
    public var rootView: View? {
        didSet { replaceSubview(oldValue, with: rootView, atFront: false) }
    }

    /// The direction the window's views are laid out in unless one of them says otherwise
    /// (UIKit's `UIApplication.userInterfaceLayoutDirection`): an app sets it from its
    /// language (`Localization.layoutDirection`). Changing it lays out and draws every view
    /// again.
    public var userInterfaceLayoutDirection: UserInterfaceLayoutDirection = .leftToRight {
        didSet { if userInterfaceLayoutDirection != oldValue { layoutDirectionDidChange() } }
    }

    /// Called with every key press the window receives.
    public var keyHandler: ((KeyPress) -> Void)?

    /// Called first with every mouse-wheel turn (notches, window point); returns whether it used
    /// it, so the views under the pointer do not see it (a loupe zooms with the wheel).
    public var scrollInterceptor: ((CGFloat, CGPoint) -> Bool)?

    /// While set, paints the window's content for the dirty rectangles it can (from a cache),
    /// so that only the views it names are drawn over it; see `WindowBackdrop`.
    public weak var backdrop: WindowBackdrop?

    /// Called by the host after each frame it rendered (and presented) with what it cost.
    public var frameStatisticsObserver: ((FrameStatistics) -> Void)?

    /// Called by the host after each frame it presented, with the bitmap it presented from and
    /// the rectangles it sent (pixels from the top-left), at `eventLoop.now`. A recorder copies
    /// what it needs before returning: the host draws the next frame into the same bitmap.
    public var presentedFrameObserver: ((CGContext, [CGRect], TimeInterval) -> Void)?

    /// Called with every area (window points) marked for repainting, before it joins the dirty
    /// region; after a change of size or scale, with the whole window. A view that caches what
    /// the window shows (a loupe's snapshot) learns here which part went stale.
    public var invalidationObserver: ((CGRect) -> Void)?

    /// Receives the window's status lines, each a whole line without its newline: `layout …`
    /// after layout and `state …` from `View.publishState(_:)` (Window+Status.swift). The app
    /// writes them to its `--status-file`. Nil: nothing is reported (and nothing is computed).
    public var statusSink: ((String) -> Void)? {
        // A layout pass (laying nothing out) reports every identified view to the new sink.
        didSet { if statusSink != nil { subtreeNeedsLayout = true } }
    }

    /// The area to repaint in the next frame, in pixels.
    public private(set) var dirtyRegion = DirtyRegion()

    /// The cached contents of the window's views that cache them (`Layer.cachesContents`),
    /// bounded by `contentsCache.limitInBytes`; emptied when the screen's size or scale changes.
    public let contentsCache = ContentsCache()

    /// The debug overlay drawn over every frame (the Simulator's Debug menu); see
    /// `DebugOverlay`. Changing it repaints the whole screen.
    public var debugOverlay: DebugOverlay = .none {
        didSet { if debugOverlay != oldValue { debugOverlayDidChange() } }
    }
    /// The debug overlay's frame beneath it and its marks (Window+DebugOverlay.swift).
    let overlayState = DebugOverlayState()

    private var currentTouch: Touch?
    private var touchRecognizers: [GestureRecognizer] = []
    private var isTouchCancelledForView = false

    /// Creates a window filling `screen`, with a black background.
    public init(screen: Screen, eventLoop: EventLoop = EventLoop()) {
        self.screen = screen
        self.eventLoop = eventLoop
        super.init(frame: screen.bounds)
        backgroundColor = .black
        screen.window = self
        invalidateEverything()
    }

    private func replaceSubview(_ old: View?, with new: View?, atFront: Bool) {
        if let old, old !== new { old.removeFromSuperview() }
        if let new {
            if atFront { addSubview(new) } else { insertSubview(new, at: 0) }
        }
        setNeedsLayout()
    }

    open override func layoutSubviews() {
        statusBar?.frame = screen.statusBarFrame
        rootView?.frame = screen.applicationFrame
    }

    override func didFinishLayoutPass() { reportLayout() }

    // MARK: Screen changes

    func screenDidChangeStatusBar() {
        setNeedsLayout()
        layoutIfNeeded()
    }

    /// Moves the status bar and the root view to their frames for the screen's new status bar
    /// over `duration` (the root view is laid out at each step); `completion` runs when the
    /// animation has ended, interrupted or not. Touches keep working meanwhile.
    func animateStatusBarChange(duration: TimeInterval, completion: @escaping () -> Void) {
        View.animate(withDuration: duration, options: .allowUserInteraction, animations: {
            self.layoutSubviews()
        }, completion: { _ in
            self.layoutIfNeeded()
            completion()
        })
    }

    func screenDidChangeDevice() {
        // A turn's pictures are of the old size: the views draw the new one at once.
        endRotation()
        rotationHalfFrames.removeAll()
        contentsCache.removeAll()
        frame = screen.bounds
        invalidateEverything()
        layoutIfNeeded()
    }

    // MARK: Rotation

    /// A rotation being shown: the picture before it and the new layout's, turning from
    /// `startAngle` (radians, clockwise on screen) to upright while the first fades into the second.
    private final class Rotation {
        let oldImage: CGImage
        let newImage: CGImage?
        let startAngle: CGFloat
        var progress: CGFloat = 0
        /// The pictures at half their size for the half-resolution frames, sampled there about
        /// one to one instead of every other pixel of the full-size pictures (which skipped
        /// detail and touched four times the memory). Made when the turn starts, beside the new
        /// layout's picture, so no frame of the turn pays for them.
        lazy var halfImages: (old: CGImage, new: CGImage) = {
            let old = oldImage.halfSize()
            return (old, newImage.map { $0.halfSize() } ?? old)
        }()
        init(oldImage: CGImage, newImage: CGImage?, startAngle: CGFloat) {
            self.oldImage = oldImage
            self.newImage = newImage
            self.startAngle = startAngle
        }
    }

    private var rotation: Rotation?
    /// The half-resolution frames of turns (`RotationResolution.half`), one per shape, made when
    /// a turn starts and kept from turn to turn: a fresh 3 MB bitmap cost a turn's second frame
    /// 1–2 ms of page faults.
    private var rotationHalfFrames: [CGContext] = []
    private var rotationAnimator: ValueAnimator<CGFloat>?

    /// Whether a rotation is being shown.
    public var isRotating: Bool { rotation != nil }

    /// The screen as it shows now, drawn afresh into a bitmap of its own (nil when one cannot be
    /// allocated); the next frame repaints everything, so what a host shows is untouched.
    public func renderedImage() -> CGImage? {
        guard let context = CGContext(width: screen.pixelWidth, height: screen.pixelHeight) else { return nil }
        invalidateEverything()
        _ = renderContent(into: context, recorder: nil)
        invalidateEverything()
        return context.makeImage()
    }

    /// Ends a rotation being shown at once (the screen changed size under it).
    func endRotation() {
        rotationAnimator?.set(1)
        rotation = nil
        rotationAnimator = nil
    }

    /// Ends the current touch as cancelled (the screen turned under it).
    func cancelCurrentTouch() {
        if let touch = currentTouch { handlePointer(.cancelled, at: touch.locationInWindow) }
    }

    /// Shows the device turning, as iOS does: the frames show `oldImage` (the picture before the
    /// turn, which turned with the device: `quarterTurns` counterclockwise) turning back upright
    /// over `duration` while it grows or shrinks into the new shape and cross-fades into the new
    /// layout's picture (drawn once, now); then the views draw again. Everything else (layout,
    /// touches, status lines) is already in its new state meanwhile. A rotation interrupts the
    /// one running.
    func animateRotation(from oldImage: CGImage, quarterTurns: Int, duration: TimeInterval) {
        endRotation()
        let turn = Rotation(oldImage: oldImage, newImage: renderedImage(), startAngle: -CGFloat(quarterTurns) * .pi / 2)
        if rotationResolution == .half {
            _ = turn.halfImages
            _ = halfFrame(forWidth: screen.pixelWidth, height: screen.pixelHeight)
        }
        let animator = ValueAnimator<CGFloat>(0, owner: self)
        rotation = turn
        rotationAnimator = animator
        animator.onChange = { turn.progress = $0 }
        invalidateEverything()
        animator.animate(to: 1, duration: duration, curve: .easeInOut) { [weak self] _ in
            guard let self, self.rotation === turn else { return }
            self.rotation = nil
            self.rotationAnimator = nil
            self.invalidateEverything()
        }
    }

    /// How finely a rotation's frames are drawn: every pixel, or half the pixels each way (a
    /// quarter of the samples) magnified bilinearly into the frame.
    public enum RotationResolution: Sendable {
        case full, half
    }

    /// How finely the rotation's frames between its start and end are drawn (`--bench-render`
    /// measures both; on the retina iPad half took a median 3.4–5.1 ms of wall time a frame on
    /// two threads against 11.6–13.9 ms at full resolution, see docs/performance.md). The first frame, an exact quarter or half turn, is always
    /// drawn whole (a copy of the old picture, turned).
    public var rotationResolution = RotationResolution.half

    /// The half-resolution frame for a screen of `width` × `height` pixels, kept or made (nil
    /// when it cannot be allocated). Two shapes at most are kept (portrait and landscape); a
    /// third (another device) replaces the older.
    private func halfFrame(forWidth width: Int, height: Int) -> CGContext? {
        let hw = (width + 1) / 2, hh = (height + 1) / 2
        if let kept = rotationHalfFrames.first(where: { $0.width == hw && $0.height == hh }) { return kept }
        guard let made = CGContext(width: hw, height: hh) else { return nil }
        rotationHalfFrames = Array((rotationHalfFrames + [made]).suffix(2))
        return made
    }

    /// Paints the rotation's frame at its progress into `context` (device space, one unit a
    /// pixel): black, then the new picture and over it the old one fading out, both in a
    /// rectangle between their sizes, turned about the screen's centre.
    private func paintRotation(_ turn: Rotation, into context: CGContext) {
        guard rotationResolution == .half, turn.progress > 0, context.width > 1, context.height > 1 else {
            paintRotation(turn, into: context, scaleX: 1, scaleY: 1)
            return
        }
        guard let half = halfFrame(forWidth: context.width, height: context.height) else {
            paintRotation(turn, into: context, scaleX: 1, scaleY: 1)
            return
        }
        let sx = CGFloat(half.width) / CGFloat(context.width), sy = CGFloat(half.height) / CGFloat(context.height)
        half.saveGState()
        paintRotation(turn, into: half, scaleX: sx, scaleY: sy, pictures: turn.halfImages)
        half.restoreGState()
        // Even sizes (every device's): the 2× magnification straight into the frame, in one pass.
        if context.copyMagnified(from: half) { return }
        guard let image = half.makeImage() else { return }
        context.draw(image, in: CGRect(x: 0, y: 0, width: context.width, height: context.height))
    }

    /// Paints the frame into `context` scaled by `scaleX`, `scaleY` (the half-resolution frame),
    /// drawing `pictures` (default: the turn's own; the same pictures at another size fill the
    /// same rectangles).
    private func paintRotation(_ turn: Rotation, into context: CGContext, scaleX: CGFloat, scaleY: CGFloat,
                               pictures: (old: CGImage, new: CGImage)? = nil) {
        let w = CGFloat(context.width) / scaleX, h = CGFloat(context.height) / scaleY
        context.scaleBy(x: scaleX, y: scaleY)
        context.setFillColor(.black)
        context.fill(CGRect(x: 0, y: 0, width: w, height: h))
        let p = min(max(turn.progress, 0), 1)
        let old = turn.oldImage, new = turn.newImage ?? turn.oldImage
        let size = CGSize(width: CGFloat(old.width) + (CGFloat(new.width) - CGFloat(old.width)) * p,
                          height: CGFloat(old.height) + (CGFloat(new.height) - CGFloat(old.height)) * p)
        context.translateBy(x: w / 2, y: h / 2)
        // Clockwise on screen (y down) is clockwise in device space (y up) with the angle negated.
        if p == 0 {
            // Exactly the quarter or half turn (`rotate` leaves rounding where zeros belong), so
            // the first frame takes the axis-aligned path.
            let q = ((Int((-turn.startAngle / (.pi / 2)).rounded()) % 4) + 4) % 4
            let (c, s): (CGFloat, CGFloat) = [(1, 0), (0, 1), (-1, 0), (0, -1)][q]   // cos, sin of q quarter turns
            context.concatenate(CGAffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0))
        } else {
            context.rotate(by: -turn.startAngle * (1 - p))
        }
        let rect = CGRect(x: -size.width / 2, y: -size.height / 2, width: size.width, height: size.height)
        // The fast path for turned images (`drawTransformed`): within a few levels of `draw`,
        // and exactly it at the start and end of the turn, where the transform is axis-aligned.
        // Both pictures in one pass: the new one, and over it the old one at 1 − p.
        context.drawTransformed(pictures?.old ?? old, fadingInto: pictures?.new ?? new, fraction: p, in: rect)
    }

    // MARK: Frames

    /// Ends every animation running on the window's event loop at its end state, as if its time
    /// were up (completions get `true`); animations their completions start keep running.
    /// `HeadlessHost.snapshot()` does this, so a snapshot shows where animations end.
    public func finishAnimations() {
        eventLoop.animationDriver?.finishAll()
    }

    /// Whether something needs layout or repainting.
    public var needsFrame: Bool { subtreeNeedsLayout || !dirtyRegion.isEmpty || overlayState.needsComposite }

    /// The screen in pixels, as a rectangle.
    var pixelBounds: CGRect { CGRect(x: 0, y: 0, width: screen.pixelWidth, height: screen.pixelHeight) }

    /// Adds a rectangle in window points to the dirty region.
    func invalidate(_ rect: CGRect) {
        invalidationObserver?(rect)
        let s = screen.scale
        dirtyRegion.add(CGRect(x: rect.minX * s, y: rect.minY * s, width: rect.width * s, height: rect.height * s),
                        limit: pixelBounds)
    }

    /// Marks the whole screen dirty (after a change of size or scale, or when pixels were lost).
    public func invalidateEverything() {
        invalidationObserver?(bounds)
        dirtyRegion.removeAll()
        dirtyRegion.add(pixelBounds, limit: pixelBounds)
    }

    /// Lays out what needs it, draws the dirty region into `context` and returns the repainted
    /// rectangles, in pixels from the top-left (what the host presents). Clears the region.
    ///
    /// `context` must be a bitmap context in its default state (origin bottom-left, y up, one
    /// unit per pixel) of the screen's pixel size. For the views it becomes a UIKit context: the
    /// flip and the screen scale go into its base transform (so view shadows follow UIKit's
    /// direction), and both are back to what they were when the call returns.
    ///
    /// With a `debugOverlay`, the views draw into a frame of the window's own
    /// (`frameBeneathOverlay`), which is then copied into `context` with the overlay composed
    /// over it; the returned rectangles then also cover the overlay's marks that changed.
    @discardableResult
    public func renderFrame(into context: CGContext) -> [CGRect] {
        precondition(context.width == screen.pixelWidth && context.height == screen.pixelHeight,
                     "renderFrame needs a \(screen.pixelWidth)×\(screen.pixelHeight) context, not \(context.width)×\(context.height)")
        if debugOverlay != .none { return renderFrameWithOverlay(into: context) }
        return renderContent(into: context, recorder: nil)
    }

    /// Lays out, draws the dirty region into `context` (the frame the views show, without any
    /// overlay) and returns the repainted rectangles; `recorder` notes what a debug overlay marks.
    func renderContent(into context: CGContext, recorder: OverlayRecorder?) -> [CGRect] {
        layoutIfNeeded()
        reportLayout()
        let rects = dirtyRegion.rects
        dirtyRegion.removeAll()
        if let rotation {
            for r in rects {
                context.saveGState()
                context.clip(to: CGRect(x: r.minX, y: CGFloat(context.height) - r.maxY, width: r.width, height: r.height))
                paintRotation(rotation, into: context)
                context.restoreGState()
            }
            return rects
        }
        let s = screen.scale
        let h = CGFloat(context.height)
        let base = CGAffineTransform.uiKitBase(heightInPixels: h, scale: s)
        let savedBase = context.baseTransform
        GraphicsContextStack.current.push(context, scale: s)
        defer { UIGraphicsPopContext() }
        let renderer = ViewRenderer(context: context, isOnScreen: true)
        renderer.recorder = recorder
        for r in rects {
            recorder?.currentDirty = r
            context.saveGState()
            // The clip in device space (y up), so it is exactly the pixel rectangle.
            context.clip(to: CGRect(x: r.minX, y: h - r.maxY, width: r.width, height: r.height))
            let dirty = CGRect(x: r.minX / s, y: r.minY / s, width: r.width / s, height: r.height / s)
            if let backdrop, backdrop.paintBackdrop(r, into: context) {
                context.setBaseTransform(base)
                for view in backdrop.viewsAboveBackdrop where view.superview === self && !view.isHidden {
                    renderer.drawSubview(view, dirty: dirty, alpha: 1)
                }
            } else {
                context.setBaseTransform(base)
                renderer.draw(self, dirty: dirty, alpha: 1)
            }
            context.setBaseTransform(savedBase)
            context.restoreGState()
        }
        for view in renderer.drawnViewsKeepingAppearance { keepAppearance(of: view, from: context) }
        return rects
    }

    /// Copies the pixels `view` covers on screen into its layer's last appearance (for a view
    /// that renders itself from its own drawing; see `Layer.render(in:)`).
    private func keepAppearance(of view: View, from context: CGContext) {
        let s = screen.scale
        let r = view.convert(view.bounds, to: self)
        let pixels = CGRect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s).integral.intersection(pixelBounds)
        guard !pixels.isNull, !pixels.isEmpty, let data = context.data else {
            view.layer.lastAppearance = nil
            return
        }
        let x = Int(pixels.minX), y = Int(pixels.minY), w = Int(pixels.width), h = Int(pixels.height)
        let stride = context.bytesPerRow / 4
        let source = data.assumingMemoryBound(to: UInt32.self)
        var copy = [UInt32](repeating: 0, count: w * h)
        for row in 0..<h {
            for column in 0..<w { copy[row * w + column] = source[(y + row) * stride + x + column] }
        }
        let image = CGImage(width: w, height: h, pixels: copy)
        view.layer.lastAppearance = (image, CGRect(x: pixels.minX / s, y: pixels.minY / s, width: pixels.width / s, height: pixels.height / s))
    }


    // MARK: Input

    /// Delivers pointer input at `location` (window points) as a touch: a press begins one on
    /// the hit view, moves move it (moves without a press are ignored), a release ends it.
    ///
    /// The gesture recognizers of the hit view and its ancestors see the touch first; see
    /// `GestureRecognizer`. A press while a touch is down cancels the old touch first.
    public func handlePointer(_ action: PointerAction, at location: CGPoint) {
        let time = eventLoop.now
        switch action {
        case .down:
            if currentTouch != nil { handlePointer(.cancelled, at: location) }
            let view = hitTest(location) ?? self
            let touch = Touch(location: location, timestamp: time, view: view, window: self)
            currentTouch = touch
            isTouchCancelledForView = false
            var recognizers: [GestureRecognizer] = []
            var v: View? = view
            while let current = v {
                recognizers += current.gestureRecognizers.filter { $0.isEnabled && $0.state != .failed }
                v = current.superview
            }
            touchRecognizers = recognizers
            for r in recognizers { r.touchBegan(touch) }
            if !isTouchCancelledForView { view.touchesBegan([touch]) }
        case .moved:
            guard let touch = currentTouch else { return }
            touch.previousLocationInWindow = touch.locationInWindow
            touch.locationInWindow = location
            touch.timestamp = time
            touch.phase = .moved
            for r in touchRecognizers where !r.isFinished { r.touchMoved(touch) }
            if !isTouchCancelledForView { touch.view?.touchesMoved([touch]) }
        case .up:
            guard let touch = currentTouch else { return }
            touch.previousLocationInWindow = touch.locationInWindow
            touch.locationInWindow = location
            touch.timestamp = time
            touch.phase = .ended
            for r in touchRecognizers where !r.isFinished { r.touchEnded(touch) }
            if !isTouchCancelledForView { touch.view?.touchesEnded([touch]) }
            endTouchSequence()
        case .cancelled:
            guard let touch = currentTouch else { return }
            touch.timestamp = time
            touch.phase = .cancelled
            for r in touchRecognizers where !r.isFinished { r.touchCancelled(touch) }
            if !isTouchCancelledForView { touch.view?.touchesCancelled([touch]) }
            endTouchSequence()
        }
    }

    private func endTouchSequence() {
        for r in touchRecognizers where r.isFinished || !r.isWaitingForNextTouch { r.reset() }
        touchRecognizers = []
        currentTouch = nil
    }

    /// A recognizer recognized its gesture: the others give up, and the view's touch is
    /// cancelled if the recognizer says so.
    func gestureRecognizerDidRecognize(_ recognizer: GestureRecognizer) {
        for other in touchRecognizers where other !== recognizer { other.fail() }
        if recognizer.cancelsTouchesInView, let touch = currentTouch, !isTouchCancelledForView {
            isTouchCancelledForView = true
            let phase = touch.phase
            touch.phase = .cancelled
            touch.view?.touchesCancelled([touch])
            touch.phase = phase
        }
    }

    /// A view is leaving the window: a touch on it is cancelled.
    func viewWillLeaveWindow(_ view: View) {
        contentsCache.removeSubtree(view)
        if let touch = currentTouch, let touchView = touch.view, touchView.isDescendant(of: view) {
            handlePointer(.cancelled, at: touch.locationInWindow)
        }
    }

    /// Delivers `delta` notches of the mouse wheel (positive: up) to the frontmost view under
    /// `location` (window points), which may pass them on to its superview.
    public func handleScroll(_ delta: CGFloat, at location: CGPoint) {
        if scrollInterceptor?(delta, location) == true { return }
        (hitTest(location) ?? self).scrollWheel(delta)
    }

    /// Delivers a key press to `keyHandler`.
    public func handleKey(_ key: KeyPress) {
        keyHandler?(key)
    }
}

/// Something that can paint a window's content from a cache (a loupe's snapshot while it
/// moves), so a frame that only moved an overlay does not draw the views beneath again.
public protocol WindowBackdrop: AnyObject {
    /// Paints the window's content — what its background and the subviews not in
    /// `viewsAboveBackdrop` would draw — in `pixels` (a rectangle in pixels from the top-left)
    /// into `context` (the window's frame context, in its default device space); returns false
    /// to leave it to the views.
    func paintBackdrop(_ pixels: CGRect, into context: CGContext) -> Bool
    /// The window's subviews drawn over the backdrop, back to front.
    var viewsAboveBackdrop: [View] { get }
}

extension View {
    /// Whether the view paints every pixel of its frame opaquely: an opaque background at full
    /// alpha, or a subview that does so over the whole bounds.
    var coversFrameOpaquely: Bool {
        guard !isHidden, alpha >= 1, transform.isIdentity, (storedLayer?.cornerRadius ?? 0) <= 0 else { return false }
        if let bg = backgroundColor, bg.alpha >= 1 { return true }
        let b = bounds
        return subviews.contains { $0.frame.contains(b) && $0.coversFrameOpaquely }
    }
}

extension CGRect {
    /// The parts of this rectangle outside `other`: up to four rectangles (top, bottom, left,
    /// right bands).
    func subtracting(_ other: CGRect) -> [CGRect] {
        let i = intersection(other)
        guard !i.isNull, !i.isEmpty else { return [self] }
        var parts: [CGRect] = []
        if i.minY > minY { parts.append(CGRect(x: minX, y: minY, width: width, height: i.minY - minY)) }
        if i.maxY < maxY { parts.append(CGRect(x: minX, y: i.maxY, width: width, height: maxY - i.maxY)) }
        if i.minX > minX { parts.append(CGRect(x: minX, y: i.minY, width: i.minX - minX, height: i.height)) }
        if i.maxX < maxX { parts.append(CGRect(x: i.maxX, y: i.minY, width: maxX - i.maxX, height: i.height)) }
        return parts
    }
}
