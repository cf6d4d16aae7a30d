import Foundation

// A damped harmonic oscillator in UIKit's parametrization: a damping ratio, an initial
// velocity in "whole distances per second", and a duration the motion must fit in.
//
// The progress y(s) at normalized time s = t / duration is 1 - x(s), where x is the
// oscillator's displacement from the target, starting at x(0) = 1 with velocity -v
// (v = initialVelocity × duration):
//
//     ζ < 1:  x(s) = e^(-ζω s) (cos(ω_d s) + (ζω - v) / ω_d · sin(ω_d s)),  ω_d = ω √(1 - ζ²)
//     ζ = 1:  x(s) = e^(-ω s) (1 + (ω - v) s)
//
// ω is chosen so that the envelope e^(-ζω s) falls to 1/1000 at s = 1 (ω = ln 1000 / ζ),
// capped at 12π (six oscillations) so a very low damping does not alias at 60 fps. Whatever
// displacement is left at s = 1 is blended out linearly (y(s) += x(1)·s), so the spring ends
// exactly at the target when the duration is up. The rejected alternative, a physical spring
// that runs until it settles (CASpringAnimation's settlingDuration), would not honour the
// duration UIKit's API promises.

/// The progress curve of a spring animation, as UIKit's
/// `animate(withDuration:delay:usingSpringWithDamping:initialSpringVelocity:…)` defines it.
public struct Spring: Sendable, Equatable {
    /// The damping ratio ζ, clamped to 0.01…1: 1 settles without overshoot, smaller values
    /// oscillate more.
    public let damping: CGFloat
    /// The initial velocity in whole distances per second (1: the full distance in one second).
    public let initialVelocity: CGFloat
    /// The time the motion takes, in seconds.
    public let duration: TimeInterval

    /// Creates a spring. `damping` is clamped to 0.01…1 (NaN: 1); a non-finite velocity counts as 0.
    public init(damping: CGFloat, initialVelocity: CGFloat = 0, duration: TimeInterval) {
        self.damping = damping.isNaN ? 1 : min(max(damping, 0.01), 1)
        self.initialVelocity = initialVelocity.isFinite ? initialVelocity : 0
        self.duration = duration
    }

    /// The progress at `fraction` (0…1, clamped) of the duration: 0 at the start, exactly 1 at
    /// the end, above 1 while overshooting.
    public func value(at fraction: CGFloat) -> CGFloat {
        let s = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        if s == 1 { return 1 }
        return 1 - displacement(at: s) + displacement(at: 1) * s
    }

    private func displacement(at s: CGFloat) -> CGFloat {
        let zeta = damping
        let omega = min(log(1000) / zeta, 12 * .pi)
        let v = initialVelocity * CGFloat(max(duration, 0))
        if zeta >= 1 {
            return exp(-omega * s) * (1 + (omega - v) * s)
        }
        let omegaD = omega * (1 - zeta * zeta).squareRoot()
        return exp(-zeta * omega * s) * (cos(omegaD * s) + (zeta * omega - v) / omegaD * sin(omegaD * s))
    }
}
