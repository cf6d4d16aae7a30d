import CrispGraphics

/// What shows a window's pixels and feeds it input: the headless host (a PNG, for tests and
/// `--snapshot`) or the X11 host. The window and its views never know which one they run in.
///
/// A host keeps a bitmap of the screen's pixel size (reallocated when the screen changes),
/// asks the window to `renderFrame(into:)` when it `needsFrame`, presents the returned
/// rectangles, runs the window's `eventLoop`, and forwards pointer and key input.
public protocol ScreenHost: AnyObject {
    /// The window shown.
    var window: Window { get }
    /// Shows the window until `stop()` (or, for a host without input, until nothing is left to do).
    func run() throws
    /// Makes `run()` return after the current iteration.
    func stop()
}
