import CrispGraphics
import Foundation
import Testing

/// `crisp-demo --asset-report DIR`: writes the PNGs, the table and the chart, and refuses a
/// directory that cannot take them before doing any work. (One device keeps the debug build's
/// run short; the figures in docs/asset-report.md are from all five.)
@Suite struct AssetReportCommandTests {
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-asset-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func writesTheReport() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let out = base.appendingPathComponent("report")
        let (status, output) = try ExternalTools.run(try ExternalTools.demoExecutable(),
                                                     ["--asset-report", out.path, "--asset-devices", "iphone3gs"],
                                                     timeout: 600)
        // (-1: no exit within the hang guard; the report takes ~15 s of CPU in a debug build.)
        #expect(status == 0, "\(output)")
        #expect(output.contains("signal.background: 1 devices × 4 languages × 1 themes = 4 bitmaps"))
        #expect(output.contains("whole app: 19 items"), "17 items plus the bubble and the bubbles tab icon")
        let markdown = try String(contentsOf: out.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("| `signal.background` | 1 | 1 | 4 | 1 | 4 | 4 |"))
        let chart = try CGImage(contentsOfPNGFile: out.appendingPathComponent("chart.png").path)
        #expect(chart.width == 1440)
        let pngs = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("png").path)
        #expect(pngs.contains("signal.background@iphone3gs-de.png") && pngs.contains("signal.background@iphone3gs-ar.png"))
        #expect(pngs.contains("toggles.star.on@iphone3gs-gold.png"))
        for name in pngs { _ = try CGImage(contentsOfPNGFile: out.appendingPathComponent("png").appendingPathComponent(name).path) }
    }

    @Test func refusesAFileAndAnUnknownDevice() throws {
        let base = try Self.scratch()
        defer { try? FileManager.default.removeItem(at: base) }
        let file = base.appendingPathComponent("file")
        try Data("keep".utf8).write(to: file)
        let demo = try ExternalTools.demoExecutable()
        let (status, output) = try ExternalTools.run(demo, ["--asset-report", file.path])
        #expect(status == 1)
        #expect(output.contains("crisp-demo: \(file.path) is a file, not a directory"))
        #expect(try Data(contentsOf: file) == Data("keep".utf8))

        let under = try ExternalTools.run(demo, ["--asset-report", file.appendingPathComponent("sub").path])
        #expect(under.status == 1 && under.output.contains("cannot create the directory"))

        let unknown = try ExternalTools.run(demo, ["--asset-report", base.appendingPathComponent("new").path, "--asset-devices", "nokia"])
        #expect(unknown.status == 1 && unknown.output.contains("unknown device nokia in --asset-devices"))
    }
}
