import CrispApp
import CrispTestSupport
import Foundation
import Testing

/// An app of two screens (so a tab bar shows), for the rotation tests.
private enum TwoScreenApp: CrispApplication {
    static let name = "Two"
    static var screens: [AppScreen] {
        [AppScreen(name: "one") { _ in
            let v = View()
            v.backgroundColor = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 1)
            let mark = View(frame: CGRect(x: 20, y: 20, width: 60, height: 30))
            mark.backgroundColor = CGColor(red: 1, green: 0.8, blue: 0, alpha: 1)
            v.addSubview(mark)
            return v
        }, AppScreen(name: "two") { _ in View() }]
    }
}

/// Issue 30's rotation: Ctrl+Left / Ctrl+Right, `--orientation`, the animation, the layout in
/// landscape and the `orientation` status line.
@Suite(.serialized) struct RotationTests {
    final class ManualClock: @unchecked Sendable {
        var t: TimeInterval = 100
    }

    private static let ctrlLeft = KeyPress(characters: "", specialKey: .left, isControlDown: true)
    private static let ctrlRight = KeyPress(characters: "", specialKey: .right, isControlDown: true)

    @Test func orientationsTurnByQuarters() {
        #expect(DeviceOrientation(quarterTurns: 1) == .landscapeLeft && DeviceOrientation(quarterTurns: -1) == .landscapeRight)
        #expect(DeviceOrientation(quarterTurns: 6) == .upsideDown && DeviceOrientation(quarterTurns: 8) == .portrait)
        for o in DeviceOrientation.allCases { #expect(DeviceOrientation(quarterTurns: o.quarterTurns) == o) }
        #expect(Device.iPhone4.transposed.pointSize == CGSize(width: 480, height: 320))
        #expect(Device.iPhone4.transposed.withScale(1) == Device.iPhone3GS.transposed)
        #expect(Device.iPad.isPad && Device.iPadRetina.transposed.isPad && !Device.iPhone5.isPad)
    }

    @Test func ctrlArrowsRotateAndLogTheOrientation() throws {
        let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(fixedTime: "9:41"))
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(lines.suffix(2).first == "orientation portrait")
        app.handleKey(Self.ctrlLeft)
        #expect(lines.suffix(2) == ["key Ctrl+Left", "orientation landscape-left"])
        #expect(app.screen.orientation == .landscapeLeft && app.screen.pixelWidth == 960 && app.screen.pixelHeight == 640)
        #expect(app.window.frame.size == CGSize(width: 480, height: 320))
        // An iPhone's interface does not turn upside down: the next left goes on to landscape-right.
        app.handleKey(Self.ctrlLeft)
        #expect(lines.last == "orientation landscape-right" && app.screen.pixelWidth == 960)
        app.handleKey(Self.ctrlLeft)
        #expect(lines.last == "orientation portrait" && app.screen.pixelWidth == 640 && app.screen.pixelHeight == 960)
        app.handleKey(Self.ctrlRight)
        #expect(lines.last == "orientation landscape-right")
        // Plain arrows are the screen's, not a rotation.
        app.handleKey(KeyPress(characters: "", specialKey: .left))
        #expect(lines.last == "key Left" && app.screen.orientation == .landscapeRight)
        // A preset keeps the orientation; s keeps it too.
        app.handleKey(KeyPress(characters: "4"))
        #expect(app.screen.pixelWidth == 1024 && app.screen.pixelHeight == 768 && app.screen.device.isPad)
        app.handleKey(KeyPress(characters: "s"))
        #expect(app.screen.pixelWidth == 2048 && app.screen.device == Device.iPadRetina.transposed)

        // An iPad turns through all four.
        let pad = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(device: .iPad))
        var seen: [DeviceOrientation] = []
        for _ in 0..<4 {
            pad.handleKey(Self.ctrlLeft)
            seen.append(pad.screen.orientation)
        }
        #expect(seen == [.landscapeLeft, .upsideDown, .landscapeRight, .portrait])
        pad.handleKey(Self.ctrlRight)
        pad.handleKey(Self.ctrlRight)
        #expect(pad.screen.orientation == .upsideDown && pad.screen.pixelWidth == 768)
        // A phone preset from upside down: the phone stands upright.
        pad.handleKey(KeyPress(characters: "2"))
        #expect(pad.screen.orientation == .portrait && pad.screen.pixelWidth == 640)
    }

    /// Status bar and call bar along the long edge, the tab bar at the bottom, the screen between:
    /// on every preset, in both landscapes and in a call.
    @Test(arguments: Device.presets, [false, true])
    func landscapeLaysOutAlongTheLongEdge(device: Device, inCall: Bool) {
        for orientation in [DeviceOrientation.landscapeLeft, .landscapeRight] {
            let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(
                device: device, isInCall: inCall, orientation: orientation))
            app.window.layoutIfNeeded()
            let b = app.screen.bounds
            #expect(b.width == device.pointSize.height && b.height == device.pointSize.width)
            let status = app.statusBar.frame
            let tabs = app.tabBar.convert(app.tabBar.bounds, to: nil)
            let content = app.currentScreen.convert(app.currentScreen.bounds, to: nil)
            #expect(status == CGRect(x: 0, y: 0, width: b.width, height: inCall ? 40 : 20))
            #expect(tabs.width == b.width && tabs.maxY == b.maxY)
            #expect(status.maxY == content.minY && content.maxY == tabs.minY && content.width == b.width)
        }
    }

    @Test func theTurnAnimatesAndEndsAtTheStartedRotatedPicture() throws {
        let clock = ManualClock()
        let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(fixedTime: "9:41"),
                                eventLoop: EventLoop(clock: { clock.t }))
        let host = try HeadlessHost(window: app.window)
        try host.run()
        let portrait = host.context.makeImage()!
        app.handleKey(Self.ctrlLeft)
        #expect(app.window.isRotating && app.window.eventLoop.isAnimating)
        try host.renderFrame()
        #expect(host.lastFrameRects == [CGRect(x: 0, y: 0, width: 960, height: 640)])
        // The first frame: the portrait picture turned a quarter counterclockwise fills the
        // landscape window (its top-left corner is now at the bottom-left).
        let first = host.context.makeImage()!
        #expect(first.width == 960 && first.height == 640)
        let p = portrait.pixels, f = first.pixels
        // The yellow mark at (20…80, 20…50) pt below the status bar of the portrait screen.
        let markIndex: Int = 110 * 640 + 100
        let mark: UInt32 = p[markIndex]
        #expect(mark & 0x00FF_FFFF == 0x00FF_CC00, "\(String(mark, radix: 16))")
        // Portrait pixel (x, y) goes to (y, 959 − x) in landscape when turned counterclockwise.
        let turnedIndex: Int = (639 - 100) * 960 + 110
        let turned: UInt32 = f[turnedIndex]
        #expect(turned & 0x00FF_FFFF == 0x00FF_CC00, "\(String(turned, radix: 16))")
        // Halfway: something in between, still repainting everything.
        clock.t += Screen.rotationDuration / 2
        app.window.eventLoop.runDueWork()
        #expect(app.window.isRotating)
        try host.renderFrame()
        let middle = host.context.makeImage()!.pixels
        clock.t += Screen.rotationDuration / 2
        app.window.eventLoop.runDueWork()
        #expect(!app.window.isRotating && !app.window.eventLoop.isAnimating)
        try host.renderFrame()
        let settled = host.context.makeImage()!.pixels

        let started = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(
            fixedTime: "9:41", orientation: .landscapeLeft))
        let expected = try HeadlessHost(window: started.window).snapshot().pixels
        #expect(settled == expected, "the settled frame is the frame of an app started in landscape")
        #expect(middle != expected && middle != f)
        // Nothing left to do: an idle app.
        #expect(!app.window.needsFrame)
    }

    @Test func aSnapshotShowsTheEndOfATurn() throws {
        let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(device: .iPad, fixedTime: "9:41"))
        app.setOrientation(.upsideDown)
        app.setOrientation(.landscapeRight)
        let shot = try HeadlessHost(window: app.window).snapshot()
        let started = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(
            device: .iPad, fixedTime: "9:41", orientation: .landscapeRight))
        #expect(shot.pixels == (try HeadlessHost(window: started.window).snapshot()).pixels)
    }

    /// Turning while a finger drags, during the call-bar animation, with the help shown, in slow
    /// motion: no crash, and the layout is the one of the new shape.
    @Test func turningInTheMiddleOfThingsKeepsALayout() throws {
        let clock = ManualClock()
        let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(fixedTime: "9:41"),
                                eventLoop: EventLoop(clock: { clock.t }))
        let host = try HeadlessHost(window: app.window)
        try host.run()
        app.window.handlePointer(.down, at: CGPoint(x: 100, y: 200))
        app.window.handlePointer(.moved, at: CGPoint(x: 120, y: 220))
        app.handleKey(KeyPress(characters: "c"))
        app.handleKey(KeyPress(characters: "?"))
        app.handleKey(KeyPress(characters: "\u{14}"))
        clock.t += 0.05
        try host.run()
        app.handleKey(Self.ctrlRight)
        clock.t += 0.05
        try host.run()
        app.handleKey(Self.ctrlRight)
        app.window.handlePointer(.moved, at: CGPoint(x: 300, y: 100))
        app.window.handlePointer(.up, at: CGPoint(x: 300, y: 100))
        try host.run()
        clock.t += 10
        try host.run()
        #expect(!app.window.isRotating && !app.window.eventLoop.isAnimating)
        #expect(app.screen.orientation == .landscapeLeft, "an iPhone passes over upside down")
        let b = app.screen.bounds
        #expect(app.statusBar.frame == CGRect(x: 0, y: 0, width: 480, height: 40))
        #expect(app.tabBar.convert(app.tabBar.bounds, to: nil).maxY == b.maxY)
        #expect(app.helpOverlay.frame.size == app.rootView.bounds.size)
    }

    /// A preset chosen during a turn: the turn's pictures are of the old size, so it ends and
    /// the new device draws at once.
    @Test func aPresetDuringATurnEndsIt() throws {
        let clock = ManualClock()
        let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(fixedTime: "9:41"),
                                eventLoop: EventLoop(clock: { clock.t }))
        let host = try HeadlessHost(window: app.window)
        try host.run()
        app.handleKey(Self.ctrlLeft)
        clock.t += 0.1
        try host.run()
        #expect(app.window.isRotating)
        app.handleKey(KeyPress(characters: "4"))
        #expect(!app.window.isRotating)
        try host.run()
        let started = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(
            device: .iPad, fixedTime: "9:41", orientation: .landscapeLeft))
        #expect(host.context.makeImage()!.pixels == (try HeadlessHost(window: started.window).snapshot()).pixels)
    }

    @Test func theCommandLineTakesAnOrientation() throws {
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-rotation-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        #expect(TwoScreenApp.run(arguments: ["--orientation", "sideways"]) == 64)
        #expect(TwoScreenApp.run(arguments: ["--orientation", "upside-down"]) == 64, "an iPhone")
        #expect(TwoScreenApp.run(arguments: ["--orientation", "landscape-right", "--device", "iphone5", "--snapshot", png]) == 0)
        let image = try CGImage(contentsOfPNGFile: png)
        #expect(image.width == 1136 && image.height == 640)
        #expect(TwoScreenApp.run(arguments: ["--orientation", "upside-down", "--device", "ipad", "--snapshot", png]) == 0)
        #expect(try CGImage(contentsOfPNGFile: png).width == 768)
    }

    /// The turn's frames at half resolution (the default) against the same frames drawn whole:
    /// the same picture, softer. Per channel, the mean difference stays under 3 levels and
    /// fewer than 3 % of the pixels differ by more than 48 (the edges of the stripes and text,
    /// which the half-size samples blur); a wrong sample, a picture turned the other way or a
    /// fade backwards breaks both. `CRISP_ROTATION_PNG=DIR` writes the frames there to look at.
    @Test func halfResolutionFramesAreTheFullResolutionOnesSofter() throws {
        let clock = ManualClock()
        func app(_ resolution: Window.RotationResolution) throws -> (AppController, HeadlessHost) {
            let app = AppController(application: TwoScreenApp.self, configuration: AppConfiguration(fixedTime: "9:41"),
                                    eventLoop: EventLoop(clock: { clock.t }))
            app.window.rotationResolution = resolution
            let host = try HeadlessHost(window: app.window)
            try host.run()
            app.handleKey(Self.ctrlLeft)
            try host.renderFrame()
            return (app, host)
        }
        let start = clock.t
        let (fullApp, full) = try app(.full)
        clock.t = start
        let (halfApp, half) = try app(.half)
        let directory = ProcessInfo.processInfo.environment["CRISP_ROTATION_PNG"]
        for step in 1...3 {
            clock.t = start + Screen.rotationDuration * Double(step) / 4
            for a in [fullApp, halfApp] { a.window.eventLoop.runDueWork() }
            #expect(fullApp.window.isRotating && halfApp.window.isRotating)
            try full.renderFrame()
            try half.renderFrame()
            let f = full.context.makeImage()!, h = half.context.makeImage()!
            if let directory {
                try f.writePNG(to: "\(directory)/turn-\(step)-full.png")
                try h.writePNG(to: "\(directory)/turn-\(step)-half.png")
            }
            var sum = 0, far = 0
            for (p, q) in zip(f.pixels, h.pixels) {
                var worst: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let u = (p >> shift) & 0xFF, v = (q >> shift) & 0xFF
                    let d = u > v ? u - v : v - u
                    sum += Int(d)
                    worst = max(worst, d)
                }
                if worst > 48 { far += 1 }
            }
            let mean = Double(sum) / Double(4 * f.pixels.count)
            #expect(mean < 3, "step \(step): mean difference \(mean)")
            #expect(far * 100 < 3 * f.pixels.count, "step \(step): \(far) pixels differ by more than 48")
        }
    }
}
