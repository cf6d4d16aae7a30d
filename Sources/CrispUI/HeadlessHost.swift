import CrispGraphics
import Foundation

/// A host without a display: renders the window into a bitmap it owns, for tests, snapshots
/// (`crisp-demo --snapshot`) and benchmarks.
///
/// `run()` renders and runs due timers until nothing is due; time comes from the window's event
/// loop, so a test with a manual clock advances it and calls `runDueWork()` itself.
public final class HeadlessHost: ScreenHost {
    public let window: Window
    /// The screen's pixels (replaced when the screen changes size or scale).
    public private(set) var context: CGContext
    /// The bitmap of the size before the last change, kept for a change back: a device turned
    /// and turned back (the rotation's first frame would otherwise pay for a fresh 12 MB bitmap,
    /// 3–8 ms at the retina iPad) swaps the two.
    private var previous: CGContext?
    /// The rectangles the last frame repainted, in pixels from the top-left.
    public private(set) var lastFrameRects: [CGRect] = []
    private var isStopped = false

    /// Errors of the headless host.
    public enum Failure: Error, CustomStringConvertible {
        /// The screen's bitmap of `width` × `height` pixels could not be allocated.
        case cannotAllocate(width: Int, height: Int)
        /// The failure in words.
        public var description: String {
            switch self {
            case let .cannotAllocate(w, h): "cannot allocate a \(w)×\(h) pixel bitmap"
            }
        }
    }

    /// Creates a host for `window` with a bitmap of its screen's pixel size.
    public init(window: Window) throws {
        self.window = window
        context = try HeadlessHost.makeContext(for: window.screen)
    }

    private static func makeContext(for screen: Screen) throws -> CGContext {
        guard let ctx = CGContext(width: screen.pixelWidth, height: screen.pixelHeight) else {
            throw Failure.cannotAllocate(width: screen.pixelWidth, height: screen.pixelHeight)
        }
        return ctx
    }

    /// Renders what is dirty (reallocating first if the screen changed size); returns the
    /// repainted rectangles.
    @discardableResult
    public func renderFrame() throws -> [CGRect] {
        let screen = window.screen
        if context.width != screen.pixelWidth || context.height != screen.pixelHeight {
            let next: CGContext
            if let previous, previous.width == screen.pixelWidth, previous.height == screen.pixelHeight {
                next = previous
            } else {
                next = try HeadlessHost.makeContext(for: screen)
            }
            previous = context
            context = next
            window.invalidateEverything()
        }
        let start = MonotonicClock.seconds()
        lastFrameRects = window.renderFrame(into: context)
        if let observer = window.frameStatisticsObserver, !lastFrameRects.isEmpty {
            observer(FrameStatistics(time: window.eventLoop.now, render: MonotonicClock.seconds() - start, present: 0, rects: lastFrameRects))
        }
        if let observer = window.presentedFrameObserver, !lastFrameRects.isEmpty {
            observer(context, lastFrameRects, window.eventLoop.now)
        }
        return lastFrameRects
    }

    /// Finishes running animations (`Window.finishAnimations()`), renders what is dirty and
    /// returns the whole screen as an image: a snapshot shows the settled state, never a moment
    /// that depends on how fast the machine is. `renderFrame()` leaves animations alone.
    public func snapshot() throws -> CGImage {
        window.finishAnimations()
        try renderFrame()
        return context.makeImage()!
    }

    /// Writes `snapshot()` to a PNG file.
    public func writePNG(to path: String) throws {
        try snapshot().writePNG(to: path)
    }

    /// Renders, then fires due timers and renders again until nothing is due now or `stop()`
    /// is called. Never sleeps.
    public func run() throws {
        isStopped = false
        try renderFrame()
        while !isStopped, let deadline = window.eventLoop.nextDeadline(), deadline <= window.eventLoop.now {
            window.eventLoop.runDueWork()
            try renderFrame()
        }
    }

    public func stop() { isStopped = true }
}
