import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// A running app in its emulated device, as the iOS Simulator shows one: the status bar, the
/// app's screens behind a tab bar, the loupe, the frame-time HUD, the help overlay, the themes,
/// the language, the keyboard shortcuts (the Simulator's hardware menu), the clock and the call
/// timer. It knows nothing of X11 or files: a host (`X11Host`, `HeadlessHost`) shows `window`,
/// and `CrispApplication.main()` puts both together from the command line.
public final class AppController {
    /// The app's declaration (its name, screens, languages, themes).
    public let application: any CrispApplication.Type
    /// The configuration the app started with.
    public let configuration: AppConfiguration
    /// The languages `l` cycles through, as language codes.
    public let languages: [String]
    /// The themes `t` cycles through.
    public let themes: [Theme]
    /// The emulated screen.
    public let screen: Screen
    /// The window to show.
    public let window: Window
    /// The status bar.
    public let statusBar = StatusBarView()
    /// The declared screens, in tab order.
    public let screens: [AppScreen]
    /// Each declared screen's root view, in tab order (made once, at launch).
    public private(set) var screenViews: [View] = []
    /// The content below the status bar: the current screen and the tab bar.
    public let rootView: AppRootView
    /// The loupe, on top of every screen (long press to open it).
    public let loupe = LoupeView()
    /// The frame-time overlay (`f`), in the window's top-right corner below the status bar.
    public let hud = FrameTimeHUD()
    /// The shortcut overlay (inside `rootView`).
    public var helpOverlay: HelpOverlayView { rootView.helpOverlay }
    /// The tab bar (inside `rootView`; hidden for one screen).
    public var tabBar: TabBarView { rootView.tabBar }
    /// The root view of the screen shown.
    public var currentScreen: View { rootView.screen }
    /// The declaration of the screen shown.
    public var currentScreenDeclaration: AppScreen { screens[currentScreenIndex] }
    /// The index of the screen shown, in tab order.
    public var currentScreenIndex: Int { screenViews.firstIndex { $0 === rootView.screen } ?? 0 }

    /// The current language code; the labels show their text in it.
    public private(set) var language: String { didSet { applyLanguage() } }
    /// The current theme (during a cross-fade, the one being faded to).
    public private(set) var theme: Theme
    /// Seconds a change of theme takes to cross-fade.
    public static let themeFadeDuration: TimeInterval = 0.3
    /// The colours shown, on their way to `theme` during a cross-fade.
    private var themeFade: ValueAnimator<Theme>!
    /// The strings tables: the app's own, then Crisp's (so apps in one process can show
    /// different languages).
    public let localization: Localization
    /// Called with one line per user-visible event ("key c", "tap 120 200", "screen controls",
    /// "theme red"), for the `--status-file` that tests and scripts read.
    public var eventLog: ((String) -> Void)?
    /// Called when the user asks to quit (q or Esc).
    public var quitHandler: (() -> Void)?
    /// Called with the new window title whenever it changes (screen, device or language).
    public var titleHandler: ((String) -> Void)?

    /// Called with a message for the user when something they asked for failed (a screenshot
    /// that could not be written); the command line prints it on standard error.
    public var errorHandler: ((String) -> Void)?

    /// How many times slower animations run when slow animations are on (as the Simulator's).
    public static let slowAnimationFactor: Double = 10
    /// Whether every animation runs `slowAnimationFactor` times slower (`Ctrl+T`,
    /// `--slow-animations`); logs `slow-animations on|off` on a change.
    public var slowAnimations: Bool {
        get { window.eventLoop.animationTimeScale != 1 }
        set {
            guard newValue != slowAnimations else { return }
            window.eventLoop.animationTimeScale = newValue ? AppController.slowAnimationFactor : 1
            log("slow-animations \(newValue ? "on" : "off")")
        }
    }

    /// The debug overlay drawn over the screen (`d` cycles through them, `--overlay` starts
    /// with one): setting it logs `overlay <name>` on a change.
    public var debugOverlay: DebugOverlay {
        get { window.debugOverlay }
        set {
            guard newValue != window.debugOverlay else { return }
            window.debugOverlay = newValue
            log("overlay \(newValue.rawValue)")
        }
    }

    /// The folder screenshots go into.
    public var mediaDirectory: String

    // MARK: Window scale

    /// How big the window shows the device; setting it logs `window-scale <mode> <ppp>`.
    public private(set) var windowScaleMode: WindowScaleMode
    /// The device's own pixels per point (1 or 2; `s` and the presets set it); in `pixel` mode
    /// the screen's scale.
    public private(set) var deviceScale: CGFloat
    /// The desktop's scale (screen pixels per desktop point) and the display's dots per inch,
    /// as the host reads them (`setDesktop(scale:dotsPerInch:)`); 1 and 96 without one.
    public private(set) var desktopScale: CGFloat = 1
    public private(set) var displayDotsPerInch: CGFloat = 96

    /// The window's pixels per point in `mode` for `device` (default: the one shown) at
    /// `deviceScale`.
    public func pixelsPerPoint(in mode: WindowScaleMode, for device: Device? = nil) -> CGFloat {
        switch mode {
        case .pixel: deviceScale
        case .point: desktopScale
        case .physical: displayDotsPerInch / ((device ?? screen.device).isPad ? 132 : 163)
        }
    }

    /// Shows the device in `mode` (`Ctrl+1` pixel, `Ctrl+2` point, `Ctrl+3` physical): the
    /// screen's scale becomes the window's pixels per point; logs `window-scale <mode> <ppp>`.
    public func setWindowScale(_ mode: WindowScaleMode) {
        guard mode != windowScaleMode else { return }
        windowScaleMode = mode
        applyWindowScale(logging: true)
    }

    /// The host read the desktop's scale (at start, or it changed while running): in `point`
    /// and `physical` mode the window follows, with a `window-scale` line when it changes.
    public func setDesktop(scale: CGFloat, dotsPerInch: CGFloat) {
        guard scale.isFinite, scale > 0, dotsPerInch.isFinite, dotsPerInch > 0 else { return }
        guard scale != desktopScale || dotsPerInch != displayDotsPerInch else { return }
        let before = pixelsPerPoint(in: windowScaleMode)
        desktopScale = scale
        displayDotsPerInch = dotsPerInch
        applyWindowScale(logging: pixelsPerPoint(in: windowScaleMode) != before)
    }

    /// `ppp` as the status line writes it: up to three decimals, no trailing zeros.
    static func formatScale(_ ppp: CGFloat) -> String {
        var s = String(format: "%.3f", Double(ppp))
        while s.hasSuffix("0") { s.removeLast() }
        if s.hasSuffix(".") { s.removeLast() }
        return s
    }

    private func applyWindowScale(logging: Bool) {
        let ppp = pixelsPerPoint(in: windowScaleMode)
        let d = screen.device
        if d.scale != ppp {
            screen.setDevice(Device(identifier: d.identifier, name: d.name, pointSize: d.pointSize, scale: ppp))
        }
        if logging { log("window-scale \(windowScaleMode.rawValue) \(AppController.formatScale(ppp))") }
    }

    /// Shows `device` (a preset or a scale change, in portrait shape) in the current
    /// orientation and window scale; its own scale becomes `deviceScale`.
    private func showDevice(_ device: Device) {
        let before = screen.scale
        deviceScale = device.scale
        let turned = screen.orientation.isLandscape ? device.transposed : device
        let ppp = pixelsPerPoint(in: windowScaleMode, for: device)
        screen.setDevice(ppp == turned.scale ? turned
                         : Device(identifier: turned.identifier, name: turned.name, pointSize: turned.pointSize, scale: ppp))
        if windowScaleMode != .pixel, ppp != before {
            log("window-scale \(windowScaleMode.rawValue) \(AppController.formatScale(ppp))")
        }
    }

    private let fixedTime: String?
    private var clockTimer: LoopTimer?
    private var callTimer: LoopTimer?
    private var callStart: TimeInterval = 0

    /// Launches `application` on a new screen and window: makes every declared screen's root
    /// view and shows the first (or `configuration.screen`).
    ///
    /// A screen name or theme the app does not have falls back to the first (the command line
    /// checks them first, with a usage error); a language without a table falls back to the
    /// first of the app's languages. An app that declares no screen shows one empty screen.
    ///
    /// - Parameters:
    ///   - application: the app to launch: its screens, resources, languages and themes.
    ///   - screens: the screens to show instead of `application.screens` (a test of one
    ///     view, or a screen made with test data).
    ///   - configuration: the device, call bar, language, theme, screen and status bar to start
    ///     with (what the command line sets).
    ///   - eventLoop: the window's event loop; a test passes one with a manual clock.
    public init(application: any CrispApplication.Type, screens: [AppScreen]? = nil,
                configuration: AppConfiguration = AppConfiguration(), eventLoop: EventLoop = EventLoop()) {
        self.application = application
        self.configuration = configuration
        var declared = screens ?? application.screens
        if declared.isEmpty { declared = [AppScreen(name: "main") { _ in View() }] }
        self.screens = declared
        let themes = application.themes.isEmpty ? Theme.all : application.themes
        self.themes = themes
        theme = configuration.theme.flatMap { name in themes.first { $0.name == name } } ?? themes[0]
        let languages = application.languages.isEmpty ? ["en"] : application.languages
        self.languages = languages
        let orientation = configuration.orientation == .upsideDown && !configuration.device.isPad ? .portrait : configuration.orientation
        screen = Screen(device: configuration.device, isInCall: configuration.isInCall, orientation: orientation)
        window = Window(screen: screen, eventLoop: eventLoop)
        language = languages.contains(configuration.language) ? configuration.language : languages[0]
        localization = Localization(directories: application.stringsDirectories, language: language)
        fixedTime = configuration.fixedTime ?? configuration.statusBar.time
        mediaDirectory = configuration.mediaDirectory
        windowScaleMode = configuration.windowScale
        deviceScale = configuration.device.scale
        if configuration.slowAnimations { window.eventLoop.animationTimeScale = AppController.slowAnimationFactor }
        window.debugOverlay = configuration.debugOverlay
        let firstIndex = configuration.screen.flatMap { name in declared.firstIndex { $0.name == name } } ?? 0
        // The root view exists before the screens' views are made (a factory may reach the
        // controller's status bar, window or log), showing a placeholder until they are.
        rootView = AppRootView(screens: declared, showing: View())
        statusBar.carrierLabel.text = application.carrierName
        configuration.statusBar.apply(to: statusBar)
        window.statusBar = statusBar
        window.rootView = rootView
        screenViews = declared.map { $0.makeView(self) }
        rootView.screen = screenViews[firstIndex]
        themeFade = ValueAnimator(theme, owner: rootView.tabBar)
        tabBar.selectedIndex = firstIndex
        helpOverlay.shortcuts = HelpOverlayView.appShortcuts + declared[firstIndex].shortcuts
        window.keyHandler = { [unowned self] in self.handleKey($0) }
        window.addSubview(hud)
        hud.observe(window)
        loupe.install(in: window)
        loupe.recognizer.addAction { [unowned self] r in if r.state == .began { self.log("longpress began") } }
        screen.addObserver { [unowned self] event in
            switch event {
            case .statusBarFrameDidChange:
                self.updateCallTimer()
                self.placeHUD()
            case .deviceDidChange:
                self.placeHUD()
                self.loupe.windowDidResize()
                self.titleHandler?(self.windowTitle)
            case .statusBarFrameWillChange: break
            }
        }
        tabBar.onSelect = { [unowned self] in self.showScreen(at: $0) }
        themeFade.onChange = { [unowned self] in self.showColours($0) }
        showColours(theme)
        applyLanguage()
        placeHUD()
        startClock()
        updateCallTimer()
        if windowScaleMode != .pixel { applyWindowScale(logging: false) }
        window.layoutIfNeeded()
    }

    /// The root view of the screen named `name`, or nil when the app has none of that name.
    public func view(forScreen name: String) -> View? {
        screens.firstIndex { $0.name == name }.map { screenViews[$0] }
    }

    /// "Crisp — Controls — iPhone 3GS": the app's name, the screen's title and the device
    /// ("Hello — iPad" for an app of one screen).
    public var windowTitle: String {
        let name = localization.string(forKey: application.name)
        guard screens.count > 1 else { return "\(name) — \(screen.device.name)" }
        return "\(name) — \(localization.string(forKey: currentScreenDeclaration.title)) — \(screen.device.name)"
    }

    /// Writes the lines that describe the starting state (`screen <name>`, `theme <name>`,
    /// `layout-direction <left-to-right|right-to-left>`, …) to
    /// `eventLog`; the command line calls it once its status file is open.
    public func logInitialState() {
        log("screen \(currentScreenDeclaration.name)")
        log("theme \(theme.name)")
        log("slow-animations \(slowAnimations ? "on" : "off")")
        log("overlay \(debugOverlay.rawValue)")
        log("layout-direction \(window.userInterfaceLayoutDirection)")
        log("orientation \(screen.orientation.rawValue)")
        log("window-scale \(windowScaleMode.rawValue) \(AppController.formatScale(screen.scale))")
    }

    // MARK: Rotation

    /// Whether the device's interface turns to `orientation`: every one on an iPad, all but
    /// upside down on an iPhone (as iOS's default for each).
    public func supports(_ orientation: DeviceOrientation) -> Bool {
        orientation != .upsideDown || screen.device.isPad
    }

    /// Turns the device to `orientation` (animated, as iOS), logging `orientation <name>` first
    /// (the `layout` lines of the new layout follow). Nothing happens when it is already there
    /// or the device does not support it.
    public func setOrientation(_ orientation: DeviceOrientation, animated: Bool = true) {
        guard orientation != screen.orientation, supports(orientation) else { return }
        log("orientation \(orientation.rawValue)")
        screen.setOrientation(orientation, animated: animated)
    }

    /// Turns the device a quarter turn to the left (`Ctrl+Left`, counterclockwise) or right
    /// (`Ctrl+Right`); an orientation the device does not support is passed over (an iPhone
    /// goes from landscape to landscape).
    public func rotate(left: Bool) {
        var turns = screen.orientation.quarterTurns
        repeat { turns += left ? 1 : -1 } while !supports(DeviceOrientation(quarterTurns: turns))
        setOrientation(DeviceOrientation(quarterTurns: turns))
    }

    // MARK: Screens and themes

    /// Shows the screen at `index` (in tab order), selects its tab, lists its keys in the help,
    /// and logs `screen <name>`. Nothing happens when it is already shown or out of range.
    public func showScreen(at index: Int) {
        guard screenViews.indices.contains(index), screenViews[index] !== currentScreen else { return }
        rootView.screen = screenViews[index]
        tabBar.selectedIndex = index
        helpOverlay.shortcuts = HelpOverlayView.appShortcuts + screens[index].shortcuts
        helpOverlay.applyLocalization(localization)
        log("screen \(screens[index].name)")
        titleHandler?(windowTitle)
    }

    /// Shows the screen whose root view is `view` (one of `screenViews`).
    public func showScreen(_ view: View) {
        if let index = screenViews.firstIndex(where: { $0 === view }) { showScreen(at: index) }
    }

    /// Shows the screen named `name`; returns false when the app has none of that name.
    @discardableResult
    public func showScreen(named name: String) -> Bool {
        guard let index = screens.firstIndex(where: { $0.name == name }) else { return false }
        showScreen(at: index)
        return true
    }

    /// Shows the screen `offset` tabs away from the current one, wrapping around.
    public func cycleScreen(by offset: Int) {
        let i = currentScreenIndex, n = screens.count
        showScreen(at: ((i + offset) % n + n) % n)
    }

    /// Switches to `newTheme` and logs `theme <name>`: every themed view cross-fades to its
    /// colours over `themeFadeDuration`.
    public func setTheme(_ newTheme: Theme) {
        guard newTheme != theme else { return }
        theme = newTheme
        themeFade.animate(to: newTheme, duration: AppController.themeFadeDuration)
        log("theme \(newTheme.name)")
    }

    /// Whether a theme cross-fade is running.
    public var isFadingTheme: Bool { themeFade.isAnimating }

    /// Gives the colours of `colours` to every themed view of every screen (shown or not). While
    /// they are in between themes (a cross-fade), the themed controls draw straight to the
    /// screen instead of through their cached contents (each `AppScreenView` is told first).
    public func showColours(_ colours: Theme) {
        for case let s as AppScreenView in screenViews { s.themeColoursWillChange(to: colours, isTransition: colours != theme) }
        rootView.applyTheme(colours)
        loupe.theme = colours
        for s in screenViews where s !== currentScreen { s.applyTheme(colours) }
    }

    // MARK: Keyboard

    /// Handles a shortcut: 1–5 presets, c call bar, s scale, l language, t theme, d debug
    /// overlay, Tab and
    /// Shift-Tab screens, ? help, q/Esc quit; Delete, Backspace, the arrows and other keys go to
    /// the current screen.
    public func handleKey(_ key: KeyPress) {
        switch key.specialKey {
        case .escape:
            log("key Escape")
            quitHandler?()
            return
        case .tab:
            log("key Tab")
            cycleScreen(by: 1)
            return
        case .backTab:
            log("key ISO_Left_Tab")
            cycleScreen(by: -1)
            return
        case .delete, .backspace:
            log(key.specialKey == .delete ? "key Delete" : "key BackSpace")
            _ = (currentScreen as? AppScreenView)?.handleKey(key)
            return
        case .left where key.isControlDown, .right where key.isControlDown:
            log(key.specialKey == .left ? "key Ctrl+Left" : "key Ctrl+Right")
            rotate(left: key.specialKey == .left)
            return
        case .up, .down, .left, .right:
            log("key " + (key.specialKey == .up ? "Up" : key.specialKey == .down ? "Down" : key.specialKey == .left ? "Left" : "Right"))
            _ = (currentScreen as? AppScreenView)?.handleKey(key)
            return
        default:
            break
        }
        // Control characters: what X11 types for Ctrl+letter.
        switch key.characters {
        case "\u{14}":
            log("key Ctrl+T")
            slowAnimations.toggle()
            return
        case "\u{13}":
            log("key Ctrl+S")
            takeScreenshot()
            return
        case "\u{12}":
            log("key Ctrl+R")
            if isRecording { stopRecording() } else { startRecording() }
            return
        case "1" where key.isControlDown, "2" where key.isControlDown, "3" where key.isControlDown:
            log("key Ctrl+\(key.characters)")
            setWindowScale(key.characters == "1" ? .pixel : key.characters == "2" ? .point : .physical)
            return
        default:
            break
        }
        guard let c = key.characters.first, key.characters.count == 1 else { return }
        log("key \(c)")
        switch c {
        case "1", "2", "3", "4", "5":
            let preset = Device.presets[Int(String(c))! - 1]
            if !preset.isPad && screen.orientation == .upsideDown { setOrientation(.portrait, animated: false) }
            showDevice(preset)
            log("device \(preset.identifier) \(screen.pixelWidth)x\(screen.pixelHeight)")
        case "c":
            screen.setInCall(!screen.isInCall, animated: true)
            log("call \(screen.isInCall ? "on" : "off")")
        case "s":
            let portrait = screen.orientation.isLandscape ? screen.device.transposed : screen.device
            showDevice(portrait.withScale(deviceScale == 1 ? 2 : 1))
            log("scale \(Int(deviceScale)) \(screen.pixelWidth)x\(screen.pixelHeight)")
        case "l":
            let i = languages.firstIndex(of: language) ?? 0
            let direction = window.userInterfaceLayoutDirection
            language = languages[(i + 1) % languages.count]
            log("language \(language)")
            if window.userInterfaceLayoutDirection != direction { log("layout-direction \(window.userInterfaceLayoutDirection)") }
        case "t":
            let i = themes.firstIndex(of: theme) ?? 0
            setTheme(themes[(i + 1) % themes.count])
        case "?":
            helpOverlay.isHidden.toggle()
            log("help \(helpOverlay.isHidden ? "hidden" : "shown")")
        case "d":
            let all = DebugOverlay.allCases
            debugOverlay = all[((all.firstIndex(of: debugOverlay) ?? 0) + 1) % all.count]
        case "f":
            hud.isHidden.toggle()
            log("hud \(hud.isHidden ? "hidden" : "shown")")
        case "v":
            loupe.mode = loupe.mode == .bitmap ? .vector : .bitmap
        case "+", "=":
            loupe.zoom *= 2
        case "-":
            loupe.zoom /= 2
        case "q":
            quitHandler?()
        default:
            _ = (currentScreen as? AppScreenView)?.handleKey(key)
        }
    }

    private func placeHUD() {
        let b = window.bounds, size = FrameTimeHUD.size
        hud.frame = CGRect(x: max(b.maxX - size.width - 4, b.minX), y: screen.statusBarFrame.maxY + 4,
                           width: min(size.width, b.width), height: size.height)
    }

    // MARK: Screenshots

    /// A screenshot's file name: the app, the device and the local time, like
    /// `Crisp Demo — iPhone 4 — 2026-11-28 00.12.03.png` (slashes and colons made hyphens).
    public func screenshotName(at date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .current
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        let time = String(format: "%04d-%02d-%02d %02d.%02d.%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0,
                          c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
        let name = "\(localization.string(forKey: application.name)) — \(screen.device.name) — \(time)"
        return String(name.map { $0 == "/" || $0 == ":" || $0 == "\\" ? "-" : $0 }) + ".png"
    }

    /// The device screen as it shows now, without a debug overlay (every view drawn afresh
    /// into a bitmap of its own; the host's next frame repaints everything, so what it shows is
    /// untouched).
    public func screenImage() -> CGImage? {
        window.renderedImage()
    }

    /// Writes the device screen as an optimized PNG into `mediaDirectory` and returns the path
    /// it goes to. The screen is drawn now; the encoding, optimizing and writing run on a
    /// thread of their own (half a second to seconds at the optimizer's effort, which the app
    /// does not stop for), and the event loop logs `screenshot <path>` when the file is
    /// written — or `screenshot failed <reason>`, telling `errorHandler` too (the app goes on).
    @discardableResult
    public func takeScreenshot(at date: Date = Date()) -> String {
        let base = screenshotName(at: date)
        var path = (mediaDirectory as NSString).appendingPathComponent(base)
        var n = 2
        while FileManager.default.fileExists(atPath: path) || screenshotJobs.contains(where: { $0.path == path }) {
            path = (mediaDirectory as NSString).appendingPathComponent(String(base.dropLast(4)) + " (\(n)).png")
            n += 1
        }
        let job = ScreenshotJob(path: path, image: screenImage())
        screenshotJobs.append(job)
        Thread.detachNewThread { job.run() }
        if screenshotPoll == nil {
            screenshotPoll = window.eventLoop.schedule(after: 0.02, repeating: 0.02) { [unowned self] in self.finishScreenshots(waiting: false) }
        }
        return path
    }

    /// Whether a screenshot is still being written.
    public var isWritingScreenshots: Bool { !screenshotJobs.isEmpty }

    /// Waits for every screenshot being written and logs its line (before quitting, and in tests).
    public func waitForScreenshots() { finishScreenshots(waiting: true) }

    private var screenshotJobs: [ScreenshotJob] = []
    private var screenshotPoll: LoopTimer?

    private func finishScreenshots(waiting: Bool) {
        while let job = screenshotJobs.first, let result = job.result(waiting: waiting) {
            screenshotJobs.removeFirst()
            switch result {
            case .success:
                log("screenshot \(job.path)")
            case .failure(let reason):
                log("screenshot failed \(reason.description)")
                errorHandler?("screenshot failed: \(reason.description)")
            }
        }
        if screenshotJobs.isEmpty {
            screenshotPoll?.invalidate()
            screenshotPoll = nil
        }
    }

    // MARK: Recordings

    /// The recording running (`Ctrl+R`, `--record`), if one is.
    public private(set) var recorder: ScreenRecorder?
    private var recordingPoll: LoopTimer?

    /// Whether a recording is running.
    public var isRecording: Bool { recorder != nil }

    /// A recording's file name in `mediaDirectory`: the screenshot's name ending in `.apng`
    /// (` (2)` and on when taken).
    public func recordingPath(at date: Date = Date()) -> String {
        let base = String(screenshotName(at: date).dropLast(4))
        var path = (mediaDirectory as NSString).appendingPathComponent(base + ".apng")
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = (mediaDirectory as NSString).appendingPathComponent(base + " (\(n)).apng")
            n += 1
        }
        return path
    }

    /// Starts recording the presented frames into an animated PNG at `path` (default: a new
    /// name in `mediaDirectory`) and logs `recording started <path>`; the whole screen is
    /// repainted at once to be the first frame. A file that cannot be created logs
    /// `recording failed <reason>` and tells `errorHandler`; the app goes on without recording.
    ///
    /// - Parameters:
    ///   - path: the file to write; default a new name in `mediaDirectory`.
    ///   - output: where to write instead of the file (tests pass a failing writer).
    @discardableResult
    public func startRecording(to path: String? = nil, output: APNGOutput? = nil) -> Bool {
        guard recorder == nil else { return false }
        let path = path ?? recordingPath()
        do {
            recorder = try ScreenRecorder(path: path, width: screen.pixelWidth, height: screen.pixelHeight, output: output)
        } catch {
            log("recording failed \(error)")
            errorHandler?("cannot record: \(error)")
            return false
        }
        log("recording started \(path)")
        window.presentedFrameObserver = { [unowned self] context, rects, time in
            guard let recorder = self.recorder else { return }
            if context.width != recorder.width || context.height != recorder.height {
                self.errorHandler?("recording stopped: the screen changed size from \(recorder.width)x\(recorder.height) to \(context.width)x\(context.height)")
                self.stopRecording()
                return
            }
            recorder.add(context, rects: rects, time: time)
        }
        recordingPoll = window.eventLoop.schedule(after: 0.1, repeating: 0.1) { [unowned self] in
            if self.recorder?.failure != nil { self.stopRecording() }
        }
        window.invalidateEverything()
        return true
    }

    /// Finishes the recording (waiting for its frames to be written) and logs
    /// `recording saved <path> <frames>`; after a write error (a full disk) logs
    /// `recording failed <reason>` first and tells `errorHandler` (the file keeps the frames
    /// written before it). Nothing happens without a recording.
    public func stopRecording() {
        guard let recorder else { return }
        self.recorder = nil
        window.presentedFrameObserver = nil
        recordingPoll?.invalidate()
        recordingPoll = nil
        var frames = 0
        do {
            frames = try recorder.finish(at: window.eventLoop.now)
        } catch {
            log("recording failed \(error)")
            errorHandler?("recording stopped: \(error)")
            frames = (try? recorder.finish(at: 0)) ?? recorder.writtenFrameCount
        }
        if recorder.mergedFrameCount > 0 {
            errorHandler?("recording: \(recorder.mergedFrameCount) frames merged into the next while the encoder caught up")
        }
        if ProcessInfo.processInfo.environment["CRISP_RECORD_STATS"] != nil, !recorder.framePathSeconds.isEmpty {
            let t = recorder.framePathSeconds.sorted(), c = recorder.framePathCPUSeconds.sorted()
            let slowest = recorder.framePathCPUSeconds.indices.max { recorder.framePathCPUSeconds[$0] < recorder.framePathCPUSeconds[$1] } ?? 0
            errorHandler?(String(format: "recording stats: %d frames presented, frame path median %.3f ms, 95th %.3f ms, max %.3f ms; "
                                 + "its thread's CPU time median %.3f ms, 95th %.3f ms, max %.3f ms (frame %d); %d merged",
                                 t.count, t[t.count / 2] * 1000, t[t.count * 95 / 100] * 1000, t.last! * 1000,
                                 c[c.count / 2] * 1000, c[c.count * 95 / 100] * 1000, c.last! * 1000, slowest, recorder.mergedFrameCount))
        }
        log("recording saved \(recorder.path) \(frames)")
    }

    // MARK: Language

    private func applyLanguage() {
        localization.language = language
        // The language's direction lays out every view again (mirrored for Arabic).
        window.userInterfaceLayoutDirection = localization.layoutDirection
        statusBar.applyLocalization(localization)
        rootView.applyLocalization(localization)
        for s in screenViews where s !== currentScreen { s.applyLocalization(localization) }
        titleHandler?(windowTitle)
    }

    // MARK: Clock and call timer

    private func startClock() {
        if let fixedTime {
            statusBar.timeLabel.text = fixedTime
            return
        }
        statusBar.timeLabel.text = AppController.timeOfDay(Date())
        let now = Date().timeIntervalSince1970
        let toNextMinute = 60 - now.truncatingRemainder(dividingBy: 60)
        clockTimer = window.eventLoop.schedule(after: toNextMinute + 0.05, repeating: 60) { [unowned self] in
            self.statusBar.timeLabel.text = AppController.timeOfDay(Date())
        }
    }

    /// "9:41": hours without a leading zero, minutes with, in the local time zone.
    static func timeOfDay(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.hour, .minute], from: date)
        return String(format: "%d:%02d", c.hour ?? 0, c.minute ?? 0)
    }

    /// "m:ss" for a call of `seconds`.
    static func callDuration(_ seconds: TimeInterval) -> String {
        let s = max(Int(seconds), 0)
        return String(format: "%d:%02d", s / 60, s % 60)
    }

    private func updateCallTimer() {
        callTimer?.invalidate()
        callTimer = nil
        statusBar.callTimerLabel.text = AppController.callDuration(0)
        guard screen.isInCall, fixedTime == nil else { return }
        let loop = window.eventLoop
        callStart = loop.now
        callTimer = loop.schedule(after: 1, repeating: 1) { [unowned self] in
            self.statusBar.callTimerLabel.text = AppController.callDuration(loop.now - self.callStart)
        }
    }

    /// Writes `line` to `eventLog` (the status file's event lines); screens log their own
    /// events ("tap 120 200") through it.
    public func log(_ line: String) { eventLog?(line) }
}

/// One screenshot on its way to a file: encoded, optimized and written on another thread; the
/// result read back under a lock.
private final class ScreenshotJob: @unchecked Sendable {
    let path: String
    private let image: CGImage?
    private let done = NSCondition()
    private var outcome: Result<Void, AppCommandError>?

    init(path: String, image: CGImage?) {
        self.path = path
        self.image = image
    }

    func run() {
        let result: Result<Void, AppCommandError>
        do {
            guard let image else { throw AppCommandError("cannot allocate the screen's bitmap") }
            let optimized = try PNGOptimizer().optimize(try image.pngData())
            do {
                try Data(optimized.data).write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                throw AppCommandError("cannot write \(path)")
            }
            result = .success(())
        } catch let error as AppCommandError {
            result = .failure(error)
        } catch {
            result = .failure(AppCommandError("\(error)"))
        }
        done.lock()
        outcome = result
        done.broadcast()
        done.unlock()
    }

    /// The outcome, or nil while it runs (unless `waiting`, which waits for it).
    func result(waiting: Bool) -> Result<Void, AppCommandError>? {
        done.lock()
        defer { done.unlock() }
        while waiting && outcome == nil { done.wait() }
        return outcome
    }
}
