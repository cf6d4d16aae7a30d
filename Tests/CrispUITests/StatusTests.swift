import CrispGraphics
import CrispUI
import Foundation
import Testing

/// A view that lays out one identified child in its lower right quarter and one filling it.
private final class QuarterView: View {
    let fill = View()
    let quarter = View()

    override init(frame: CGRect) {
        super.init(frame: frame)
        fill.accessibilityIdentifier = "content"
        quarter.accessibilityIdentifier = "quarter"
        addSubview(fill)
        addSubview(quarter)
    }

    override func layoutSubviews() {
        fill.frame = bounds
        quarter.frame = CGRect(x: bounds.midX, y: bounds.midY, width: bounds.width / 2, height: bounds.height / 2)
    }
}

@Suite struct StatusLineTests {
    @Test func layoutLinesAreWholeWindowPixelsFromTheTopLeft() throws {
        let window = makeWindow(width: 100, height: 80, scale: 2)
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let container = View(frame: CGRect(x: 5, y: 5, width: 60, height: 60))
        let v = View(frame: CGRect(x: 5.25, y: 0, width: 20, height: 10.2))
        v.accessibilityIdentifier = "button.ok"
        container.addSubview(v)
        window.addSubview(container)
        try HeadlessHost(window: window).renderFrame()
        // x: (5 + 5.25)·2 = 20.5 → 21; right edge 30.25·2 = 60.5 → 61; bottom 15.2·2 = 30.4 → 30.
        #expect(lines == ["layout button.ok 21 10 40 20"])
    }

    @Test func onlyChangedVisibleFramesAreReportedAgain() throws {
        let window = makeWindow()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let a = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = View(frame: CGRect(x: 20, y: 0, width: 10, height: 10))
        a.accessibilityIdentifier = "a"
        b.accessibilityIdentifier = "b"
        window.addSubview(a)
        window.addSubview(b)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(lines == ["layout a 0 0 10 10", "layout b 20 0 10 10"])
        lines = []
        b.frame.origin.x = 30
        a.backgroundColor = .white
        try host.renderFrame()
        #expect(lines == ["layout b 30 0 10 10"])
        lines = []
        a.isHidden = true
        a.frame.origin.y = 5
        try host.renderFrame()
        #expect(lines.isEmpty)
        a.isHidden = false
        b.removeFromSuperview()
        window.addSubview(b)
        try host.renderFrame()
        #expect(lines == ["layout a 0 5 10 10", "layout b 30 0 10 10"])
    }

    @Test func aNewSinkHearsEveryIdentifiedViewAtTheNextFrame() throws {
        let window = makeWindow()
        let v = View(frame: CGRect(x: 1, y: 2, width: 3, height: 4))
        v.accessibilityIdentifier = "v"
        window.addSubview(v)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        #expect(window.needsFrame)
        try host.renderFrame()
        #expect(lines == ["layout v 1 2 3 4"])
    }

    @Test func aLayoutPassReportsWithoutAFrame() {
        let window = makeWindow()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let root = QuarterView(frame: .zero)
        window.rootView = root
        window.layoutIfNeeded()
        #expect(lines == ["layout content 0 20 100 60", "layout quarter 50 50 50 30"])
    }

    @Test func transformedViewsReportTheirBoundingBox() throws {
        let window = makeWindow()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let v = View(frame: CGRect(x: 40, y: 30, width: 20, height: 10))
        v.accessibilityIdentifier = "v"
        v.transform = CGAffineTransform(rotationAngle: .pi / 2)
        window.addSubview(v)
        try HeadlessHost(window: window).renderFrame()
        #expect(lines == ["layout v 45 25 10 20"])
    }

    @Test func publishStateNeedsAnIdentifierAndAWindow() {
        let window = makeWindow()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let v = View()
        v.publishState("on")
        v.accessibilityIdentifier = "switch.gps"
        v.publishState("on")
        window.addSubview(v)
        v.publishState("off")
        v.publishState("0.125")
        #expect(lines == ["state switch.gps off", "state switch.gps 0.125"])
    }

    @Test(arguments: Device.presets, [false, true])
    func framesAtEveryDevicePreset(device: Device, inCall: Bool) throws {
        let window = Window(screen: Screen(device: device, isInCall: inCall), eventLoop: ManualClock().makeLoop())
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let bar = View()
        bar.accessibilityIdentifier = "statusbar"
        window.statusBar = bar
        window.rootView = QuarterView(frame: .zero)
        try HeadlessHost(window: window).renderFrame()
        let s = device.scale, w = device.pointSize.width, h = device.pointSize.height
        let top = inCall ? 40.0 : 20.0
        func px(_ v: CGFloat) -> Int { Int((v * s).rounded()) }
        #expect(Set(lines) == [
            "layout statusbar 0 0 \(px(w)) \(px(top))",
            "layout content 0 \(px(top)) \(px(w)) \(px(h - top))",
            "layout quarter \(px(w / 2)) \(px(top + (h - top) / 2)) \(px(w / 2)) \(px((h - top) / 2))",
        ])
        #expect(lines.count == 3)
    }

    /// Every value readable: an identified view's current value follows its first `layout`
    /// line (the first frame, and again after it rejoins the window), not only on a change.
    @Test func everyValueIsReadableFromItsFirstFrame() throws {
        let window = makeWindow()
        var lines: [String] = []
        window.statusSink = { lines.append($0) }
        let valued = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        valued.accessibilityIdentifier = "valued"
        valued.publishState("on")  // before it has a window: no line, but the value is kept
        let plain = View(frame: CGRect(x: 10, y: 0, width: 10, height: 10))
        plain.accessibilityIdentifier = "plain"
        window.addSubview(valued)
        window.addSubview(plain)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(lines == ["layout valued 0 0 10 10", "state valued on", "layout plain 10 0 10 10"])

        lines = []
        valued.frame.origin.x = 2
        try host.renderFrame()
        #expect(lines == ["layout valued 2 0 10 10"], "a move is no first report: no state line")

        lines = []
        valued.removeFromSuperview()
        valued.accessibilityValue = "3.5"
        window.addSubview(valued)
        try host.renderFrame()
        #expect(lines == ["layout valued 2 0 10 10", "state valued 3.5"], "rejoining the window (a screen appearing)")
    }
}
