import CrispApp
import CrispGraphics
import Foundation

extension AssetReport {
    /// `bytes` in kB (1000 bytes) with one decimal, or in bytes below 1000, with the decimal
    /// separator of `language` ("12.3 kB" in English and Arabic, "12,3 kB" in German and
    /// Spanish).
    public static func formatBytes(_ bytes: Int, language: String = "en") -> String {
        let text = bytes < 1000 ? "\(bytes) B"
            : bytes < 1_000_000 ? String(format: "%.1f kB", Double(bytes) / 1000) : String(format: "%.2f MB", Double(bytes) / 1_000_000)
        return usesDecimalComma(language) ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// Whether `language` writes a decimal comma: German and Spanish do; English, and Arabic
    /// with Western digits (as Foundation's "ar" locale formats), write a point.
    static func usesDecimalComma(_ language: String) -> Bool {
        ["de", "es"].contains(language.split(separator: "_").first.map(String.init) ?? language)
    }

    /// `ratio` as "123×" (one decimal below 10).
    public static func formatRatio(_ ratio: Double?, language: String = "en") -> String {
        guard let ratio else { return "—" }
        let text = ratio < 10 ? String(format: "%.1f×", ratio) : String(format: "%.0f×", ratio)
        return usesDecimalComma(language) ? text.replacingOccurrences(of: ".", with: ",") : text
    }

    /// The essay's "5 × n variants" for the signal graph's background, with its figures, in
    /// English: "signal.background: 5 devices × 3 languages = 15 bitmaps, 123.4 kB; vector code
    /// 4.5 kB (27×)".
    public var signalBackgroundAnswer: String? {
        row(named: "signal.background").map { r in
            "signal.background: \(r.devices) devices × \(r.languages) languages × \(r.themes) themes = \(r.variants) bitmaps, "
                + "\(r.files) files, \(AssetReport.formatBytes(r.pngBytes)); vector code "
                + (r.codeBytes.map { AssetReport.formatBytes($0) } ?? "not measured") + " (\(AssetReport.formatRatio(r.ratio)))"
        }
    }

    /// The same for the whole app.
    public var wholeAppAnswer: String {
        let t = total
        return "whole app: \(rows.count) items, \(t.states) states, \(deviceCount) devices, up to \(t.languages) languages and "
            + "\(t.themes) themes = \(t.variants) bitmaps, \(t.files) files, \(AssetReport.formatBytes(t.pngBytes)); vector code "
            + (t.codeBytes.map { AssetReport.formatBytes($0) } ?? "not measured") + " (\(AssetReport.formatRatio(t.ratio)))"
    }

    /// The report as Markdown: the essay's answer, then a table of every row and the total.
    public var markdown: String {
        var lines = ["# Crisp asset report", "",
                     "What the demo would ship as optimized PNGs (Crisp's optimizer, level \(CGImage.pngEncodingLevel)) if it "
                        + "were drawn in bitmaps — every device variant × language with text × theme that recolours × "
                        + "state — beside the compiled code that draws it (function symbols of the running executable).", "",
                     "- " + (signalBackgroundAnswer ?? "signal.background: not in this report"), "- " + wholeAppAnswer]
        if let codeSizeFailure { lines.append("- vector code not measured: \(codeSizeFailure)") }
        lines += ["", "| item | states | devices | languages | themes | bitmaps | files | PNG bytes | code bytes | PNG / code |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
        for r in rows + [total] {
            let name = r.name == "total" ? "**total**" : "`\(r.name)`"
            lines.append("| \(name) | \(r.states) | \(r.devices) | \(r.languages) | \(r.themes) | \(r.variants) | \(r.files) | "
                         + "\(r.pngBytes) | \(r.codeBytes.map(String.init) ?? "—") | \(AssetReport.formatRatio(r.ratio)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
