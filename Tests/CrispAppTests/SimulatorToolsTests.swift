import CrispApp
import CrispTestSupport
import Foundation
import Testing

/// An app of one empty screen, for the simulator tools' tests.
private enum PlainApp: CrispApplication {
    static let name = "Plain"
    static var screens: [AppScreen] { [AppScreen(name: "plain") { _ in View() }] }
}

/// Issue 30's status bar overrides, slow animations and screenshots, in `CrispApp`.
@Suite(.serialized) struct SimulatorToolsTests {
    // MARK: Status bar overrides

    @Test func statusBarOverridesParseSimctlNames() throws {
        let o = try StatusBarOverrides(parsing: "time=10:09,operatorName=Carrier X,cellularBars=2,wifiBars=1,batteryState=charging,batteryLevel=40,dataNetwork=LTE")
        #expect(o.time == "10:09" && o.operatorName == "Carrier X" && o.cellularBars == 2 && o.wifiBars == 1)
        #expect(o.batteryState == .charging && o.batteryLevel == 40 && o.dataNetwork == .lte)
        #expect(try StatusBarOverrides(parsing: "operatorname=,DATANETWORK=3g").operatorName == "")
        #expect(StatusBarOverrides().isEmpty)
    }

    @Test(arguments: [
        ("colour=red", "use one of time, operatorName"),
        ("cellularBars=5", "0…4"), ("wifiBars=-1", "0…3"), ("batteryLevel=101", "0…100"), ("batteryLevel=half", "0…100"),
        ("batteryState=full", "charging, charged, discharging"), ("dataNetwork=5g", "wifi, 3g, 4g, lte, hide"),
        ("time", "name=value"), ("time=", "1 to 12 characters"), ("time=9:41,time=9:42", "twice"),
    ])
    func badStatusBarValuesSayWhatIsValid(text: String, expected: String) {
        do {
            _ = try StatusBarOverrides(parsing: text)
            Issue.record("\(text) was accepted")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
        }
    }

    @Test func badStatusBarsAndMediaFoldersAreUsageErrors() throws {
        #expect(PlainApp.run(arguments: ["--status-bar", "colour=red"]) == 64)
        #expect(PlainApp.run(arguments: ["--status-bar", "cellularBars=9"]) == 64)
        #expect(PlainApp.run(arguments: ["--status-bar", "time=9:41", "--clock", "10:00"]) == 64)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-media-\(UUID().uuidString)").path
        FileManager.default.createFile(atPath: file, contents: Data())
        defer { try? FileManager.default.removeItem(atPath: file) }
        let png = file + ".png"
        defer { try? FileManager.default.removeItem(atPath: png) }
        // An unusable media folder is a message at launch (RecordingEndToEndTests), not a usage
        // error: the app runs on without screenshots and recordings there.
        #expect(PlainApp.run(arguments: ["--media-dir", "/nonexistent/crisp-media", "--snapshot", png]) == 0)
        #expect(PlainApp.run(arguments: ["--media-dir", file, "--snapshot", png]) == 0, "a file is not a folder")
        // The shorthand and the override agree: fine.
        #expect(PlainApp.run(arguments: ["--status-bar", "time=9:41,batteryState=charged", "--clock", "9:41", "--snapshot", png]) == 0)
    }

    @Test func everyOverrideShows() throws {
        let overrides = try StatusBarOverrides(parsing: "time=10:09,operatorName=Carrier,cellularBars=2,dataNetwork=lte,batteryState=charging,batteryLevel=40")
        let app = AppController(application: PlainApp.self, configuration: AppConfiguration(statusBar: overrides))
        let image = try HeadlessHost(window: app.window).snapshot()
        let bar = app.statusBar
        #expect(bar.timeLabel.text == "10:09" && !bar.timeLabel.isHidden)
        #expect(bar.carrierLabel.text == "Carrier" && !bar.carrierLabel.isHidden)
        #expect(bar.signalBars.strength == 3)
        #expect(bar.networkLabel.text == "LTE" && !bar.networkLabel.isHidden && bar.wifiBars.isHidden)
        #expect(bar.networkLabel.frame.minX > bar.carrierLabel.frame.maxX)
        #expect(bar.battery.isCharging && bar.battery.level == 0.4)
        Golden.check(try #require(image.cropping(to: CGRect(x: 0, y: 0, width: 640, height: 40))), "status-bar", "lte-charging-2x")

        let wifi = AppController(application: PlainApp.self, configuration: AppConfiguration(fixedTime: "9:41",
            statusBar: try StatusBarOverrides(parsing: "wifiBars=2,cellularBars=0,batteryState=charged,operatorName=Crisp")))
        let wifiImage = try HeadlessHost(window: wifi.window).snapshot()
        #expect(!wifi.statusBar.wifiBars.isHidden && wifi.statusBar.wifiBars.strength == 2 && wifi.statusBar.networkLabel.isHidden)
        #expect(wifi.statusBar.signalBars.strength == 0 && wifi.statusBar.battery.level == 1)
        Golden.check(try #require(wifiImage.cropping(to: CGRect(x: 0, y: 0, width: 640, height: 40))), "status-bar", "wifi-charged-2x")

        let hidden = AppController(application: PlainApp.self, configuration: AppConfiguration(
            statusBar: try StatusBarOverrides(parsing: "wifiBars=3,dataNetwork=hide,batteryState=discharging,batteryLevel=15")))
        hidden.window.layoutIfNeeded()
        #expect(hidden.statusBar.wifiBars.isHidden && hidden.statusBar.networkLabel.isHidden)
        #expect(!hidden.statusBar.battery.isCharging && hidden.statusBar.battery.level == 0.15)
        // No overrides: the bar as it always was.
        let plain = AppController(application: PlainApp.self)
        plain.window.layoutIfNeeded()
        #expect(plain.statusBar.wifiBars.isHidden && plain.statusBar.networkLabel.isHidden && !plain.statusBar.battery.isCharging)
        #expect(plain.statusBar.signalBars.strength == 4 && plain.statusBar.carrierLabel.text == "Plain")
    }

    /// An app that names its carrier.
    private enum CarrierApp: CrispApplication {
        static let name = "Plain"
        static let carrierName = "Telco"
        static var screens: [AppScreen] { PlainApp.screens }
    }

    @Test func theCarrierIsTheAppsNameUnlessItDeclaresOne() throws {
        // The default: the app's name, as `plain` above shows; a declared one; the override wins.
        let app = AppController(application: CarrierApp.self, configuration: AppConfiguration(language: "de"))
        app.window.layoutIfNeeded()
        #expect(app.statusBar.carrierLabel.text == "Telco" && !app.statusBar.carrierLabel.isHidden)
        let overridden = AppController(application: CarrierApp.self, configuration: AppConfiguration(
            statusBar: try StatusBarOverrides(parsing: "operatorName=")))
        #expect(overridden.statusBar.carrierLabel.text == "")
    }

    // MARK: Slow animations

    /// A manual clock: the tests move time themselves.
    final class ManualClock: @unchecked Sendable {
        var t: TimeInterval = 100
    }

    @Test func slowAnimationsRunTenTimesSlower() throws {
        let clock = ManualClock()
        let app = AppController(application: PlainApp.self, configuration: AppConfiguration(fixedTime: "9:41"),
                                eventLoop: EventLoop(clock: { clock.t }))
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(lines.contains("slow-animations off") && lines.last?.hasPrefix("window-scale ") == true)
        let host = try HeadlessHost(window: app.window)
        func step(_ seconds: TimeInterval) throws {
            clock.t += seconds
            try host.run()
        }
        try host.run()

        // Normal speed: the call bar is down after its 0.35 s.
        app.handleKey(KeyPress(characters: "c"))
        try step(Screen.statusBarAnimationDuration)
        #expect(!app.window.eventLoop.isAnimating)

        app.handleKey(KeyPress(characters: "\u{14}"))
        #expect(lines.suffix(2) == ["key Ctrl+T", "slow-animations on"])
        #expect(app.slowAnimations)
        // Ten times slower: the call bar, and the theme fade, still move at 9/10 of 10×.
        app.handleKey(KeyPress(characters: "c"))
        app.handleKey(KeyPress(characters: "t"))
        try step(Screen.statusBarAnimationDuration * 5)
        #expect(app.window.eventLoop.isAnimating && app.isFadingTheme)
        let halfway = app.statusBar.frame.height
        #expect(halfway > Screen.statusBarHeight && halfway < Screen.inCallStatusBarHeight, "\(halfway)")
        try step(Screen.statusBarAnimationDuration * 5)
        #expect(app.statusBar.frame.height == Screen.statusBarHeight)
        try step(AppController.themeFadeDuration * 10)
        #expect(!app.window.eventLoop.isAnimating && !app.isFadingTheme)

        // Back to normal mid-animation: nothing jumps, and the rest runs at full speed.
        app.handleKey(KeyPress(characters: "c"))
        try step(Screen.statusBarAnimationDuration * 5)   // half of the slow animation
        let before = app.statusBar.frame.height
        #expect(before > Screen.statusBarHeight && before < Screen.inCallStatusBarHeight, "\(before)")
        app.handleKey(KeyPress(characters: "\u{14}"))
        #expect(lines.last == "slow-animations off")
        try host.run()
        #expect(app.statusBar.frame.height == before, "switching speed keeps the animation where it is")
        try step(Screen.statusBarAnimationDuration / 2)
        #expect(!app.window.eventLoop.isAnimating)
    }

    @Test func slowAnimationsFromTheConfiguration() {
        let app = AppController(application: PlainApp.self, configuration: AppConfiguration(slowAnimations: true))
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(app.slowAnimations && lines.contains("slow-animations on"))
        #expect(app.window.eventLoop.animationTimeScale == 10)
    }

    @Test func theAnimationClockStaysContinuous() {
        var t: TimeInterval = 50
        let loop = EventLoop(clock: { t })
        #expect(loop.animationTime == 50)
        loop.animationTimeScale = 10
        t += 10
        #expect(abs(loop.animationTime - 51) < 1e-9)
        loop.animationTimeScale = 1
        t += 2
        #expect(abs(loop.animationTime - 53) < 1e-9)
        loop.animationTimeScale = 0
        loop.animationTimeScale = .nan
        #expect(loop.animationTimeScale == 1, "nonsense scales are ignored")
    }

    // MARK: Screenshots

    @Test func ctrlSWritesAnOptimizedScreenshotOfTheDevice() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-shots-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = AppController(application: PlainApp.self, configuration: AppConfiguration(
            device: .iPhone3GS, fixedTime: "9:41", mediaDirectory: folder.path))
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        let host = try HeadlessHost(window: app.window)
        let expected = try host.snapshot()
        app.handleKey(KeyPress(characters: "\u{13}"))
        #expect(lines.last == "key Ctrl+S", "the line comes once the file is written")
        app.waitForScreenshots()
        #expect(!app.isWritingScreenshots)
        let line = try #require(lines.last)
        #expect(line.hasPrefix("screenshot \(folder.path)/Plain — iPhone 3GS — "), "\(line)")
        let path = String(line.dropFirst("screenshot ".count))
        #expect(path.hasSuffix(".png") && !path.dropFirst(folder.path.count + 1).contains(":"))
        let shot = try CGImage(contentsOfPNGFile: path)
        #expect(shot.width == 320 && shot.height == 480)
        #expect(shot.pixels.map { $0 & 0x00FF_FFFF } == expected.pixels.map { $0 & 0x00FF_FFFF })
        // Optimized: no bigger than the plain encoder's file.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size <= (try expected.pngData()).count)
        // The host's next frame repaints everything and shows the same.
        #expect(try host.snapshot().pixels == expected.pixels)
        // A second one in the same second gets its own name.
        let date = Date()
        let first = app.takeScreenshot(at: date), second = app.takeScreenshot(at: date)
        #expect(first != second && second.hasSuffix(").png"), "\(second)")
        // Written without waiting: the event loop's poll logs them.
        let deadline = Date().addingTimeInterval(60)
        while app.isWritingScreenshots && Date() < deadline {
            Thread.sleep(forTimeInterval: 0.01)
            app.window.eventLoop.runDueWork()
        }
        #expect(lines.suffix(2) == ["screenshot \(first)", "screenshot \(second)"])
        #expect(FileManager.default.fileExists(atPath: first) && FileManager.default.fileExists(atPath: second))
    }

    @Test func anUnwritableMediaFolderIsReportedAndTheAppGoesOn() throws {
        let app = AppController(application: PlainApp.self, configuration: AppConfiguration(mediaDirectory: "/nonexistent/crisp-media"))
        var lines: [String] = [], errors: [String] = []
        app.eventLog = { lines.append($0) }
        app.errorHandler = { errors.append($0) }
        app.handleKey(KeyPress(characters: "\u{13}"))
        app.waitForScreenshots()
        #expect(lines.last?.hasPrefix("screenshot failed cannot write /nonexistent/crisp-media/Plain — iPhone 4 — ") == true, "\(lines)")
        #expect(errors.count == 1)
        app.handleKey(KeyPress(characters: "f"))
        #expect(lines.last == "hud shown")
    }
}
