import Foundation

/// What one frame cost, as the host that rendered and presented it measured it; hosts hand it
/// to `Window.frameStatisticsObserver` (a frame-time overlay draws them).
public struct FrameStatistics: Sendable, Equatable {
    /// When the frame was finished, on the window's event-loop clock.
    public var time: TimeInterval
    /// Seconds `Window.renderFrame(into:)` took (layout and drawing).
    public var render: TimeInterval
    /// Seconds the host took to hand the pixels to the display (0 for a headless host).
    public var present: TimeInterval
    /// The repainted rectangles, in pixels from the top-left.
    public var rects: [CGRect]

    /// Creates statistics for one frame.
    public init(time: TimeInterval, render: TimeInterval, present: TimeInterval, rects: [CGRect]) {
        self.time = time
        self.render = render
        self.present = present
        self.rects = rects
    }

    /// The repainted area, in pixels.
    public var dirtyPixels: Int { rects.reduce(0) { $0 + Int($1.width * $1.height) } }
}
