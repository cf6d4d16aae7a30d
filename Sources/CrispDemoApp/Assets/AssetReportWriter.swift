import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// Writes an asset report to a directory: every PNG under `png/`, the table as `report.md` and
/// the bar chart as `chart.png`.
public enum AssetReportWriter {
    /// Why the report could not be written.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        /// What went wrong, naming the path.
        public let description: String
    }

    /// The chart's size in points (drawn at 2×).
    static func chartSize(_ report: AssetReport) -> CGSize { CGSize(width: 720, height: CGFloat(report.rows.count + 5) * 22) }

    /// The report's bar chart as an image, in English and the blue theme.
    public static func chart(_ report: AssetReport) -> CGImage? {
        let chart = AssetChartView()
        chart.report = report
        chart.applyLocalization(Localization(language: "en"))
        chart.frame = CGRect(origin: .zero, size: chartSize(report))
        UIGraphicsBeginImageContextWithOptions(chart.frame.size, true, 2)
        defer { UIGraphicsEndImageContext() }
        guard let context = UIGraphicsGetCurrentContext() else { return nil }
        chart.layer.render(in: context)
        return UIGraphicsGetImageFromCurrentImageContext()?.cgImage
    }

    /// Checks that `directory` can take the report before the (slow) report is made: it is a
    /// directory, or can be created as one, and is writable.
    public static func prepare(_ directory: String) throws(Failure) {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        if fm.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw Failure(description: "\(directory) is a file, not a directory") }
        } else {
            do {
                try fm.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw Failure(description: "cannot create the directory \(directory): \((error as NSError).localizedDescription)")
            }
        }
        guard fm.isWritableFile(atPath: directory) else { throw Failure(description: "the directory \(directory) is not writable") }
    }

    /// Writes `report` into `directory` (made if missing); returns the paths written. Each file
    /// is written whole or not at all (temporary file and rename).
    @discardableResult
    public static func write(_ report: AssetReport, to directory: String) throws(Failure) -> [String] {
        guard report.files.allSatisfy({ !$0.data.isEmpty }) else {
            throw Failure(description: "the report was made without its files' bytes (keepsFiles: false)")
        }
        try prepare(directory)
        let base = URL(fileURLWithPath: directory)
        let pngDirectory = base.appendingPathComponent("png")
        var written: [String] = []
        func put(_ bytes: [UInt8], _ url: URL) throws(Failure) {
            do {
                try Data(bytes).write(to: url, options: .atomic)
            } catch {
                throw Failure(description: "cannot write \(url.path): \((error as NSError).localizedDescription)")
            }
            written.append(url.path)
        }
        do {
            try FileManager.default.createDirectory(at: pngDirectory, withIntermediateDirectories: true)
        } catch {
            throw Failure(description: "cannot create the directory \(pngDirectory.path): \((error as NSError).localizedDescription)")
        }
        for file in report.files { try put(file.data, pngDirectory.appendingPathComponent(file.name)) }
        guard let chart = chart(report), let chartData = try? chart.pngData() else {
            throw Failure(description: "cannot draw the chart")
        }
        try put(chartData, base.appendingPathComponent("chart.png"))
        try put(Array((report.markdown + "\n![PNG bytes and code bytes per item](chart.png)\n").utf8), base.appendingPathComponent("report.md"))
        return written
    }
}
