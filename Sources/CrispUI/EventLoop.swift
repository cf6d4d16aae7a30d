import CrispGraphics
import Foundation

// The host-independent half of a run loop: timers and frame callbacks, kept as deadlines on a
// monotonic clock. A host (X11: poll() on the connection; headless: a loop in a test) asks for
// `nextDeadline`, sleeps until then or until input arrives, and calls `runDueWork()`. Nothing is
// due when no timer is scheduled and no display link runs, so an idle app never wakes up.
// The clock is injectable, so tests drive timers (a long press, a call timer) without sleeping.

/// Timers and display-link frame callbacks on a monotonic clock.
public final class EventLoop {
    private let clock: () -> TimeInterval
    private var timers: [LoopTimer] = []
    private var displayLinks: [DisplayLink] = []
    private var nextFrameTime: TimeInterval?
    /// The animations running on this loop (Animation/AnimationDriver.swift); made on first use.
    var animationDriver: AnimationDriver?

    /// Creates a loop reading time (seconds) from `clock`; by default the system's monotonic clock.
    public init(clock: @escaping () -> TimeInterval = MonotonicClock.seconds) {
        self.clock = clock
    }

    /// The current time, in seconds, from the loop's clock.
    public var now: TimeInterval { clock() }

    // Slow animations: the animation clock runs `animationTimeScale` times slower than `now`,
    // continuously (a change of scale keeps its current value, so nothing jumps). Every
    // animation — the driver's view and value animations, and display links such as the GPS
    // pulse — reads its time from here, so one setting slows them all.
    private var scale: Double = 1
    private var animationBase: (real: TimeInterval, animation: TimeInterval)?

    /// How many times slower than real time animations run: 1 normally, 10 for the
    /// Simulator's Slow Animations. A value that is not finite and positive is ignored.
    public var animationTimeScale: Double {
        get { scale }
        set {
            guard newValue.isFinite, newValue > 0, newValue != scale else { return }
            let t = now
            animationBase = (t, animationTime(at: t))
            scale = newValue
        }
    }

    /// The time on the animation clock: `now` while the scale has always been 1, otherwise
    /// running `animationTimeScale` times slower. Display-link callbacks get this time.
    public var animationTime: TimeInterval { animationTime(at: now) }

    private func animationTime(at t: TimeInterval) -> TimeInterval {
        guard let base = animationBase else { return t }
        return base.animation + (t - base.real) / scale
    }

    /// Runs `action` once after `delay` seconds, or every `interval` seconds after that when
    /// `interval` is given. The timer stays scheduled until it fires (one-shot) or is invalidated.
    @discardableResult
    public func schedule(after delay: TimeInterval, repeating interval: TimeInterval? = nil,
                         _ action: @escaping () -> Void) -> LoopTimer {
        precondition(interval.map { $0 > 0 } ?? true, "a repeating timer needs a positive interval")
        let timer = LoopTimer(fireTime: now + max(delay, 0), interval: interval, action: action)
        timers.append(timer)
        return timer
    }

    /// Calls `callback` with the frame time (on the animation clock, `animationTime`) once per frame (`framesPerSecond`, default 60) until
    /// the link is invalidated; a paused link costs nothing.
    @discardableResult
    public func addDisplayLink(framesPerSecond: Int = 60, _ callback: @escaping (TimeInterval) -> Void) -> DisplayLink {
        precondition(framesPerSecond > 0, "a display link needs a positive frame rate")
        let link = DisplayLink(framesPerSecond: framesPerSecond, callback: callback)
        displayLinks.append(link)
        return link
    }

    /// Whether any timer is scheduled or any display link runs.
    public var hasScheduledWork: Bool {
        timers.contains { $0.isValid } || displayLinks.contains { $0.isRunning }
    }

    /// The earliest time something is due; nil when nothing is scheduled (sleep until input).
    /// Also forgets invalidated timers and links.
    public func nextDeadline() -> TimeInterval? {
        timers.removeAll { !$0.isValid }
        displayLinks.removeAll { !$0.isValid }
        var deadline = timers.map(\.fireTime).min()
        if displayLinks.contains(where: \.isRunning) {
            let frame = nextFrameTime ?? now
            nextFrameTime = frame
            deadline = min(deadline ?? frame, frame)
        } else {
            nextFrameTime = nil
        }
        return deadline
    }

    /// Fires the timers and display links that are due now, each at most once.
    public func runDueWork() {
        let t = now
        let due = timers.filter { $0.isValid && $0.fireTime <= t }.sorted { $0.fireTime < $1.fireTime }
        for timer in due where timer.isValid {
            if let interval = timer.interval {
                // Skip missed periods rather than firing a burst.
                let periods = ((t - timer.fireTime) / interval).rounded(.down) + 1
                timer.fireTime += periods * interval
            } else {
                timer.isValid = false
            }
            timer.action()
        }
        let running = displayLinks.filter(\.isRunning)
        if let rate = running.map(\.framesPerSecond).max(), case let frame = nextFrameTime ?? t, frame <= t {
            let period = 1 / TimeInterval(rate)
            nextFrameTime = frame + (((t - frame) / period).rounded(.down) + 1) * period
            let animationT = animationTime(at: t)
            for link in running where link.isRunning { link.callback(animationT) }
        }
    }
}

/// A timer scheduled on an `EventLoop`.
public final class LoopTimer {
    /// When it fires next, on the loop's clock.
    public internal(set) var fireTime: TimeInterval
    /// The repeat interval; nil for a one-shot timer.
    public let interval: TimeInterval?
    /// False once fired (one-shot) or invalidated.
    public internal(set) var isValid = true
    let action: () -> Void

    init(fireTime: TimeInterval, interval: TimeInterval?, action: @escaping () -> Void) {
        self.fireTime = fireTime
        self.interval = interval
        self.action = action
    }

    /// Stops the timer for good.
    public func invalidate() { isValid = false }
}

/// A per-frame callback on an `EventLoop`, like `CADisplayLink`.
public final class DisplayLink {
    /// Frames per second.
    public let framesPerSecond: Int
    /// A paused link is not called and does not keep the loop awake.
    public var isPaused = false
    /// False once invalidated.
    public private(set) var isValid = true
    let callback: (TimeInterval) -> Void

    init(framesPerSecond: Int, callback: @escaping (TimeInterval) -> Void) {
        self.framesPerSecond = framesPerSecond
        self.callback = callback
    }

    var isRunning: Bool { isValid && !isPaused }

    /// Removes the link for good.
    public func invalidate() { isValid = false }
}
