import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The assets screen: it waits for its report, lays out without overlaps at every size, pages
/// on a phone, reports its state, and how it looks.
///
/// The report shown is made once for every test here, from the demo's real catalog on the
/// iPhone 3GS alone and with fixed code sizes (2000 bytes per item), so the goldens do not
/// change with every compile of the test binary and the debug build makes it in seconds.
@Suite struct AssetsScreenTests {
    final class Lines { var items: [String] = [] }

    static let task: AssetReportTask = {
        let icons = DemoApplication.tabIcons
        let prefixes = AssetCatalog.demo(tabIcons: icons, image: nil).map(\.codePrefixes)
        let symbols = SymbolSizes(functions: prefixes.map { ($0[0] + "4draw", 2000) })
        return AssetReportTask { progress in
            try AssetReport.compute(items: AssetCatalog.demo(tabIcons: icons), devices: [.iPhone3GS], codeSizes: .success(symbols), progress: progress)
        }
    }()

    /// The demo's screens, the assets screen showing the report `task` makes (the `screens:`
    /// of `AppController`'s launch: a screen made with test data).
    static func screens(reportBy task: AssetReportTask) -> [AppScreen] {
        [.signal, .controls, .plot, .bubbles, .assets(task: task)]
    }

    /// The app on the assets screen with the shared report shown, after the first frame.
    func app(_ device: Device = .iPhone3GS, inCall: Bool = false, language: String = "en", theme: String = "blue")
        throws -> (AppController, HeadlessHost, Lines) {
        let app = AppController(application: DemoApplication.self, screens: Self.screens(reportBy: Self.task),
                                configuration: AppConfiguration(device: device, isInCall: inCall, language: language,
                                                                fixedTime: "9:41", screen: "assets", theme: theme))
        let lines = Lines()
        app.eventLog = { lines.items.append($0) }
        app.window.statusSink = { lines.items.append($0) }
        app.assetsScreen.waitForReport()
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        return (app, host, lines)
    }

    /// The soak (seed 2) trapped here: a window resized to 705×57 px left the screen no height,
    /// `bounds.insetBy` gave the null rectangle at infinity, and writing its views' `layout`
    /// lines converted infinity to `Int`.
    @Test func aWindowWithNoRoomForTheScreenLaysItOutFinitely() throws {
        let sliver = Device(identifier: "sliver", name: "Sliver", pointSize: CGSize(width: 705, height: 57), scale: 1)
        let (app, host, lines) = try app(sliver)
        try host.renderFrame()
        func check(_ view: View) {
            let f = view.frame
            #expect(f.minX.isFinite && f.minY.isFinite && f.width.isFinite && f.height.isFinite,
                    "\(view.accessibilityIdentifier ?? "\(type(of: view))"): \(f)")
            view.subviews.forEach(check)
        }
        check(app.assetsScreen)
        #expect(lines.items.contains { $0.hasPrefix("layout assets.table ") })
    }

    @Test func theScreenIsLastInTheTabOrder() {
        #expect(DemoApplication.screens.map(\.name) == ["signal", "controls", "plot", "bubbles", "assets"])
        let app = AppController(application: DemoApplication.self, screens: Self.screens(reportBy: Self.task))
        #expect(app.tabBar.itemViews.last?.accessibilityIdentifier == "tab.assets")
    }

    @Test func theReportIsMadeOnlyWhenTheScreenIsDrawn() throws {
        let task = AssetReportTask { _ in AssetReport(rows: [], files: [], deviceCount: 0, languageCount: 0) }
        let app = AppController(application: DemoApplication.self, screens: Self.screens(reportBy: task))
        let host = try HeadlessHost(window: app.window)
        try host.renderFrame()
        app.showScreen(app.assetsScreen)
        app.window.layoutIfNeeded()
        #expect(task.state == .waiting)
        try host.renderFrame()
        #expect(task.state != .waiting)
    }

    @Test func itShowsTheReportAndSaysSo() throws {
        let (app, host, lines) = try app()
        let screen = app.assetsScreen
        let report = try #require(screen.report)
        #expect(screen.table.rows.count == report.rows.count + 1)
        #expect(screen.table.rows.map(\.accessibilityIdentifier) == (report.rows.map(\.name) + ["total"]).map { "assets.row.\($0)" })
        #expect(screen.summaryLabels[0].text.hasPrefix("Signal background: 4 bitmaps"))
        let t = report.total
        #expect(lines.items.contains("state assets ready \(t.variants) \(t.pngBytes) \(t.codeBytes!)"))
        _ = host
        #expect(lines.items.contains { $0.hasPrefix("layout assets.row.total ") })
    }

    @Test(arguments: Device.presets.flatMap { d in [false, true].map { (d, $0) } })
    func nothingOverlapsOrLeavesTheScreen(device: Device, inCall: Bool) throws {
        let (app, _, _) = try app(device, inCall: inCall)
        let screen = app.assetsScreen
        for page in [AssetsScreen.Page.table, .chart] {
            screen.page = page
            app.window.layoutIfNeeded()
            let visible = (screen.summaryLabels + screen.pageButtons + [screen.table, screen.chart] as [View]).filter { !$0.isHidden }
            for v in visible {
                #expect(screen.bounds.contains(v.frame), "\(v.accessibilityIdentifier ?? "?") \(v.frame) leaves \(screen.bounds)")
                #expect(v.frame.height >= 10, "\(v.accessibilityIdentifier ?? "?") is \(v.frame.height) pt high")
            }
            for (i, a) in visible.enumerated() {
                for b in visible[(i + 1)...] {
                    let shared = a.frame.intersection(b.frame)
                    #expect(shared.isNull || shared.width * shared.height == 0, "\(a.accessibilityIdentifier ?? "?") overlaps \(b.accessibilityIdentifier ?? "?")")
                }
            }
            if !screen.table.isHidden {
                for row in screen.table.rows {
                    #expect(screen.table.bounds.contains(row.frame) && row.frame.height >= 9)
                }
            }
        }
    }

    @Test func aPhonePagesBetweenTableAndChart() throws {
        let (app, _, lines) = try app()
        let screen = app.assetsScreen
        #expect(!screen.showsBoth && !screen.table.isHidden && screen.chart.isHidden)
        app.handleKey(KeyPress(characters: "p"))
        app.window.layoutIfNeeded()
        #expect(screen.table.isHidden && !screen.chart.isHidden)
        #expect(lines.items.contains("state assets page chart"))
        let (pad, _, _) = try self.app(.iPad)
        #expect(pad.assetsScreen.showsBoth && !pad.assetsScreen.table.isHidden && !pad.assetsScreen.chart.isHidden)
    }

    static let goldenCases: [(Device, Bool, String, AssetsScreen.Page)] =
        Device.presets.map { ($0, false, "en", .table) }
        + [(.iPhone3GS, true, "en", .table), (.iPhone3GS, false, "de", .table), (.iPhone3GS, false, "es", .chart),
           (.iPhone4, false, "en", .chart)]

    @Test(arguments: goldenCases)
    func golden(device: Device, inCall: Bool, language: String, page: AssetsScreen.Page) throws {
        let (app, host, _) = try app(device, inCall: inCall, language: language)
        app.assetsScreen.page = page
        Golden.check(try host.snapshot(), "assets", "\(device.identifier)-\(language)\(inCall ? "-call" : "")\(page == .chart ? "-chart" : "")")
    }
}
