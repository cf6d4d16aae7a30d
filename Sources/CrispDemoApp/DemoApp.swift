import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The Crisp demo app: the signal graph screen, its keyboard shortcuts and gestures, the clock
/// and the call timer. It knows nothing of X11; a host shows `window`.
public final class DemoApp {
    /// The languages `l` cycles through, as language codes (each has a table in
    /// `Resources/Strings`).
    public static let languages = ["en", "de", "es"]

    /// The emulated screen.
    public let screen: Screen
    /// The window to show.
    public let window: Window
    /// The status bar.
    public let statusBar = StatusBarView()
    /// The content below the status bar.
    public let rootView = DemoRootView()
    /// The signal graph (inside `rootView`).
    public var graph: SignalGraphView { rootView.graph }
    /// The shortcut overlay (inside `rootView`).
    public var helpOverlay: HelpOverlayView { rootView.helpOverlay }

    /// The current language code; the labels show their text in it.
    public private(set) var language: String { didSet { applyLanguage() } }
    /// The strings tables (this app's own, so apps in one process can show different languages).
    public let localization: Localization
    /// Called with one line per user-visible event ("key c", "tap 120 200", "pan ended 80 190"),
    /// for the `--status-file` that end-to-end tests read.
    public var eventLog: ((String) -> Void)?
    /// Called when the user asks to quit (q or Esc).
    public var quitHandler: (() -> Void)?

    private let fixedTime: String?
    private var clockTimer: LoopTimer?
    private var callTimer: LoopTimer?
    private var callStart: TimeInterval = 0

    /// Creates the app on a new screen and window.
    public init(configuration: DemoConfiguration, eventLoop: EventLoop = EventLoop()) {
        screen = Screen(device: configuration.device, isInCall: configuration.isInCall)
        window = Window(screen: screen, eventLoop: eventLoop)
        language = DemoApp.languages.contains(configuration.language) ? configuration.language : "en"
        localization = Localization(language: language)
        fixedTime = configuration.fixedTime
        window.statusBar = statusBar
        window.rootView = rootView
        window.keyHandler = { [unowned self] in self.handleKey($0) }
        screen.addObserver { [unowned self] event in
            if case .statusBarFrameDidChange = event { self.updateCallTimer() }
        }
        installGestures()
        applyLanguage()
        startClock()
        updateCallTimer()
        window.layoutIfNeeded()
    }

    // MARK: Keyboard

    /// Handles a shortcut: 1–5 presets, c call bar, s scale, l language, ? help, q/Esc quit.
    public func handleKey(_ key: KeyPress) {
        if key.specialKey == .escape {
            log("key Escape")
            quitHandler?()
            return
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
        case "?":
            helpOverlay.isHidden.toggle()
            log("help \(helpOverlay.isHidden ? "hidden" : "shown")")
        case "q":
            quitHandler?()
        default:
            break
        }
    }

    // MARK: Gestures

    private func installGestures() {
        let plot = graph.plot
        let tap = TapGestureRecognizer { [unowned self] r in
            let p = r.location(in: nil)
            self.mark(atWindowX: p.x)
            self.log("tap \(Int(p.x)) \(Int(p.y))")
        }
        let pan = PanGestureRecognizer { [unowned self] r in
            let p = r.location(in: nil)
            self.mark(atWindowX: p.x)
            let phase = switch r.state {
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            default: "cancelled"
            }
            self.log("pan \(phase) \(Int(p.x)) \(Int(p.y))")
        }
        let longPress = LongPressGestureRecognizer { [unowned self] r in
            if r.state == .began { self.log("longpress began") }
        }
        for r in [tap, pan, longPress] as [GestureRecognizer] { plot.addGestureRecognizer(r) }
    }

    private func mark(atWindowX x: CGFloat) {
        let plot = graph.plot
        plot.markedSample = plot.sample(nearestTo: plot.convert(CGPoint(x: x, y: 0), from: nil).x)
    }

    // MARK: Language

    private func applyLanguage() {
        localization.language = language
        statusBar.applyLocalization(localization)
        rootView.applyLocalization(localization)
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
