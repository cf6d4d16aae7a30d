import CrispGraphics
import Foundation

/// A view property that `View.animate` can animate.
enum AnimatedProperty: Hashable {
    case frame, boundsOrigin, alpha, backgroundColor, transform
}

/// A value of an `AnimatedProperty`.
enum AnimatedValue: Equatable {
    case rect(CGRect)
    case point(CGPoint)
    case number(CGFloat)
    case color(CGColor?)
    case transform(CGAffineTransform)

    /// The value `fraction` of the way to `other` (same case); exactly `other` at 1.
    func interpolated(to other: AnimatedValue, fraction f: CGFloat) -> AnimatedValue {
        if f == 1 { return other }
        switch (self, other) {
        case let (.rect(a), .rect(b)): return .rect(a.interpolated(to: b, fraction: f))
        case let (.point(a), .point(b)): return .point(a.interpolated(to: b, fraction: f))
        case let (.number(a), .number(b)): return .number(a.interpolated(to: b, fraction: f))
        case let (.transform(a), .transform(b)): return .transform(a.interpolated(to: b, fraction: f))
        case let (.color(a), .color(b)): return .color((a ?? .clear).interpolated(to: b ?? .clear, fraction: f))
        default: preconditionFailure("interpolating \(self) to \(other)")
        }
    }
}
