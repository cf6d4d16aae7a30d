import Foundation

/// Recognizes a drag, like `UIPanGestureRecognizer` (continuous).
///
/// Begins once the touch has moved `minimumDistance` points (default 10) from where it went
/// down, then reports changed on each move and ended on release. A release before that fails.
/// The translation is measured from the press, so it includes the first `minimumDistance`.
public final class PanGestureRecognizer: GestureRecognizer {
    /// How far, in points, the touch moves before the pan begins (default 10).
    public var minimumDistance: CGFloat = 10

    private var startLocation: CGPoint = .zero
    private var samples: [(location: CGPoint, time: TimeInterval)] = []

    /// Creates a recognizer that calls `handler` on each state change it reports.
    public convenience init(handler: @escaping (PanGestureRecognizer) -> Void) {
        self.init()
        addAction { handler($0 as! PanGestureRecognizer) }
    }

    public override var isContinuous: Bool { true }

    /// How far the touch has moved since it went down, in `view`'s coordinates (nil: the
    /// window's), in points. Through a transformed view the vector turns and scales with it.
    public func translation(in view: View?) -> CGPoint {
        guard let touch else { return .zero }
        return vector(from: startLocation, to: touch.location(in: nil), in: view)
    }

    /// Makes the current translation in `view`'s coordinates read as `translation` (for
    /// incremental handling).
    public func setTranslation(_ translation: CGPoint, in view: View?) {
        guard let touch else { return }
        guard let view else {
            let p = touch.location(in: nil)
            startLocation = CGPoint(x: p.x - translation.x, y: p.y - translation.y)
            return
        }
        let p = touch.location(in: view)
        startLocation = view.convert(CGPoint(x: p.x - translation.x, y: p.y - translation.y), to: nil)
    }

    /// The speed of the touch over its last two positions, in `view`'s coordinates (nil: the
    /// window's), in points per second.
    public func velocity(in view: View?) -> CGPoint {
        guard samples.count >= 2 else { return .zero }
        let a = samples[samples.count - 2], b = samples[samples.count - 1]
        let dt = b.time - a.time
        guard dt > 0 else { return .zero }
        let v = vector(from: a.location, to: b.location, in: view)
        return CGPoint(x: v.x / dt, y: v.y / dt)
    }

    /// The vector between two window points, in `view`'s coordinates (nil: the window's).
    private func vector(from start: CGPoint, to end: CGPoint, in view: View?) -> CGPoint {
        guard let view else { return CGPoint(x: end.x - start.x, y: end.y - start.y) }
        let a = view.convert(start, from: nil), b = view.convert(end, from: nil)
        return CGPoint(x: b.x - a.x, y: b.y - a.y)
    }

    public override func touchBegan(_ touch: Touch) {
        super.touchBegan(touch)
        startLocation = touch.location(in: nil)
        samples = [(startLocation, touch.timestamp)]
    }

    public override func touchMoved(_ touch: Touch) {
        let p = touch.location(in: nil)
        samples.append((p, touch.timestamp))
        if samples.count > 4 { samples.removeFirst(samples.count - 4) }
        switch state {
        case .possible:
            if startLocation.distance(to: p) >= minimumDistance { transition(to: .began) }
        case .began, .changed:
            transition(to: .changed)
        default:
            break
        }
    }

    public override func touchEnded(_ touch: Touch) {
        if isActive { transition(to: .ended) } else if state == .possible { transition(to: .failed) }
    }

    public override func reset() {
        super.reset()
        samples = []
    }
}
