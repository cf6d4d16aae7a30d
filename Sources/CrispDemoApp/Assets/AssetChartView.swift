import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The asset report as a bar chart: per item, the bytes of its PNGs and of its drawing code,
/// as two bars on a logarithmic axis (100 B … 10 MB, since the two differ by orders of
/// magnitude), with a legend on top. The same view is the `assets` screen's chart and, rendered
/// offscreen, the report's `chart.png`.
public final class AssetChartView: View, ThemeFollowing {
    /// The report shown; nil draws the axis only.
    public var report: AssetReport? { didSet { setNeedsDisplay() } }
    /// The colours (the PNG bars take the accent).
    public var theme: Theme = .blue { didSet { if theme != oldValue { setNeedsDisplay() } } }
    /// The text colour.
    public var textColor = CGColor(gray: 0.85, alpha: 1) { didSet { setNeedsDisplay() } }
    private var legend = ("bitmaps (PNG)", "vector code")

    /// The colour of the code bars.
    public static let codeColor = CGColor(red: 0.55, green: 0.85, blue: 0.45, alpha: 1)
    /// The axis' decades: 10² … 10⁷ bytes.
    static let decades = 2...7

    /// Creates an empty chart.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = CGColor(gray: 0.1, alpha: 1)
    }

    public override func applyLocalization(_ localization: Localization) {
        super.applyLocalization(localization)
        legend = (localization.string(forKey: "bitmaps (PNG)"), localization.string(forKey: "vector code"))
        setNeedsDisplay()
    }

    /// The label of the line at 10^`decade` bytes: "100 B", "1 kB", … "10 MB".
    static func axisLabel(decade: Int) -> String {
        let units = ["B", "kB", "MB", "GB"]
        return "\(Int(pow(10, Double(decade % 3)))) \(units[min(decade / 3, units.count - 1)])"
    }

    /// Where `bytes` falls on the axis spanning `minX…maxX`.
    static func x(forBytes bytes: Int, minX: CGFloat, maxX: CGFloat) -> CGFloat {
        let lo = CGFloat(decades.lowerBound), hi = CGFloat(decades.upperBound)
        let t = (log10(CGFloat(max(bytes, 1))) - lo) / (hi - lo)
        return minX + min(max(t, 0), 1) * (maxX - minX)
    }

    public override func draw(_ rect: CGRect) {
        let b = bounds.insetBy(dx: 6, dy: 4)
        guard let ctx = UIGraphicsGetCurrentContext(), !b.isNull else { return }
        let rows = report.map { $0.rows + [$0.total] } ?? []
        let fontSize = min(max(b.height / CGFloat(rows.count + 4) * 0.6, 7), 12)
        guard let font = try? CTFont.uiFont(size: fontSize), let bold = try? CTFont.uiFont(.emphasizedSystem, size: fontSize) else { return }
        let line = font.lineHeight.rounded(.up)

        // Legend: a swatch and a caption per kind of bar.
        var x = b.minX
        for (caption, colour) in [(legend.0, theme.accent), (legend.1, AssetChartView.codeColor)] {
            ctx.setFillColor(colour)
            ctx.fill(CGRect(x: x, y: b.minY + line * 0.25, width: line * 0.5, height: line * 0.5))
            x += line * 0.7
            x += caption.draw(at: CGPoint(x: x, y: b.minY), font: font, color: textColor, in: ctx).width + line
        }

        let nameWidth = min(b.width * 0.3, fontSize * 9)
        let plot = CGRect(x: b.minX + nameWidth, y: b.minY + line * 1.4, width: b.width - nameWidth - fontSize, height: b.height - line * 2.6)
        // The axis: a line per decade, labelled below.
        ctx.setStrokeColor(gray: 0.5, alpha: 0.5)
        ctx.setLineWidth(0.5)
        for d in AssetChartView.decades {
            let bytes = Int(pow(10, Double(d)))
            let gx = AssetChartView.x(forBytes: bytes, minX: plot.minX, maxX: plot.maxX).rounded() + 0.25
            ctx.strokeLineSegments(between: [CGPoint(x: gx, y: plot.minY), CGPoint(x: gx, y: plot.maxY)])
            let label = AssetChartView.axisLabel(decade: d)
            let w = label.size(withFont: font).width
            label.draw(at: CGPoint(x: min(max(gx - w / 2, plot.minX - nameWidth), b.maxX - w), y: plot.maxY + 2), font: font, color: textColor, in: ctx)
        }
        guard !rows.isEmpty else { return }
        let rowHeight = plot.height / CGFloat(rows.count)
        for (i, row) in rows.enumerated() {
            let y = plot.minY + CGFloat(i) * rowHeight
            let isTotal = i == rows.count - 1
            let nameFont = isTotal ? bold : font
            var name = row.name
            while name.count > 3, name.size(withFont: nameFont).width > nameWidth - 4 { name = String(name.dropLast(2)) + "…" }
            name.draw(at: CGPoint(x: b.minX, y: y + (rowHeight - line) / 2), font: nameFont, color: textColor, in: ctx)
            let barHeight = max((rowHeight - 2) / 2, 1)
            let bars: [(Int?, CGColor)] = [(row.pngBytes, theme.accent), (row.codeBytes, AssetChartView.codeColor)]
            for (k, (bytes, colour)) in bars.enumerated() {
                guard let bytes else { continue }
                let end = AssetChartView.x(forBytes: bytes, minX: plot.minX, maxX: plot.maxX)
                ctx.setFillColor(colour)
                ctx.fill(CGRect(x: plot.minX, y: y + 1 + CGFloat(k) * barHeight, width: max(end - plot.minX, 1), height: barHeight))
            }
        }
    }
}
