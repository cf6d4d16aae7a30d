import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The loupe in the demo app: how a long press opens it without upsetting the controls, where
/// it goes, its status lines, and how it looks in both modes.
@Suite struct LoupeTests {
    /// A clock the test advances by hand, so the long press's timer fires without sleeping.
    final class Clock: @unchecked Sendable {
        var now: TimeInterval = 1000
    }
    final class Lines { var items: [String] = [] }

    struct Fixture {
        let app: AppController
        let host: HeadlessHost
        let clock: Clock
        let lines: Lines
        var window: Window { app.window }
        var loupe: LoupeView { app.loupe }

        /// Advances the clock and runs what is due, then renders.
        func wait(_ seconds: TimeInterval) throws {
            clock.now += seconds
            window.eventLoop.runDueWork()
            try host.renderFrame()
        }

        /// Presses at `point`, holds for `seconds`, renders.
        func press(at point: CGPoint, holding seconds: TimeInterval = 0.6) throws {
            window.handlePointer(.down, at: point)
            try wait(seconds)
        }

        func lastState(_ identifier: String) -> String? {
            lines.items.last { $0.hasPrefix("state \(identifier) ") }
        }
    }

    func fixture(_ screen: String = "signal", device: Device = .iPhone3GS) throws -> Fixture {
        let clock = Clock()
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, fixedTime: "9:41", screen: screen),
                          eventLoop: EventLoop(clock: { clock.now }))
        let lines = Lines()
        app.window.statusSink = { lines.items.append($0) }
        app.eventLog = { lines.items.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        return Fixture(app: app, host: host, clock: clock, lines: lines)
    }

    // MARK: Gestures

    @Test func longPressOpensTheLoupeAboveTheTouchAndReportsIt() throws {
        let f = try fixture()
        let point = CGPoint(x: 160, y: 300)
        try f.press(at: point, holding: 0.4)
        #expect(!f.loupe.isOpen, "not before 0.5 s")
        try f.wait(0.2)
        #expect(f.loupe.isOpen)
        #expect(f.lastState("loupe") == "state loupe shown 160 300 2 bitmap")
        #expect(f.loupe.frame.maxY <= point.y, "above the touch: \(f.loupe.frame)")
        #expect(f.window.bounds.contains(f.loupe.frame))
        f.window.handlePointer(.moved, at: CGPoint(x: 100, y: 250))
        #expect(f.lastState("loupe") == "state loupe shown 100 250 2 bitmap")
        f.window.handlePointer(.up, at: CGPoint(x: 100, y: 250))
        #expect(f.lastState("loupe") == "state loupe hidden")
        #expect(!f.loupe.isOpen)
        try f.wait(LoupeView.hideDuration + 0.05)
        try f.wait(0.02)
        #expect(f.loupe.isHidden, "hidden once the fade is over")
    }

    @Test func longPressSuppressesTheTapBeneath() throws {
        let f = try fixture("controls")
        let box = f.app.controlsScreen.checkBox
        let before = box.checked
        let centre = box.convert(CGPoint(x: box.bounds.midX, y: box.bounds.midY), to: nil)
        try f.press(at: centre)
        #expect(f.loupe.isOpen)
        f.window.handlePointer(.up, at: centre)
        try f.wait(0.3)
        #expect(box.checked == before, "the check box did not toggle under the loupe")
        // A quick tap still toggles it.
        f.window.handlePointer(.down, at: centre)
        try f.wait(0.1)
        f.window.handlePointer(.up, at: centre)
        try f.wait(0.3)
        #expect(box.checked != before, "an ordinary tap works")
        #expect(!f.loupe.isOpen && f.loupe.snapshotCount == 1)
    }

    @Test func longPressSuppressesThePanBeneathAndAQuickDragDoesNotOpen() throws {
        let f = try fixture()
        let graph = f.app.signalScreen.graph
        let start = graph.convert(CGPoint(x: graph.bounds.midX, y: graph.bounds.midY), to: nil)
        // A quick drag: an ordinary pan of the graph, no loupe.
        let panLines = f.lines.items.count
        f.window.handlePointer(.down, at: start)
        try f.wait(0.05)
        f.window.handlePointer(.moved, at: CGPoint(x: start.x - 40, y: start.y))
        try f.wait(0.7)
        #expect(!f.loupe.isOpen, "a drag that moved before 0.5 s is not a long press")
        f.window.handlePointer(.up, at: CGPoint(x: start.x - 40, y: start.y))
        #expect(!f.lines.items[panLines...].contains { $0.hasPrefix("state loupe") })
        #expect(f.lines.items[panLines...].contains { $0.hasPrefix("pan began") }, "the graph was panned")
        // A long press, then a drag: the loupe follows, the graph is not panned.
        let pannedLines = f.lines.items.count
        try f.press(at: start)
        #expect(f.loupe.isOpen)
        f.window.handlePointer(.moved, at: CGPoint(x: start.x - 60, y: start.y))
        f.window.handlePointer(.up, at: CGPoint(x: start.x - 60, y: start.y))
        let after = f.lines.items[pannedLines...].filter { !$0.hasPrefix("state loupe") && !$0.hasPrefix("layout loupe") && $0 != "longpress began" }
        #expect(after.isEmpty, "nothing beneath reacted: \(after)")
    }

    @Test func aSecondLongPressTakesANewSnapshot() throws {
        let f = try fixture()
        let point = CGPoint(x: 120, y: 200)
        try f.press(at: point)
        f.window.handlePointer(.up, at: point)
        try f.wait(0.3)
        #expect(f.loupe.snapshotCount == 1)
        #expect(f.loupe.snapshotPixels > 0)
        try f.press(at: point)
        #expect(f.loupe.isOpen && f.loupe.snapshotCount == 2)
        #expect(f.loupe.snapshotPixels > 0, "the tiles were rendered again for the new snapshot")
    }

    @Test func aClockTickRefreshesOnlyItsRegionOfTheSnapshot() throws {
        let f = try fixture()
        let label = f.app.statusBar.timeLabel
        let centre = label.convert(CGPoint(x: label.bounds.midX, y: label.bounds.midY), to: nil)
        try f.press(at: centre)
        let opened = f.loupe.snapshotPixels
        let before = try f.host.snapshot().cropping(to: f.loupe.frame)!.pixels
        label.text = "10:08"
        try f.host.renderFrame()
        let refreshed = f.loupe.snapshotPixels - opened
        #expect(refreshed > 0 && refreshed <= 2 * 128 * 128, "only the tiles under the label: \(refreshed) px")
        #expect(try f.host.snapshot().cropping(to: f.loupe.frame)!.pixels != before, "the loupe shows the new time")
    }

    // MARK: Placement

    @Test(arguments: [CGPoint(x: 2, y: 2), CGPoint(x: 318, y: 2), CGPoint(x: 2, y: 478), CGPoint(x: 318, y: 478), CGPoint(x: 160, y: 10)])
    func theLoupeStaysInsideTheWindow(point: CGPoint) throws {
        let f = try fixture()
        try f.press(at: point)
        #expect(f.loupe.isOpen)
        #expect(f.window.bounds.contains(f.loupe.frame), "\(f.loupe.frame)")
        if point.y < 100 { #expect(f.loupe.frame.minY >= 0) }
    }

    @Test func theSmallestWindowKeepsTheLoupeInside() throws {
        for scale: CGFloat in [1, 2] {
            let device = Device(identifier: "tiny", name: "Tiny", pointSize: CGSize(width: 200 / scale, height: 200 / scale), scale: scale)
            let f = try fixture(device: device)
            for point in [CGPoint(x: 1, y: 1), CGPoint(x: 50, y: 50), CGPoint(x: 99, y: 99)] {
                try f.press(at: point)
                #expect(f.loupe.isOpen)
                #expect(f.window.bounds.contains(f.loupe.frame), "\(f.loupe.frame) at \(scale)×")
                f.window.handlePointer(.up, at: point)
                try f.wait(0.3)
            }
        }
    }

    @Test func zoomClampsAndKeysDriveIt() throws {
        let f = try fixture()
        try f.press(at: CGPoint(x: 160, y: 300))
        for _ in 0..<8 { f.app.handleKey(KeyPress(characters: "+")) }
        #expect(f.loupe.zoom == 16)
        #expect(f.lastState("loupe") == "state loupe shown 160 300 16 bitmap")
        for _ in 0..<8 { f.app.handleKey(KeyPress(characters: "-")) }
        #expect(f.loupe.zoom == 1.5)
        f.window.handleScroll(4, at: CGPoint(x: 160, y: 300))
        #expect(f.loupe.zoom == 3)
        f.app.handleKey(KeyPress(characters: "v"))
        #expect(f.lastState("loupe") == "state loupe shown 160 300 3 vector")
        f.loupe.zoom = .infinity
        #expect(f.loupe.zoom == 2, "a non-finite zoom falls back to the default")
    }

    // MARK: Awkward moments

    @Test func onTheStatusBarTheTabBarDuringTheCallBarAnimationAndAResize() throws {
        let f = try fixture("controls", device: .iPhone4)
        // The status bar (near the top edge: the loupe goes beside the touch) and the tab bar.
        for point in [CGPoint(x: 160, y: 8), CGPoint(x: 40, y: 470)] {
            try f.press(at: point)
            #expect(f.loupe.isOpen, "at \(point)")
            #expect(f.window.bounds.contains(f.loupe.frame))
            f.window.handlePointer(.up, at: point)
            try f.wait(0.3)
        }
        // During the call bar's animation, moving through it.
        f.app.handleKey(KeyPress(characters: "c"))
        try f.press(at: CGPoint(x: 160, y: 30), holding: 0.55)
        #expect(f.loupe.isOpen)
        for step in 1...5 {
            f.window.handlePointer(.moved, at: CGPoint(x: 160, y: 30 + CGFloat(step) * 8))
            try f.wait(0.05)
            #expect(f.window.bounds.contains(f.loupe.frame))
        }
        // A resize while it is open: it stays inside the new window, with a new snapshot size.
        f.app.handleKey(KeyPress(characters: "1"))
        try f.host.renderFrame()
        #expect(f.loupe.isOpen)
        #expect(f.window.bounds.contains(f.loupe.frame), "\(f.loupe.frame) in \(f.window.bounds)")
        f.window.handlePointer(.moved, at: CGPoint(x: 300, y: 460))
        try f.host.renderFrame()
        #expect(f.window.bounds.contains(f.loupe.frame))
        f.window.handlePointer(.up, at: CGPoint(x: 300, y: 460))
        try f.wait(0.3)
        #expect(f.loupe.isHidden)
    }

    @Test func movingRepaintsOnlyTheOldAndNewLoupeRectangles() throws {
        let f = try fixture()
        try f.press(at: CGPoint(x: 160, y: 300))
        let old = f.loupe.frame
        f.window.handlePointer(.moved, at: CGPoint(x: 150, y: 300))
        let rects = try f.host.renderFrame()
        let new = f.loupe.frame
        #expect(!rects.isEmpty)
        for r in rects {
            let points = CGRect(x: r.minX, y: r.minY, width: r.width, height: r.height)
            #expect(old.union(new).insetBy(dx: -1, dy: -1).contains(points), "\(r) outside \(old) ∪ \(new)")
        }
    }
}

/// How the loupe looks: both modes at 2× and 8× over the signal graph and the controls, at 1×
/// and 2× device scale, near each edge of the window, and the pixel inspector.
@Suite struct LoupeGoldenTests {
    /// The loupe's frame (with a few points around it) cut from the settled window.
    func loupeImage(_ f: LoupeTests.Fixture) throws -> CGImage {
        let s = f.app.screen.scale
        let r = f.loupe.frame.insetBy(dx: -4, dy: -4)
        return try #require(f.host.snapshot().cropping(to: CGRect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s)))
    }

    /// A point of interest on each screen, in window points: the graph's "time" label (text),
    /// the check box's check mark (a diagonal edge).
    static func target(_ f: LoupeTests.Fixture, screen: String) -> CGPoint {
        if screen == "signal" {
            let label = f.app.signalScreen.graph.bottomAxisLabel
            let text = label.textRect
            return label.convert(CGPoint(x: text.midX, y: text.midY), to: nil)
        }
        let box = f.app.controlsScreen.checkBox
        return box.convert(CGPoint(x: box.bounds.width * 0.42, y: box.bounds.height * 0.6), to: nil)
    }

    static let cases: [(String, Device, CGFloat, LoupeView.Mode)] = ["signal", "controls"].flatMap { screen in
        [Device.iPhone3GS, .iPhone4].flatMap { device in
            [CGFloat(2), 8].flatMap { zoom in [LoupeView.Mode.bitmap, .vector].map { (screen, device, zoom, $0) } }
        }
    }

    @Test(arguments: cases)
    func loupe(screen: String, device: Device, zoom: CGFloat, mode: LoupeView.Mode) throws {
        let f = try LoupeTests().fixture(screen, device: device)
        f.loupe.zoom = zoom
        f.loupe.mode = mode
        try f.press(at: Self.target(f, screen: screen))
        #expect(f.loupe.isOpen)
        Golden.check(try loupeImage(f), "loupe", "\(screen)-\(device.identifier)-\(LoupeView.format(zoom))x-\(mode.rawValue)")
    }

    @Test(arguments: ["top-left", "top-right", "bottom-left", "bottom-right"])
    func nearAnEdge(corner: String) throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone4)
        let b = f.window.bounds
        let x = corner.hasSuffix("left") ? b.minX + 3 : b.maxX - 3
        let y = corner.hasPrefix("top") ? b.minY + 3 : b.maxY - 3
        try f.press(at: CGPoint(x: x, y: y))
        #expect(f.window.bounds.contains(f.loupe.frame))
        Golden.check(try loupeImage(f), "loupe", "edge-\(corner)")
    }

    @Test func pixelInspectorAt12x() throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone4)
        f.loupe.zoom = 12
        try f.press(at: Self.target(f, screen: "controls"))
        #expect(f.loupe.showsInspector)
        #expect(f.loupe.centreColourText.hasPrefix("#"))
        Golden.check(try loupeImage(f), "loupe", "inspector-12x")
    }
}
