import CrispGraphics
import Foundation

// UIKit's implicit current context: `draw(_:)` finds its context with
// `UIGraphicsGetCurrentContext()`, so drawing code written for iOS ports by syntax alone. The
// stack is per thread (drawing is synchronous, so a frame never leaves its thread), which also
// lets tests render different windows in parallel.

final class GraphicsContextStack {
    var contexts: [CGContext] = []

    private static let key = "CrispUI.GraphicsContextStack"

    static var current: GraphicsContextStack {
        let dictionary = Thread.current.threadDictionary
        if let stack = dictionary[key] as? GraphicsContextStack { return stack }
        let stack = GraphicsContextStack()
        dictionary[key] = stack
        return stack
    }
}

/// The context drawing goes to: the one a view's `draw(_:)` is called with, or the last pushed
/// with `UIGraphicsPushContext(_:)`; nil outside drawing.
public func UIGraphicsGetCurrentContext() -> CGContext? {
    GraphicsContextStack.current.contexts.last
}

/// Makes `context` the current context until the matching `UIGraphicsPopContext()`.
public func UIGraphicsPushContext(_ context: CGContext) {
    GraphicsContextStack.current.contexts.append(context)
}

/// Restores the context that was current before the last `UIGraphicsPushContext(_:)`.
public func UIGraphicsPopContext() {
    _ = GraphicsContextStack.current.contexts.popLast()
}
