import CrispGraphics
import Foundation

// Right-to-left layout, as UIKit does it for Arabic, Hebrew, Persian and Urdu: the window
// takes the direction of the app's language, each view reads the direction it is laid out in
// (`effectiveUserInterfaceLayoutDirection`), and layout code written leading-to-trailing runs
// its frames through `directionalFrame(_:)`, or runs inside `layoutMirroredForDirection(_:)`,
// either of which mirrors them across the view's bounds in a right-to-left layout. What must not turn (a graph's time axis, a compass, a media control)
// says so with `semanticContentAttribute`.
//
// One difference from UIKit, on purpose: a forced direction is inherited by the subviews (as
// CSS's `dir` is), so forcing a chart left to right forces its labels too. In UIKit each view
// resolves its own attribute against the app's direction.

/// The direction a layout runs in, as UIKit's `UIUserInterfaceLayoutDirection`.
public enum UserInterfaceLayoutDirection: Int, Sendable, CustomStringConvertible {
    /// Leading edge on the left (English, German, Spanish).
    case leftToRight
    /// Leading edge on the right (Arabic, Hebrew, Persian, Urdu).
    case rightToLeft

    /// `left-to-right` or `right-to-left`, as the status file writes it.
    public var description: String { self == .leftToRight ? "left-to-right" : "right-to-left" }
}

/// UIKit's name for `UserInterfaceLayoutDirection`.
public typealias UIUserInterfaceLayoutDirection = UserInterfaceLayoutDirection

/// How a view's content relates to the layout direction, as UIKit's
/// `UISemanticContentAttribute`.
public enum SemanticContentAttribute: Int, Sendable {
    /// Follows the direction of the superview (in the end, of the window).
    case unspecified
    /// Media playback controls: always left to right, as UIKit keeps them.
    case playback
    /// Controls that stand for directions in space (a D-pad, a compass): always left to right.
    case spatial
    /// Always left to right.
    case forceLeftToRight
    /// Always right to left.
    case forceRightToLeft
}

/// UIKit's name for `SemanticContentAttribute`.
public typealias UISemanticContentAttribute = SemanticContentAttribute

extension View {
    /// The direction the view is laid out and drawn in: its own `semanticContentAttribute`
    /// when that fixes one, else its superview's, up to the window's
    /// `userInterfaceLayoutDirection` (left to right for a view in no window).
    public var effectiveUserInterfaceLayoutDirection: UserInterfaceLayoutDirection {
        var v: View? = self
        while let current = v {
            switch current.semanticContentAttribute {
            case .forceRightToLeft: return .rightToLeft
            case .forceLeftToRight, .playback, .spatial: return .leftToRight
            case .unspecified:
                if let window = current as? Window { return window.userInterfaceLayoutDirection }
            }
            v = current.superview
        }
        return .leftToRight
    }

    /// The direction a view with `attribute` takes inside a layout running `direction`, as
    /// UIKit's `UIView.userInterfaceLayoutDirection(for:relativeTo:)`.
    public static func userInterfaceLayoutDirection(for attribute: SemanticContentAttribute,
                                                    relativeTo direction: UserInterfaceLayoutDirection) -> UserInterfaceLayoutDirection {
        switch attribute {
        case .unspecified: direction
        case .forceRightToLeft: .rightToLeft
        case .forceLeftToRight, .playback, .spatial: .leftToRight
        }
    }

    /// `frame`, written for a left-to-right layout (the leading edge at `minX`), as a frame
    /// for this view's subviews in its direction: unchanged left to right, mirrored across the
    /// vertical centre line of `bounds` right to left. Layout code that passes every frame it
    /// sets through this mirrors as a whole, the way Auto Layout's leading and trailing do.
    public func directionalFrame(_ frame: CGRect) -> CGRect {
        effectiveUserInterfaceLayoutDirection == .rightToLeft ? frame.mirroredHorizontally(in: bounds) : frame
    }

    /// Called on the view and every view below it when the direction they are laid out in may
    /// have changed (the window's direction or a `semanticContentAttribute` above changed): lays
    /// them out and draws them again.
    func layoutDirectionDidChange() {
        setNeedsLayout()
        setNeedsDisplay()
        for subview in subviews { subview.layoutDirectionDidChange() }
    }
}

extension CGRect {
    /// The rectangle mirrored across the vertical centre line of `container` (same size, same
    /// y; its distance from the container's right edge is its old distance from the left).
    public func mirroredHorizontally(in container: CGRect) -> CGRect {
        guard !isNull else { return self }
        return CGRect(x: container.minX + container.maxX - maxX, y: minY, width: width, height: height)
    }
}
