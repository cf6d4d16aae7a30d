import ArgumentParser
import CrispBenchmarks
import CrispGraphics
import CrispSVG
import Foundation

/// `crisp render`: SVG to PNG, and the bench contract of ../shared/bench.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render an SVG file to a PNG, or time its rendering.",
        discussion: """
            Renders on a transparent background and writes an 8-bit RGBA PNG with straight alpha, \
            at the SVG's intrinsic size unless --scale or --width says otherwise.
            Exits with status 77 and a one-line reason on stderr when the file uses something Crisp \
            cannot draw yet (foreignObject, …), instead of drawing it wrongly.

            With --bench N, reads and parses the file once, renders it N times into one canvas \
            (cleared before each render) and prints parse_ms, min_ms and mean_ms lines, then the \
            median milliseconds per render as the last line. Single-threaded.
            """,
        version: "crisp render 0.1 (CrispSVG on Crisp's own rasterizer; single-threaded)")

    @Argument(help: "The SVG file to read.")
    var input: String

    @Argument(help: "The PNG file to write (not with --bench).")
    var output: String?

    @Option(name: .long, help: "Pixels per SVG px (default 1).")
    var scale: Double?

    @Option(name: .long, help: "Output width in pixels; the height follows the aspect ratio.")
    var width: Int?

    @Option(name: .long, help: "Render N times and print the median milliseconds per render.")
    var bench: Int?

    @Flag(name: .long, help: "Print warnings (unknown elements and attributes) to stderr.")
    var warnings = false

    // Font options by resvg's names.
    @Option(name: .customLong("use-fonts-dir"), help: "A folder of font files to use (searched recursively; repeatable).")
    var fontsDirs: [String] = []
    @Option(name: .customLong("use-font-file"), help: "A font file to use (repeatable).")
    var fontFiles: [String] = []
    @Flag(name: .customLong("skip-system-fonts"), help: "Do not use the system's fonts (fontconfig).")
    var skipSystemFonts = false
    @Option(name: .customLong("font-family"), help: "The family for text without a font-family or whose families are missing (default Roboto).")
    var fontFamily: String?
    @Option(name: .customLong("serif-family"), help: "The family 'serif' stands for (default DejaVu Serif).")
    var serifFamily: String?
    @Option(name: .customLong("sans-serif-family"), help: "The family 'sans-serif' stands for (default Roboto).")
    var sansSerifFamily: String?
    @Option(name: .customLong("cursive-family"), help: "The family 'cursive' stands for (default DejaVu Serif).")
    var cursiveFamily: String?
    @Option(name: .customLong("fantasy-family"), help: "The family 'fantasy' stands for (default DejaVu Sans).")
    var fantasyFamily: String?
    @Option(name: .customLong("monospace-family"), help: "The family 'monospace' stands for (default DejaVu Sans Mono).")
    var monospaceFamily: String?

    /// The font options as SVGDocument's settings (nil when none is given: the standard source).
    var fontSettings: FontSettings? {
        guard !fontsDirs.isEmpty || !fontFiles.isEmpty || skipSystemFonts || fontFamily != nil || serifFamily != nil
                || sansSerifFamily != nil || cursiveFamily != nil || fantasyFamily != nil || monospaceFamily != nil else { return nil }
        var s = FontSettings()
        s.fontDirectories = fontsDirs.map { URL(fileURLWithPath: $0) }
        s.fontFiles = fontFiles.map { URL(fileURLWithPath: $0) }
        s.usesSystemFonts = !skipSystemFonts
        if let fontFamily { s.defaultFamily = fontFamily }
        if let serifFamily { s.serifFamily = serifFamily }
        if let sansSerifFamily { s.sansSerifFamily = sansSerifFamily }
        if let cursiveFamily { s.cursiveFamily = cursiveFamily }
        if let fantasyFamily { s.fantasyFamily = fantasyFamily }
        if let monospaceFamily { s.monospaceFamily = monospaceFamily }
        return s
    }

    func validate() throws {
        if scale != nil && width != nil { throw ValidationError("give --scale or --width, not both") }
        if let scale, !(scale > 0 && scale <= 64) { throw ValidationError("--scale must be in (0, 64]") }
        if let width, !(1...CGContext.maximumDimension).contains(width) {
            throw ValidationError("--width must be in 1…\(CGContext.maximumDimension)")
        }
        for dir in fontsDirs {
            var isDir: ObjCBool = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
                throw ValidationError("--use-fonts-dir \(dir): no such folder")
            }
        }
        for file in fontFiles where !FileManager.default.isReadableFile(atPath: file) {
            throw ValidationError("--use-font-file \(file): no such readable file")
        }
        if let bench {
            guard (1...1_000_000).contains(bench) else { throw ValidationError("--bench N needs N in 1…1000000") }
            if output != nil { throw ValidationError("--bench takes only the SVG file (no output PNG)") }
        } else if output == nil {
            throw ValidationError("missing the output PNG (crisp render in.svg out.png)")
        }
    }

    func run() throws {
        let parseStart = MonotonicClock.nanoseconds()
        let document: SVGDocument
        do {
            document = try SVGDocument(contentsOfFile: input, fontSettings: fontSettings)
        } catch {
            fail(error.line == 0 ? "\(error)" : "\(input):\(error)", status: 1)
        }
        let parseMilliseconds = Double(MonotonicClock.nanoseconds() - parseStart) / 1e6
        if warnings {
            for w in document.warnings { FileHandle.standardError.write(Data("\(input):\(w)\n".utf8)) }
        }
        if let first = document.unsupportedFeatures.first {
            let more = document.unsupportedFeatures.count > 1 ? " (and \(document.unsupportedFeatures.count - 1) more)" : ""
            fail("unsupported: \(first.reason) at \(input):\(first.location)\(more)", status: 77)
        }
        let pixelScale = width.map { CGFloat($0) / document.size.width } ?? CGFloat(scale ?? 1)
        let (w, h) = document.pixelSize(scale: pixelScale)
        guard w <= CGContext.maximumDimension, h <= CGContext.maximumDimension,
              let context = CGContext(width: w, height: h) else {
            fail("\(input): a \(w)×\(h) rendering is larger than \(CGContext.maximumDimension) pixels a side", status: 1)
        }
        if let bench {
            runBench(document, context: context, count: bench, parseMilliseconds: parseMilliseconds)
            return
        }
        document.drawFillingBitmap(context)
        guard let image = context.makeImage(), let output else { fail("rendering failed", status: 1) }
        do {
            // Level 6: as small as level 9 within a few per cent, several times faster on big canvases.
            let png = try PNGEncoder(colorType: .rgba, compressionLevel: 6).encode(image)
            try Data(png).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            fail("\(output): \(error)", status: 1)
        }
    }

    private func runBench(_ document: SVGDocument, context: CGContext, count: Int, parseMilliseconds: Double) {
        let byteCount = context.bytesPerRow * context.height
        func render() {
            memset(context.data!, 0, byteCount)
            document.drawFillingBitmap(context)
        }
        render()   // warm-up: page in the canvas and the code
        var samples: [Double] = []
        samples.reserveCapacity(count)
        for _ in 0..<count {
            let t0 = MonotonicClock.nanoseconds()
            render()
            samples.append(Double(MonotonicClock.nanoseconds() - t0) / 1e6)
        }
        print(String(format: "parse_ms=%.3f", parseMilliseconds))
        print(String(format: "min_ms=%.3f", samples.min() ?? 0))
        print(String(format: "mean_ms=%.3f", samples.reduce(0, +) / Double(samples.count)))
        print(String(format: "%.3f", samples.median))
    }

    private func fail(_ message: String, status: Int32) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        Foundation.exit(status)
    }
}
