import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The bubbles screen: the seeded data, the packed layout at every size, dragging, the
/// callout, keys, status lines, and how it looks.
@Suite struct BubblesScreenTests {
    /// The app on the bubbles screen with its status lines collected, after the first frame.
    func app(_ device: Device = .iPhone3GS, inCall: Bool = false, language: String = "en") throws -> (AppController, HeadlessHost, StatusLines) {
        try launchedApp(screen: "bubbles", device: device, inCall: inCall, language: language)
    }

    /// Every shown bubble inside the screen and apart from the others (their circles), and the
    /// hidden ones hidden.
    func expectPacked(_ screen: BubblesScreen, _ context: String) {
        let shown = screen.bubbles.prefix(screen.visibleCount)
        #expect(BubblesScreen.countRange.contains(screen.visibleCount), "\(context): \(screen.visibleCount) bubbles")
        for (i, a) in shown.enumerated() {
            #expect(!a.isHidden)
            #expect(screen.bounds.contains(a.frame), "\(context): bubble \(i) \(a.frame) leaves \(screen.bounds)")
            #expect(a.frame.minX == a.frame.minX.rounded() && a.frame.minY == a.frame.minY.rounded(), "\(context): \(a.frame) off whole points")
            for (j, b) in shown.enumerated() where j > i {
                let d = hypot(a.frame.midX - b.frame.midX, a.frame.midY - b.frame.midY)
                #expect(d >= a.circleRect.width / 2 + b.circleRect.width / 2 - 1, "\(context): bubbles \(i) and \(j) overlap")
            }
        }
        let hidden = screen.bubbles.dropFirst(screen.visibleCount).filter { !$0.isHidden }.count
        #expect(hidden == 0)
    }

    @Test(arguments: controlsDeviceCases)
    func packedOnEveryScreen(device: Device, inCall: Bool) throws {
        let (app, _, lines) = try app(device, inCall: inCall)
        let screen = app.bubblesScreen
        expectPacked(screen, "\(device.identifier)\(inCall ? " in call" : "")")
        for i in 0..<screen.visibleCount {
            #expect(lines.items.contains { $0.hasPrefix("layout bubble.\(i) ") })
        }
        #expect(lines.items.contains { $0.hasPrefix("layout bubbles ") })
    }

    /// More bubbles where there is room: about 30 on an iPhone, 60 on an iPad.
    @Test func theIPadShowsMore() throws {
        let phone = try app(.iPhone3GS).0.bubblesScreen.visibleCount
        let pad = try app(.iPad).0.bubblesScreen.visibleCount
        #expect(phone >= 20 && phone < 40 && pad == 60)
    }

    /// Free window sizes, from the minimum up, wide and tall: the bubbles reflow and still fit.
    @Test(arguments: [CGSize(width: 240, height: 360), CGSize(width: 900, height: 400), CGSize(width: 400, height: 1000),
                      CGSize(width: 1200, height: 900)])
    func reflowsForFreeSizes(size: CGSize) throws {
        let (app, host, _) = try app()
        let before = app.bubblesScreen.bubbles[0].frame
        app.screen.setDevice(Device(identifier: "custom", name: "custom", pointSize: size, scale: 1))
        try host.renderFrame()
        expectPacked(app.bubblesScreen, "\(size)")
        #expect(app.bubblesScreen.bubbles[0].frame != before)
    }

    @Test func theDataSetIsSeeded() {
        let values = BubblesScreen.seededValues()
        #expect(values == BubblesScreen.seededValues() && values.count == 60)
        #expect(values.allSatisfy { (0.05...0.95).contains($0) })
        #expect(Set(values).count > 30)
    }

    /// Dragging up raises the value (and the bubble grows and turns greener) live, with state
    /// lines on the way; dragging down lowers it; a drag is not a tap.
    @Test func verticalDragChangesTheValueLive() throws {
        let clock = TestClock()
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone4, fixedTime: "9:41", screen: "bubbles"),
                          eventLoop: EventLoop(clock: { clock.now }))
        let lines = StatusLines()
        app.window.statusSink = { lines.items.append($0) }
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        let screen = app.bubblesScreen
        let i = 4
        let bubble = screen.bubbles[i]
        let start = bubble.convert(CGPoint(x: bubble.bounds.midX, y: bubble.bounds.midY), to: nil)
        let v0 = screen.values[i], size0 = bubble.frame.width
        app.window.handlePointer(.down, at: start)
        app.window.handlePointer(.moved, at: CGPoint(x: start.x, y: start.y - 16))
        #expect(screen.draggedIndex == i)
        let expected = ((v0 + 16 / BubblesScreen.dragPointsPerUnit) * 1000).rounded() / 1000
        #expect(abs(screen.values[i] - expected) < 1e-9)
        #expect(lines.items.last { $0.hasPrefix("state bubble.\(i) ") } == "state bubble.\(i) \(ControlState.string(expected))")
        // The hue and size animate towards the new value.
        clock.now += BubblesScreen.animationDuration / 2
        app.window.eventLoop.runDueWork()
        #expect(bubble.percentValue > v0 && bubble.percentValue < expected)
        clock.now += BubblesScreen.animationDuration
        app.window.eventLoop.runDueWork()
        #expect(bubble.percentValue == expected && bubble.frame.width > size0)
        app.window.handlePointer(.moved, at: CGPoint(x: start.x, y: start.y + 40))
        #expect(screen.values[i] < v0)
        app.window.handlePointer(.up, at: CGPoint(x: start.x, y: start.y + 40))
        #expect(screen.draggedIndex == nil && screen.calloutIndex == nil)
        // Values stay in 0…1.
        app.window.handlePointer(.down, at: bubble.convert(CGPoint(x: bubble.bounds.midX, y: bubble.bounds.midY), to: nil))
        app.window.handlePointer(.moved, at: CGPoint(x: start.x, y: start.y - 1000))
        #expect(screen.values[i] == 1)
        app.window.handlePointer(.up, at: CGPoint(x: start.x, y: start.y - 1000))
    }

    /// A tap shows the callout with the value as a locale-formatted percent; a tap on the same
    /// bubble or on empty space hides it; the arrows change the value; `r` resets.
    @Test func tapShowsTheCalloutAndKeysChangeTheValue() throws {
        let (app, host, lines) = try app(.iPhone3GS, language: "de")
        let screen = app.bubblesScreen
        let i = 2
        let bubble = screen.bubbles[i]
        let centre = bubble.convert(CGPoint(x: bubble.bounds.midX, y: bubble.bounds.midY), to: nil)
        app.window.handlePointer(.down, at: centre)
        app.window.handlePointer(.up, at: centre)
        #expect(screen.calloutIndex == i && !screen.callout.isHidden)
        #expect(lines.items.contains("state bubble.callout \(i)"))
        let percent = Int((screen.values[i] * 100).rounded())
        #expect(screen.callout.label.text == "\(percent)\u{A0}%")
        #expect(screen.callout.frame.maxY <= bubble.frame.minY)
        try host.renderFrame()
        app.handleKey(KeyPress(characters: "", specialKey: .up))
        #expect(lines.items.contains("key Up"))
        #expect(screen.callout.label.text == "\(percent + 5)\u{A0}%")
        app.handleKey(KeyPress(characters: "r"))
        #expect(screen.values == BubblesScreen.seededValues())
        app.window.handlePointer(.down, at: centre)
        app.window.handlePointer(.up, at: centre)
        #expect(screen.calloutIndex == nil && screen.callout.isHidden)
        #expect(lines.items.last == "state bubble.callout none")
        #expect(BubbleCalloutView.text(for: 0.42, locale: Locale(identifier: "en")) == "42%")
        #expect(BubbleCalloutView.text(for: 0.42, locale: Locale(identifier: "es")) == "42\u{A0}%")
    }

    /// Dragging one bubble repaints it and its neighbours from their cached contents: the
    /// others are not drawn again.
    @Test func draggingOneBubbleDrawsOnlyIt() throws {
        let (app, host, _) = try app(.iPad)
        let screen = app.bubblesScreen
        let cache = app.window.contentsCache
        #expect(cache.count == screen.visibleCount)
        let missesBefore = cache.misses
        screen.setValue(screen.values[10] + 0.2, ofBubble: 10, animated: false)
        try host.renderFrame()
        #expect(cache.misses == missesBefore + 1)
        #expect(cache.count == screen.visibleCount)
    }

    /// The help lists the app's keys and the bubbles screen's own (the arrows, r), in German.
    @Test func helpOnTheBubblesScreen() throws {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, language: "de", fixedTime: "9:41", screen: "bubbles"))
        app.handleKey(KeyPress(characters: "?"))
        Golden.check(try HeadlessHost(window: app.window).snapshot(), "help", "iphone3gs-bubbles-de")
    }

    /// A full repaint copies every bubble from the cache: none is drawn again.
    @Test(arguments: [Device.iPad, .iPadRetina])
    func aFullRepaintCopiesEveryBubble(device: Device) throws {
        let (app, host, _) = try app(device)
        let cache = app.window.contentsCache
        let (hits, misses) = (cache.hits, cache.misses)
        app.window.invalidateEverything()
        try host.renderFrame()
        #expect(cache.misses == misses)
        #expect(cache.hits == hits + app.bubblesScreen.visibleCount)
    }

    static let goldenCases: [(Device, Bool, String)] = Device.presets.flatMap { d in [false, true].map { (d, $0, "en") } } + [(.iPhone3GS, false, "de")]

    @Test(arguments: goldenCases)
    func golden(device: Device, inCall: Bool, language: String) throws {
        let (app, host, _) = try app(device, inCall: inCall, language: language)
        if language != "en" { app.bubblesScreen.showCallout(for: 3) }
        Golden.check(try host.snapshot(), "bubbles", "\(device.identifier)-\(language)\(inCall ? "-call" : "")")
    }
}
