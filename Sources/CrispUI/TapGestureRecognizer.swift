import Foundation

/// Recognizes one or more quick taps in place, like `UITapGestureRecognizer` (discrete).
///
/// A tap fails when the touch moves more than `allowableMovement` points from where it went
/// down. With `numberOfTapsRequired` > 1, each next press must come within
/// `maximumTapInterval` seconds of the last release and near the first press.
public final class TapGestureRecognizer: GestureRecognizer {
    /// Taps needed (default 1).
    public var numberOfTapsRequired = 1
    /// How far, in points, the touch may wander before the tap fails (default 10).
    public var allowableMovement: CGFloat = 10
    /// Seconds allowed between a release and the next press of a multi-tap (default 0.35).
    public var maximumTapInterval: TimeInterval = 0.35

    /// Taps counted so far in the current gesture.
    public private(set) var tapCount = 0
    private var firstLocation: CGPoint?
    private var waitTimer: LoopTimer?

    /// Creates a recognizer that calls `handler` when the taps are recognized.
    public convenience init(handler: @escaping (TapGestureRecognizer) -> Void) {
        self.init()
        addAction { handler($0 as! TapGestureRecognizer) }
    }

    public override func touchBegan(_ touch: Touch) {
        super.touchBegan(touch)
        waitTimer?.invalidate()
        waitTimer = nil
        let p = touch.location(in: nil)
        if let first = firstLocation, first.distance(to: p) > allowableMovement {
            transition(to: .failed)
            return
        }
        if firstLocation == nil { firstLocation = p }
    }

    public override func touchMoved(_ touch: Touch) {
        guard state == .possible, let first = firstLocation else { return }
        if first.distance(to: touch.location(in: nil)) > allowableMovement { transition(to: .failed) }
    }

    public override func touchEnded(_ touch: Touch) {
        guard state == .possible else { return }
        tapCount += 1
        touch.tapCount = tapCount
        if tapCount >= numberOfTapsRequired {
            transition(to: .recognized)
        } else if let loop = touch.window?.eventLoop {
            waitTimer = loop.schedule(after: maximumTapInterval) { [weak self] in
                guard let self, self.state == .possible else { return }
                self.transition(to: .failed)
                self.reset()
            }
        }
    }

    /// Whether a multi-tap is waiting for its next press (the recognizer keeps its count).
    override var isWaitingForNextTouch: Bool { state == .possible && tapCount > 0 }

    public override func reset() {
        super.reset()
        tapCount = 0
        firstLocation = nil
        waitTimer?.invalidate()
        waitTimer = nil
    }
}

extension CGPoint {
    /// The straight-line distance to `other`.
    func distance(to other: CGPoint) -> CGFloat {
        ((x - other.x) * (x - other.x) + (y - other.y) * (y - other.y)).squareRoot()
    }
}
