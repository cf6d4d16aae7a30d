import CrispApp
import CrispGraphics
import CrispUI
import Foundation

/// The asset report as a table: a header, a row per item and the total, each row a view of its
/// own (identifier `assets.row.<item>`, and `assets.row.total`) so its place shows in `layout`
/// status lines. Columns: item, bitmaps (variants), files, PNG bytes, code bytes, PNG / code.
/// Rows share the height evenly and the text shrinks with them, so the table fits any size.
public final class AssetTableView: View {
    /// One line of the table, drawing its cells.
    public final class RowView: View {
        /// The cells' texts, in column order.
        public var cells: [String] { didSet { setNeedsDisplay() } }
        /// Whether the text is bold (the header and the total).
        public let isBold: Bool
        /// The text colour.
        public var textColor = CGColor(gray: 0.88, alpha: 1) { didSet { setNeedsDisplay() } }

        init(cells: [String], isBold: Bool) {
            self.cells = cells
            self.isBold = isBold
            super.init()
        }

        public override func draw(_ rect: CGRect) {
            guard let ctx = UIGraphicsGetCurrentContext() else { return }
            let b = bounds
            let size = min(max(b.height * 0.62, 6), 12)
            guard let font = try? CTFont.uiFont(isBold ? .emphasizedSystem : .system, size: size) else { return }
            // Right to left the columns mirror: the item's name at the right, each number
            // against its column's left (trailing) edge.
            let mirrored = effectiveUserInterfaceLayoutDirection == .rightToLeft
            var x = b.minX
            for (i, text) in cells.enumerated() where i < AssetTableView.columnFractions.count {
                let w = b.width * AssetTableView.columnFractions[i]
                var t = text
                while t.count > 2, t.size(withFont: font).width > w - 3 { t = String(t.dropLast(2)) + "…" }
                let tw = t.size(withFont: font).width
                let ltr = i == 0 ? x : x + w - tw - 3
                let tx = mirrored ? b.minX + b.maxX - ltr - tw : ltr
                t.draw(at: CGPoint(x: tx, y: b.minY + (b.height - font.lineHeight) / 2), font: font, color: textColor, in: ctx)
                x += w
            }
        }
    }

    /// The share of the width each column takes.
    static let columnFractions: [CGFloat] = [0.29, 0.14, 0.13, 0.16, 0.14, 0.14]
    /// The header's localization keys.
    static let headerKeys = ["item", "bitmaps", "files", "PNG", "code", "ratio"]

    /// The header row.
    public let header = RowView(cells: AssetTableView.headerKeys, isBold: true)
    /// A row per item, then the total; empty until a report is set.
    public private(set) var rows: [RowView] = []
    /// The report shown.
    public var report: AssetReport? { didSet { makeRows() } }
    private var language = "en"

    /// Creates an empty table.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        addSubview(header)
    }

    private func makeRows() {
        for r in rows { r.removeFromSuperview() }
        rows = []
        guard let report else { return }
        for row in report.rows + [report.total] {
            let view = RowView(cells: [], isBold: row.name == "total")
            view.accessibilityIdentifier = "assets.row.\(row.name)"
            rows.append(view)
            addSubview(view)
        }
        fillCells()
        setNeedsLayout()
    }

    private func fillCells() {
        guard let report else { return }
        for (view, row) in zip(rows, report.rows + [report.total]) {
            view.cells = [row.name, "\(row.variants)", "\(row.files)", AssetReport.formatBytes(row.pngBytes, language: language),
                          row.codeBytes.map { AssetReport.formatBytes($0, language: language) } ?? "—",
                          AssetReport.formatRatio(row.ratio, language: language)]
        }
    }

    public override func applyLocalization(_ localization: Localization) {
        super.applyLocalization(localization)
        language = localization.language
        header.cells = AssetTableView.headerKeys.map { localization.string(forKey: $0) }
        fillCells()
    }

    public override func layoutSubviews() {
        let b = bounds
        let lines = [header] + rows
        let h = (b.height / CGFloat(max(lines.count, 1))).rounded(.down)
        for (i, line) in lines.enumerated() {
            line.frame = CGRect(x: b.minX, y: b.minY + CGFloat(i) * h, width: b.width, height: h)
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext(), !rows.isEmpty else { return }
        // A hairline under the header and above the total.
        ctx.setFillColor(gray: 0.5, alpha: 0.6)
        ctx.fill(CGRect(x: bounds.minX, y: header.frame.maxY - 0.5, width: bounds.width, height: 0.5))
        ctx.fill(CGRect(x: bounds.minX, y: rows[rows.count - 1].frame.minY, width: bounds.width, height: 0.5))
    }
}
