import Foundation

// Every animation of a window — view property animations and value animators alike — is a
// `RunningAnimation` on its event loop's `AnimationDriver`. The driver owns one display link,
// created with the first animation and invalidated the moment the last one ends, so an app
// with nothing animating schedules nothing and the host sleeps in poll() (0 CPU).
//
// Time, not frame count, places every frame: at each display-link callback an animation's
// progress is (now − start) / duration on the loop's monotonic clock, so a slow frame skips
// ahead instead of slowing the animation down, and a manual clock in a test reproduces any
// frame exactly. The rejected alternative — advancing by 1/60 s per callback — drifts under
// load and cannot be tested without real time.

/// How progress follows time: a Bézier curve or a spring.
enum AnimationTiming {
    case curve(AnimationCurve)
    case spring(Spring)

    /// The progress at `fraction` (0…1) of the duration; exactly 1 at 1.
    func progress(at fraction: CGFloat) -> CGFloat {
        switch self {
        case let .curve(curve): curve.value(at: fraction)
        case let .spring(spring): spring.value(at: fraction)
        }
    }
}

/// One animation on a driver: a step applied each frame with the eased progress, and a
/// completion that runs exactly once.
final class RunningAnimation {
    /// When the motion starts (after the delay), on the loop's clock.
    let startTime: TimeInterval
    /// Seconds from start to end.
    let duration: TimeInterval
    let timing: AnimationTiming
    private let step: (CGFloat) -> Void
    private var completion: ((Bool) -> Void)?
    /// Set once the animation has ended, finished or not.
    private(set) var hasEnded = false
    weak var driver: AnimationDriver?

    init(startTime: TimeInterval, duration: TimeInterval, timing: AnimationTiming,
         step: @escaping (CGFloat) -> Void, completion: @escaping (Bool) -> Void) {
        self.startTime = startTime
        self.duration = duration
        self.timing = timing
        self.step = step
        self.completion = completion
    }

    /// Applies the state at time `t`; ends the animation (finished) when its time is up (to
    /// within a nanosecond, so sums of clock steps that should reach the end do).
    func advance(to t: TimeInterval) {
        guard !hasEnded, t >= startTime else { return }
        let elapsed = t - startTime
        let fraction = elapsed >= duration - 1e-9 ? 1 : CGFloat(elapsed / duration)
        step(timing.progress(at: fraction))
        if fraction >= 1 { end(finished: true) }
    }

    /// Jumps to the end state and ends the animation, finished.
    func finishNow() {
        guard !hasEnded else { return }
        step(1)
        end(finished: true)
    }

    /// Ends the animation where it is: runs the completion with `finished` and leaves the driver.
    func end(finished: Bool) {
        guard !hasEnded else { return }
        hasEnded = true
        driver?.remove(self)
        let completion = self.completion
        self.completion = nil
        completion?(finished)
    }
}

/// The animations of one event loop and the display link that drives them.
final class AnimationDriver {
    private unowned let loop: EventLoop
    private var animations: [RunningAnimation] = []
    private var link: DisplayLink?

    init(loop: EventLoop) { self.loop = loop }

    /// Whether an animation is running (and so the display link).
    var isAnimating: Bool { !animations.isEmpty }

    /// Adds an animation; starts the display link if it is the first.
    func add(_ animation: RunningAnimation) {
        animation.driver = self
        animations.append(animation)
        if link == nil {
            link = loop.addDisplayLink { [unowned self] t in self.tick(t) }
        }
    }

    /// Forgets an ended animation; stops the display link after the last.
    func remove(_ animation: RunningAnimation) {
        animations.removeAll { $0 === animation }
        if animations.isEmpty {
            link?.invalidate()
            link = nil
        }
    }

    /// One display-link frame: every animation takes its state at `t`.
    private func tick(_ t: TimeInterval) {
        for animation in animations { animation.advance(to: t) }
    }

    /// Ends every animation running now at its end state, finished (animations started by their
    /// completions keep running).
    func finishAll() {
        for animation in animations { animation.finishNow() }
    }
}

extension EventLoop {
    /// The loop's animation driver, made on first use.
    var animations: AnimationDriver {
        if let driver = animationDriver { return driver }
        let driver = AnimationDriver(loop: self)
        animationDriver = driver
        return driver
    }

    /// Whether any animation (view property or value animator) is running on this loop.
    public var isAnimating: Bool { animationDriver?.isAnimating ?? false }
}
