import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// Render timings of the demo's screens, headless (no X server involved).
public enum DemoBenchmark {
    /// One screen on one device: medians in seconds.
    public struct Result: Sendable {
        /// The screen measured (`signal`, `controls`, `plot`, `bubbles`).
        public var screen: String
        /// The device measured.
        public var device: Device
        /// Median time to lay out nothing and draw every pixel of the screen.
        public var fullFrame: TimeInterval
        /// Median time to repaint after the status bar clock changes (its label's area only).
        public var clockTick: TimeInterval
        /// Pixels repainted by a clock tick.
        public var clockTickPixels: Int
        /// Controls screen: median time of one frame of the GPS switch's pulse (its rectangle
        /// only); nil for other screens.
        public var gpsFrame: TimeInterval?
        /// Pixels repainted by a GPS pulse frame.
        public var gpsFramePixels: Int?
        /// Controls screen: median time of one frame of a theme cross-fade (every themed view
        /// repainted in between colours); nil for other screens.
        public var themeFadeFrame: TimeInterval?
        /// Plot screen: median time of one frame of a point drag (the point moved by a few
        /// points, the fit and the plot redrawn); nil for other screens.
        public var pointDragFrame: TimeInterval?
        /// Pixels repainted by a point-drag frame.
        public var pointDragFramePixels: Int?
        /// Plot screen: the same point-drag frame with the plot's cached axes off (the grid, axes
        /// and labels drawn again every frame), for what the cache saves.
        public var uncachedPointDragFrame: TimeInterval?
        /// Bubbles screen: median time of one frame of a bubble drag (bubble 10's value, so its
        /// hue and size, changes by a step; it and what overlaps its old and new area repainted).
        public var bubbleDragFrame: TimeInterval?
        /// Pixels repainted by a bubble-drag frame.
        public var bubbleDragFramePixels: Int?
        /// Bubbles screen: the same full frame and drag frame with the bubbles' cached contents
        /// off (every bubble in a dirty area draws itself), for what the cache saves. Controls
        /// screen: the full frame with the controls' cached contents off.
        public var uncachedFullFrame: TimeInterval?
        /// See `uncachedFullFrame`.
        public var uncachedBubbleDragFrame: TimeInterval?
        /// Bubbles screen: bytes of cached contents after a full frame (what the cache costs).
        public var cachedBytes: Int?
    }

    /// Measures `frames` of each kind on every screen at each device.
    public static func run(devices: [Device] = Device.presets, screens: [String] = DemoApp.screenNames,
                           frames: Int) throws -> [Result] {
        try screens.flatMap { screen in try devices.map { try run(screen: screen, device: $0, frames: frames) } }
    }

    private static func run(screen: String, device: Device, frames: Int) throws -> Result {
        let app = DemoApp(configuration: DemoConfiguration(device: device, fixedTime: "9:41", screen: screen))
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        let full = try time(frames) { _ in
            app.window.invalidateEverything()
            return try host.renderFrame()
        }
        let tick = try time(frames) { i in
            app.statusBar.timeLabel.text = i % 2 == 0 ? "9:42" : "9:41"
            return try host.renderFrame()
        }
        var result = Result(screen: screen, device: device, fullFrame: full.median, clockTick: tick.median, clockTickPixels: tick.pixels)
        if screen == "plot" {
            // A drag of point 3: up and down by a few points, one step per frame, as the pointer moves.
            let plot = app.plotScreen.plot
            let start = plot.points[3]
            func dragFrames() throws -> (median: TimeInterval, pixels: Int) {
                try time(frames) { i in
                    plot.movePoint(3, to: CGPoint(x: start.x, y: start.y + CGFloat(i % 10) * 0.02))
                    return try host.renderFrame()
                }
            }
            let drag = try dragFrames()
            result.pointDragFrame = drag.median
            result.pointDragFramePixels = drag.pixels
            plot.layer.cachesContents = false
            result.uncachedPointDragFrame = try dragFrames().median
        }
        if screen == "bubbles" {
            let bubbles = app.bubblesScreen
            func dragFrames() throws -> (median: TimeInterval, pixels: Int) {
                let start = bubbles.values[10]
                return try time(frames) { i in
                    bubbles.setValue(start + CGFloat(i % 10 + 1) * 0.01, ofBubble: 10, animated: false)
                    return try host.renderFrame()
                }
            }
            let drag = try dragFrames()
            result.bubbleDragFrame = drag.median
            result.bubbleDragFramePixels = drag.pixels
            app.window.invalidateEverything()
            try host.renderFrame()
            result.cachedBytes = app.window.contentsCache.bytes
            for b in bubbles.bubbles { b.layer.cachesContents = false }
            result.uncachedFullFrame = try time(frames) { _ in
                app.window.invalidateEverything()
                return try host.renderFrame()
            }.median
            result.uncachedBubbleDragFrame = try dragFrames().median
        }
        guard screen == "controls" else { return result }

        // The GPS pulse: errors off, then one phase step per frame (as the display link does).
        let gps = app.controlsScreen.bar.gpsSwitch
        app.handleKey(KeyPress(characters: "e"))
        app.window.finishAnimations()
        try host.renderFrame()
        let pulse = try time(frames) { i in
            gps.pulsePhase = CGFloat(i % 60) / 60
            return try host.renderFrame()
        }
        result.gpsFrame = pulse.median
        result.gpsFramePixels = pulse.pixels
        // A theme cross-fade: every frame gives the views colours between blue and red.
        let fade = try time(frames) { i in
            app.showColours(Theme.blue.interpolated(to: .red, fraction: CGFloat(i % 19 + 1) / 20))
            return try host.renderFrame()
        }
        result.themeFadeFrame = fade.median
        // The full frame again with no control drawn from its cached contents.
        app.showColours(app.theme)
        for view in app.controlsScreen.cachedControls { view.layer.cachesContents = false }
        result.uncachedFullFrame = try time(frames) { _ in
            app.window.invalidateEverything()
            return try host.renderFrame()
        }.median
        return result
    }

    /// The loupe on one screen: medians in seconds, with the pixels a frame repainted.
    public struct LoupeResult: Sendable {
        /// The screen measured.
        public var screen: String
        /// The device measured.
        public var device: Device
        /// Opening: a new snapshot (the tiles under the magnified square) and the frame that shows it.
        public var open: TimeInterval
        /// Pixels rendered into the snapshot when opening.
        public var openSnapshotPixels: Int
        /// A move in bitmap mode at 2× (the old and the new loupe rectangles repainted).
        public var moveBitmap: TimeInterval
        /// A move in vector mode at 2×.
        public var moveVector: TimeInterval
        /// Pixels repainted by a move.
        public var movePixels: Int
    }

    /// Measures the loupe on each screen at `device`: opening, and moves along a circle in
    /// both modes after one untimed lap (which renders the snapshot tiles along it).
    public static func runLoupe(device: Device = .iPadRetina, screens: [String] = DemoApp.screenNames,
                                frames: Int) throws -> [LoupeResult] {
        try screens.map { screen in
            let app = DemoApp(configuration: DemoConfiguration(device: device, fixedTime: "9:41", screen: screen))
            let host = try HeadlessHost(window: app.window)
            try host.renderFrame()
            let b = app.window.bounds
            let centre = CGPoint(x: b.midX, y: b.midY)
            let loupe = app.loupe
            var snapshotPixels = 0
            let open = try time(frames) { i in
                loupe.close()
                app.window.finishAnimations()
                try host.renderFrame()
                let t0 = MonotonicClock.seconds()
                loupe.open(at: CGPoint(x: centre.x + CGFloat(i % 7) * 13, y: centre.y))
                let rects = try host.renderFrame()
                snapshotPixels = loupe.snapshotPixels
                return (rects, MonotonicClock.seconds() - t0)
            }
            func moves(_ mode: LoupeView.Mode) throws -> (median: TimeInterval, pixels: Int) {
                loupe.mode = mode
                // One lap untimed: the snapshot tiles along the path are rendered once, as
                // while a finger goes over a spot the second time.
                for i in 0..<60 {
                    let angle = CGFloat(i) / 60 * 2 * .pi
                    loupe.move(to: CGPoint(x: centre.x + 150 * cos(angle), y: centre.y + 150 * sin(angle)))
                    try host.renderFrame()
                }
                return try time(frames) { i in
                    let angle = CGFloat(i % 60) / 60 * 2 * .pi
                    loupe.move(to: CGPoint(x: centre.x + 150 * cos(angle), y: centre.y + 150 * sin(angle)))
                    return try host.renderFrame()
                }
            }
            let bitmap = try moves(.bitmap)
            let vector = try moves(.vector)
            return LoupeResult(screen: screen, device: device, open: open.median, openSnapshotPixels: snapshotPixels,
                               moveBitmap: bitmap.median, moveVector: vector.median, movePixels: bitmap.pixels)
        }
    }

    /// Times `frames` calls of `frame`, each timing itself; the median and the pixels the last
    /// one repainted.
    private static func time(_ frames: Int, _ frame: (Int) throws -> ([CGRect], TimeInterval)) rethrows -> (median: TimeInterval, pixels: Int) {
        var times: [TimeInterval] = []
        var pixels = 0
        for i in 0..<frames {
            let (rects, elapsed) = try frame(i)
            times.append(elapsed)
            pixels = rects.reduce(0) { $0 + Int($1.width * $1.height) }
        }
        return (times.median, pixels)
    }

    /// Times `frames` calls of `frame`; the median and the pixels the last one repainted.
    private static func time(_ frames: Int, _ frame: (Int) throws -> [CGRect]) rethrows -> (median: TimeInterval, pixels: Int) {
        var times: [TimeInterval] = []
        var pixels = 0
        for i in 0..<frames {
            let t0 = MonotonicClock.seconds()
            let rects = try frame(i)
            times.append(MonotonicClock.seconds() - t0)
            pixels = rects.reduce(0) { $0 + Int($1.width * $1.height) }
        }
        return (times.median, pixels)
    }
}
