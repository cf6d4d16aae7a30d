import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// `--bench-render`: render timings of an app's screens, headless (no X server involved).
public enum AppBenchmark {
    /// One screen on one device: medians in seconds.
    public struct Result {
        /// The screen measured.
        public var screen: String
        /// The device measured.
        public var device: Device
        /// Median time to lay out nothing and draw every pixel of the screen.
        public var fullFrame: TimeInterval
        /// Median time to repaint after the status bar clock changes (its label's area only).
        public var clockTick: TimeInterval
        /// Pixels repainted by a clock tick.
        public var clockTickPixels: Int
        /// The app's own columns (`CrispApplication.benchmarkColumns`).
        public var extra: String
    }

    /// Measures `frames` full frames and clock ticks of the app's screen `screen` on `device`,
    /// then the app's own columns.
    public static func run(application: any CrispApplication.Type, screen: String, device: Device, frames: Int) throws -> Result {
        let app = AppController(application: application, configuration: AppConfiguration(device: device, fixedTime: "9:41", screen: screen))
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
        let extra = try application.benchmarkColumns(app: app, host: host, frames: frames)
        return Result(screen: screen, device: device, fullFrame: full.median, clockTick: tick.median,
                      clockTickPixels: tick.pixels, extra: extra)
    }

    /// The loupe on one screen: medians in seconds, with the pixels a frame repainted.
    public struct LoupeResult {
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

    /// Measures the loupe on `screen` at `device`: opening, and moves along a circle in both
    /// modes after one untimed lap (which renders the snapshot tiles along it).
    public static func runLoupe(application: any CrispApplication.Type, screen: String, device: Device = .iPadRetina,
                                frames: Int) throws -> LoupeResult {
        let app = AppController(application: application, configuration: AppConfiguration(device: device, fixedTime: "9:41", screen: screen))
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
            // One lap untimed: the snapshot tiles along the path are rendered once, as while a
            // finger goes over a spot the second time.
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

    /// The rotation on one screen: the frames of a turn from portrait to landscape-left (each
    /// repaints the whole screen), and full frames in both orientations.
    public struct RotationResult {
        public var screen: String
        public var device: Device
        /// Median and slowest frame of the turn's animation, drawn at full resolution.
        public var turnMedian: TimeInterval
        public var turnMax: TimeInterval
        /// Median and slowest frame of the turn in the thread's CPU time (what a loaded machine
        /// does not inflate; see `MonotonicClock.threadCPUNanoseconds`).
        public var turnCPUMedian: TimeInterval
        public var turnCPUMax: TimeInterval
        /// The same at half resolution (`Window.RotationResolution.half`, the default).
        public var halfCPUMedian: TimeInterval
        public var halfCPUMax: TimeInterval
        /// Median and slowest frame of the turn at half resolution, wall time.
        public var halfMedian: TimeInterval
        public var halfMax: TimeInterval
        /// Median and slowest start of a turn at half resolution in the thread's CPU time: the
        /// key's work before the first frame (the new layout, its picture and both pictures at
        /// half size).
        public var startCPUMedian: TimeInterval
        public var startCPUMax: TimeInterval
        /// Median full frame in portrait and in landscape, wall time and thread CPU time (the
        /// portrait figure is the faster of a run before the turns and one after landscape, so
        /// both orientations are measured with the same caches behind them).
        public var portrait: TimeInterval
        public var landscape: TimeInterval
        public var portraitCPU: TimeInterval
        public var landscapeCPU: TimeInterval
        /// Views drawn afresh into the contents cache per full frame (`ContentsCache.misses`),
        /// in portrait (after landscape) and in landscape: a view that misses every frame is
        /// drawn every frame.
        public var portraitMisses: Double
        public var landscapeMisses: Double
    }

    /// Measures the rotation on `screen` at `device`: `frames` turns of 12 animation frames each
    /// (a manual clock stepping through the 0.3 s), and `frames` full frames in each orientation.
    public static func runRotation(application: any CrispApplication.Type, screen: String, device: Device = .iPadRetina,
                                   frames: Int) throws -> RotationResult {
        nonisolated(unsafe) var now: TimeInterval = 1000
        let app = AppController(application: application, configuration: AppConfiguration(
            device: device, fixedTime: "9:41", screen: screen, allowsBackgroundReports: false), eventLoop: EventLoop(clock: { now }))
        let host = try HeadlessHost(window: app.window)
        (app.currentScreen as? AppScreenView)?.prepareForSnapshot()
        var misses = 0.0
        func fullFrames() throws -> (wall: TimeInterval, cpu: TimeInterval) {
            try host.renderFrame()
            let misses0 = app.window.contentsCache.misses
            defer { misses = Double(app.window.contentsCache.misses - misses0) / Double(frames) }
            return try fullFrameMedians(app: app, host: host, frames: frames)
        }
        let portraitBefore = try fullFrames()
        func turns() throws -> (wall: [TimeInterval], cpu: [TimeInterval], start: [TimeInterval]) {
            var turn: [TimeInterval] = [], turnCPU: [TimeInterval] = [], start: [TimeInterval] = []
            for i in 0..<frames {
                let s0 = MonotonicClock.threadCPUNanoseconds()
                app.setOrientation(i % 2 == 0 ? .landscapeLeft : .portrait)
                start.append(TimeInterval(MonotonicClock.threadCPUNanoseconds() - s0) / 1e9)
                for _ in 0..<12 {
                    let t0 = MonotonicClock.seconds(), c0 = MonotonicClock.threadCPUNanoseconds()
                    try host.renderFrame()
                    turn.append(MonotonicClock.seconds() - t0)
                    turnCPU.append(TimeInterval(MonotonicClock.threadCPUNanoseconds() - c0) / 1e9)
                    now += Screen.rotationDuration / 12
                    app.window.eventLoop.runDueWork()
                }
                try host.renderFrame()
            }
            if frames % 2 == 1 {
                app.setOrientation(.portrait, animated: false)
                try host.renderFrame()
            }
            return (turn, turnCPU, start)
        }
        let resolution = app.window.rotationResolution
        app.window.rotationResolution = .full
        let (turn, turnCPU, _) = try turns()
        app.window.rotationResolution = .half
        let (half, halfCPU, start) = try turns()
        app.window.rotationResolution = resolution
        app.setOrientation(.landscapeLeft, animated: false)
        let landscape = try fullFrames()
        let landscapeMisses = misses
        app.setOrientation(.portrait, animated: false)
        let portraitAfter = try fullFrames()
        return RotationResult(screen: screen, device: device, turnMedian: turn.median, turnMax: turn.max() ?? 0,
                              turnCPUMedian: turnCPU.median, turnCPUMax: turnCPU.max() ?? 0,
                              halfCPUMedian: halfCPU.median, halfCPUMax: halfCPU.max() ?? 0,
                              halfMedian: half.median, halfMax: half.max() ?? 0,
                              startCPUMedian: start.median, startCPUMax: start.max() ?? 0,
                              portrait: min(portraitBefore.wall, portraitAfter.wall), landscape: landscape.wall,
                              portraitCPU: min(portraitBefore.cpu, portraitAfter.cpu), landscapeCPU: landscape.cpu,
                              portraitMisses: misses, landscapeMisses: landscapeMisses)
    }

    /// A screen in `physical` window scale on a 2× desktop (192 dpi): the screen's pixels and
    /// the median full frame, in wall-clock and in the thread's CPU time.
    public struct PhysicalResult {
        public var screen: String
        public var device: Device
        public var pixelWidth: Int, pixelHeight: Int
        public var fullFrame: TimeInterval
        public var fullFrameCPU: TimeInterval
    }

    /// Measures `frames` full frames of `screen` at `device` shown at its real size on a 2×
    /// (192-dpi) desktop (issue 30's "physical-size mode on a 2× desktop").
    public static func runPhysical(application: any CrispApplication.Type, screen: String, device: Device = .iPadRetina,
                                   frames: Int) throws -> PhysicalResult {
        let app = AppController(application: application, configuration: AppConfiguration(
            device: device, fixedTime: "9:41", screen: screen, allowsBackgroundReports: false, windowScale: .physical))
        app.setDesktop(scale: 2, dotsPerInch: 192)
        let host = try HeadlessHost(window: app.window)
        (app.currentScreen as? AppScreenView)?.prepareForSnapshot()
        try host.renderFrame()
        let (wall, cpu) = try fullFrameMedians(app: app, host: host, frames: frames)
        return PhysicalResult(screen: screen, device: device, pixelWidth: app.screen.pixelWidth, pixelHeight: app.screen.pixelHeight,
                              fullFrame: wall, fullFrameCPU: cpu)
    }

    /// The medians of `frames` full frames (everything invalidated, then rendered), in wall-clock
    /// and in the calling thread's CPU time.
    private static func fullFrameMedians(app: AppController, host: HeadlessHost, frames: Int) throws
        -> (wall: TimeInterval, cpu: TimeInterval) {
        var wall: [TimeInterval] = [], cpu: [TimeInterval] = []
        for _ in 0..<frames {
            app.window.invalidateEverything()
            let t0 = MonotonicClock.seconds(), c0 = MonotonicClock.threadCPUNanoseconds()
            try host.renderFrame()
            wall.append(MonotonicClock.seconds() - t0)
            cpu.append(TimeInterval(MonotonicClock.threadCPUNanoseconds() - c0) / 1e9)
        }
        return (wall.median, cpu.median)
    }

    /// Prints `--bench-render`'s tables: every screen at every device (unless `loupeOnly`),
    /// then the loupe on every screen at the retina iPad, then (unless `loupeOnly`) the retina
    /// iPad at its physical size on a 2× desktop and the rotation there.
    static func printTables(application: any CrispApplication.Type, screens: [String], devices: [Device], frames: Int,
                            loupeOnly: Bool) throws {
        if !loupeOnly {
            print("screen    device       pixels     full frame  clock tick (px)" + application.benchmarkHeader)
            for screen in screens {
                for device in devices {
                    let r = try run(application: application, screen: screen, device: device, frames: frames)
                    let px = "\(r.device.pixelWidth)×\(r.device.pixelHeight)"
                    print(r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                          + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                          + px.padding(toLength: 11, withPad: " ", startingAt: 0)
                          + String(format: "%7.3f ms  %7.4f ms (%6d)", r.fullFrame * 1000, r.clockTick * 1000, r.clockTickPixels)
                          + r.extra)
                }
            }
            print("")
        }
        print("loupe     device       open (snapshot px)       move bitmap  move vector  (px per move)")
        for screen in screens {
            let r = try runLoupe(application: application, screen: screen, frames: frames)
            print(r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                  + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                  + String(format: "%7.3f ms (%8d)  %7.3f ms   %7.3f ms   (%6d)", r.open * 1000, r.openSnapshotPixels,
                           r.moveBitmap * 1000, r.moveVector * 1000, r.movePixels))
        }
        guard !loupeOnly else { return }
        print("")
        print("physical  device       pixels (2× desktop)   full frame  CPU")
        for screen in screens {
            let r = try runPhysical(application: application, screen: screen, frames: frames)
            print(r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                  + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                  + "\(r.pixelWidth)×\(r.pixelHeight)".padding(toLength: 22, withPad: " ", startingAt: 0)
                  + String(format: "%7.3f ms  %7.3f ms", r.fullFrame * 1000, r.fullFrameCPU * 1000))
        }
        print("")
        print("rotation  device       turn frame (max)        full frame portrait  landscape   turn frame CPU (max)    at ½ resolution CPU (max)  ½ wall (max)            full frame CPU portrait  landscape   cache misses a frame portrait  landscape   turn start CPU (max)")
        for screen in screens {
            let r = try runRotation(application: application, screen: screen, frames: frames)
            print(r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                  + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                  + String(format: "%7.3f ms (%7.3f ms)  %7.3f ms          %7.3f ms  %7.3f ms (%7.3f ms)  %7.3f ms (%7.3f ms)", r.turnMedian * 1000,
                           r.turnMax * 1000, r.portrait * 1000, r.landscape * 1000, r.turnCPUMedian * 1000, r.turnCPUMax * 1000,
                           r.halfCPUMedian * 1000, r.halfCPUMax * 1000)
                  + String(format: "    %7.3f ms (%7.3f ms)  %7.3f ms               %7.3f ms   %5.1f                          %5.1f"
                                   + "        %7.3f ms (%7.3f ms)",
                           r.halfMedian * 1000, r.halfMax * 1000, r.portraitCPU * 1000, r.landscapeCPU * 1000,
                           r.portraitMisses, r.landscapeMisses, r.startCPUMedian * 1000, r.startCPUMax * 1000))
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
    public static func time(_ frames: Int, _ frame: (Int) throws -> [CGRect]) rethrows -> (median: TimeInterval, pixels: Int) {
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
