import Foundation

/// Recognizes a press held in place, like `UILongPressGestureRecognizer` (continuous).
///
/// Begins once the touch has stayed down `minimumPressDuration` seconds (default 0.5) without
/// moving more than `allowableMovement` points; then reports changed on each move and ended on
/// release. Fails when released early or moved too far before it began.
public final class LongPressGestureRecognizer: GestureRecognizer {
    /// Seconds the touch must be held (default 0.5).
    public var minimumPressDuration: TimeInterval = 0.5
    /// How far, in points, the touch may wander before the press begins (default 10).
    public var allowableMovement: CGFloat = 10

    private var startLocation: CGPoint?
    private var holdTimer: LoopTimer?

    /// Creates a recognizer that calls `handler` on each state change it reports.
    public convenience init(handler: @escaping (LongPressGestureRecognizer) -> Void) {
        self.init()
        addAction { handler($0 as! LongPressGestureRecognizer) }
    }

    public override var isContinuous: Bool { true }

    public override func touchBegan(_ touch: Touch) {
        super.touchBegan(touch)
        startLocation = touch.location(in: nil)
        holdTimer?.invalidate()
        holdTimer = touch.window?.eventLoop.schedule(after: minimumPressDuration) { [weak self] in
            guard let self, self.state == .possible, self.touch != nil else { return }
            self.transition(to: .began)
        }
    }

    public override func touchMoved(_ touch: Touch) {
        switch state {
        case .possible:
            if let start = startLocation, start.distance(to: touch.location(in: nil)) > allowableMovement {
                holdTimer?.invalidate()
                transition(to: .failed)
            }
        case .began, .changed:
            transition(to: .changed)
        default:
            break
        }
    }

    public override func touchEnded(_ touch: Touch) {
        holdTimer?.invalidate()
        if isActive { transition(to: .ended) } else if state == .possible { transition(to: .failed) }
    }

    public override func touchCancelled(_ touch: Touch) {
        holdTimer?.invalidate()
        super.touchCancelled(touch)
    }

    public override func reset() {
        super.reset()
        startLocation = nil
        holdTimer?.invalidate()
        holdTimer = nil
    }
}
