import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// Every device preset at 1× and 2×, with and without the call bar.
let controlsDeviceCases: [(Device, Bool)] = Device.presets.flatMap { device in [false, true].map { (device, $0) } }

/// The controls screen: layout at every size, keys, tabs, themes, and how it looks.
@Suite struct ControlsScreenTests {
    func app(_ device: Device = .iPhone3GS, inCall: Bool = false, language: String = "en", theme: String = "blue",
             eventLoop: EventLoop = EventLoop()) -> AppController {
        AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, language: language, fixedTime: "9:41",
                                                 screen: "controls", theme: theme), eventLoop: eventLoop)
    }

    /// Every control and caption, in window points.
    func frames(_ screen: ControlsScreen) -> [(String, CGRect)] {
        var views: [(String, View)] = [("bar", screen.bar), ("zoom", screen.zoomPanel), ("battery", screen.battery),
                                       ("compass", screen.compass), ("bitmap", screen.bitmap), ("bitmapbutton", screen.bitmapButton),
                                       ("bubble", screen.glowBubble), ("checkbox", screen.checkBox), ("uiswitch", screen.uiSwitch)]
        views += screen.swatches.map { ("theme.\($0.swatchTheme.name)", $0) }
        views += screen.captions.map { ("caption \($0.text)", $0) }
        return views.map { ($0.0, $0.1.convert($0.1.bounds, to: nil)) }
    }

    /// Nothing overlaps, nothing leaves the screen's area, labels' text fits their boxes.
    func expectClean(_ app: AppController, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        app.window.layoutIfNeeded()
        let screen = app.controlsScreen
        let area = screen.convert(screen.bounds, to: nil)
        let all = frames(screen)
        for (i, (name, r)) in all.enumerated() {
            let inside = r.minX >= area.minX - 0.001 && r.minY >= area.minY - 0.001 && r.maxX <= area.maxX + 0.001 && r.maxY <= area.maxY + 0.001
            #expect(inside, "\(what): \(name) \(r) leaves \(area)", sourceLocation: sourceLocation)
            #expect(r.width > 0 && r.height > 0, "\(what): \(name) is empty", sourceLocation: sourceLocation)
            for (other, q) in all[(i + 1)...] {
                let overlap = r.intersection(q)
                #expect(overlap.isNull || overlap.width < 0.001 || overlap.height < 0.001,
                        "\(what): \(name) \(r) overlaps \(other) \(q)", sourceLocation: sourceLocation)
            }
        }
        for caption in screen.captions {
            #expect(!caption.fittedLine().text.hasSuffix("…"), "\(what): caption \"\(caption.text)\" is cut", sourceLocation: sourceLocation)
        }
        // The bar's own content fits inside it.
        for v in screen.bar.subviews {
            #expect(screen.bar.bounds.contains(v.frame), "\(what): bar item \(v.frame) leaves the bar", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: controlsDeviceCases)
    func laysOutWithoutOverlapsOnEveryDevice(device: Device, inCall: Bool) {
        let app = app(device, inCall: inCall)
        expectClean(app, "\(device.identifier)\(inCall ? " in call" : "")")
        let layout = app.controlsScreen.layout
        #expect(layout.isWide == (device.pointSize.width >= 768))
        if layout.isWide {
            // The iPad uses its room: the design at full size, bigger than the phone's.
            #expect(layout.scale == 1 && layout.bar.height == 80)
        } else {
            #expect(layout.scale == 1 && layout.bar.height == 40)
        }
    }

    @Test(arguments: ["de", "es", "ar"])
    func captionsFitInEveryLanguage(language: String) {
        for (device, inCall) in [(Device.iPhone3GS, true), (.iPad, false)] {
            expectClean(app(device, inCall: inCall, language: language), "\(device.identifier) \(language)")
        }
    }

    /// Free sizes down to the window's minimum, with the call bar: still nothing overlaps.
    @Test(arguments: [CGSize(width: 240, height: 360), CGSize(width: 240, height: 800), CGSize(width: 1000, height: 400),
                      CGSize(width: 500, height: 700), CGSize(width: 640, height: 720), CGSize(width: 1400, height: 1100)])
    func laysOutAtFreeSizes(size: CGSize) {
        let device = Device.custom(pixelWidth: Int(size.width), pixelHeight: Int(size.height), scale: 1)
        expectClean(app(device, inCall: true), "\(Int(size.width))×\(Int(size.height))")
    }

    /// The status bar at narrow widths: visible items never overlap, and they drop in order
    /// (carrier, then signal bars, then clock).
    @Test(arguments: [320, 240, 200, 160, 120, 90, 60] as [CGFloat])
    func statusBarDropsItemsByPriority(width: CGFloat) {
        let bar = StatusBarView(frame: CGRect(x: 0, y: 0, width: width, height: 40))
        bar.timeLabel.text = "12:59"
        bar.layoutIfNeeded()
        let row: [View] = [bar.signalBars, bar.carrierLabel, bar.timeLabel, bar.battery]
        let visible = row.filter { !$0.isHidden }
        func box(_ v: View) -> CGRect { (v as? Label).map { $0.textRect.offsetBy(dx: $0.frame.minX, dy: $0.frame.minY) } ?? v.frame }
        for (i, a) in visible.enumerated() {
            #expect(bar.bounds.contains(box(a)), "\(width): \(a) leaves the bar")
            for b in visible[(i + 1)...] { #expect(!box(a).intersects(box(b)), "\(width): \(a) overlaps \(b)") }
        }
        if !bar.signalBars.isHidden { #expect(!bar.timeLabel.isHidden) }
        if !bar.carrierLabel.isHidden { #expect(!bar.signalBars.isHidden) }
        #expect(!bar.battery.isHidden)
        if width >= 200 { #expect(!bar.carrierLabel.isHidden && !bar.timeLabel.isHidden && !bar.signalBars.isHidden) }
        if width <= 120 { #expect(bar.carrierLabel.isHidden, "the carrier goes first") }
        if width >= 90 { #expect(!bar.timeLabel.isHidden, "the clock stays down to 90 points") }
        for label in [bar.callLabel, bar.callTimerLabel] where !label.isHidden {
            #expect(bar.bounds.contains(box(label)))
        }
        if !bar.callTimerLabel.isHidden { #expect(!box(bar.callLabel).intersects(box(bar.callTimerLabel))) }
    }

    @Test func tabsAndTabKeysSwitchScreensAndLogThem() throws {
        let app = app(.iPhone4)
        var log: [String] = []
        app.eventLog = { log.append($0) }
        #expect(app.currentScreen === app.controlsScreen)
        #expect(app.tabBar.selectedIndex == 1)
        let signalTab = app.tabBar.convert(app.tabBar.itemRect(0), to: nil)
        app.window.handlePointer(.down, at: CGPoint(x: signalTab.midX, y: signalTab.midY))
        app.window.handlePointer(.up, at: CGPoint(x: signalTab.midX, y: signalTab.midY))
        #expect(app.currentScreen === app.signalScreen)
        #expect(app.controlsScreen.window == nil, "a hidden screen leaves the window (its animations stop)")
        app.handleKey(KeyPress(characters: "\t", specialKey: .tab))
        #expect(app.currentScreen === app.controlsScreen)
        app.handleKey(KeyPress(characters: "", specialKey: .backTab))
        #expect(app.currentScreen === app.signalScreen)
        #expect(log.filter { $0.hasPrefix("screen") } == ["screen signal", "screen controls", "screen signal"])
        #expect(app.windowTitle == "Crisp — Signal — iPhone 4")
        app.handleKey(KeyPress(characters: "l"))
        #expect(app.windowTitle == "Crisp — Signal — iPhone 4")
        app.handleKey(KeyPress(characters: "\t", specialKey: .tab))
        #expect(app.windowTitle == "Crisp — Steuerelemente — iPhone 4")
    }

    @Test func helpListsTheScreensOwnKeys() {
        let app = app()
        #expect(app.helpOverlay.shortcuts.map(\.keys).suffix(2) == ["e", "b"])
        app.cycleScreen(by: 1)
        #expect(app.helpOverlay.shortcuts == HelpOverlayView.appShortcuts + app.plotScreen.shortcuts)
        #expect(app.plotScreen.shortcuts.map(\.keys) == ["Delete"])
        app.cycleScreen(by: 1)
        #expect(app.helpOverlay.shortcuts == HelpOverlayView.appShortcuts + app.bubblesScreen.shortcuts)
        #expect(app.bubblesScreen.shortcuts.map(\.keys) == ["Up/Down", "r"])
        app.cycleScreen(by: 1)
        #expect(app.helpOverlay.shortcuts == HelpOverlayView.appShortcuts + app.assetsScreen.shortcuts)
        #expect(app.assetsScreen.shortcuts.map(\.keys) == ["p"])
        app.cycleScreen(by: 1)
        #expect(app.helpOverlay.shortcuts == HelpOverlayView.appShortcuts)
    }

    @Test func themeKeyAndSwatchesCrossFadeEverythingThemed() throws {
        let clock = TestClock()
        let app = app(eventLoop: EventLoop(clock: { clock.now }))
        var log: [String] = []
        app.eventLog = { log.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        #expect(app.controlsScreen.swatches[0].isSelected)
        app.handleKey(KeyPress(characters: "t"))
        #expect(app.theme == .red && log.last == "theme red")
        clock.now += AppController.themeFadeDuration / 2
        app.window.eventLoop.runDueWork()
        let half = app.controlsScreen.bar.theme
        #expect(half.barTop != Theme.blue.barTop && half.barTop != Theme.red.barTop, "half way through the fade")
        #expect(app.isFadingTheme)
        clock.now += AppController.themeFadeDuration
        app.window.eventLoop.runDueWork()
        #expect(app.controlsScreen.bar.theme == .red && app.tabBar.theme == .red && app.signalScreen.window == nil)
        #expect(!app.isFadingTheme && !app.window.eventLoop.hasScheduledWork)
        #expect(app.controlsScreen.swatches[1].isSelected && !app.controlsScreen.swatches[0].isSelected)
        // A swatch tap chooses its theme.
        let gold = app.controlsScreen.swatches[3]
        let p = gold.convert(CGPoint(x: gold.bounds.midX, y: gold.bounds.midY), to: nil)
        app.window.handlePointer(.down, at: p)
        app.window.handlePointer(.up, at: p)
        #expect(app.theme == .gold && log.last == "theme gold")
    }

    @Test func errorKeyTogglesTheCrossesAndStartsTheGPSPulse() {
        let app = app()
        let gps = app.controlsScreen.bar.gpsSwitch
        #expect(gps.hasError && !gps.isAnimatingPulse, "nothing animates at start")
        #expect(!app.window.eventLoop.hasScheduledWork || app.window.eventLoop.nextDeadline() != nil)
        app.handleKey(KeyPress(characters: "e"))
        #expect(!gps.hasError && !app.controlsScreen.bar.networkSwitch.hasError)
        #expect(gps.isAnimatingPulse)
        app.handleKey(KeyPress(characters: "e"))
        #expect(gps.hasError && !gps.isAnimatingPulse)
    }

    @Test func batteryKeyRunsTheGaugeAndTheStatusBarFollows() {
        let clock = TestClock()
        let app = app(eventLoop: EventLoop(clock: { clock.now }))
        #expect(app.statusBar.battery.level == 0.8)
        app.handleKey(KeyPress(characters: "b"))
        for _ in 0..<60 {
            clock.now += 1.0 / 60
            app.window.eventLoop.runDueWork()
        }
        #expect(app.controlsScreen.battery.level < 80)
        #expect(abs(app.statusBar.battery.level - app.controlsScreen.battery.level / 100) < 0.0001)
    }

    @Test func withoutItsPictureTheScreenStillDraws() throws {
        let screen = ControlsScreen(image: .failure(ResourceImage.LoadError(file: "Resources/Images/photo.png", reason: "not found")))
        #expect(screen.imageError?.description == "cannot load image Resources/Images/photo.png: not found")
        #expect(screen.bitmapButton.image == nil)
    }
}

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    var now: TimeInterval = 100
}

/// The controls screen as it looks: every device × call bar in English, German, Spanish and
/// Arabic (mirrored) on the iPhone 3GS in a call, and the iPad in red.
@Suite struct ControlsScreenGoldenTests {
    @Test(arguments: controlsDeviceCases)
    func controlsScreen(device: Device, inCall: Bool) throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41", screen: "controls"))
        Golden.check(try HeadlessHost(window: app.window).snapshot(), "controls", "\(device.identifier)-en\(inCall ? "-call" : "")")
    }

    @Test(arguments: ["de", "es", "ar"])
    func controlsScreenLocalized(language: String) throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, isInCall: true, language: language, fixedTime: "9:41",
                                                           screen: "controls"))
        Golden.check(try HeadlessHost(window: app.window).snapshot(), "controls", "iphone3gs-\(language)-call")
    }

    /// The help lists the app's keys and the controls screen's own (e, b).
    @Test func helpOnTheControlsScreen() throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41", screen: "controls"))
        app.handleKey(KeyPress(characters: "?"))
        Golden.check(try HeadlessHost(window: app.window).snapshot(), "help", "iphone3gs-controls-en")
    }

    @Test func controlsScreenInAnotherTheme() throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPad, fixedTime: "9:41", screen: "controls", theme: "red"))
        Golden.check(try HeadlessHost(window: app.window).snapshot(), "controls", "ipad-en-red")
    }
}
