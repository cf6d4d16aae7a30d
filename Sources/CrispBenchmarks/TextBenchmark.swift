import CrispGraphics
import Foundation

// Text drawing speed behind `crisp bench text`: lines of mixed English, German and Spanish UI
// text in the bundled regular face, filling a 512×600 canvas, at 12, 17 and 34 px. Three
// figures per size, in glyphs per millisecond:
//   cold    — the glyph cache is emptied before every run, so each distinct (glyph, x phase) is
//             rasterized once per run and repeats are copied (a first frame);
//   warm    — every glyph comes from the cache (every later frame);
//   rotated — the same lines turned by 10°, which fills every glyph's outline through the
//             rasterizer (no cache applies).
// Outlines are parsed once per face before timing; layout (CTLine) is outside the timed loop.

/// The text benchmark behind `crisp bench text`.
public struct TextBenchmark {
    /// How glyphs reach the canvas.
    public enum Mode: String, CaseIterable, Sendable {
        case cold, warm, rotated
    }

    public static let defaultSizes = [12, 17, 34]
    public static let canvasWidth = 512
    public static let canvasHeight = 600
    static let sample = "Touch to return to call • Zum Gespräch zurückkehren • ¿Volver a la llamada? "
        + "signal quality 42% time 12:30 Größe Straße ¡Señal! Año 0123456789 NESW km/h "

    public var sizes: [Int]
    public var minimumSeconds: Double

    public init(sizes: [Int] = defaultSizes, minimumSeconds: Double = 0.25) {
        self.sizes = sizes
        self.minimumSeconds = minimumSeconds
    }

    /// One measured cell.
    public struct Result: Sendable {
        public var mode: Mode
        public var size: Int
        /// Glyphs drawn per millisecond (median run).
        public var glyphsPerMillisecond: Double
    }

    /// Measures every mode at every size.
    ///
    /// - Throws: when the bundled font cannot be loaded.
    public func run() throws -> [Result] {
        var results: [Result] = []
        for size in sizes {
            let font = try CTFont.uiFont(size: CGFloat(size))
            let lines = makeLines(font)
            let glyphs = lines.reduce(0) { $0 + $1.line.glyphs.count }
            let ctx = CGContext(width: Self.canvasWidth, height: Self.canvasHeight)!
            for g in Set(lines.flatMap(\.line.glyphs)) { _ = font.path(for: g) }   // parse outlines up front
            for mode in Mode.allCases {
                let seconds = Stopwatch.median(minimumSeconds: minimumSeconds) {
                    if mode == .cold { CTFont.purgeGlyphCache() }
                    draw(lines, mode: mode, in: ctx)
                }
                results.append(Result(mode: mode, size: size, glyphsPerMillisecond: Double(glyphs) / (seconds * 1000)))
            }
        }
        return results
    }

    struct PlacedLine {
        var line: CTLine
        var origin: CGPoint
    }

    /// Lines of the sample text, wrapped at the canvas width, from the top down; each starts at
    /// a different fractional x so every sub-pixel phase occurs.
    func makeLines(_ font: CTFont) -> [PlacedLine] {
        var lines: [PlacedLine] = []
        let words = Self.sample.split(separator: " ").map(String.init)
        var y = CGFloat(Self.canvasHeight) - font.ascent
        var i = 0
        while y > font.descent {
            var text = ""
            while true {
                let next = text.isEmpty ? words[i % words.count] : text + " " + words[i % words.count]
                if CTLine(string: next, font: font).width > CGFloat(Self.canvasWidth) - 12, !text.isEmpty { break }
                text = next
                i += 1
            }
            lines.append(PlacedLine(line: CTLine(string: text, font: font),
                                    origin: CGPoint(x: 4 + CGFloat(lines.count % 7) * 0.37, y: y.rounded())))
            y -= font.lineHeight
        }
        return lines
    }

    func draw(_ lines: [PlacedLine], mode: Mode, in ctx: CGContext) {
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: Self.canvasWidth, height: Self.canvasHeight))
        ctx.setFillColor(gray: 0.1, alpha: 1)
        ctx.saveGState()
        if mode == .rotated {
            ctx.translateBy(x: CGFloat(Self.canvasWidth) / 2, y: CGFloat(Self.canvasHeight) / 2)
            ctx.rotate(by: 10 * .pi / 180)
            ctx.translateBy(x: -CGFloat(Self.canvasWidth) / 2, y: -CGFloat(Self.canvasHeight) / 2)
        }
        for l in lines {
            ctx.textPosition = l.origin
            l.line.draw(in: ctx)
        }
        ctx.restoreGState()
    }
}
