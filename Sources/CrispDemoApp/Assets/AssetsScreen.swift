import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The assets screen (seeds 000 and 004, the essays on bitmap variants and PNG sizes): the
/// asset report — what the demo would ship as PNGs if it were drawn in bitmaps, beside the
/// code that draws it — as two summary lines (the essay's "5 × n" for the signal graph's
/// background, and the whole app), a table and a bar chart.
///
/// The report takes seconds to make, so it is made on a thread of its own (`task`) the first
/// time the screen is drawn, the summary showing the progress meanwhile; a snapshot calls
/// `waitForReport()` first. On an iPad-sized screen the table and the chart show
/// one above the other; on a phone one at a time, with two page buttons on top (and the `p` key).
///
/// Identifiers: `assets` (states `computing <done> <total>`, `ready <bitmaps> <png bytes>
/// <code bytes>`, `failed`), `assets.summary.signal`, `assets.summary.app`, `assets.page.table`,
/// `assets.page.chart` (states `selected`/`unselected`, phone only), `assets.table`,
/// `assets.chart`, `assets.row.<item>` and `assets.row.total`.
public final class AssetsScreen: View, DemoScreen, ThemeFollowing {
    /// Which part a phone-sized screen shows.
    public enum Page: String, Sendable { case table, chart }

    /// The computation.
    public let task: AssetReportTask
    /// The two summary lines: the signal graph's background, and the whole app.
    public let summaryLabels = [Label(text: "", fontSize: 11), Label(text: "", fontSize: 11)]
    /// The page buttons (phone): table, chart.
    public let pageButtons = [Label(localizationKey: "Table", fontSize: 11), Label(localizationKey: "Chart", fontSize: 11)]
    /// The table.
    public let table = AssetTableView()
    /// The chart.
    public let chart = AssetChartView()
    /// The page a phone-sized screen shows.
    public var page = Page.table {
        didSet {
            guard page != oldValue else { return }
            updatePageButtons()
            setNeedsLayout()
            publishState("page \(page.rawValue)")
        }
    }
    /// The colours.
    public var theme: Theme = .blue { didSet { if theme != oldValue { updatePageButtons() } } }
    /// The report, once made.
    public private(set) var report: AssetReport?

    public static let name = "assets"
    public static let titleKey = "Assets"
    public static let shortcuts = [HelpOverlayView.Shortcut(keys: "p", action: "Table or chart (phone)")]

    private var localization = Localization(language: "en")
    private var poll: LoopTimer?
    private var shownState = AssetReportTask.State.waiting

    public static var tabIcon: CGPath { icon }

    /// The tab icon, a picture frame with a mountain and a sun: a bitmap.
    public static var icon: CGPath {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0.04, y: 0.1, width: 0.92, height: 0.09))
        p.addRect(CGRect(x: 0.04, y: 0.81, width: 0.92, height: 0.09))
        p.addRect(CGRect(x: 0.04, y: 0.1, width: 0.09, height: 0.8))
        p.addRect(CGRect(x: 0.87, y: 0.1, width: 0.09, height: 0.8))
        p.addLines(between: [CGPoint(x: 0.18, y: 0.76), CGPoint(x: 0.42, y: 0.4), CGPoint(x: 0.58, y: 0.6),
                             CGPoint(x: 0.68, y: 0.5), CGPoint(x: 0.82, y: 0.76)])
        p.closeSubpath()
        p.addEllipse(in: CGRect(x: 0.6, y: 0.24, width: 0.16, height: 0.16))
        return p
    }

    /// Creates the screen showing the report `task` makes (the app's: `AssetReport.demo`).
    public init(task: AssetReportTask) {
        self.task = task
        super.init()
        backgroundColor = CGColor(gray: 0.07, alpha: 1)
        accessibilityIdentifier = "assets"
        for (label, id) in zip(summaryLabels, ["assets.summary.signal", "assets.summary.app"]) {
            label.textColor = CGColor(gray: 0.9, alpha: 1)
            label.adjustsFontSizeToFitWidth = true
            label.minimumScaleFactor = 0.55
            label.alignment = .natural
            label.accessibilityIdentifier = id
        }
        for (label, page) in zip(pageButtons, [Page.table, .chart]) {
            label.alignment = .center
            label.isBold = true
            label.accessibilityIdentifier = "assets.page.\(page.rawValue)"
            label.addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.page = page })
        }
        table.accessibilityIdentifier = "assets.table"
        chart.accessibilityIdentifier = "assets.chart"
        // A chart keeps its axis running left to right in every language.
        chart.semanticContentAttribute = .forceLeftToRight
        for v in summaryLabels + pageButtons + [table, chart] as [View] { addSubview(v) }
        updatePageButtons()
        showState(.waiting)
    }

    /// Whether the screen is big enough for the table and the chart together.
    public var showsBoth: Bool { bounds.width >= 600 && bounds.height >= 680 }

    /// Starts the report the first time the screen is drawn (not when it is merely made or
    /// laid out), and polls it from the window's loop until it ends.
    public override func draw(_ rect: CGRect) {
        guard let window, !task.state.hasEnded, poll == nil else { return }
        task.start()
        poll = window.eventLoop.schedule(after: 0.1, repeating: 0.1) { [weak self] in self?.refresh() }
    }

    /// Blocks until the report is made (starting it if needed) and shows it: for snapshots and
    /// tests, which must not show a half-made report.
    public func waitForReport() {
        task.wait()
        refresh()
    }

    /// Waits for the report (`waitForReport()`): a snapshot never shows it half made.
    public func prepareForSnapshot() { waitForReport() }

    /// Shows the task's state if it changed; stops polling once it has ended.
    private func refresh() {
        let state = task.state
        if state.hasEnded {
            poll?.invalidate()
            poll = nil
        }
        guard state != shownState else { return }
        showState(state)
    }

    private func showState(_ state: AssetReportTask.State) {
        shownState = state
        switch state {
        case .waiting, .running(done: 0, total: _):
            summaryLabels[0].text = localization.string(forKey: "Computing the asset report…")
            summaryLabels[1].text = ""
            publishState("computing 0 0")
        case let .running(done, total):
            summaryLabels[0].text = localization.string(forKey: "Computing the asset report…")
            summaryLabels[1].text = "\(done) / \(total)"
            publishState("computing \(done) \(total)")
        case let .finished(report):
            self.report = report
            table.report = report
            chart.report = report
            table.applyLocalization(localization)
            writeSummary()
            let t = report.total
            publishState("ready \(t.variants) \(t.pngBytes) \(t.codeBytes.map(String.init) ?? "-")")
        case let .failed(reason):
            summaryLabels[0].text = localization.string(forKey: "The asset report failed:")
            summaryLabels[1].text = reason
            publishState("failed")
        }
        setNeedsLayout()
    }

    private func writeSummary() {
        guard let report else { return }
        let lang = localization.language
        // Right to left, each size is isolated (FSI … PDI) so that "137.3 kB" keeps its order
        // inside Arabic text instead of reading "kB 137.3"; Arabic lists take the Arabic comma.
        let rtl = localization.layoutDirection == .rightToLeft
        let comma = ["ar", "fa", "ur"].contains(lang.split(separator: "_").first.map(String.init) ?? lang) ? "، " : ", "
        func bytes(_ n: Int) -> String {
            let text = AssetReport.formatBytes(n, language: lang)
            return rtl ? "\u{2068}\(text)\u{2069}" : text
        }
        func line(_ key: String, _ row: AssetReport.Row) -> String {
            "\(localization.string(forKey: key)): \(row.variants) \(localization.string(forKey: "bitmaps"))\(comma)"
                + "\(bytes(row.pngBytes)) · \(localization.string(forKey: "code")) "
                + (row.codeBytes.map(bytes) ?? "—")
        }
        if let signal = report.row(named: "signal.background") {
            summaryLabels[0].text = line("Signal background", signal) + " (\(signal.devices) × \(signal.languages))"
        }
        summaryLabels[1].text = line("Whole app", report.total)
    }

    public override func applyLocalization(_ localization: Localization) {
        super.applyLocalization(localization)
        self.localization = Localization(language: localization.language)
        showState(shownState)
    }

    private func updatePageButtons() {
        for (label, p) in zip(pageButtons, [Page.table, .chart]) {
            let selected = p == page
            label.textColor = selected ? theme.tint : CGColor(gray: 0.6, alpha: 1)
            label.backgroundColor = selected ? CGColor(gray: 1, alpha: 0.14) : CGColor(gray: 1, alpha: 0.05)
        }
    }

    public override func layoutSubviews() {
        // Right to left the page buttons swap sides ("Table" on the right).
        layoutMirroredForDirection {
            // `insetBy` gives the null rectangle (at infinity) when the bounds are smaller than the
            // insets, as in a window resized to a sliver: lay out in an empty rectangle instead.
            let inset = bounds.insetBy(dx: 6, dy: 4)
            let b = inset.isNull ? CGRect(x: bounds.midX, y: bounds.midY, width: 0, height: 0) : inset
            let wide = showsBoth
            let line: CGFloat = wide ? 20 : 15
            for (i, label) in summaryLabels.enumerated() {
                label.fontSize = wide ? 14 : 11
                label.frame = CGRect(x: b.minX, y: b.minY + CGFloat(i) * line, width: b.width, height: line)
            }
            var top = b.minY + 2 * line + 4
            if wide {
                for button in pageButtons { button.isHidden = true }
                let rows = CGFloat((report?.rows.count ?? 0) + 2)
                let tableHeight = min(rows * 22, (b.maxY - top) * 0.5).rounded(.down)
                table.isHidden = false
                chart.isHidden = false
                table.frame = CGRect(x: b.minX, y: top, width: b.width, height: tableHeight)
                chart.frame = CGRect(x: b.minX, y: table.frame.maxY + 8, width: b.width, height: max(b.maxY - table.frame.maxY - 8, 0))
            } else {
                let buttonHeight: CGFloat = 22
                let w = ((b.width - 6) / 2).rounded(.down)
                for (i, button) in pageButtons.enumerated() {
                    button.isHidden = false
                    button.frame = CGRect(x: b.minX + CGFloat(i) * (w + 6), y: top, width: w, height: buttonHeight)
                }
                top += buttonHeight + 6
                let content = CGRect(x: b.minX, y: top, width: b.width, height: max(b.maxY - top, 0))
                table.isHidden = page != .table
                chart.isHidden = page != .chart
                table.frame = content
                chart.frame = content
            }
        }
    }

    public func handleKey(_ key: KeyPress) -> Bool {
        guard key.characters == "p" else { return false }
        page = page == .table ? .chart : .table
        return true
    }
}
