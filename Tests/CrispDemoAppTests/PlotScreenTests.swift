import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The plot screen: dragging, adding, selecting and removing points, its status lines, its
/// layout at every size, and how it looks.
@Suite struct PlotScreenTests {
    /// The app on the plot screen with its status lines collected, after the first frame.
    func app(_ device: Device = .iPhone3GS, inCall: Bool = false, language: String = "en") throws -> (AppController, HeadlessHost, StatusLines) {
        try launchedApp(screen: "plot", device: device, inCall: inCall, language: language)
    }

    /// The plot area in window points (y down), worked out from the view's frame and margins
    /// without the view's own conversions.
    func plotAreaInWindow(_ plot: ScatterPlotView) -> CGRect {
        let frame = plot.convert(plot.bounds, to: nil)
        return CGRect(x: frame.minX + 38, y: frame.minY + 26, width: frame.width - 38 - 14, height: frame.height - 26 - 24)
    }

    @Test(arguments: controlsDeviceCases)
    func draggingMapsWindowPixelsToDataUnits(device: Device, inCall: Bool) throws {
        let (app, _, lines) = try app(device, inCall: inCall)
        let plot = app.plotScreen.plot
        let area = plotAreaInWindow(plot)
        let s = app.screen.scale
        let start = plot.convert(plot.viewLocation(ofDataPoint: plot.points[3]), to: nil)
        app.window.handlePointer(.down, at: start)
        // Whole window pixels, as the X11 host reports them (pixels / scale).
        for (px, py) in [(0.3, 0.6), (0.5, 0.4), (0.71, 0.25)] as [(CGFloat, CGFloat)] {
            let pixel = CGPoint(x: ((area.minX + px * area.width) * s).rounded(), y: ((area.minY + py * area.height) * s).rounded())
            app.window.handlePointer(.moved, at: CGPoint(x: pixel.x / s, y: pixel.y / s))
            let expectedX = 0 + (pixel.x / s - area.minX) / area.width * 6
            let expectedY = 0 + (area.maxY - pixel.y / s) / area.height * 4
            #expect(abs(plot.points[3].x - expectedX) < 1e-9 && abs(plot.points[3].y - expectedY) < 1e-9,
                    "\(device.identifier): pixel \(pixel) gave \(plot.points[3]), expected (\(expectedX), \(expectedY))")
            #expect(lines.items.contains("state plot.point.3 \(ControlState.string(expectedX)) \(ControlState.string(expectedY))"))
        }
        app.window.handlePointer(.up, at: CGPoint(x: 0, y: 0))
        #expect(plot.draggedIndex == nil)
    }

    @Test func draggingUpIncreasesYAndUpdatesTheFit() throws {
        let (app, host, lines) = try app()
        let plot = app.plotScreen.plot
        let before = plot.points[3], fitBefore = try #require(plot.fit)
        let start = plot.convert(plot.viewLocation(ofDataPoint: before), to: nil)
        app.window.handlePointer(.down, at: start)
        app.window.handlePointer(.moved, at: CGPoint(x: start.x, y: start.y - 40))
        try host.renderFrame()
        app.window.handlePointer(.up, at: CGPoint(x: start.x, y: start.y - 40))
        #expect(plot.points[3].y > before.y)
        #expect(abs(plot.points[3].x - before.x) < 1e-9)
        let fit = try #require(plot.fit)
        #expect(fit != fitBefore)
        let expected = "state plot.fit \(ControlState.string(CGFloat(fit.slope))) \(ControlState.string(CGFloat(fit.intercept))) \(ControlState.string(CGFloat(fit.rSquared)))"
        #expect(lines.items.last { $0.hasPrefix("state plot.fit ") } == expected)
    }

    /// A drag repaints only the data's changing parts (the line's strips, the dot, the
    /// coordinate box, the fit's text), and leaves the pixels of a full repaint.
    @Test(arguments: [Device.iPhone3GS, .iPadRetina])
    func dragRepaintsPartOfThePlotAndLeavesNoTrace(device: Device) throws {
        let (app, host, _) = try app(device)
        let plot = app.plotScreen.plot
        let start = plot.convert(plot.viewLocation(ofDataPoint: plot.points[3]), to: nil)
        app.window.handlePointer(.down, at: start)
        try host.renderFrame()
        var repainted: CGFloat = 0
        for dy in [-12, -30, -55, -20, 15] as [CGFloat] {
            app.window.handlePointer(.moved, at: CGPoint(x: start.x + dy / 3, y: start.y + dy))
            repainted = try host.renderFrame().reduce(0) { $0 + $1.width * $1.height }
        }
        let plotPixels = plot.bounds.width * plot.bounds.height * app.screen.scale * app.screen.scale
        #expect(repainted > 0 && repainted < plotPixels / 2, "a drag frame repainted \(repainted) of the plot's \(plotPixels) pixels")
        let dragged = try host.snapshot()
        app.window.invalidateEverything()
        let full = try host.snapshot()
        // Up to one level per channel: the line's anti-aliased edge is rasterized within the
        // repainted rectangles' clip, and its coverage can round one level apart from the full
        // repaint's (seen on about 40 edge pixels at retina). A stale dot, line or box would
        // differ by far more.
        func channelsWithinOne(_ a: UInt32, _ b: UInt32) -> Bool {
            for shift in stride(from: UInt32(0), to: 32, by: 8) {
                let x = Int((a >> shift) & 0xFF), y = Int((b >> shift) & 0xFF)
                if abs(x - y) > 1 { return false }
            }
            return true
        }
        var differing: [Int] = []
        for i in full.pixels.indices where !channelsWithinOne(full.pixels[i], dragged.pixels[i]) { differing.append(i) }
        let first = differing.first.map { "(\($0 % full.width), \($0 / full.width))" } ?? "-"
        #expect(differing.isEmpty, "a full repaint after the drag differs at \(differing.count) pixels, the first at \(first)")
        app.window.handlePointer(.up, at: CGPoint(x: start.x + 5, y: start.y + 15))
    }

    @Test func tapAddsSelectsAndDeleteRemoves() throws {
        let (app, _, lines) = try app()
        let plot = app.plotScreen.plot
        let count = plot.points.count
        #expect(count == 40)
        // Empty space: the top-right corner of the area has no point near it.
        let area = plotAreaInWindow(plot)
        let empty = CGPoint(x: area.maxX - 3, y: area.minY + 3)
        #expect(plot.pointIndex(near: plot.convert(empty, from: nil)) == nil)
        app.window.handlePointer(.down, at: empty)
        app.window.handlePointer(.up, at: empty)
        #expect(plot.points.count == count + 1)
        #expect(plot.pointViews.last?.accessibilityIdentifier == "plot.point.40")
        #expect(lines.items.contains { $0.hasPrefix("state plot.point.40 ") })
        // A tap on point 5 selects it; Delete removes it and renumbers the rest.
        let sixth = plot.points[6]
        let p = plot.convert(plot.viewLocation(ofDataPoint: plot.points[5]), to: nil)
        app.window.handlePointer(.down, at: p)
        app.window.handlePointer(.up, at: p)
        #expect(plot.selectedIndex == 5)
        app.handleKey(KeyPress(characters: "", specialKey: .delete))
        #expect(lines.items.contains("key Delete"))
        #expect(plot.points.count == count)
        #expect(plot.points[5] == sixth)
        #expect(plot.selectedIndex == nil)
        #expect(plot.pointViews.last?.accessibilityIdentifier == "plot.point.39")
        // Nothing selected: Delete does nothing.
        app.handleKey(KeyPress(characters: "", specialKey: .delete))
        #expect(plot.points.count == count)
    }

    @Test(arguments: controlsDeviceCases)
    func pointsAndTicksFitEveryScreen(device: Device, inCall: Bool) throws {
        let (app, _, lines) = try app(device, inCall: inCall)
        let plot = app.plotScreen.plot
        #expect(plot.frame == app.plotScreen.bounds)
        for (i, v) in plot.pointViews.enumerated() {
            #expect(v.accessibilityIdentifier == "plot.point.\(i)")
            #expect(plot.bounds.contains(v.frame), "\(device.identifier): point \(i) leaves the plot")
            #expect(lines.items.contains { $0.hasPrefix("layout plot.point.\(i) ") })
        }
        #expect(lines.items.contains { $0.hasPrefix("layout plot ") })
    }

    @Test func biggerPlotsGetMoreTicks() {
        let small = ScatterPlotView.tickStep(span: 6, length: 260, spacing: 36)
        let big = ScatterPlotView.tickStep(span: 6, length: 700, spacing: 36)
        #expect(small == 1 && big == 0.5)
        #expect(ScatterPlotView.ticks(in: 0...4, step: 0.5).count == 9)
    }

    @Test func theDataSetIsSeeded() {
        #expect(PlotScreen.seededData() == PlotScreen.seededData())
        #expect(PlotScreen.seededData().count == 40)
        #expect(PlotScreen.seededData().allSatisfy { (0...6).contains($0.x) && (0...4).contains($0.y) })
    }

    static let goldenCases: [(Device, Bool, String)] = Device.presets.flatMap { d in [false, true].map { (d, $0, "en") } } + [(.iPhone3GS, false, "de")]

    @Test(arguments: goldenCases)
    func golden(device: Device, inCall: Bool, language: String) throws {
        let (_, host, _) = try app(device, inCall: inCall, language: language)
        Golden.check(try host.snapshot(), "plot", "\(device.identifier)-\(language)\(inCall ? "-call" : "")")
    }
}
