import CrispUI
import Foundation
import Testing

@Suite struct ScreenTests {
    @Test func presetsMatchTheDesignTable() {
        let expected: [(String, Int, Int)] = [("iphone3gs", 320, 480), ("iphone4", 640, 960), ("iphone5", 640, 1136),
                                              ("ipad", 768, 1024), ("ipad-retina", 1536, 2048)]
        #expect(Device.presets.map { ($0.identifier) } == expected.map(\.0))
        for (device, (_, w, h)) in zip(Device.presets, expected) {
            #expect(device.pixelWidth == w && device.pixelHeight == h, "\(device)")
        }
        #expect(Device.iPhone3GS.withScale(2) == .iPhone4)
        #expect(Device.preset(named: "IPAD") == .iPad)
    }

    @Test(arguments: [("iphone-3gs", "iphone3gs"), ("iPhone_3GS", "iphone3gs"), ("iPhone 3GS", "iphone3gs"),
                      ("iphone3gs", "iphone3gs"), ("iphone-4", "iphone4"), ("IPHONE5", "iphone5"),
                      ("ipadretina", "ipad-retina"), ("ipad_retina", "ipad-retina"), ("iPad (retina)", "ipad-retina"),
                      ("ipad", "ipad")])
    func deviceNamesAreForgiving(name: String, identifier: String) {
        #expect(Device.preset(named: name)?.identifier == identifier)
    }

    @Test(arguments: ["", "-", "iphone6", "ipad-mini", "iphone 3g"])
    func unknownDeviceNamesAreNil(name: String) {
        #expect(Device.preset(named: name) == nil)
    }

    @Test func customScreenFromWindowPixels() {
        let d = Device.custom(pixelWidth: 701, pixelHeight: 900, scale: 2)
        #expect(d.pointSize == CGSize(width: 350.5, height: 450))
        #expect(d.pixelWidth == 701 && d.pixelHeight == 900)
    }

    @Test func statusBarFrames() {
        let s = Screen(device: .iPhone5)
        #expect(s.statusBarFrame == CGRect(x: 0, y: 0, width: 320, height: 20))
        #expect(s.applicationFrame == CGRect(x: 0, y: 20, width: 320, height: 548))
        s.setInCall(true)
        #expect(s.statusBarFrame == CGRect(x: 0, y: 0, width: 320, height: 40))
        #expect(s.applicationFrame == CGRect(x: 0, y: 40, width: 320, height: 528))
    }

    /// Will-change comes first with the new frame while the layout is still the old one; then
    /// the root view is laid out again; then did-change with the old frame and the new layout.
    @Test(arguments: [false, true])
    func willLayoutDidOrdering(startInCall: Bool) {
        final class Root: View {
            var events: [String] = []
            override func layoutSubviews() { events.append("layout \(frame.minY) \(frame.height)") }
        }
        let screen = Screen(device: .iPhone4, isInCall: startInCall)
        let window = Window(screen: screen)
        let root = Root()
        window.rootView = root
        window.layoutIfNeeded()
        root.events.removeAll()
        screen.addObserver { event in
            switch event {
            case let .statusBarFrameWillChange(newFrame):
                root.events.append("will \(newFrame.height) root \(root.frame.minY)")
            case let .statusBarFrameDidChange(oldFrame):
                root.events.append("did \(oldFrame.height) root \(root.frame.minY)")
            case .deviceDidChange:
                root.events.append("device")
            }
        }
        screen.setInCall(!startInCall)
        let (old, new): (CGFloat, CGFloat) = startInCall ? (40, 20) : (20, 40)
        #expect(root.events == ["will \(new) root \(old)", "layout \(new) \(480 - new)", "did \(old) root \(new)"])
        screen.setInCall(!startInCall)
        #expect(root.events.count == 3, "no events when nothing changes")
    }

    @Test func deviceChangeResizesTheWindowAndRepaintsEverything() throws {
        let screen = Screen(device: .iPhone3GS)
        let window = Window(screen: screen)
        let root = View()
        window.rootView = root
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        var events: [ScreenEvent] = []
        screen.addObserver { events.append($0) }
        screen.setDevice(.iPad)
        #expect(events == [.deviceDidChange(oldDevice: .iPhone3GS)])
        #expect(window.frame == CGRect(x: 0, y: 0, width: 768, height: 1024))
        #expect(root.frame == CGRect(x: 0, y: 20, width: 768, height: 1004))
        #expect(try host.renderFrame() == [CGRect(x: 0, y: 0, width: 768, height: 1024)])
        #expect(host.context.width == 768)
    }
}

@Suite struct EventLoopTests {
    @Test func idleLoopHasNoDeadline() {
        let loop = ManualClock().makeLoop()
        #expect(loop.nextDeadline() == nil)
        #expect(!loop.hasScheduledWork)
    }

    @Test func oneShotAndRepeatingTimers() {
        let clock = ManualClock()
        let loop = clock.makeLoop()
        var fired: [String] = []
        loop.schedule(after: 0.5) { fired.append("once") }
        let tick = loop.schedule(after: 1, repeating: 1) { fired.append("tick") }
        #expect(loop.nextDeadline() == clock.now + 0.5)
        clock.advance(by: 0.4)
        loop.runDueWork()
        #expect(fired.isEmpty)
        clock.advance(by: 0.1)
        loop.runDueWork()
        #expect(fired == ["once"])
        clock.advance(by: 0.5)
        loop.runDueWork()
        #expect(fired == ["once", "tick"])
        // A late wake-up fires a missed repeating timer once, not in a burst.
        clock.advance(by: 3.2)
        loop.runDueWork()
        #expect(fired == ["once", "tick", "tick"])
        #expect(abs(tick.fireTime - (clock.now + 0.8)) < 1e-9)
        tick.invalidate()
        #expect(loop.nextDeadline() == nil)
    }

    @Test func displayLinkRunsPerFrameAndPausedCostsNothing() {
        let clock = ManualClock()
        let loop = clock.makeLoop()
        var frames = 0
        let link = loop.addDisplayLink(framesPerSecond: 50) { _ in frames += 1 }
        #expect(loop.nextDeadline() == clock.now)
        loop.runDueWork()
        #expect(frames == 1)
        #expect(abs(loop.nextDeadline()! - (clock.now + 0.02)) < 1e-9)
        clock.advance(by: 0.02)
        loop.runDueWork()
        #expect(frames == 2)
        link.isPaused = true
        #expect(loop.nextDeadline() == nil)
        link.isPaused = false
        link.invalidate()
        #expect(loop.nextDeadline() == nil)
    }
}
