import ArgumentParser
import CrispGraphics
import CrispUI
import CrispWidgets
import CrispX11
import Foundation

/// The emulator's command line, for the app `CrispApplication.main()` set (see
/// `CrispApplication`): the options and flags, their usage errors, and what they run.
struct AppCommand: ParsableCommand {
    /// The app the command runs; set before parsing.
    nonisolated(unsafe) static var application: (any CrispApplication.Type)!

    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: application.commandName, abstract: application.abstract,
                             discussion: application.discussion)
    }

    private static var app: any CrispApplication.Type { application }
    private static var screenNames: [String] { application.screens.isEmpty ? ["main"] : application.screens.map(\.name) }
    private static var themes: [Theme] { application.themes.isEmpty ? Theme.all : application.themes }

    @Option(help: "Device preset: \(Device.presets.map(\.identifier).joined(separator: ", ")) (case, spaces and hyphens are ignored: iphone-3gs is iphone3gs).")
    var device: String = Device.iPhone4.identifier

    @Option(help: "Pixels per point (1 or 2); default: the device's.")
    var scale: Int?

    @Flag(help: "Start with the in-call status bar.")
    var callBar = false

    @Option(help: "Language: \(AppCommand.app.languages.joined(separator: ", ")).")
    var language: String = "en"

    @Option(help: "First screen: \(AppCommand.screenNames.joined(separator: ", ")) (default: the first).")
    var screen: String?

    @Option(help: "Theme: \(AppCommand.themes.map(\.name).joined(separator: ", ")) (default: the first).")
    var theme: String?

    @Option(help: "Render headless to this PNG and exit (no X server needed).")
    var snapshot: String?

    @Flag(help: "Present with XPutImage instead of MIT-SHM (as CRISP_NO_SHM=1 does).")
    var noShm = false

    @Option(help: "Show this fixed time (like 9:41) and freeze the call timer; default: the live clock (9:41 for --snapshot).")
    var clock: String?

    @Option(help: "Override the status bar, as `xcrun simctl status_bar override`: comma-separated time=9:41, operatorName=Crisp, cellularBars=0…4, wifiBars=0…3, batteryState=charging|charged|discharging, batteryLevel=0…100, dataNetwork=wifi|3g|4g|lte|hide (--clock T is time=T).")
    var statusBar: String?

    @Flag(help: "Run every animation ten times slower (Ctrl+T toggles it), as the Simulator's Slow Animations.")
    var slowAnimations = false

    @Option(help: "The folder Ctrl+S writes screenshots and Ctrl+R recordings into (default: the current folder).")
    var mediaDir: String = "."

    @Option(help: "Record the screen from launch to quit into this animated PNG (APNG); Ctrl+R stops and starts recordings.")
    var record: String?

    @Option(help: "Start turned: portrait, landscape-left, landscape-right (the iPad also upside-down); Ctrl+Left / Ctrl+Right turn the device.")
    var orientation: String = "portrait"

    @Option(help: "How big the window shows the device (Ctrl+1 / Ctrl+2 / Ctrl+3): pixel (one device pixel per screen pixel), point (one device point per desktop point: the desktop's scale from CRISP_SCALE, XSETTINGS Xft/DPI, Xft.dpi or the display's millimetres), physical (the device's real size on this display).")
    var windowScale: String = "pixel"

    @Option(help: "Start with a debug overlay (d cycles through them): none, flash-updates, cached, blended, misaligned.")
    var overlay: String = "none"

    @Option(help: "Append host and input events, one per line, to this file (used by the end-to-end tests).")
    var statusFile: String?

    @Flag(help: "Outline the boxes labels' text fills (to check layouts by eye).")
    var debugLabels = false

    @Option(help: "Time this many full frames and clock ticks of every screen at every preset, and the app's own benchmark frames (the demo's: GPS pulse, theme fade, point and bubble drags), headless; print the medians.")
    var benchRender: Int?

    @Option(help: "Write the asset report to this directory and exit: the app's screens rendered as the PNGs an app drawn in bitmaps would ship (png/) and the table (report.md).")
    var assetReport: String?

    @Flag(help: "Skip background work done only for show (the demo's assets screen makes no report and says so): for runs that watch the app's own memory, like scripts/soak.sh.")
    var noAssetReport = false

    @Option(help: "With --asset-report: only these devices, comma-separated (default: all five presets).")
    var assetDevices: String?

    @Option(help: "With --bench-render: only this screen (repeatable; default: every screen).")
    var benchScreen: [String] = []

    @Option(help: "With --bench-render: only this device preset (repeatable; default: every preset).")
    var benchDevice: [String] = []

    @Flag(help: "With --bench-render: only the loupe's table (retina iPad; on the --bench-screen screens, default every screen).")
    var benchLoupeOnly = false

    @Option(help: "Time this many full-frame presents with MIT-SHM and with XPutImage and print the medians.")
    var benchPresent: Int?

    /// Writes the app's asset report into `directory`; a directory that cannot take it stops
    /// with a message and exit status 1 before any work.
    func writeAssetReport(to directory: String) throws {
        func fail(_ message: String) -> ExitCode {
            FileHandle.standardError.write(Data("\(Self.app.commandName): \(message)\n".utf8))
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
            try AppAssetReport.prepare(directory)
            for line in try Self.app.writeAssetReport(to: directory, devices: devices) { print(line) }
        } catch {
            throw fail("\(error)")
        }
    }

    func validate() throws {
        guard Device.preset(named: device) != nil else {
            throw ValidationError("unknown --device \(device); use one of \(Device.presets.map(\.identifier).joined(separator: ", "))")
        }
        if let scale, !(1...2).contains(scale) { throw ValidationError("--scale must be 1 or 2") }
        guard Self.app.languages.contains(language) else {
            throw ValidationError("unknown --language \(language); use one of \(Self.app.languages.joined(separator: ", "))")
        }
        if let screen, !Self.screenNames.contains(screen) {
            throw ValidationError("unknown --screen \(screen); use one of \(Self.screenNames.joined(separator: ", "))")
        }
        if let theme, !Self.themes.contains(where: { $0.name == theme }) {
            throw ValidationError("unknown --theme \(theme); use one of \(Self.themes.map(\.name).joined(separator: ", "))")
        }
        for name in benchScreen where !Self.screenNames.contains(name) {
            throw ValidationError("unknown --bench-screen \(name); use one of \(Self.screenNames.joined(separator: ", "))")
        }
        for name in benchDevice where Device.preset(named: name) == nil {
            throw ValidationError("unknown --bench-device \(name); use one of \(Device.presets.map(\.identifier).joined(separator: ", "))")
        }
        if let statusBar {
            do {
                let overrides = try StatusBarOverrides(parsing: statusBar)
                if let time = overrides.time, let clock, clock != time {
                    throw ValidationError("--clock \(clock) and --status-bar time=\(time) disagree; give one")
                }
            } catch let error as StatusBarOverrides.ParseError {
                throw ValidationError(error.description)
            }
        }
        guard let turned = DeviceOrientation(rawValue: orientation) else {
            throw ValidationError("unknown --orientation \(orientation); use one of \(DeviceOrientation.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if turned == .upsideDown, let preset = Device.preset(named: device), !preset.isPad {
            throw ValidationError("--orientation upside-down needs an iPad (--device ipad or ipad-retina): an iPhone's interface does not turn upside down")
        }
        guard WindowScaleMode(rawValue: windowScale) != nil else {
            throw ValidationError("unknown --window-scale \(windowScale); use one of \(WindowScaleMode.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard DebugOverlay(rawValue: overlay) != nil else {
            throw ValidationError("unknown --overlay \(overlay); use one of \(DebugOverlay.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let n = benchRender, n < 1 { throw ValidationError("--bench-render needs at least 1 frame") }
        if let n = benchPresent, n < 1 { throw ValidationError("--bench-present needs at least 1 frame") }
    }

    /// Why `--media-dir` cannot take files, or nil when it can.
    static func mediaDirectoryProblem(_ path: String) -> String? {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return "--media-dir \(path) is not a folder"
        }
        guard access(path, W_OK | X_OK) == 0 else { return "--media-dir \(path) is not writable" }
        return nil
    }

    func run() throws {
        let name = Self.app.commandName
        if let problem = Self.mediaDirectoryProblem(mediaDir), snapshot == nil, assetReport == nil, benchRender == nil {
            FileHandle.standardError.write(Data("\(name): \(problem): screenshots and recordings there will fail\n".utf8))
        }
        do {
            try Self.app.checkResources()
        } catch {
            FileHandle.standardError.write(Data("\(name): \(error)\n".utf8))
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
            let screens = benchScreen.isEmpty ? Self.screenNames : benchScreen
            let devices = benchDevice.isEmpty ? Device.presets : benchDevice.compactMap { Device.preset(named: $0) }
            try AppBenchmark.printTables(application: Self.app, screens: screens, devices: devices, frames: frames,
                                         loupeOnly: benchLoupeOnly)
            return
        }

        // validate() has read it already.
        let overrides = (try? statusBar.map { try StatusBarOverrides(parsing: $0) }) ?? StatusBarOverrides()
        let config = AppConfiguration(device: preset, isInCall: callBar, language: language,
                                      fixedTime: clock ?? overrides.time ?? (snapshot != nil ? "9:41" : nil), screen: screen, theme: theme,
                                      allowsBackgroundReports: !noAssetReport,
                                      statusBar: overrides, slowAnimations: slowAnimations, mediaDirectory: mediaDir,
                                      orientation: DeviceOrientation(rawValue: orientation) ?? .portrait,
                                      windowScale: WindowScaleMode(rawValue: windowScale) ?? .pixel,
                                      debugOverlay: DebugOverlay(rawValue: overlay) ?? .none)
        let app = AppController(application: Self.app, configuration: config)
        for warning in Self.app.launchWarnings(app) {
            FileHandle.standardError.write(Data("\(name): \(warning)\n".utf8))
        }
        if let snapshot {
            let desktop = DesktopScale.withoutDisplay()
            app.setDesktop(scale: CGFloat(desktop.scale), dotsPerInch: CGFloat(desktop.dotsPerInch))
            (app.currentScreen as? AppScreenView)?.prepareForSnapshot()
            let host = try HeadlessHost(window: app.window)
            try host.writePNG(to: snapshot)
            print("wrote \(snapshot) (\(app.screen.pixelWidth)×\(app.screen.pixelHeight) px, \(app.screen.device.name)\(app.screen.orientation == .portrait ? "" : ", " + app.screen.orientation.rawValue), \(app.currentScreenDeclaration.name)\(callBar ? ", in call" : ""))")
            return
        }

        var options = X11Host.Options()
        options.allowsSharedMemory = !noShm
        options.sharedMemoryDisabledReason = "disabled by --no-shm"
        options.instanceName = name
        options.title = app.windowTitle
        options.minimumPointSize = Self.app.minimumScreenSize
        options.connectionLost = { line in
            status?.write("connection lost")
            FileHandle.standardError.write(Data("\(name): \(line)\n".utf8))
        }
        let host: X11Host
        do {
            host = try X11Host(window: app.window, options: options)
        } catch let failure as X11Host.Failure {
            let hint = if case .cannotOpenDisplay = failure { "; use --snapshot PATH to render without one" } else { "" }
            FileHandle.standardError.write(Data("\(name): \(failure)\(hint)\n".utf8))
            throw ExitCode(1)
        }
        if let frames = benchPresent {
            for r in try host.benchmarkPresent(frames: frames) {
                print(String(format: "%@ %d×%d: %.3f ms per full-frame present (median of %d)", r.mode.rawValue as NSString,
                             app.screen.pixelWidth, app.screen.pixelHeight, r.median * 1000, frames))
            }
            return
        }
        app.setDesktop(scale: CGFloat(host.desktopScale.scale), dotsPerInch: CGFloat(host.desktopScale.dotsPerInch))
        host.desktopScaleHandler = { [unowned app] in app.setDesktop(scale: CGFloat($0.scale), dotsPerInch: CGFloat($0.dotsPerInch)) }
        app.titleHandler = { [unowned host] in host.setTitle($0) }
        host.statusHandler = { status?.write($0) }
        app.eventLog = { status?.write($0) }
        app.errorHandler = { FileHandle.standardError.write(Data("\(name): \($0)\n".utf8)) }
        if let status { app.window.statusSink = { status.write($0) } }
        app.logInitialState()
        app.quitHandler = { [unowned host, unowned app] in
            app.stopRecording()
            app.waitForScreenshots()
            status?.write("quit")
            host.stop()
        }
        if let record { app.startRecording(to: record) }
        // SIGINT and SIGTERM finish the recording and the screenshots through the event loop
        // (a pipe the loop waits on), then end the process by the same signal as before.
        let wakeup = SignalWakeup.install()
        if let wakeup {
            host.wakeupDescriptor = wakeup
            host.wakeupHandler = { [unowned host] in
                SignalWakeup.drain()
                status?.write("signal \(SignalWakeup.caught == SIGINT ? "SIGINT" : "SIGTERM")")
                host.stop()
            }
        }
        try host.run()
        app.stopRecording()
        app.waitForScreenshots()
        status?.write("exit")
        if wakeup != nil { SignalWakeup.reraise() }
    }
}

/// A file the app appends event lines to, flushed line by line so a test can follow it.
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

/// SIGINT and SIGTERM as a byte in a pipe that the X11 host's loop waits on (a handler may do
/// almost nothing else safely), so the app finishes its files on its own thread.
enum SignalWakeup {
    nonisolated(unsafe) static var writeEnd: Int32 = -1
    nonisolated(unsafe) static var readEnd: Int32 = -1
    nonisolated(unsafe) static var caught: Int32 = 0

    /// Installs the handlers; returns the pipe's read end (nil when no pipe could be made).
    static func install() -> Int32? {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else { return nil }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readEnd = fds[0]
        writeEnd = fds[1]
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { sig in
                SignalWakeup.caught = sig
                var byte: UInt8 = 1
                _ = write(SignalWakeup.writeEnd, &byte, 1)
            }
        }
        return readEnd
    }

    /// Empties the pipe.
    static func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readEnd, &buffer, 64) > 0 {}
    }

    /// Ends the process by the signal caught, with the default action (the status a parent
    /// expects); does nothing when none was caught.
    static func reraise() {
        let sig = caught
        guard sig != 0 else { return }
        signal(sig, SIG_DFL)
        raise(sig)
    }
}
