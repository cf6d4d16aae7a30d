import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The Crisp demo app: its screens behind a tab bar, the themes, the keyboard shortcuts, the
/// clock and the call timer. It knows nothing of X11; a host shows `window`.
public final class DemoApp {
    /// The languages `l` cycles through, as language codes (each has a table in
    /// `Resources/Strings`).
    public static let languages = ["en", "de", "es"]
    /// The screens' names, in tab order (`--screen` takes one of them).
    public static let screenNames = ["signal", "controls", "plot", "bubbles", "assets"]
    /// The smallest screen the app lays out without overlaps, in points (the window's minimum
    /// size).
    public static let minimumScreenSize = CGSize(width: 240, height: 360)

    /// The emulated screen.
    public let screen: Screen
    /// The window to show.
    public let window: Window
    /// The status bar.
    public let statusBar = StatusBarView()
    /// The signal graph screen.
    public let signalScreen = SignalScreen()
    /// The controls screen.
    public let controlsScreen: ControlsScreen
    /// The scatter plot screen.
    public let plotScreen = PlotScreen()
    /// The embossed bubbles screen.
    public let bubblesScreen = BubblesScreen()
    /// The asset report screen.
    public let assetsScreen: AssetsScreen
    /// Every screen's tab icon, in tab order, for the asset report.
    public let assetTabIcons: [AssetCatalog.TabIcon]
    /// Every screen, in tab order.
    public let screens: [any DemoScreen]
    /// The content below the status bar: the current screen and the tab bar.
    public let rootView: DemoRootView
    /// The signal graph (on the signal screen).
    public var graph: SignalGraphView { signalScreen.graph }
    /// The loupe, on top of every screen (long press to open it).
    public let loupe = LoupeView()
    /// The frame-time overlay (`f`), in the window's top-right corner below the status bar.
    public let hud = FrameTimeHUD()
    /// The shortcut overlay (inside `rootView`).
    public var helpOverlay: HelpOverlayView { rootView.helpOverlay }
    /// The tab bar (inside `rootView`).
    public var tabBar: TabBarView { rootView.tabBar }
    /// The screen shown.
    public var currentScreen: any DemoScreen { rootView.screen }

    /// The current language code; the labels show their text in it.
    public private(set) var language: String { didSet { applyLanguage() } }
    /// The current theme (during a cross-fade, the one being faded to).
    public private(set) var theme: Theme
    /// Seconds a change of theme takes to cross-fade.
    public static let themeFadeDuration: TimeInterval = 0.3
    /// The colours shown, on their way to `theme` during a cross-fade.
    private let themeFade: ValueAnimator<Theme>
    /// The strings tables (this app's own, so apps in one process can show different languages).
    public let localization: Localization
    /// Called with one line per user-visible event ("key c", "tap 120 200", "screen controls",
    /// "theme red"), for the `--status-file` that tests and scripts read.
    public var eventLog: ((String) -> Void)?
    /// Called when the user asks to quit (q or Esc).
    public var quitHandler: (() -> Void)?
    /// Called with the new window title whenever it changes (screen, device or language).
    public var titleHandler: ((String) -> Void)?

    private let fixedTime: String?
    private var clockTimer: LoopTimer?
    private var callTimer: LoopTimer?
    private var callStart: TimeInterval = 0

    /// Creates the app on a new screen and window.
    ///
    /// - Precondition: `configuration.screen` is one of `screenNames` and `configuration.theme`
    ///   names a theme (the command line checks them first).
    public init(configuration: DemoConfiguration, eventLoop: EventLoop = EventLoop()) {
        precondition(DemoApp.screenNames.contains(configuration.screen), "unknown screen \(configuration.screen)")
        let theme = Theme.named(configuration.theme)
        precondition(theme != nil, "unknown theme \(configuration.theme)")
        self.theme = theme!
        screen = Screen(device: configuration.device, isInCall: configuration.isInCall)
        window = Window(screen: screen, eventLoop: eventLoop)
        language = DemoApp.languages.contains(configuration.language) ? configuration.language : "en"
        localization = Localization(language: language)
        fixedTime = configuration.fixedTime
        controlsScreen = ControlsScreen()
        let drawnScreens: [any DemoScreen] = [signalScreen, controlsScreen, plotScreen, bubblesScreen]
        let icons = drawnScreens.map(AssetCatalog.TabIcon.init) + [.assets]
        assetTabIcons = icons
        assetsScreen = AssetsScreen(task: configuration.assetReportTask
            ?? AssetReportTask { progress in try AssetReport.demo(tabIcons: icons, keepsFiles: false, progress: progress) })
        screens = drawnScreens + [assetsScreen]
        let first = screens.first { $0.name == configuration.screen }!
        rootView = DemoRootView(screens: screens, showing: first)
        themeFade = ValueAnimator(self.theme, owner: rootView.tabBar)
        tabBar.selectedIndex = screens.firstIndex { $0 === first }!
        helpOverlay.shortcuts = HelpOverlayView.appShortcuts + first.shortcuts
        window.statusBar = statusBar
        window.rootView = rootView
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
        signalScreen.eventLog = { [unowned self] in self.log($0) }
        tabBar.onSelect = { [unowned self] in self.showScreen(self.screens[$0]) }
        controlsScreen.onThemeSelect = { [unowned self] in self.setTheme($0) }
        controlsScreen.battery.onChange = { [unowned self] in self.statusBar.battery.level = $0.level / 100 }
        statusBar.battery.level = controlsScreen.battery.level / 100
        themeFade.onChange = { [unowned self] in self.showColours($0) }
        showColours(self.theme)
        applyLanguage()
        placeHUD()
        startClock()
        updateCallTimer()
        window.layoutIfNeeded()
    }

    /// "Crisp — Controls — iPhone 3GS": the app, the screen's title and the device.
    public var windowTitle: String {
        "Crisp — \(localization.string(forKey: currentScreen.titleKey)) — \(screen.device.name)"
    }

    /// Writes the lines that describe the starting state (`screen <name>`, `theme <name>`) to
    /// `eventLog`; the demo calls it once its status file is open.
    public func logInitialState() {
        log("screen \(currentScreen.name)")
        log("theme \(theme.name)")
    }

    // MARK: Screens and themes

    /// Shows `newScreen` (one of `screens`), selects its tab, lists its keys in the help, and
    /// logs `screen <name>`. Nothing happens when it is already shown.
    public func showScreen(_ newScreen: any DemoScreen) {
        guard newScreen !== currentScreen, let index = screens.firstIndex(where: { $0 === newScreen }) else { return }
        rootView.screen = newScreen
        tabBar.selectedIndex = index
        helpOverlay.shortcuts = HelpOverlayView.appShortcuts + newScreen.shortcuts
        helpOverlay.applyLocalization(localization)
        log("screen \(newScreen.name)")
        titleHandler?(windowTitle)
    }

    /// Shows the screen `offset` tabs away from the current one, wrapping around.
    public func cycleScreen(by offset: Int) {
        let i = screens.firstIndex { $0 === currentScreen } ?? 0
        showScreen(screens[((i + offset) % screens.count + screens.count) % screens.count])
    }

    /// Switches to `newTheme` and logs `theme <name>`: every themed view cross-fades to its
    /// colours over `themeFadeDuration`.
    public func setTheme(_ newTheme: Theme) {
        guard newTheme != theme else { return }
        theme = newTheme
        themeFade.animate(to: newTheme, duration: DemoApp.themeFadeDuration)
        log("theme \(newTheme.name)")
    }

    /// Whether a theme cross-fade is running.
    public var isFadingTheme: Bool { themeFade.isAnimating }

    /// Gives the colours of `colours` to every themed view of every screen (shown or not). While
    /// they are in between themes (a cross-fade), the themed controls draw straight to the
    /// screen instead of through their cached contents (`ControlsScreen.cachesThemedContents`).
    func showColours(_ colours: Theme) {
        controlsScreen.cachesThemedContents = colours == theme
        rootView.applyTheme(colours)
        loupe.theme = colours
        for s in screens where s !== currentScreen { s.applyTheme(colours) }
    }

    // MARK: Keyboard

    /// Handles a shortcut: 1–5 presets, c call bar, s scale, l language, t theme, Tab and
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
            _ = currentScreen.handleKey(key)
            return
        case .up, .down, .left, .right:
            log("key " + (key.specialKey == .up ? "Up" : key.specialKey == .down ? "Down" : key.specialKey == .left ? "Left" : "Right"))
            _ = currentScreen.handleKey(key)
            return
        default:
            break
        }
        guard let c = key.characters.first, key.characters.count == 1 else { return }
        log("key \(c)")
        switch c {
        case "1", "2", "3", "4", "5":
            let preset = Device.presets[Int(String(c))! - 1]
            screen.setDevice(preset)
            log("device \(preset.identifier) \(screen.pixelWidth)x\(screen.pixelHeight)")
        case "c":
            screen.setInCall(!screen.isInCall, animated: true)
            log("call \(screen.isInCall ? "on" : "off")")
        case "s":
            screen.setDevice(screen.device.withScale(screen.scale == 1 ? 2 : 1))
            log("scale \(Int(screen.scale)) \(screen.pixelWidth)x\(screen.pixelHeight)")
        case "l":
            let i = DemoApp.languages.firstIndex(of: language) ?? 0
            language = DemoApp.languages[(i + 1) % DemoApp.languages.count]
            log("language \(language)")
        case "t":
            setTheme(theme.next)
        case "?":
            helpOverlay.isHidden.toggle()
            log("help \(helpOverlay.isHidden ? "hidden" : "shown")")
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
            _ = currentScreen.handleKey(key)
        }
    }

    private func placeHUD() {
        let b = window.bounds, size = FrameTimeHUD.size
        hud.frame = CGRect(x: max(b.maxX - size.width - 4, b.minX), y: screen.statusBarFrame.maxY + 4,
                           width: min(size.width, b.width), height: size.height)
    }

    // MARK: Language

    private func applyLanguage() {
        localization.language = language
        statusBar.applyLocalization(localization)
        rootView.applyLocalization(localization)
        for s in screens where s !== currentScreen { s.applyLocalization(localization) }
        titleHandler?(windowTitle)
    }

    // MARK: Clock and call timer

    private func startClock() {
        if let fixedTime {
            statusBar.timeLabel.text = fixedTime
            return
        }
        statusBar.timeLabel.text = DemoApp.timeOfDay(Date())
        let now = Date().timeIntervalSince1970
        let toNextMinute = 60 - now.truncatingRemainder(dividingBy: 60)
        clockTimer = window.eventLoop.schedule(after: toNextMinute + 0.05, repeating: 60) { [unowned self] in
            self.statusBar.timeLabel.text = DemoApp.timeOfDay(Date())
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
        statusBar.callTimerLabel.text = DemoApp.callDuration(0)
        guard screen.isInCall, fixedTime == nil else { return }
        let loop = window.eventLoop
        callStart = loop.now
        callTimer = loop.schedule(after: 1, repeating: 1) { [unowned self] in
            self.statusBar.callTimerLabel.text = DemoApp.callDuration(loop.now - self.callStart)
        }
    }

    private func log(_ line: String) { eventLog?(line) }
}
