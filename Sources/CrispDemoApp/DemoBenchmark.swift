import CrispGraphics
import CrispUI
import Foundation

/// Render timings of the signal graph screen, headless (no X server involved).
public enum DemoBenchmark {
    /// One device's figures: medians in seconds.
    public struct Result: Sendable {
        /// The device measured.
        public var device: Device
        /// Median time to lay out nothing and draw every pixel of the screen.
        public var fullFrame: TimeInterval
        /// Median time to repaint after the status bar clock changes (its label's area only).
        public var clockTick: TimeInterval
        /// Pixels repainted by a clock tick.
        public var clockTickPixels: Int
    }

    /// Measures `frames` full frames and `frames` clock ticks at each device.
    public static func run(devices: [Device] = Device.presets, frames: Int) throws -> [Result] {
        try devices.map { device in
            let app = DemoApp(configuration: DemoConfiguration(device: device, fixedTime: "9:41"))
            let host = try HeadlessHost(window: app.window)
            try host.renderFrame()
            var full: [TimeInterval] = []
            for _ in 0..<frames {
                app.window.invalidateEverything()
                let t0 = EventLoop.monotonicTime()
                try host.renderFrame()
                full.append(EventLoop.monotonicTime() - t0)
            }
            var tick: [TimeInterval] = []
            var pixels = 0
            for i in 0..<frames {
                app.statusBar.timeLabel.text = i % 2 == 0 ? "9:42" : "9:41"
                let t0 = EventLoop.monotonicTime()
                let rects = try host.renderFrame()
                tick.append(EventLoop.monotonicTime() - t0)
                pixels = rects.reduce(0) { $0 + Int($1.width * $1.height) }
            }
            return Result(device: device, fullFrame: median(full), clockTick: median(tick), clockTickPixels: pixels)
        }
    }

    /// The median of `values` (the mean of the middle two for an even count).
    public static func median(_ values: [TimeInterval]) -> TimeInterval {
        guard !values.isEmpty else { return 0 }
        let s = values.sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
