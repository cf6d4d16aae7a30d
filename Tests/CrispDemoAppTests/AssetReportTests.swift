import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The asset report: its sums on a tiny known set, the variants it enumerates, the code sizes
/// read from the running executable, and writing it to a directory.
@Suite struct AssetReportTests {
    /// Fills its bounds: the theme's accent when `themed`, else a fixed grey.
    final class FillView: View, ThemeFollowing {
        let themed: Bool
        var theme: Theme = .blue { didSet { setNeedsDisplay() } }
        init(themed: Bool) {
            self.themed = themed
            super.init()
        }
        override func draw(_ rect: CGRect) {
            guard let ctx = UIGraphicsGetCurrentContext() else { return }
            ctx.setFillColor(themed ? theme.accent : CGColor(gray: 0.5, alpha: 1))
            ctx.fill(bounds)
        }
    }

    /// A grey square the same size everywhere; a themed square on phones only, in two states
    /// that look the same; a localized word.
    static func tinyItems() -> [AssetItem] {
        let isPhone = { (d: Device) in d.pointSize.width < 600 }
        return [
            AssetItem(name: "grey", size: { _ in CGSize(width: 10, height: 10) }, codePrefixes: ["$s4Test4GreyC"]) { _ in FillView(themed: false) },
            AssetItem(name: "themed", states: ["a", "b"], size: { isPhone($0) ? CGSize(width: 8, height: 6) : nil },
                      codePrefixes: ["$s4Test6ThemedC"]) { _ in FillView(themed: true) },
            AssetItem(name: "word", size: { _ in CGSize(width: 40, height: 12) }, codePrefixes: []) { _ in
                let label = Label(localizationKey: "time", fontSize: 9)
                label.textColor = .black
                return label
            },
        ]
    }

    static let tinySymbols = SymbolSizes(functions: [("$s4Test4GreyC4drawyy", 100), ("$s4Test4GreyCfD", 20), ("$s4Test6ThemedC4draw", 7),
                                                     ("$s4Test5OtherC4draw", 1000)])

    static func tinyReport() throws -> AssetReport {
        try AssetReport.compute(items: tinyItems(), codeSizes: .success(tinySymbols))
    }

    /// A `width × height` image filled with `colour`, encoded as the report encodes.
    static func filledPNG(width: Int, height: Int, _ colour: CGColor) throws -> [UInt8] {
        let ctx = try #require(CGContext(width: width, height: height))
        ctx.setFillColor(colour)
        ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        return try #require(ctx.makeImage()).pngData()
    }

    @Test func sumsOfATinySet() throws {
        let report = try Self.tinyReport()
        let grey = try #require(report.row(named: "grey"))
        // Five devices, no text, no colours: the 1× pictures are one file, the 2× ones another.
        #expect(grey.variants == 5 && grey.files == 2 && grey.languages == 1 && grey.themes == 1)
        let expected = try Self.filledPNG(width: 10, height: 10, CGColor(gray: 0.5, alpha: 1)).count
            + Self.filledPNG(width: 20, height: 20, CGColor(gray: 0.5, alpha: 1)).count
        #expect(grey.pngBytes == expected)
        #expect(grey.codeBytes == 120)

        // Three phones × four themes × two states; the states look alike, so the files are
        // 1× and 2× per theme.
        let themed = try #require(report.row(named: "themed"))
        #expect(themed.devices == 3 && themed.themes == 4 && themed.languages == 1)
        #expect(themed.variants == 3 * 4 * 2 && themed.files == 2 * 4)
        var themedBytes = 0
        for theme in Theme.all {
            themedBytes += try Self.filledPNG(width: 8, height: 6, theme.accent).count + Self.filledPNG(width: 16, height: 12, theme.accent).count
        }
        #expect(themed.pngBytes == themedBytes)
        #expect(themed.codeBytes == 7)

        // The word differs in each language: 5 × 4, as the essay counts.
        let word = try #require(report.row(named: "word"))
        #expect(word.languages == 4 && word.themes == 1 && word.variants == 20)
        #expect(word.codeBytes == 0)

        let total = report.total
        #expect(total.variants == 5 + 24 + 20)
        #expect(total.files == report.files.count)
        #expect(total.pngBytes == report.files.reduce(0) { $0 + $1.data.count })
        #expect(total.pngBytes == grey.pngBytes + themed.pngBytes + word.pngBytes)
        #expect(total.codeBytes == 127)
    }

    @Test func variantsAreNamedByWhatTheyDifferIn() throws {
        let names = Set(try Self.tinyReport().files.map(\.name))
        #expect(names.contains("grey@iphone3gs.png") && names.contains("grey@iphone4.png"))
        #expect(!names.contains("grey@iphone5.png"), "identical to the iPhone 4's")
        #expect(names.contains("themed.a@iphone3gs-red.png") && names.contains("themed.a@iphone4-gold.png"))
        #expect(!names.contains { $0.hasPrefix("themed.b") }, "state b looks like state a")
        #expect(!names.contains { $0.hasPrefix("themed") && $0.contains("ipad") })
        #expect(names.contains("word@iphone4-es.png") && names.contains("word@iphone3gs-de.png"))
        #expect(names.contains("word@iphone4-ar.png"))
        #expect(names.filter { $0.hasPrefix("word@") }.count == 8, "1× and 2× in four languages")
        #expect(!names.contains("word@ipad-retina-es.png"), "identical to the iPhone 4's")
    }

    @Test func theAnswerCountsFiveTimesNForTheSignalBackground() throws {
        let icons = DemoApplication.tabIcons
        let items = AssetCatalog.demo(tabIcons: icons).filter { $0.name == "signal.background" }
        let report = try AssetReport.compute(items: items, codeSizes: .success(Self.tinySymbols))
        let row = try #require(report.row(named: "signal.background"))
        #expect(row.devices == 5 && row.languages == 4 && row.themes == 1)
        #expect(row.variants == 20 && row.files == 20)
        #expect(report.signalBackgroundAnswer?.contains("5 devices × 4 languages × 1 themes = 20 bitmaps") == true)
    }

    @Test func everyDemoItemHasCodeInTheRunningExecutable() throws {
        let symbols = try SymbolSizes.ofRunningExecutable()
        let icons = DemoApplication.tabIcons
        let items = AssetCatalog.demo(tabIcons: icons)
        #expect(items.map(\.name) == ["signal.background", "controls.bar", "toggles", "switches", "zoom", "battery", "compass",
                                      "bitmapbutton", "bubble.glow", "checkbox", "uiswitch", "swatches", "plot.background",
                                      "bubbles", "tab.signal", "tab.controls", "tab.plot", "tab.bubbles", "tab.assets"])
        for item in items {
            for prefix in item.codePrefixes {
                #expect(symbols.bytes(matchingAnyOf: [prefix]) > 0, "no code under \(prefix) (\(item.name))")
            }
        }
    }

    @Test func symbolTablesThatCannotBeReadSayWhy() {
        #expect(throws: SymbolSizes.Failure.notELF64) { try SymbolSizes(elf: [1, 2, 3]) }
        var header = [UInt8](repeating: 0, count: 64)
        header[0...5] = [0x7F, 0x45, 0x4C, 0x46, 2, 1]
        header[0x3A] = 64
        #expect(throws: SymbolSizes.Failure.stripped) { try SymbolSizes(elf: header) }
        var outside = header
        outside[0x28] = 0xFF
        outside[0x2C] = 0x10
        outside[0x3C] = 1
        #expect(throws: SymbolSizes.Failure.notELF64) { try SymbolSizes(elf: outside) }
        #expect(throws: SymbolSizes.Failure.unreadable("/nonexistent/crisp")) { try SymbolSizes(contentsOf: "/nonexistent/crisp") }
    }

    @Test func writesThePNGsTheTableAndTheChart() throws {
        let report = try Self.tinyReport()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-assets-\(UUID().uuidString)/new")
        defer { try? FileManager.default.removeItem(at: dir.deletingLastPathComponent()) }
        let written = try AssetReportWriter.write(report, to: dir.path)
        #expect(written.count == report.files.count + 2)
        let markdown = try String(contentsOf: dir.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("| `grey` | 1 | 5 | 1 | 1 | 5 | 2 | \(report.row(named: "grey")!.pngBytes) | 120 |"))
        #expect(markdown.contains("| **total** |"))
        let chart = try CGImage(contentsOfPNGFile: dir.appendingPathComponent("chart.png").path)
        #expect(chart.width == 1440)
        for file in report.files {
            let data = try Data(contentsOf: dir.appendingPathComponent("png").appendingPathComponent(file.name))
            #expect([UInt8](data) == file.data)
        }
    }

    @Test func aReportWithoutBytesKeepsItsSumsButIsNotWritten() throws {
        let full = try Self.tinyReport()
        let lean = try AssetReport.compute(items: Self.tinyItems(), codeSizes: .success(Self.tinySymbols), keepsFiles: false)
        #expect(lean.rows == full.rows && lean.files.map(\.name) == full.files.map(\.name))
        #expect(lean.files.allSatisfy { $0.data.isEmpty })
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-assets-\(UUID().uuidString)")
        #expect(throws: AssetReportWriter.Failure.self) { try AssetReportWriter.write(lean, to: dir.path) }
        #expect(!FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func aDirectoryThatCannotTakeTheReportIsRefused() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-assets-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: base) }
        let file = base.appendingPathComponent("file")
        try Data("x".utf8).write(to: file)
        let report = try Self.tinyReport()
        let fileError = #expect(throws: AssetReportWriter.Failure.self) { try AssetReportWriter.write(report, to: file.path) }
        #expect(fileError?.description == "\(file.path) is a file, not a directory")
        let underFile = file.appendingPathComponent("sub").path
        let error = #expect(throws: AssetReportWriter.Failure.self) { try AssetReportWriter.write(report, to: underFile) }
        #expect(error?.description.hasPrefix("cannot create the directory \(underFile)") == true)
        #expect(try Data(contentsOf: file) == Data("x".utf8), "the file is untouched")
    }

    @Test func theTaskReportsProgressAndItsEnd() throws {
        let task = AssetReportTask { progress in
            let report = try Self.tinyReport()
            progress(1, 1)
            return report
        }
        #expect(task.state == .waiting)
        guard case let .finished(report) = task.wait() else {
            Issue.record("the task did not finish")
            return
        }
        #expect(report.rows.count == 3)
        struct Broken: Error {}
        let failing = AssetReportTask { _ in throw Broken() }
        #expect(failing.wait() == .failed("Broken()"))
    }
}
