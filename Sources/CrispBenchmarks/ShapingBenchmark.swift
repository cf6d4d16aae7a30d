import CrispGraphics
import Foundation

// Layout speed behind `crisp bench shaping`: `CTLine(string:font:…)` — shaping by HarfBuzz,
// bidi levels by FriBidi, per-character fallback — over paragraphs of three kinds, at 17 px:
//   latin    — English/German UI text with "fi", "ffl" ligature candidates, in the bundled Roboto;
//   latin+fallback — the same lines with `fallback: .standard`, which Roboto covers: what having
//              a fallback source (as `Label` and `String.draw` do) costs when nothing falls back;
//   arabic   — an Arabic paragraph with numbers and a Latin word, in DejaVu Sans (one face:
//              bidi levels, joining, lam-alef);
//   fallback — lines mixing Latin with Hebrew, Arabic, Greek and Cyrillic in Roboto, which has
//              none of those, with `fallback: .standard` (faces from DejaVu Sans);
//   wrap     — the latin lines as one paragraph, broken into lines 300 px wide by CTTypesetter
//              (UAX #14 opportunities from ICU, each word measured once, each line shaped);
//   wrap8    — the same paragraph eight times over: glyphs per millisecond close to wrap's shows
//              that wrapping is linear in the paragraph's length.
// Two figures per kind, in glyphs per millisecond (median run):
//   shaped — the shaping cache is emptied before every run (a line's first frame);
//   cached — every run's shaping comes from the cache (what a label costs on later frames).
// Drawing is not timed (that is `crisp bench text`).

/// The layout benchmark behind `crisp bench shaping`.
public struct ShapingBenchmark {
    /// The kind of text laid out.
    public enum Kind: String, CaseIterable, Sendable {
        case latin, latinWithFallback = "latin+fallback", arabic, fallback, wrap, wrap8
    }

    /// Whether the shaping cache is emptied before each run.
    public enum Mode: String, CaseIterable, Sendable {
        case shaped, cached
    }

    static let latin = [
        "The official offline file is different: tap to return to the call",
        "Zum Gespräch zurückkehren • Größe der Schrift • fließend, offiziell",
        "Signal quality 42% at 12:30, affine flows fill the office efficiently",
        "Find the fifth floor's waffle shuffle; baffled officers scuffle",
    ]
    static let arabic = [
        "مرحبا بك في التطبيق، اضغط هنا للعودة إلى المكالمة",
        "جودة الإشارة ٤٢٪ في الساعة 12:30 على شبكة Crisp",
        "السلام عليكم ورحمة الله، الاتصال لا يزال قائما منذ 15 دقيقة",
        "اختر اللغة العربية من الإعدادات ثم أعد تشغيل التطبيق",
    ]
    static let fallback = [
        "Call שלום from the lobby • اتصل بسارة الآن • 42 ms",
        "Καλημέρα and Доброе утро: the greeting list has 3 languages",
        "Back to מיכל (call) or to أحمد (video), then Ελένη",
        "Привет, Crisp! Σήμερα 28/11 — שבת שלום — مساء الخير",
    ]

    public var minimumSeconds: Double

    public init(minimumSeconds: Double = 0.25) {
        self.minimumSeconds = minimumSeconds
    }

    /// One measured cell.
    public struct Result: Sendable {
        public var kind: Kind
        public var mode: Mode
        /// Glyphs laid out per millisecond (median run).
        public var glyphsPerMillisecond: Double
    }

    /// Measures every kind in both modes.
    ///
    /// - Throws: when the bundled font cannot be loaded, or `BenchmarkError` when DejaVu Sans
    ///   (Debian's fonts-dejavu-core) is missing.
    public func run() throws -> [Result] {
        let roboto = try CTFont.uiFont(size: 17)
        let match = FontSource.standard.match(families: ["DejaVu Sans"])
        guard match.warning == nil else {
            throw ShapingBenchmarkError.missingFont("DejaVu Sans is missing (the arabic and fallback cases need it): apt-get install fonts-dejavu-core")
        }
        let dejaVu = CTFont(face: match.face, size: 17)
        var results: [Result] = []
        for kind in Kind.allCases {
            let (texts, font, source): ([String], CTFont, FontSource?) = switch kind {
            case .latin, .wrap, .wrap8: (Self.latin, roboto, nil)
            case .latinWithFallback: (Self.latin, roboto, FontSource.standard)
            case .arabic: (Self.arabic, dejaVu, nil)
            case .fallback: (Self.fallback, roboto, FontSource.standard)
            }
            let paragraph = Array(repeating: texts.joined(separator: " "), count: kind == .wrap8 ? 8 : 1).joined(separator: " ")
            func layout() -> Int {
                if kind == .wrap || kind == .wrap8 {
                    return CTTypesetter(string: paragraph, font: font, fallback: nil).layout(width: 300).lines
                        .reduce(0) { $0 + $1.line.glyphs.count }
                }
                return texts.reduce(0) { $0 + CTLine(string: $1, font: font, fallback: source).glyphs.count }
            }
            let glyphs = layout()   // fallback faces found and read before timing
            for mode in Mode.allCases {
                let seconds = Stopwatch.median(minimumSeconds: minimumSeconds) {
                    if mode == .shaped { CTFont.purgeShapingCache() }
                    _ = layout()
                }
                results.append(Result(kind: kind, mode: mode, glyphsPerMillisecond: Double(glyphs) / (seconds * 1000)))
            }
        }
        return results
    }
}

/// Why the shaping benchmark cannot run.
public enum ShapingBenchmarkError: Error, CustomStringConvertible {
    case missingFont(String)

    public var description: String {
        switch self { case .missingFont(let message): message }
    }
}
