import CrispGraphics
import Foundation

// UIKit's block animations. The `animations` closure runs at once and changes properties as
// usual; every animatable property it changes (frame — and with it center —, bounds, alpha,
// backgroundColor, transform) is recorded with the value it had before, on the current
// thread's transaction. After the closure, each recorded property of a view in a window goes
// back to its old value and moves to the new one, frame by frame, on the window's event loop.
//
// Crisp has no separate presentation layer: an animated property really takes each
// intermediate value, so reading it mid-flight gives what is on screen, and a view whose size
// animates is laid out again at every intermediate size — vector content re-lays itself out
// rather than being stretched as Core Animation's bitmaps are. The rejected alternative, a
// model/presentation split, would draw a view laid out for its final size inside its
// intermediate frame.
//
// Interruption: a new animation of a property that is animating starts from the current
// value and ends the old animation's part in it as interrupted (its completion gets `false`
// once all its parts have ended). A plain assignment (outside an animation block) ends that
// property's part without counting as an interruption — layout code assigning frames while a
// superview's size animates must not fail the superview's animation — as in UIKit, where an
// assignment outside a block leaves the animation's completion alone.

extension View {
    /// Animates the changes `animations` makes to frame, bounds, center, alpha, backgroundColor
    /// and transform, like UIKit's method of the same name.
    ///
    /// - Parameters:
    ///   - duration: seconds of motion. With 0 (and no delay) the changes apply at once.
    ///   - delay: seconds before the motion starts; until then the properties keep their old values.
    ///   - options: the curve (ease-in-out by default) and `allowUserInteraction`; see `AnimationOptions`.
    ///   - animations: sets the new values; runs at once, on the calling thread.
    ///   - completion: runs once when every animated property has arrived (`true`) or after a
    ///     later animation of one of them interrupted it (`false`). Runs at once, with `true`,
    ///     when nothing animates (no property changed, or none of the views is in a window).
    ///
    /// Properties of views in a window animate on the window's event loop, starting from their
    /// current values (an interrupted animation continues from where it is, with no jump).
    /// Views in no window take their new values at once: headless drawing is deterministic.
    public static func animate(withDuration duration: TimeInterval, delay: TimeInterval = 0, options: AnimationOptions = [],
                               animations: @escaping () -> Void, completion: ((Bool) -> Void)? = nil) {
        run(duration: duration, delay: delay, options: options, timing: .curve(options.curve),
            animations: animations, completion: completion)
    }

    /// Animates the changes `animations` makes with a damped spring that ends after `duration`,
    /// like UIKit's method of the same name.
    ///
    /// `damping` is the damping ratio (0.01…1; 1 settles without overshoot) and `velocity` the
    /// initial speed in whole distances per second; see `Spring`. Everything else is as in
    /// `animate(withDuration:delay:options:animations:completion:)` (the curve options are ignored).
    public static func animate(withDuration duration: TimeInterval, delay: TimeInterval = 0,
                               usingSpringWithDamping damping: CGFloat, initialSpringVelocity velocity: CGFloat,
                               options: AnimationOptions = [], animations: @escaping () -> Void,
                               completion: ((Bool) -> Void)? = nil) {
        let spring = Spring(damping: damping, initialVelocity: velocity, duration: duration)
        run(duration: duration, delay: delay, options: options, timing: .spring(spring),
            animations: animations, completion: completion)
    }

    private static func run(duration: TimeInterval, delay: TimeInterval, options: AnimationOptions, timing: AnimationTiming,
                            animations: () -> Void, completion: ((Bool) -> Void)?) {
        let transaction = AnimationTransaction.recording(animations)
        let group = ViewAnimationGroup(allowsUserInteraction: options.contains(.allowUserInteraction))
        var loop: EventLoop?
        if duration > 0 || delay > 0 {
            for change in transaction.changes {
                guard let viewLoop = change.view.window?.eventLoop else { continue }
                let new = change.view.animatedValue(of: change.property)
                guard new != change.old else { continue }
                change.view.setAnimatedValue(change.old, of: change.property)
                group.addTrack(change.view, change.property, from: change.old, to: new)
                loop = loop ?? viewLoop
            }
        }
        guard let loop else {
            completion?(true)
            return
        }
        group.start(on: loop, delay: delay, duration: max(duration, 0), timing: timing, completion: completion)
    }

    /// Called by the setters of animatable properties before a change: inside an animation
    /// block the change is recorded; outside, a running animation of the property ends.
    func willChangeAnimatedProperty(_ property: AnimatedProperty) {
        guard !isApplyingAnimation else { return }
        if let transaction = AnimationTransaction.current {
            transaction.record(self, property)
        } else {
            propertyAnimations[property]?.removeTrack(of: self, property, interrupted: false)
        }
    }

    /// Whether a running animation keeps touches away from the view (one started without
    /// `.allowUserInteraction`).
    var isInteractionBlockedByAnimation: Bool {
        propertyAnimations.values.contains { !$0.allowsUserInteraction }
    }

    /// The current value of `property`.
    func animatedValue(of property: AnimatedProperty) -> AnimatedValue {
        switch property {
        case .frame: .rect(frame)
        case .boundsOrigin: .point(bounds.origin)
        case .alpha: .number(alpha)
        case .backgroundColor: .color(backgroundColor)
        case .transform: .transform(transform)
        }
    }

    /// Sets `property` as an animation frame does (not seen as a change by animations).
    func setAnimatedValue(_ value: AnimatedValue, of property: AnimatedProperty) {
        isApplyingAnimation = true
        defer { isApplyingAnimation = false }
        switch (property, value) {
        case let (.frame, .rect(r)): frame = r
        case let (.boundsOrigin, .point(p)): bounds = CGRect(origin: p, size: bounds.size)
        case let (.alpha, .number(a)): alpha = a
        case let (.backgroundColor, .color(c)): backgroundColor = c
        case let (.transform, .transform(t)): transform = t
        default: preconditionFailure("\(value) is not a value of \(property)")
        }
    }
}
