import Foundation

/// Options of `View.animate(withDuration:…)`, in UIKit's spelling.
///
/// Unlike UIKit, where `curveEaseInOut` is the raw value 0 (so every option set "contains"
/// it), each curve here is its own flag. With no curve flag the curve is ease-in-out; with
/// several, the first of `curveLinear`, `curveEaseIn`, `curveEaseOut` present wins.
public struct AnimationOptions: OptionSet, Sendable {
    /// The options' bits.
    public let rawValue: UInt
    /// Creates options from their bits.
    public init(rawValue: UInt) { self.rawValue = rawValue }

    /// Touches reach the animated views while they animate. Without it, as in UIKit, a view
    /// with a running property animation is skipped by hit testing.
    public static let allowUserInteraction = AnimationOptions(rawValue: 1 << 1)
    /// Start from what is on screen now. Crisp always does this (an interrupted property starts
    /// its new animation from its current value, with no jump); the flag exists for ported code.
    public static let beginFromCurrentState = AnimationOptions(rawValue: 1 << 2)
    /// Ease in and out (the default).
    public static let curveEaseInOut = AnimationOptions(rawValue: 1 << 16)
    /// Ease in: slow at the start.
    public static let curveEaseIn = AnimationOptions(rawValue: 1 << 17)
    /// Ease out: slow at the end.
    public static let curveEaseOut = AnimationOptions(rawValue: 1 << 18)
    /// Linear progress.
    public static let curveLinear = AnimationOptions(rawValue: 1 << 19)

    /// The curve the options choose.
    public var curve: AnimationCurve {
        if contains(.curveLinear) { return .linear }
        if contains(.curveEaseIn) { return .easeIn }
        if contains(.curveEaseOut) { return .easeOut }
        return .easeInOut
    }
}
