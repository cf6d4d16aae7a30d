import ArgumentParser
import CrispDemoApp
import CrispUI
import CrispWidgets
import CrispX11
import Foundation

@main
struct CrispDemo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crisp-demo",
        abstract: "The Crisp demo: vector-drawn screens on an emulated iPhone or iPad, in an X11 window.",
        discussion: """
            Keys: 1–5 device presets, c in-call status bar, s 1×/2×, l language, t theme, Tab / Shift-Tab \
            screens, ? help, q or Esc quit; on the controls screen e errors, b battery run; on the plot \
            screen Delete removes the selected point; on the bubbles screen drag a bubble up or down to \
            change its value, tap it for its percentage, Up/Down change the tapped one, r resets; on the assets screen p table or chart.
            Drag the window border to resize the screen freely.
            """)

    @Option(help: "Device preset: \(Device.presets.map(\.identifier).joined(separator: ", ")) (case, spaces and hyphens are ignored: iphone-3gs is iphone3gs).")
    var device: String = Device.iPhone4.identifier

    @Option(help: "Pixels per point (1 or 2); default: the device's.")
    var scale: Int?

    @Flag(help: "Start with the in-call status bar.")
    var callBar = false

    @Option(help: "Language: \(DemoApp.languages.joined(separator: ", ")).")
    var language: String = "en"

    @Option(help: "First screen: \(DemoApp.screenNames.joined(separator: ", ")).")
    var screen: String = "signal"

    @Option(help: "Theme: \(Theme.all.map(\.name).joined(separator: ", ")).")
    var theme: String = Theme.blue.name

    @Option(help: "Render headless to this PNG and exit (no X server needed).")
    var snapshot: String?

    @Flag(help: "Present with XPutImage instead of MIT-SHM (as CRISP_NO_SHM=1 does).")
    var noShm = false

    @Option(help: "Show this fixed time (like 9:41) and freeze the call timer; default: the live clock (9:41 for --snapshot).")
    var clock: String?

    @Option(help: "Append host and input events, one per line, to this file (used by the end-to-end tests).")
    var statusFile: String?

    @Flag(help: "Outline the boxes labels' text fills (to check layouts by eye).")
    var debugLabels = false

    @Option(help: "Time this many full frames and clock ticks of every screen at every preset, GPS-pulse and theme-fade frames of the controls screen, point-drag frames of the plot screen and bubble-drag frames of the bubbles screen (headless); print the medians.")
    var benchRender: Int?

    @Option(help: "Write the asset report to this directory and exit: every screen and control rendered as the PNGs an app drawn in bitmaps would ship (png/), the table (report.md) and a bar chart (chart.png).")
    var assetReport: String?

    @Flag(help: "The assets screen makes no report (it says so): for runs that watch the app's own memory, like scripts/soak.sh (the report takes tens of MB while it renders retina iPad pictures).")
    var noAssetReport = false

    @Option(help: "With --asset-report: only these devices, comma-separated (default: all five presets).")
    var assetDevices: String?

    @Option(help: "With --bench-render: only this screen (repeatable; default: every screen).")
    var benchScreen: [String] = []

    @Option(help: "With --bench-render: only this device preset (repeatable; default: every preset).")
    var benchDevice: [String] = []

    @Option(help: "Time this many full-frame presents with MIT-SHM and with XPutImage and print the medians.")
    var benchPresent: Int?

    /// Makes the asset report and writes it to `directory`; a directory that cannot take it
    /// stops with a message and exit status 1 before any work.
    func writeAssetReport(to directory: String) throws {
        func fail(_ message: String) -> ExitCode {
            FileHandle.standardError.write(Data("crisp-demo: \(message)\n".utf8))
            return ExitCode(1)
        }
        var devices = Device.presets
        if let assetDevices {
            devices = []
            for name in assetDevices.split(separator: ",") {
                guard let device = Device.preset(named: String(name)) else { throw fail("unknown device \(name) in --asset-devices") }
                devices.append(device)
            }
            guard !devices.isEmpty else { throw fail("--asset-devices names no device") }
        }
        do {
            try AssetReportWriter.prepare(directory)
        } catch {
            throw fail(error.description)
        }
        let app = DemoApp(configuration: DemoConfiguration(fixedTime: "9:41"))
        let task = AssetReportTask { [devices, icons = app.assetTabIcons] progress in
            try AssetReport.demo(tabIcons: icons, devices: devices, progress: progress)
        }
        switch task.wait() {
        case let .finished(report):
            let written: [String]
            do {
                written = try AssetReportWriter.write(report, to: directory)
            } catch {
                throw fail(error.description)
            }
            print(report.signalBackgroundAnswer ?? "")
            print(report.wholeAppAnswer)
            if let failure = report.codeSizeFailure { print("vector code not measured: \(failure)") }
            print("wrote \(written.count) files to \(directory) (report.md, chart.png, png/)")
        case let .failed(reason):
            throw fail("the asset report failed: \(reason)")
        case .waiting, .running:
            throw fail("the asset report did not finish")
        }
    }

    func validate() throws {
        guard Device.preset(named: device) != nil else {
            throw ValidationError("unknown --device \(device); use one of \(Device.presets.map(\.identifier).joined(separator: ", "))")
        }
        if let scale, !(1...2).contains(scale) { throw ValidationError("--scale must be 1 or 2") }
        guard DemoApp.languages.contains(language) else {
            throw ValidationError("unknown --language \(language); use one of \(DemoApp.languages.joined(separator: ", "))")
        }
        guard DemoApp.screenNames.contains(screen) else {
            throw ValidationError("unknown --screen \(screen); use one of \(DemoApp.screenNames.joined(separator: ", "))")
        }
        guard Theme.named(theme) != nil else {
            throw ValidationError("unknown --theme \(theme); use one of \(Theme.all.map(\.name).joined(separator: ", "))")
        }
        for name in benchScreen where !DemoApp.screenNames.contains(name) {
            throw ValidationError("unknown --bench-screen \(name); use one of \(DemoApp.screenNames.joined(separator: ", "))")
        }
        for name in benchDevice where Device.preset(named: name) == nil {
            throw ValidationError("unknown --bench-device \(name); use one of \(Device.presets.map(\.identifier).joined(separator: ", "))")
        }
        if let n = benchRender, n < 1 { throw ValidationError("--bench-render needs at least 1 frame") }
        if let n = benchPresent, n < 1 { throw ValidationError("--bench-present needs at least 1 frame") }
    }

    func run() throws {
        do {
            try DemoResources.check()
        } catch {
            FileHandle.standardError.write(Data("crisp-demo: \(error)\n".utf8))
            throw ExitCode(1)
        }
        if debugLabels { Label.drawsPlaceholders = true }
        var preset = Device.preset(named: device)!
        if let scale { preset = preset.withScale(CGFloat(scale)) }
        let status = try statusFile.map { try StatusFile(path: $0) }

        if let assetReport {
            try writeAssetReport(to: assetReport)
            return
        }

        if let frames = benchRender {
            print("screen    device       pixels     full frame  clock tick (px)        GPS frame (px)         theme fade / point drag / bubble drag (px)")
            let devices = benchDevice.isEmpty ? Device.presets : benchDevice.compactMap { Device.preset(named: $0) }
            let screens = benchScreen.isEmpty ? DemoApp.screenNames : benchScreen
            for r in try DemoBenchmark.run(devices: devices, screens: screens, frames: frames) {
                let px = "\(r.device.pixelWidth)×\(r.device.pixelHeight)"
                var line = r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                    + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                    + px.padding(toLength: 11, withPad: " ", startingAt: 0)
                    + String(format: "%7.3f ms  %7.4f ms (%6d)", r.fullFrame * 1000, r.clockTick * 1000, r.clockTickPixels)
                if let gps = r.gpsFrame, let pixels = r.gpsFramePixels, let fade = r.themeFadeFrame {
                    line += String(format: "  %7.4f ms (%6d)  %7.3f ms", gps * 1000, pixels, fade * 1000)
                    if let full = r.uncachedFullFrame { line += String(format: "; uncached: full %.3f ms", full * 1000) }
                }
                if let drag = r.pointDragFrame, let pixels = r.pointDragFramePixels, let uncached = r.uncachedPointDragFrame {
                    line += String(format: "  %7.4f ms (%6d); axes uncached: %.4f ms", drag * 1000, pixels, uncached * 1000)
                }
                if let drag = r.bubbleDragFrame, let pixels = r.bubbleDragFramePixels, let full = r.uncachedFullFrame,
                   let uncachedDrag = r.uncachedBubbleDragFrame, let bytes = r.cachedBytes {
                    line += String(format: "  %7.4f ms (%6d); uncached: full %.3f ms, drag %.4f ms; cache %.2f MiB",
                                   drag * 1000, pixels, full * 1000, uncachedDrag * 1000, Double(bytes) / 1_048_576)
                }
                print(line)
            }
            print("\nloupe     device       open (snapshot px)       move bitmap  move vector  (px per move)")
            for r in try DemoBenchmark.runLoupe(frames: frames) {
                print(r.screen.padding(toLength: 10, withPad: " ", startingAt: 0)
                      + r.device.identifier.padding(toLength: 13, withPad: " ", startingAt: 0)
                      + String(format: "%7.3f ms (%8d)  %7.3f ms   %7.3f ms   (%6d)", r.open * 1000, r.openSnapshotPixels,
                               r.moveBitmap * 1000, r.moveVector * 1000, r.movePixels))
            }
            return
        }

        struct Disabled: Error, CustomStringConvertible { var description: String { "disabled by --no-asset-report" } }
        let config = DemoConfiguration(device: preset, isInCall: callBar, language: language,
                                       fixedTime: clock ?? (snapshot != nil ? "9:41" : nil), screen: screen, theme: theme,
                                       assetReportTask: noAssetReport ? AssetReportTask { _ in throw Disabled() } : nil)
        let app = DemoApp(configuration: config)
        if let error = app.controlsScreen.imageError {
            FileHandle.standardError.write(Data("crisp-demo: \(error); the bitmap button and bubble draw without it\n".utf8))
        }
        if let snapshot {
            if app.currentScreen === app.assetsScreen { app.assetsScreen.waitForReport() }
            let host = try HeadlessHost(window: app.window)
            try host.writePNG(to: snapshot)
            print("wrote \(snapshot) (\(app.screen.pixelWidth)×\(app.screen.pixelHeight) px, \(app.screen.device.name), \(screen)\(callBar ? ", in call" : ""))")
            return
        }

        var options = X11Host.Options()
        options.allowsSharedMemory = !noShm
        options.sharedMemoryDisabledReason = "disabled by --no-shm"
        options.instanceName = "crisp-demo"
        options.title = app.windowTitle
        options.minimumPointSize = DemoApp.minimumScreenSize
        options.connectionLost = { line in
            status?.write("connection lost")
            FileHandle.standardError.write(Data("crisp-demo: \(line)\n".utf8))
        }
        let host: X11Host
        do {
            host = try X11Host(window: app.window, options: options)
        } catch let failure as X11Host.Failure {
            let hint = if case .cannotOpenDisplay = failure { "; use --snapshot PATH to render without one" } else { "" }
            FileHandle.standardError.write(Data("crisp-demo: \(failure)\(hint)\n".utf8))
            throw ExitCode(1)
        }
        if let frames = benchPresent {
            for r in try host.benchmarkPresent(frames: frames) {
                print(String(format: "%@ %d×%d: %.3f ms per full-frame present (median of %d)", r.mode.rawValue as NSString,
                             app.screen.pixelWidth, app.screen.pixelHeight, r.median * 1000, frames))
            }
            return
        }
        app.titleHandler = { [unowned host] in host.setTitle($0) }
        host.statusHandler = { status?.write($0) }
        app.eventLog = { status?.write($0) }
        if let status { app.window.statusSink = { status.write($0) } }
        app.logInitialState()
        app.quitHandler = { [unowned host] in
            status?.write("quit")
            host.stop()
        }
        try host.run()
        status?.write("exit")
    }
}

/// A file the demo appends event lines to, flushed line by line so a test can follow it.
/// (Written only from the thread that runs the app; Sendable so the X11 host's lost-connection
/// callback can write its last line.)
final class StatusFile: @unchecked Sendable {
    private let handle: FileHandle

    init(path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let h = FileHandle(forWritingAtPath: path) else {
            throw ValidationError("cannot write --status-file \(path)")
        }
        handle = h
    }

    func write(_ line: String) {
        handle.write(Data((line + "\n").utf8))
    }
}
