import CrispUI
import Foundation

/// How an app starts: the device, call bar, language, first screen, theme and clock (what
/// the command line's `--device`, `--call-bar`, `--language`, `--screen`, `--theme` and
/// `--clock` set).
public struct AppConfiguration: Sendable {
    /// The emulated device (default iPhone 4).
    public var device: Device
    /// Whether the in-call status bar shows.
    public var isInCall: Bool
    /// The language code, one of the app's languages (another falls back to the first).
    public var language: String
    /// A fixed time of day for the status bar, like "9:41", which also freezes the call timer
    /// at 0:00 (for snapshots and tests); nil for the live clock.
    public var fixedTime: String?
    /// The first screen's name; nil for the first declared.
    public var screen: String?
    /// The theme's name, one of the app's themes; nil for the first.
    public var theme: String?
    /// False when the app should skip expensive background work it does only for show (the
    /// demo's asset report; `--no-asset-report`), as runs that watch the app's memory ask.
    public var allowsBackgroundReports: Bool
    /// What the status bar shows instead of its defaults (`--status-bar`); its `time`, when
    /// set, is the fixed time unless `fixedTime` is set too.
    public var statusBar: StatusBarOverrides
    /// Whether every animation runs ten times slower (`--slow-animations`, `Ctrl+T`).
    public var slowAnimations: Bool

    /// The folder `Ctrl+S` writes screenshots into (`--media-dir`; default the current folder).
    public var mediaDirectory: String

    /// How big the window shows the device (`--window-scale`).
    public var windowScale: WindowScaleMode

    /// Which way up the device starts (`--orientation`; `device` is given in portrait).
    public var orientation: DeviceOrientation

    /// The debug overlay to start with (`--overlay`; `d` cycles through them).
    public var debugOverlay: DebugOverlay

    /// Creates a configuration.
    public init(device: Device = .iPhone4, isInCall: Bool = false, language: String = "en", fixedTime: String? = nil,
                screen: String? = nil, theme: String? = nil, allowsBackgroundReports: Bool = true,
                statusBar: StatusBarOverrides = StatusBarOverrides(), slowAnimations: Bool = false,
                mediaDirectory: String = ".", orientation: DeviceOrientation = .portrait,
                windowScale: WindowScaleMode = .pixel, debugOverlay: DebugOverlay = .none) {
        self.device = device
        self.isInCall = isInCall
        self.language = language
        self.fixedTime = fixedTime
        self.screen = screen
        self.theme = theme
        self.allowsBackgroundReports = allowsBackgroundReports
        self.statusBar = statusBar
        self.slowAnimations = slowAnimations
        self.mediaDirectory = mediaDirectory
        self.orientation = orientation
        self.windowScale = windowScale
        self.debugOverlay = debugOverlay
    }
}

/// How big the window shows the device, as the Simulator's Window menu (`--window-scale`,
/// `Ctrl+1` / `Ctrl+2` / `Ctrl+3`). In every mode the views are drawn at the window's own pixel
/// density: the screen's scale becomes the window's pixels per point, never a scaled bitmap.
public enum WindowScaleMode: String, CaseIterable, Sendable {
    /// One device pixel per screen pixel (the device's own scale).
    case pixel
    /// One device point per desktop point: the desktop's scale.
    case point
    /// The device at its real size on this display: the display's dots per inch over the
    /// device's points per inch (163 for an iPhone, 132 for an iPad).
    case physical
}
