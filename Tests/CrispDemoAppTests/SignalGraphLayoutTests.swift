import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// Every device × scale × call bar.
let layoutCases: [(Device, Bool)] = {
    var cases: [(Device, Bool)] = []
    for base in [Device.iPhone3GS, .iPhone5, .iPad] {
        for scale in [1, 2] as [CGFloat] {
            for inCall in [false, true] { cases.append((base.withScale(scale), inCall)) }
        }
    }
    return cases
}()

@Suite struct SignalGraphLayoutTests {
    /// The plot's frame in window points.
    func plotFrame(_ device: Device, inCall: Bool) -> CGRect {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41"))
        app.window.layoutIfNeeded()
        return app.signalScreen.graph.plot.convert(app.signalScreen.graph.plot.bounds, to: nil)
    }

    @Test(arguments: layoutCases)
    func plotTakesTheFlexibleSpace(device: Device, inCall: Bool) {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41"))
        app.window.layoutIfNeeded()
        let screen = app.screen
        let graph = app.signalScreen.graph
        let statusHeight: CGFloat = inCall ? 40 : 20
        #expect(app.statusBar.frame == CGRect(x: 0, y: 0, width: screen.bounds.width, height: statusHeight))
        #expect(graph.convert(graph.bounds, to: nil) == CGRect(x: 0, y: statusHeight, width: screen.bounds.width,
                                                               height: screen.bounds.height - statusHeight - TabBarView.height))
        let plot = graph.plot.frame
        // Fixed margins: everything that is not the plot has a size independent of the screen.
        let fixedWidth = graph.bounds.width - plot.width
        let fixedHeight = graph.bounds.height - plot.height
        let reference = plotFrame(.iPhone3GS, inCall: false)
        #expect(fixedWidth == 320 - reference.width, "\(device)")
        #expect(fixedHeight == 460 - TabBarView.height - reference.height, "\(device) in call \(inCall)")
        // The axes meet at a whole point (pixel-aligned shafts at every integer scale), at the
        // plot's bottom-left corner.
        let o = graph.axisOrigin
        #expect(o.x == o.x.rounded() && o.y == o.y.rounded())
        #expect(plot.minX == o.x + 1 && plot.maxY == o.y - 1)
        #expect(graph.leftAxis.convert(graph.leftAxis.origin, to: graph) == o)
        #expect(graph.bottomAxis.convert(graph.bottomAxis.origin, to: graph) == o)
        // Labels sit outside the axes, within the view.
        #expect(graph.leftAxisLabel.frame.maxX <= graph.leftAxis.frame.minX)
        #expect(graph.bottomAxisLabel.frame.minY >= graph.bottomAxis.frame.maxY)
        #expect(graph.bounds.contains(graph.leftAxisLabel.frame) && graph.bounds.contains(graph.bottomAxisLabel.frame))
    }

    @Test(arguments: [Device.iPhone3GS, .iPhone4, .iPhone5, .iPad, .iPadRetina])
    func callBarMovesThePlotDown20AndTakes20(device: Device) {
        let normal = plotFrame(device, inCall: false), inCall = plotFrame(device, inCall: true)
        #expect(inCall.minY == normal.minY + 20)
        #expect(inCall.height == normal.height - 20)
        #expect(inCall.minX == normal.minX && inCall.width == normal.width)
    }

    @Test func scaleDoesNotChangeTheLayoutInPoints() {
        #expect(plotFrame(.iPhone3GS, inCall: false) == plotFrame(.iPhone4, inCall: false))
        #expect(plotFrame(.iPad, inCall: true) == plotFrame(.iPadRetina, inCall: true))
    }

    @Test func plotGrowsOnTheFourInchScreen() {
        let short = plotFrame(.iPhone4, inCall: false), tall = plotFrame(.iPhone5, inCall: false)
        #expect(tall.height == short.height + 88)
        #expect(tall.width == short.width && tall.minY == short.minY)
    }

    @Test func freeResizeLaysOutAgainAtTheNewSize() {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone4, fixedTime: "9:41"))
        app.window.layoutIfNeeded()
        let before = app.signalScreen.graph.plot.frame
        app.screen.setDevice(.custom(pixelWidth: 900, pixelHeight: 1200, scale: 2))
        let after = app.signalScreen.graph.plot.frame
        #expect(after.width == before.width + 130)
        #expect(after.height == before.height + 120)
    }

    /// The `c` key animates the bar: will-change at once, did-change when the layout has arrived.
    @Test func statusBarChangeAnnouncesAndRelaysOut() throws {
        var now: TimeInterval = 100
        let loop = EventLoop(clock: { now })
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone4, fixedTime: "9:41"), eventLoop: loop)
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        var seen: [String] = []
        app.screen.addObserver { event in
            let y = app.signalScreen.graph.plot.convert(CGPoint.zero, to: nil).y
            switch event {
            case .statusBarFrameWillChange(let f): seen.append("will \(f.height) plot \(y)")
            case .statusBarFrameDidChange(let f): seen.append("did \(f.height) plot \(y)")
            default: break
            }
        }
        let y0 = app.signalScreen.graph.plot.convert(CGPoint.zero, to: nil).y
        app.handleKey(KeyPress(characters: "c"))
        #expect(seen == ["will 40.0 plot \(y0)"])
        now += Screen.statusBarAnimationDuration / 2
        loop.runDueWork()
        try host.renderFrame()
        let halfway = app.signalScreen.graph.plot.convert(CGPoint.zero, to: nil).y
        #expect(halfway > y0 && halfway < y0 + 20)
        #expect(seen.count == 1)
        now += Screen.statusBarAnimationDuration / 2
        loop.runDueWork()
        #expect(seen == ["will 40.0 plot \(y0)", "did 20.0 plot \(y0 + 20)"])
        #expect(app.statusBar.showsCallBand)
        #expect(!loop.isAnimating)
    }
}

@Suite struct AxisTests {
    @Test(arguments: [AxisView.Direction.up, .right])
    func axisIsOneClosedPolygon(direction: AxisView.Direction) {
        let axis = AxisView(direction: direction)
        axis.frame = axis.frame(origin: CGPoint(x: 20, y: 100), end: direction == .up ? 10 : 200)
        let elements = axis.outline.elements
        let moves = elements.filter { if case .moveTo = $0 { return true } else { return false } }
        #expect(moves.count == 1)
        #expect(elements.last == .closeSubpath)
        #expect(elements.count == 10)
    }

    /// Where the two axes meet there is no seam: every pixel of the origin square and of both
    /// shafts next to it is fully the axis colour.
    @Test(arguments: [1, 2] as [CGFloat])
    func axesMeetWithoutASeam(scale: CGFloat) throws {
        let device = Device(identifier: "t", name: "t", pointSize: CGSize(width: 60, height: 60), scale: scale)
        let window = Window(screen: Screen(device: device))
        window.backgroundColor = .white
        let up = AxisView(direction: .up), right = AxisView(direction: .right)
        let o = CGPoint(x: 20, y: 40)
        up.frame = up.frame(origin: o, end: 5)
        right.frame = right.frame(origin: o, end: 55)
        window.addSubview(up)
        window.addSubview(right)
        let image = try HeadlessHost(window: window).snapshot()
        let axis = UInt32(0xFF26_2626)
        let s = Int(scale)
        // Shaft thickness 2 pt around the origin's lines, out to 5 pt from the origin each way.
        for y in (Int(o.y) - 1) * s..<(Int(o.y) + 1) * s {
            for x in (Int(o.x) - 5) * s..<(Int(o.x) + 5) * s { #expect(image.pixel(x: x, y: y) == axis, "(\(x), \(y))") }
        }
        for x in (Int(o.x) - 1) * s..<(Int(o.x) + 1) * s {
            for y in (Int(o.y) - 5) * s..<(Int(o.y) + 5) * s { #expect(image.pixel(x: x, y: y) == axis, "(\(x), \(y))") }
        }
        // And the shafts' outer edges are crisp: the pixel beside them is background.
        #expect(image.pixel(x: (Int(o.x) + 1) * s, y: (Int(o.y) - 10) * s) == 0xFFFF_FFFF)
        #expect(image.pixel(x: (Int(o.x) + 10) * s, y: (Int(o.y) + 1) * s) == 0xFFFF_FFFF)
    }
}
