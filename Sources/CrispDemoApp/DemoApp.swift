import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The Crisp demo launched in-process (`DemoApplication` on an `AppController`), with its five
/// screens' views typed: what the demo's tests drive. It knows nothing of X11; a host shows
/// `window`.
public final class DemoApp {
    /// The languages `l` cycles through (`DemoApplication.languages`).
    public static var languages: [String] { DemoApplication.languages }
    /// The screens' names, in tab order (`--screen` takes one of them).
    public static var screenNames: [String] { DemoApplication.screens.map(\.name) }
    /// The smallest screen the app lays out without overlaps, in points (the window's minimum
    /// size).
    public static var minimumScreenSize: CGSize { DemoApplication.minimumScreenSize }
    /// Seconds a change of theme takes to cross-fade.
    public static var themeFadeDuration: TimeInterval { AppController.themeFadeDuration }

    /// The running app.
    public let controller: AppController
    /// The signal graph screen.
    public let signalScreen: SignalScreen
    /// The controls screen.
    public let controlsScreen: ControlsScreen
    /// The scatter plot screen.
    public let plotScreen: PlotScreen
    /// The embossed bubbles screen.
    public let bubblesScreen: BubblesScreen
    /// The asset report screen.
    public let assetsScreen: AssetsScreen

    /// Launches the demo as `configuration` says.
    ///
    /// - Precondition: `configuration.screen` is one of `screenNames` and `configuration.theme`
    ///   names a theme (the command line checks them first).
    public init(configuration: DemoConfiguration, eventLoop: EventLoop = EventLoop()) {
        precondition(DemoApp.screenNames.contains(configuration.screen), "unknown screen \(configuration.screen)")
        precondition(Theme.named(configuration.theme) != nil, "unknown theme \(configuration.theme)")
        let screens: [AppScreen] = [.signal, .controls, .plot, .bubbles, .assets(task: configuration.assetReportTask)]
        controller = AppController(application: DemoApplication.self, screens: screens, configuration: AppConfiguration(
            device: configuration.device, isInCall: configuration.isInCall, language: configuration.language,
            fixedTime: configuration.fixedTime, screen: configuration.screen, theme: configuration.theme), eventLoop: eventLoop)
        let views = controller.screenViews
        signalScreen = views[0] as! SignalScreen
        controlsScreen = views[1] as! ControlsScreen
        plotScreen = views[2] as! PlotScreen
        bubblesScreen = views[3] as! BubblesScreen
        assetsScreen = views[4] as! AssetsScreen
    }

    /// The emulated screen.
    public var screen: Screen { controller.screen }
    /// The window to show.
    public var window: Window { controller.window }
    /// The status bar.
    public var statusBar: StatusBarView { controller.statusBar }
    /// The signal graph (on the signal screen).
    public var graph: SignalGraphView { signalScreen.graph }
    /// The loupe, on top of every screen (long press to open it).
    public var loupe: LoupeView { controller.loupe }
    /// The frame-time overlay (`f`).
    public var hud: FrameTimeHUD { controller.hud }
    /// The shortcut overlay.
    public var helpOverlay: HelpOverlayView { controller.helpOverlay }
    /// The tab bar.
    public var tabBar: TabBarView { controller.tabBar }
    /// The content below the status bar: the current screen and the tab bar.
    public var rootView: AppRootView { controller.rootView }
    /// The screen shown.
    public var currentScreen: any DemoScreen { controller.currentScreen as! any DemoScreen }
    /// Every screen, in tab order.
    public var screens: [any DemoScreen] { controller.screenViews.map { $0 as! any DemoScreen } }
    /// The current language code.
    public var language: String { controller.language }
    /// The current theme (during a cross-fade, the one being faded to).
    public var theme: Theme { controller.theme }
    /// Whether a theme cross-fade is running.
    public var isFadingTheme: Bool { controller.isFadingTheme }
    /// The strings tables.
    public var localization: Localization { controller.localization }
    /// "Crisp — Controls — iPhone 3GS".
    public var windowTitle: String { controller.windowTitle }
    /// Every screen's tab icon, in tab order, for the asset report.
    public var assetTabIcons: [AssetCatalog.TabIcon] { DemoApplication.tabIcons }
    /// Called with one line per user-visible event (`AppController.eventLog`).
    public var eventLog: ((String) -> Void)? {
        get { controller.eventLog }
        set { controller.eventLog = newValue }
    }
    /// Called when the user asks to quit (q or Esc).
    public var quitHandler: (() -> Void)? {
        get { controller.quitHandler }
        set { controller.quitHandler = newValue }
    }
    /// Called with the new window title whenever it changes.
    public var titleHandler: ((String) -> Void)? {
        get { controller.titleHandler }
        set { controller.titleHandler = newValue }
    }

    /// Writes the starting state's lines to `eventLog` (`AppController.logInitialState()`).
    public func logInitialState() { controller.logInitialState() }
    /// Shows `screen` (one of `screens`).
    public func showScreen(_ screen: any DemoScreen) { controller.showScreen(screen) }
    /// Shows the screen `offset` tabs away, wrapping around.
    public func cycleScreen(by offset: Int) { controller.cycleScreen(by: offset) }
    /// Switches to `theme`, cross-fading.
    public func setTheme(_ theme: Theme) { controller.setTheme(theme) }
    /// Gives every themed view the colours of `colours` (`AppController.showColours(_:)`).
    public func showColours(_ colours: Theme) { controller.showColours(colours) }
    /// Handles a key as the window would (`AppController.handleKey(_:)`).
    public func handleKey(_ key: KeyPress) { controller.handleKey(key) }
}

/// How the demo starts (`AppConfiguration` with the demo's first screen and theme, and a report
/// task for tests).
public struct DemoConfiguration: Sendable {
    /// The emulated device (default iPhone 4).
    public var device: Device
    /// Whether the in-call status bar shows.
    public var isInCall: Bool
    /// The language code, one of `DemoApp.languages`.
    public var language: String
    /// A fixed time of day for the status bar, like "9:41", which also freezes the call timer
    /// at 0:00 (for snapshots and tests); nil for the live clock.
    public var fixedTime: String?
    /// The first screen's name, one of `DemoApp.screenNames` (default `signal`).
    public var screen: String
    /// The theme's name, one of `Theme.all`'s (default `blue`).
    public var theme: String
    /// Makes the assets screen's report; nil for the demo's (`AssetReport.demo`). Tests pass one
    /// with fixed code sizes, shared between apps, so the report is made once.
    public var assetReportTask: AssetReportTask?

    /// Creates a configuration.
    public init(device: Device = .iPhone4, isInCall: Bool = false, language: String = "en", fixedTime: String? = nil,
                screen: String = "signal", theme: String = "blue", assetReportTask: AssetReportTask? = nil) {
        self.device = device
        self.isInCall = isInCall
        self.language = language
        self.fixedTime = fixedTime
        self.screen = screen
        self.theme = theme
        self.assetReportTask = assetReportTask
    }
}
