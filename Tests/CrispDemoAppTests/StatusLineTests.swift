import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// What scripts and tests read from `--status-file`: `layout` lines for every identified view
/// with its frame in window pixels, `state` lines when values change, `screen` and `theme`.
@Suite struct StatusLineTests {
    static let controlsIdentifiers = ["tab.signal", "tab.controls", "toggle.1", "toggle.2", "toggle.3", "toggle.4",
                                      "switch.gps", "switch.network", "switch.sound", "zoom", "battery", "compass", "bitmap",
                                      "bitmapbutton", "bubble.glow", "checkbox", "uiswitch",
                                      "theme.blue", "theme.red", "theme.green", "theme.gold"]

    /// The app on the controls screen with its status lines collected, after the first frame.
    func app(_ device: Device, inCall: Bool = false) throws -> (AppController, HeadlessHost, Box) {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41", screen: "controls"))
        let lines = Box()
        app.eventLog = { lines.items.append($0) }
        app.window.statusSink = { lines.items.append($0) }
        app.logInitialState()
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        return (app, host, lines)
    }

    final class Box { var items: [String] = [] }

    /// Every view with an identifier below `view`.
    func identified(_ view: View) -> [String: View] {
        var found: [String: View] = [:]
        if let id = view.accessibilityIdentifier { found[id] = view }
        for sub in view.subviews { found.merge(identified(sub)) { a, _ in a } }
        return found
    }

    @Test(arguments: controlsDeviceCases)
    func everyIdentifierIsReportedWithItsFrameInWindowPixels(device: Device, inCall: Bool) throws {
        let (app, _, lines) = try app(device, inCall: inCall)
        #expect(lines.items.prefix(2) == ["screen controls", "theme blue"])
        var reported: [String: [Int]] = [:]
        for line in lines.items where line.hasPrefix("layout ") {
            let fields = line.split(separator: " ")
            #expect(fields.count == 6, "\(line)")
            reported[String(fields[1])] = fields.dropFirst(2).compactMap { Int($0) }
        }
        let views = identified(app.window)
        for id in Self.controlsIdentifiers {
            let view = try #require(views[id], "no view is identified \(id)")
            let frame = try #require(reported[id], "no layout line for \(id)")
            let r = view.convert(view.bounds, to: nil)
            let s = app.screen.scale
            let x = Int((r.minX * s).rounded()), y = Int((r.minY * s).rounded())
            #expect(frame == [x, y, Int((r.maxX * s).rounded()) - x, Int((r.maxY * s).rounded()) - y], "\(id)")
            #expect(frame[0] >= 0 && frame[1] >= 0 && frame[0] + frame[2] <= app.screen.pixelWidth
                    && frame[1] + frame[3] <= app.screen.pixelHeight, "\(id) \(frame) is on screen")
        }
    }

    @Test func controlsPublishTheirValues() throws {
        let (app, _, lines) = try app(.iPhone3GS)
        let screen = app.controlsScreen
        lines.items = []
        func tap(_ view: View) {
            let p = view.convert(CGPoint(x: view.bounds.midX, y: view.bounds.midY), to: nil)
            app.window.handlePointer(.down, at: p)
            app.window.handlePointer(.up, at: p)
        }
        tap(screen.checkBox)
        tap(screen.uiSwitch)
        tap(screen.bar.soundSwitch)
        tap(screen.bar.toggles[0])
        app.handleKey(KeyPress(characters: "e"))
        screen.battery.level = 42.25
        screen.compass.inaccuracy = 30
        screen.zoomPanel.zoom = 3.7
        app.handleKey(KeyPress(characters: "t"))
        tap(app.tabBar.itemViews[0])
        let states = lines.items.filter { $0.hasPrefix("state ") || $0.hasPrefix("screen ") || $0.hasPrefix("theme ") }
        #expect(states == ["state checkbox off", "state uiswitch on", "state switch.sound on", "state toggle.1 on",
                           "state switch.gps on", "state switch.network on", "state battery 42.25", "state compass 30",
                           "state zoom 3.7", "theme red", "screen signal"])
    }

    /// Every value readable: the first frame writes each identified control's current value
    /// (before any change), and a screen that appears writes its views' values.
    @Test func everyValueIsReadableFromTheFirstFrame() throws {
        let (app, host, lines) = try app(.iPhone4)
        for expected in ["state checkbox on", "state uiswitch off", "state battery 80", "state compass 12",
                         "state toggle.1 off", "state toggle.2 on", "state bitmapbutton released"] {
            #expect(lines.items.contains(expected), "\(expected)")
        }
        let states = Set(lines.items.filter { $0.hasPrefix("state ") }.map { $0.split(separator: " ")[1] })
        for id in ["switch.gps", "switch.network", "switch.sound", "zoom"] { #expect(states.contains(Substring(id)), "\(id)") }
        // Each state line follows its view's first layout line.
        for (i, line) in lines.items.enumerated() where line.hasPrefix("state ") {
            let id = line.split(separator: " ")[1]
            #expect(i > 0 && lines.items[i - 1].hasPrefix("layout \(id) "), "\(line)")
        }

        lines.items = []
        app.showScreen(app.plotScreen)
        try host.renderFrame()
        let points = app.plotScreen.plot.points
        for (i, p) in points.enumerated() {
            #expect(lines.items.contains("state plot.point.\(i) \(ControlState.string(p.x)) \(ControlState.string(p.y))"))
        }

        lines.items = []
        app.showScreen(app.bubblesScreen)
        try host.renderFrame()
        #expect(lines.items.contains("state bubble.0 \(ControlState.string(app.bubblesScreen.values[0]))"))
        #expect(lines.items.contains("state bubble.callout none") || app.bubblesScreen.callout.isHidden)

        lines.items = []
        app.showScreen(app.controlsScreen)
        try host.renderFrame()
        #expect(lines.items.contains("state battery 80"), "the controls screen appearing again")
    }
}
