import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispTestSupport
import Foundation
import Testing

@Suite struct DemoAppTests {
    func app(_ device: Device = .iPhone4) -> AppController {
        AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, fixedTime: "9:41"))
    }

    @Test func keysChooseDevicesScaleAndCallBar() {
        let app = app()
        var log: [String] = []
        app.eventLog = { log.append($0) }
        for (key, device) in zip(["1", "2", "3", "4", "5"], Device.presets) {
            app.handleKey(KeyPress(characters: key))
            #expect(app.screen.device == device)
        }
        app.handleKey(KeyPress(characters: "s"))
        #expect(app.screen.device == .iPad)
        app.handleKey(KeyPress(characters: "s"))
        #expect(app.screen.device == .iPadRetina)
        app.handleKey(KeyPress(characters: "c"))
        #expect(app.screen.isInCall)
        #expect(log.contains("call on"))
        #expect(log.contains("device iphone5 640x1136"))
    }

    @Test func languageCyclesAndWrapsAround() {
        let app = app()
        var seen = [app.language]
        for _ in DemoApplication.languages.indices {
            app.handleKey(KeyPress(characters: "l"))
            seen.append(app.language)
        }
        #expect(seen == DemoApplication.languages + ["en"])
    }

    @Test func helpOverlayAndQuit() {
        let app = app()
        var quits = 0
        app.quitHandler = { quits += 1 }
        #expect(app.helpOverlay.isHidden)
        app.handleKey(KeyPress(characters: "?"))
        #expect(!app.helpOverlay.isHidden)
        app.handleKey(KeyPress(characters: "q"))
        app.handleKey(KeyPress(characters: "", specialKey: .escape))
        #expect(quits == 2)
    }

    @Test func tapAndDragMoveTheMarkerAndRepaintOnlyIt() throws {
        let app = app(.iPhone3GS)
        var log: [String] = []
        app.eventLog = { log.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        let plot = app.signalScreen.graph.plot
        let p = plot.convert(CGPoint(x: plot.bounds.midX, y: plot.bounds.midY), to: nil)
        app.window.handlePointer(.down, at: p)
        app.window.handlePointer(.up, at: p)
        #expect(log == ["tap \(Int(p.x)) \(Int(p.y))"])
        #expect(plot.markedSample != nil)
        let rects = try host.renderFrame()
        #expect(rects.count == 1)
        #expect(rects[0].width <= 12)
        app.window.handlePointer(.down, at: p)
        app.window.handlePointer(.moved, at: CGPoint(x: p.x + 40, y: p.y))
        app.window.handlePointer(.up, at: CGPoint(x: p.x + 40, y: p.y))
        #expect(log.suffix(3).map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["pan began", "pan changed", "pan ended"]
            || log.suffix(2).map { $0.split(separator: " ").prefix(2).joined(separator: " ") } == ["pan began", "pan ended"])
        #expect(try host.renderFrame().count == 2, "old and new marker")
    }

    @Test func clockTickRepaintsOnlyTheTimeLabel() throws {
        let app = app(.iPhone4)
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        app.statusBar.timeLabel.text = "9:42"
        let rects = try host.renderFrame()
        let label = app.statusBar.timeLabel.convert(app.statusBar.timeLabel.bounds, to: nil)
        #expect(rects == [CGRect(x: label.minX * 2, y: label.minY * 2, width: label.width * 2, height: label.height * 2)])
    }

    @Test func liveCallTimerTicksEverySecond() {
        var now: TimeInterval = 0
        let loop = EventLoop(clock: { now })
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone4, isInCall: true), eventLoop: loop)
        #expect(app.statusBar.callTimerLabel.text == "0:00")
        now = 65.2
        loop.runDueWork()
        #expect(app.statusBar.callTimerLabel.text == "1:05")
        app.handleKey(KeyPress(characters: "c"))
        now = 70
        loop.runDueWork()
        #expect(app.statusBar.callTimerLabel.text == "0:00")
    }
}

/// The screen as it looks, for every device × call bar × language.
@Suite struct ScreenGoldenTests {
    static let cases: [(Device, Bool, String)] = Device.presets.flatMap { device in
        [false, true].flatMap { inCall in DemoApplication.languages.map { (device, inCall, $0) } }
    }

    @Test(arguments: cases)
    func signalGraphScreen(device: Device, inCall: Bool, language: String) throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, language: language, fixedTime: "9:41"))
        let image = try HeadlessHost(window: app.window).snapshot()
        Golden.check(image, "signal-graph", "\(device.identifier)-\(language)\(inCall ? "-call" : "")")
    }

    @Test(arguments: DemoApplication.languages)
    func helpOverlay(language: String) throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, language: language, fixedTime: "9:41"))
        app.handleKey(KeyPress(characters: "?"))
        let image = try HeadlessHost(window: app.window).snapshot()
        Golden.check(image, "help", "iphone3gs-\(language)")
    }
}

/// The demo's text in every language: complete tables, labels that follow the language.
@Suite struct DemoLocalizationTests {
    /// Every localized label of the demo, with its key.
    func localizedLabels(_ app: AppController) -> [Label] {
        func collect(_ v: View) -> [Label] {
            ((v as? Label).map { [$0] } ?? []) + v.subviews.flatMap(collect)
        }
        return (collect(app.statusBar) + collect(app.rootView)).filter { $0.localizationKey != nil }
    }

    @Test(arguments: DemoApplication.languages)
    func everyLabelHasATranslation(language: String) throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(language: language, fixedTime: "9:41"))
        let table = try #require(app.localization.table(for: language), "no Resources/Strings/\(language).strings")
        #expect(table.problems.isEmpty, "\(table.problems)")
        let labels = localizedLabels(app)
        #expect(labels.count >= 9)
        for label in labels {
            let key = try #require(label.localizationKey)
            #expect(table[key] != nil, "\(language).strings lacks \"\(key)\"")
            #expect(label.text == table[key])
        }
    }

    @Test func languageKeyRelabelsAndRelaysOut() throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41"))
        try HeadlessHost(window: app.window).renderFrame()
        let english = app.signalScreen.graph.bottomAxisLabel.frame
        #expect(app.signalScreen.graph.leftAxisLabel.text == "signal quality")
        app.handleKey(KeyPress(characters: "l"))
        #expect(app.language == "de")
        #expect(app.signalScreen.graph.leftAxisLabel.text == "Signalqualität")
        #expect(app.signalScreen.graph.bottomAxisLabel.text == "Zeit")
        #expect(app.statusBar.callLabel.text == "Zum Gespräch zurückkehren")
        app.window.layoutIfNeeded()
        // The bottom label spans the plot; its height is the font's line height in any language.
        #expect(app.signalScreen.graph.bottomAxisLabel.frame == english)
        app.handleKey(KeyPress(characters: "l"))
        #expect(app.signalScreen.graph.leftAxisLabel.text == "calidad de señal")
    }

    @Test func labelsMeasureTheirText() {
        let short = Label(text: "time", fontSize: 13), long = Label(text: "signal quality", fontSize: 13)
        #expect(short.textSize.width < long.textSize.width)
        #expect(short.textSize.height == long.textSize.height)
        long.orientation = .rotatedCounterClockwise
        #expect(long.sizeThatFits(.zero) == CGSize(width: short.textSize.height, height: long.textSize.width))
    }
}
