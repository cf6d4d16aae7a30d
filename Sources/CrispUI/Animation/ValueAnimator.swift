import CrispGraphics
import Foundation

/// A value a view draws itself from (a knob position, a level, a colour, an angle) that can
/// move to a new value over time, repainting its view each frame.
///
/// Each frame of an animation sets `value` (the presentation value: what should be drawn now),
/// calls `onChange`, and calls `setNeedsDisplay()` on the owner, so only the owner's rectangle
/// is repainted. Frames come from the display link of the owner's window's event loop, on its
/// monotonic clock; a slow frame skips ahead.
///
/// Starting a new animation (or `set(_:)`) while one runs stops the running one where it is —
/// its completion gets `false` — and the new one starts from the current `value`, with no jump.
///
/// When the owner is in no window (no event loop to animate on: a headless view, a test), an
/// animation jumps to its end at once and its completion runs immediately with `true`, so
/// drawing without a window is deterministic.
///
/// A running animation keeps its animator alive until it ends.
public final class ValueAnimator<Value: Interpolatable> {
    /// The view repainted when the value changes.
    public private(set) weak var owner: View?
    /// The current (presentation) value: what to draw now.
    public private(set) var value: Value
    /// The value the running animation ends at, or `value` when none runs.
    public private(set) var targetValue: Value
    /// Called with the new value every time `value` changes.
    public var onChange: ((Value) -> Void)?
    private var running: RunningAnimation?

    /// Creates an animator showing `value`, repainting `owner` (held weakly) when it changes.
    public init(_ value: Value, owner: View) {
        self.value = value
        targetValue = value
        self.owner = owner
    }

    /// Whether an animation is running.
    public var isAnimating: Bool { running != nil }

    /// Jumps to `value`, stopping a running animation (its completion gets `false`).
    public func set(_ value: Value) {
        stop()
        targetValue = value
        show(value)
    }

    /// Moves to `value` over `duration` seconds along `curve`, from the current value.
    ///
    /// `completion` runs once: `true` when the value arrived, `false` when a later `set` or
    /// animation interrupted it.
    public func animate(to value: Value, duration: TimeInterval, curve: AnimationCurve = .easeInOut,
                        completion: ((Bool) -> Void)? = nil) {
        start(to: value, duration: duration, timing: .curve(curve), completion: completion)
    }

    /// Moves to `value` with a damped spring that ends after `duration` seconds; see `Spring`
    /// for `damping` (0.01…1, 1: no overshoot) and `initialVelocity` (whole distances per second).
    public func animateSpring(to value: Value, damping: CGFloat, initialVelocity: CGFloat = 0, duration: TimeInterval,
                              completion: ((Bool) -> Void)? = nil) {
        let spring = Spring(damping: damping, initialVelocity: initialVelocity, duration: duration)
        start(to: value, duration: duration, timing: .spring(spring), completion: completion)
    }

    private func start(to target: Value, duration: TimeInterval, timing: AnimationTiming, completion: ((Bool) -> Void)?) {
        stop()
        targetValue = target
        guard duration > 0, let loop = owner?.window?.eventLoop else {
            show(target)
            completion?(true)
            return
        }
        let from = value
        let animation = RunningAnimation(
            startTime: loop.animationTime, duration: duration, timing: timing,
            step: { [self] progress in
                self.show(progress == 1 ? target : from.interpolated(to: target, fraction: progress))
            },
            completion: { [self] finished in
                if finished { self.running = nil }
                completion?(finished)
            })
        running = animation
        loop.animations.add(animation)
    }

    /// Ends the running animation where it is, unfinished.
    private func stop() {
        guard let animation = running else { return }
        running = nil
        animation.end(finished: false)
    }

    private func show(_ newValue: Value) {
        value = newValue
        onChange?(newValue)
        owner?.setNeedsDisplay()
    }
}
