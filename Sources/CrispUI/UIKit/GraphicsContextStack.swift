import CrispGraphics
import Foundation

// UIKit's implicit current context: `draw(_:)` finds its context with
// `UIGraphicsGetCurrentContext()`, so drawing code written for iOS ports by syntax alone. The
// stack is per thread (drawing is synchronous, so a frame never leaves its thread), which also
// lets tests render different windows in parallel. Image contexts
// (`UIGraphicsBeginImageContext`) live on the same stack, marked as such, with their scale.

@_spi(Testing) public final class GraphicsContextStack {
    /// One context on the stack.
    @_spi(Testing) public struct Entry {
        /// The context; nil for an image context that could not be made (absurd size), so that
        /// `UIGraphicsGetCurrentContext()` is nil until its `UIGraphicsEndImageContext()`.
        var context: CGContext?
        /// Pixels per point of the drawing in it.
        var scale: CGFloat
        /// Whether `UIGraphicsBeginImageContext…` pushed it.
        var isImageContext: Bool
    }

    /// The stack, innermost last.
    @_spi(Testing) public internal(set) var entries: [Entry] = []

    private static let key = "CrispUI.GraphicsContextStack"

    @_spi(Testing) public static var current: GraphicsContextStack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[key] as? GraphicsContextStack { return stack }
        let stack = GraphicsContextStack()
        dictionary[key] = stack
        return stack
    }

    /// The scale of the innermost context, 1 when there is none (`scale` 0 in
    /// `UIGraphicsBeginImageContextWithOptions` means this).
    var currentScale: CGFloat { entries.last?.scale ?? 1 }

    /// Pushes `context`, drawn at `scale` pixels per point.
    func push(_ context: CGContext, scale: CGFloat) {
        entries.append(Entry(context: context, scale: scale, isImageContext: false))
    }
}

/// The context drawing goes to: the one a view's `draw(_:)` is called with, the last pushed
/// with `UIGraphicsPushContext(_:)`, or the innermost image context; nil outside drawing.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    GraphicsContextStack.current.entries.last?.context
}

/// Makes `context` the current context until the matching `UIGraphicsPopContext()`.
public func UIGraphicsPushContext(_ context: CGContext) {
    let stack = GraphicsContextStack.current
    stack.push(context, scale: stack.currentScale)
}

/// Restores the context that was current before the last `UIGraphicsPushContext(_:)`.
public func UIGraphicsPopContext() {
    _ = GraphicsContextStack.current.entries.popLast()
}
