import CrispGraphics
import Foundation
import Testing

// `crisp png optimize` and `crisp png info` as a user runs them: exit statuses, messages, files.

/// Runs the `crisp` executable built beside the tests.
enum CrispTool {
    static var executable: String {
        get throws {
            let candidates = [
                URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("crisp").path,
                URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                    .appendingPathComponent(".build/debug/crisp").path,
            ]
            guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
                struct NotBuilt: Error, CustomStringConvertible { var description: String { "crisp is not built: run swift build first" } }
                throw NotBuilt()
            }
            return found
        }
    }

    /// Exit status, standard output and standard error of `crisp arguments…`.
    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable)
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile(), err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}

@Suite struct PNGCommandTests {
    /// A fresh directory with `in.png` (a small RGBA image with few colours) and, if given, `out.png`.
    static func directory(output: String? = nil) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pixels = (0..<(40 * 30)).map { i -> UInt32 in i % 7 == 0 ? 0xFF20_4060 : i % 3 == 0 ? 0x8040_2010 : 0xFFFF_FFFF }
        try CGImage(width: 40, height: 30, pixels: pixels).writePNG(to: dir.appendingPathComponent("in.png").path, colorType: .rgba)
        if let output { try Data(output.utf8).write(to: dir.appendingPathComponent("out.png")) }
        return dir
    }

    @Test func optimizeWritesASmallerFileWithTheSamePixels() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png").path, output = dir.appendingPathComponent("out.png").path
        let run = try CrispTool.run(["png", "optimize", input, output, "--level", "3"])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.output.contains("→"))
        #expect(try CGImage(contentsOfPNGFile: output).pixels == CGImage(contentsOfPNGFile: input).pixels)
        let sizes = try [input, output].map { try FileManager.default.attributesOfItem(atPath: $0)[.size] as! Int }
        #expect(sizes[1] < sizes[0])
    }

    @Test func inPlaceReplacesTheInput() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png").path
        let before = try CGImage(contentsOfPNGFile: input).pixels
        let run = try CrispTool.run(["png", "optimize", "--in-place", "--quiet", input])
        #expect(run.status == 0 && run.output.isEmpty, "\(run.error)")
        #expect(try CGImage(contentsOfPNGFile: input).pixels == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["in.png"])
    }

    @Test func badInputExitsWithStatusOneAndWritesNothing() throws {
        let dir = try Self.directory(output: "untouched")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png").path, output = dir.appendingPathComponent("out.png").path
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: input)))
        bytes[20] ^= 0x40  // inside IHDR: the CRC no longer matches
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        let run = try CrispTool.run(["png", "optimize", input, output])
        #expect(run.status == 1)
        #expect(run.error.contains("CRC mismatch in chunk IHDR"))
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "untouched")
        #expect(try CrispTool.run(["png", "optimize", dir.appendingPathComponent("missing.png").path, output]).status == 1)
        #expect(try CrispTool.run(["png", "info", input]).status == 1)
    }

    @Test func anUnwritableOutputExitsWithStatusThree() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CrispTool.run(["png", "optimize", dir.appendingPathComponent("in.png").path, dir.appendingPathComponent("no/out.png").path])
        #expect(run.status == 3)
        #expect(run.error.contains("cannot write PNG file"))
    }

    @Test(arguments: [["--level", "7"], [], ["--in-place"]])
    func usageErrorsExitWithStatus64(extra: [String]) throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("in.png").path
        let arguments = ["png", "optimize", input] + (extra == ["--in-place"] ? [dir.appendingPathComponent("out.png").path, "--in-place"] : extra)
        #expect(try CrispTool.run(arguments).status == 64)
    }

    @Test func infoShowsFormatChunksSizesAndDecodeTime() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try CrispTool.run(["png", "info", dir.appendingPathComponent("in.png").path])
        #expect(run.status == 0, "\(run.error)")
        for expected in ["40×30", "RGBA (colour type 6)", "8-bit", "not interlaced", "IHDR 13", "IDAT", "IEND 0", "raw", "decode"] {
            #expect(run.output.contains(expected), "\(expected) in \(run.output)")
        }
    }
}

/// `crisp png info` and `crisp png frames` on an animated PNG written by `APNGWriter`.
@Suite struct APNGCommandTests {
    @Test func infoListsTheFramesAndFramesWritesThemAsPNGs() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-apng-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("a.apng").path
        let writer = try APNGWriter(width: 8, height: 6, output: APNGFileOutput(path: path))
        var canvas = [UInt32](repeating: 0xFF10_2030, count: 48)
        try canvas.withUnsafeBufferPointer { _ = try writer.addFrame($0.baseAddress!, stride: 8, x: 0, y: 0, width: 8, height: 6, time: 1) }
        canvas[2 * 8 + 3] = 0xFFFF_FFFF
        try canvas.withUnsafeBufferPointer { _ = try writer.addFrame($0.baseAddress!, stride: 8, x: 0, y: 0, width: 8, height: 6, time: 1.25) }
        try writer.finish(at: 3.25)
        let info = try CrispTool.run(["png", "info", path])
        #expect(info.status == 0, "\(info.error)")
        #expect(info.output.contains("animated (APNG): 2 frames, plays forever, 2.250 s"), "\(info.output)")
        #expect(info.output.contains("  0: 0,0 8×6, 250/1000 s (0.250 s), none/source, "), "\(info.output)")
        #expect(info.output.contains("  1: 0,2 8×1, 2000/1000 s (2.000 s), none/source, "), "the changed row only: \(info.output)")
        let frames = try CrispTool.run(["png", "frames", path, dir.path])
        #expect(frames.status == 0 && frames.output.hasPrefix("\(path): 2 frames, "), "\(frames.output) \(frames.error)")
        let second = try CGImage(contentsOfPNGFile: dir.appendingPathComponent("frame-0001.png").path)
        #expect(second.pixels == canvas)
        // A broken APNG: a clear error, exit status 1.
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[8 + 25 + 8 + 3] = 5  // acTL's frame count 2 → 5 (its CRC now fails)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let broken = try CrispTool.run(["png", "info", path])
        #expect(broken.status == 1 && broken.error.contains("CRC mismatch in chunk acTL"), "\(broken.error)")
    }
}
