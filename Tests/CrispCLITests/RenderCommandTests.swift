import CrispGraphics
import Foundation
import Testing

// `crisp render` on text, patterns and markers (drawn: exit 0) and on what is still refused
// (exit 77 with the reason and its place), as a user runs it.

@Suite struct RenderCommandTests {
    static func write(_ svg: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-render-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try Data(svg.utf8).write(to: dir.appendingPathComponent("in.svg"))
        return dir
    }

    @Test(arguments: [
        ##"<text x="2" y="14" font-size="12">Hi</text>"##,
        ##"<pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2"/></pattern><rect width="20" height="20" fill="url(#p)"/>"##,
        ##"<marker id="m"><rect width="3" height="3"/></marker><path d="M2 2 L18 18" stroke="#000" marker-end="url(#m)"/>"##,
    ])
    func textPatternsAndMarkersAreDrawn(body: String) throws {
        let dir = try Self.write(##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">\##(body)</svg>"##)
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("out.png").path
        let run = try CrispTool.run(["render", dir.appendingPathComponent("in.svg").path, output])
        #expect(run.status == 0, "\(run.error)")
        #expect(try CGImage(contentsOfPNGFile: output).pixels.contains { $0 >> 24 != 0 })
    }

    @Test func anUnsupportedFeatureIsRefusedWithItsPlace() throws {
        let dir = try Self.write("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"20\" height=\"20\">\n<g>\n  <foreignObject width=\"5\" height=\"5\"/></g></svg>")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.svg").path
        let run = try CrispTool.run(["render", input, dir.appendingPathComponent("out.png").path])
        #expect(run.status == 77)
        #expect(run.error.contains("unsupported: <foreignObject> at \(input):3:3"), "\(run.error)")
    }

    /// resvg's font options: a user's font file used by family with the system's skipped, and a
    /// missing folder refused up front.
    @Test func fontOptions() throws {
        let dir = try Self.write(##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="20"><text x="2" y="14" font-size="12" font-family="Crisp Test Family">Hi</text></svg>"##)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.svg").path
        let out = dir.appendingPathComponent("out.png").path
        let plain = try CrispTool.run(["render", input, out, "--warnings", "--skip-system-fonts"])
        #expect(plain.status == 0 && plain.error.contains("\"Crisp Test Family\" not found"), "\(plain.error)")
        let roboto = try CGImage(contentsOfPNGFile: out).pixels
        let mono = try CrispTool.run(["render", input, out, "--warnings", "--skip-system-fonts",
                                      "--use-font-file", "/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf",
                                      "--monospace-family", "DejaVu Sans Mono", "--font-family", "monospace"])
        #expect(mono.status == 0, "\(mono.error)")
        #expect(try CGImage(contentsOfPNGFile: out).pixels != roboto)
        let missing = try CrispTool.run(["render", input, out, "--use-fonts-dir", dir.appendingPathComponent("none").path])
        #expect(missing.status != 0 && missing.error.contains("--use-fonts-dir"), "\(missing.error)")
    }
}
