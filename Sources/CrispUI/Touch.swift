import Foundation

/// A finger on the screen — here, the mouse pointer while its button is held, like `UITouch`.
///
/// One touch object lives from the press to the release; its phase and location change as the
/// pointer moves. Touches compare by identity.
public final class Touch: Hashable {
    /// Where a touch is in its life.
    public enum Phase: Sendable {
        /// The touch has just gone down.
        case began
        /// The touch has moved.
        case moved
        /// The touch is down and has not moved.
        case stationary
        /// The touch has been lifted.
        case ended
        /// The touch was cancelled (by a recognizer, or a new press).
        case cancelled
    }

    /// The current phase.
    public internal(set) var phase: Phase = .began
    /// When the last change happened, on the event loop's clock, in seconds.
    public internal(set) var timestamp: TimeInterval
    /// The view the touch went down on (it keeps getting the touch when it moves away).
    public internal(set) weak var view: View?
    /// The window the touch belongs to.
    public internal(set) weak var window: Window?
    /// How many quick taps in the same place led to this one (1 for a single tap).
    public internal(set) var tapCount = 1

    var locationInWindow: CGPoint
    var previousLocationInWindow: CGPoint

    init(location: CGPoint, timestamp: TimeInterval, view: View?, window: Window) {
        locationInWindow = location
        previousLocationInWindow = location
        self.timestamp = timestamp
        self.view = view
        self.window = window
    }

    /// The touch's location in `view`'s coordinates (nil: the window's).
    public func location(in view: View?) -> CGPoint {
        guard let view else { return locationInWindow }
        return view.convert(locationInWindow, from: nil)
    }

    /// The location before the last move, in `view`'s coordinates (nil: the window's).
    public func previousLocation(in view: View?) -> CGPoint {
        guard let view else { return previousLocationInWindow }
        return view.convert(previousLocationInWindow, from: nil)
    }

    public static func == (lhs: Touch, rhs: Touch) -> Bool { lhs === rhs }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// What the mouse pointer did, as a host reports it to a window.
public enum PointerAction: Sendable {
    /// The button went down.
    case down
    /// The pointer moved (with the button down or not).
    case moved
    /// The button went up.
    case up
    /// The system took the pointer away (a grab, the window closing).
    case cancelled
}
