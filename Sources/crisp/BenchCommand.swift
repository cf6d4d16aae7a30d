import ArgumentParser
import CrispBenchmarks
import Foundation

struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmarks: the rasterizer (default), paint, text drawing, text layout (shaping) and SVG filters.",
        discussion: "Build with `swift build -c release` first; debug builds are 10–50× slower.",
        subcommands: [RasterBenchCommand.self, PaintBenchCommand.self, TextBenchCommand.self, ShapingBenchCommand.self, FilterBenchCommand.self],
        defaultSubcommand: RasterBenchCommand.self)
}

struct PaintBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "paint",
        abstract: "Measure paint: gradient fill rates, shadowed circles at three blurs, bilinear image drawing.")

    @Option(name: .long, help: "Minimum seconds timed per figure.")
    var minTime: Double = 0.25

    func validate() throws {
        if !(minTime > 0 && minTime <= 60) { throw ValidationError("--min-time must be in (0, 60]") }
    }

    func run() throws {
        warnIfDebugBuild()
        for r in PaintBenchmark(minimumSeconds: minTime).run() {
            print(String(format: "%-36@ %10.1f %@", r.name as NSString, r.value, r.unit as NSString))
        }
    }
}

/// Warns when the figures come from a debug build.
func warnIfDebugBuild() {
    #if DEBUG
    FileHandle.standardError.write("warning: this is a debug build; use `swift build -c release` for real figures\n".data(using: .utf8)!)
    #endif
}

struct RasterBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "raster",
        abstract: "Measure the rasterizer: bl_bench-style shapes per millisecond and the fill rate.",
        discussion: """
            Every figure is the median of repeated runs of \(RasterBenchmark.Test.allCases.count) fixed-seed scenes \
            on a \(RasterBenchmark.canvasWidth)×\(RasterBenchmark.canvasHeight) canvas.
            """)

    @Option(name: .long, parsing: .upToNextOption, help: "Shape sizes in pixels.")
    var sizes: [Int] = RasterBenchmark.defaultSizes

    @Option(name: .long, parsing: .upToNextOption,
            help: "Tests to run (\(RasterBenchmark.Test.allCases.map(\.rawValue).joined(separator: ", "))).")
    var tests: [String] = []

    @Option(name: .long, help: "Minimum seconds timed per table cell.")
    var minTime: Double = 0.25

    @Flag(name: .long, help: "Print a Markdown table (for the README).")
    var markdown = false

    @Flag(name: .long, help: "Compare every bitmap layout's fill rate with the native layout's instead (tests default to FillRectU, FillRoundU, FillPolyNZi40).")
    var layouts = false

    @Option(name: .long, help: "With --layouts, compare only this layout with the native one (repeatable; names as the table prints them: \(BenchmarkLayout.all.dropFirst().map(\.name).joined(separator: ", "))).")
    var layout: [String] = []

    func validate() throws {
        for s in sizes where s < 1 || s > 512 { throw ValidationError("size \(s) is outside 1…512") }
        for t in tests where RasterBenchmark.Test(rawValue: t) == nil { throw ValidationError("unknown test '\(t)'") }
        if !(minTime > 0 && minTime <= 60) { throw ValidationError("--min-time must be in (0, 60]") }
        if !layout.isEmpty && !layouts { throw ValidationError("--layout needs --layouts") }
        for name in layout where BenchmarkLayout.named(name) == nil { throw ValidationError("unknown layout '\(name)'") }
    }

    func run() throws {
        warnIfDebugBuild()
        if layouts { return runLayouts() }
        let selected = tests.isEmpty ? RasterBenchmark.Test.allCases : tests.compactMap(RasterBenchmark.Test.init(rawValue:))
        let bench = RasterBenchmark(tests: selected, sizes: sizes, minimumSeconds: minTime)
        let results = bench.run()
        print(table(results, markdown: markdown))
        // The fill rate is part of the full run only.
        guard tests.isEmpty else { return }
        let fill = bench.measureFillRate()
        print("")
        let line = String(format: "Full-canvas opaque fill 1536×2048: %.2f Gpx/s; memset-class store: %.2f Gpx/s; ratio %.0f%%",
                          fill.opaqueFill, fill.memset, fill.ratio * 100)
        print(line)
    }

    /// One row per layout: each test and size as shapes per ms with the slowdown against the
    /// native layout, then the full-canvas opaque fill.
    func runLayouts() {
        let selected = tests.isEmpty ? [.fillRectUnaligned, .fillRoundUnaligned, .fillPolyNonZero40]
                                     : tests.compactMap(RasterBenchmark.Test.init(rawValue:))
        let bench = RasterBenchmark(tests: selected, sizes: sizes, minimumSeconds: minTime)
        let cells = selected.flatMap { test in sizes.map { (test, $0) } }
        let header = ["layout"] + cells.map { "\($0.0.rawValue) \($0.1)px" } + ["opaque fill"]
        print(header.map { $0.padding(toLength: 20, withPad: " ", startingAt: 0) }.joined())
        var nativeRates: [Double] = []
        let compared = layout.isEmpty ? BenchmarkLayout.all
            : [BenchmarkLayout.native] + layout.compactMap(BenchmarkLayout.named).filter { $0.name != BenchmarkLayout.native.name }
        for layout in compared {
            var rates = cells.map { bench.measure($0.0, size: $0.1, layout: layout).operationsPerMillisecond }
            rates.append(bench.measureFillRate(layout: layout).opaqueFill * 1000)
            if nativeRates.isEmpty { nativeRates = rates }
            let row = zip(rates, nativeRates).map { String(format: "%.1f (%.2f×)", $0, $1 / $0) }
            print(([layout.name] + row).map { $0.padding(toLength: 20, withPad: " ", startingAt: 0) }.joined())
        }
        print("cells: shapes per ms (opaque fill: Mpx/s), in brackets the slowdown against native (native rate ÷ layout rate)")
    }

    func table(_ results: [RasterBenchmark.Result], markdown: Bool) -> String {
        var lines: [String] = []
        let header = ["test"] + sizes.map { "\($0)px" }
        if markdown {
            lines.append("| " + header.joined(separator: " | ") + " |")
            lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        } else {
            lines.append(header.map { $0.padding(toLength: 14, withPad: " ", startingAt: 0) }.joined())
        }
        let byTest = Dictionary(grouping: results, by: \.test)
        for test in RasterBenchmark.Test.allCases {
            guard let row = byTest[test] else { continue }
            let cells = row.map { r in String(format: "%.1f (%.0f)", r.operationsPerMillisecond, r.megapixelsPerSecond) }
            if markdown {
                lines.append("| \(test.rawValue) | " + cells.joined(separator: " | ") + " |")
            } else {
                lines.append(([test.rawValue] + cells).map { $0.padding(toLength: 14, withPad: " ", startingAt: 0) }.joined())
            }
        }
        lines.append("cells: shapes per ms (nominal Mpx/s)")
        return lines.joined(separator: "\n")
    }
}

struct TextBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Measure text drawing: glyphs per millisecond, cold (empty glyph cache), warm, and rotated.",
        discussion: """
            Lines of English, German and Spanish UI text in the bundled regular face fill a \
            \(TextBenchmark.canvasWidth)×\(TextBenchmark.canvasHeight) canvas; each figure is the median of repeated runs.
            """)

    @Option(name: .long, parsing: .upToNextOption, help: "Font sizes in pixels per em.")
    var sizes: [Int] = TextBenchmark.defaultSizes

    @Option(name: .long, help: "Minimum seconds timed per table cell.")
    var minTime: Double = 0.25

    @Flag(name: .long, help: "Print a Markdown table.")
    var markdown = false

    func validate() throws {
        for s in sizes where s < 4 || s > 256 { throw ValidationError("size \(s) is outside 4…256") }
        if !(minTime > 0 && minTime <= 60) { throw ValidationError("--min-time must be in (0, 60]") }
    }

    func run() throws {
        warnIfDebugBuild()
        let results = try TextBenchmark(sizes: sizes, minimumSeconds: minTime).run()
        let header = ["mode"] + sizes.map { "\($0)px" }
        var lines: [String] = []
        if markdown {
            lines.append("| " + header.joined(separator: " | ") + " |")
            lines.append("|" + header.map { _ in "---" }.joined(separator: "|") + "|")
        } else {
            lines.append(header.map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
        }
        for mode in TextBenchmark.Mode.allCases {
            let cells = sizes.map { size in
                results.first { $0.mode == mode && $0.size == size }.map { String(format: "%.0f", $0.glyphsPerMillisecond) } ?? "-"
            }
            if markdown {
                lines.append("| \(mode.rawValue) | " + cells.joined(separator: " | ") + " |")
            } else {
                lines.append(([mode.rawValue] + cells).map { $0.padding(toLength: 12, withPad: " ", startingAt: 0) }.joined())
            }
        }
        lines.append("cells: glyphs per ms")
        print(lines.joined(separator: "\n"))
    }
}

struct ShapingBenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "shaping",
        abstract: "Measure text layout (CTLine: HarfBuzz shaping, bidi, fallback): glyphs per millisecond.",
        discussion: """
            Four kinds of lines at 17 px: Latin UI text with ligature candidates (bundled Roboto), the same \
            with a fallback font source (nothing falls back: the cost of having one), an \
            Arabic paragraph with numbers (DejaVu Sans: bidi and joining), and Latin mixed with Hebrew, \
            Arabic, Greek and Cyrillic in Roboto with per-character fallback; then "wrap" breaks the Latin \
            lines as one paragraph into lines 300 px wide (CTTypesetter, UAX #14) and "wrap8" the same \
            paragraph eight times over (linear wrapping keeps the rate). "shaped" empties the shaping \
            cache before each run (a first frame), "cached" does not (later frames). Medians of repeated runs.
            """)

    @Option(name: .long, help: "Minimum seconds timed per table cell.")
    var minTime: Double = 0.25

    func validate() throws {
        if !(minTime > 0 && minTime <= 60) { throw ValidationError("--min-time must be in (0, 60]") }
    }

    func run() throws {
        warnIfDebugBuild()
        let results = try ShapingBenchmark(minimumSeconds: minTime).run()
        var lines = [(["kind"] + ShapingBenchmark.Mode.allCases.map(\.rawValue)).map { $0.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined()]
        for kind in ShapingBenchmark.Kind.allCases {
            let cells = ShapingBenchmark.Mode.allCases.map { mode in
                results.first { $0.kind == kind && $0.mode == mode }.map { String(format: "%.0f", $0.glyphsPerMillisecond) } ?? "-"
            }
            lines.append(([kind.rawValue] + cells).map { $0.padding(toLength: 16, withPad: " ", startingAt: 0) }.joined())
        }
        lines.append("cells: glyphs laid out per ms")
        print(lines.joined(separator: "\n"))
    }
}
