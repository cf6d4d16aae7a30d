import Foundation

// Gesture recognizers follow UIKit's state machine:
//
//   discrete (tap):      possible → ended ("recognized")      or possible → failed
//   continuous (pan,     possible → began → changed* → ended  or … → cancelled
//   long press):                                               or possible → failed
//
// The window gives every touch to the recognizers of the hit view and its ancestors before the
// view sees it. When one recognizes (began, or ended for a discrete one), the others tracking
// the touch fail and, if `cancelsTouchesInView`, the view gets `touchesCancelled`. A recognizer
// whose gesture is over goes back to `possible` when its touch sequence ends.
//
// Actions are closures: Swift on Linux has no selectors, so target-action is spelled
// `addTarget(self, action: Controller.handleTap)` with the target held weakly.

/// The base class of gesture recognizers, like `UIGestureRecognizer`.
open class GestureRecognizer {
    /// The states of a recognizer.
    public enum State: Sendable, Equatable {
        /// Not recognized yet (the initial state).
        case possible
        /// A continuous gesture has started.
        case began
        /// A continuous gesture has moved on.
        case changed
        /// Recognized (a discrete gesture), or a continuous one has finished.
        case ended
        /// A continuous gesture was cancelled.
        case cancelled
        /// The touch is not this gesture.
        case failed
        /// A discrete gesture that happened: the same state as `.ended`.
        public static let recognized = State.ended
    }

    /// The current state; setting it sends the actions for began, changed, ended and cancelled.
    public internal(set) var state: State = .possible

    /// The view the recognizer is attached to.
    public internal(set) weak var view: View?
    /// A disabled recognizer ignores touches (and cancels a gesture in progress).
    public var isEnabled = true {
        didSet {
            if !isEnabled, state == .began || state == .changed { transition(to: .cancelled) }
        }
    }
    /// Whether the view's touch is cancelled once the gesture is recognized. Default true.
    public var cancelsTouchesInView = true

    private var actions: [(GestureRecognizer) -> Void] = []
    /// The touch being tracked.
    public internal(set) var touch: Touch?

    /// Creates a recognizer with no action.
    public init() {}

    /// Adds a closure called on each reported state change.
    public func addAction(_ action: @escaping (GestureRecognizer) -> Void) {
        actions.append(action)
    }

    /// Adds a target-action pair, UIKit-style: `addTarget(self, action: Controller.handlePan)`.
    /// The target is held weakly; the action is not called once the target is gone.
    public func addTarget<Target: AnyObject>(_ target: Target, action: @escaping (Target) -> (GestureRecognizer) -> Void) {
        actions.append { [weak target] recognizer in
            if let target { action(target)(recognizer) }
        }
    }

    /// Where the gesture is, in `view`'s coordinates (nil: the window's): the touch's location.
    open func location(in view: View?) -> CGPoint {
        touch?.location(in: view) ?? .zero
    }

    /// Sets the state and tells the actions and the window.
    func transition(to newState: State) {
        guard newState != state || newState == .changed else { return }
        state = newState
        switch newState {
        case .began, .changed, .ended, .cancelled:
            for action in actions { action(self) }
        case .possible, .failed:
            break
        }
        if newState == .began || (newState == .ended && !isContinuous) {
            touch?.window?.gestureRecognizerDidRecognize(self)
        }
    }

    /// Whether the gesture has began/changed phases (pan, long press) or happens at once (tap).
    open var isContinuous: Bool { false }

    /// Whether the recognizer is following a gesture (not possible, failed or finished).
    var isActive: Bool { state == .began || state == .changed }

    /// Whether the recognizer keeps its state across touch sequences (a multi-tap between taps).
    var isWaitingForNextTouch: Bool { false }

    /// Whether the recognizer has reached an end state.
    var isFinished: Bool { state == .ended || state == .cancelled || state == .failed }

    /// Makes a recognizer that has not recognized give up (another one recognized first).
    func fail() {
        if state == .possible { transition(to: .failed) } else if isActive { transition(to: .cancelled) }
    }

    // MARK: Subclass hooks (the window calls them with the touch it delivers)

    /// A touch went down on the recognizer's view or below it.
    open func touchBegan(_ touch: Touch) { self.touch = touch }
    /// The tracked touch moved.
    open func touchMoved(_ touch: Touch) {}
    /// The tracked touch lifted.
    open func touchEnded(_ touch: Touch) {}
    /// The tracked touch was cancelled; a gesture in progress is cancelled.
    open func touchCancelled(_ touch: Touch) {
        if isActive { transition(to: .cancelled) } else if state == .possible { transition(to: .failed) }
    }

    /// Returns to `possible` once a gesture is over; subclasses reset their own state too.
    open func reset() {
        state = .possible
        touch = nil
    }
}
