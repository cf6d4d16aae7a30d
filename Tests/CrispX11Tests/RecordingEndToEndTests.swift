import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CX11
import Foundation
import Testing

/// Issue 30's recordings in a real window: Ctrl+R starts and stops one (its last frame is what
/// the window shows), `--record` records from launch, and SIGTERM and SIGINT finish the file
/// into a valid APNG before the process ends by the signal; an unwritable `--record` path or
/// `--media-dir` is a clear message while the app runs on.
@Suite(.serialized) struct RecordingEndToEndTests {
    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-rec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func ctrlRRecordsWhatTheWindowShows() throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--clock", "9:41", "--screen", "controls", "--media-dir", folder.path,
        ])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        var mark = demo.lines.count
        try demo.xdotool("key", "ctrl+r")
        let started = try #require(demo.waitForLine("recording started ", after: mark), "\(demo.lines.suffix(5)); \(demo.standardError)")
        let path = String(demo.lines[started].dropFirst("recording started ".count))
        #expect(path.hasPrefix(folder.path + "/Crisp — iPhone 3GS — ") && path.hasSuffix(".apng"), "\(path)")
        try demo.xdotool("key", "t")
        #expect(demo.waitForLine("theme ", after: started) != nil)
        Thread.sleep(forTimeInterval: 1)  // the fade plays (0.3 s)
        mark = demo.lines.count
        try demo.xdotool("key", "ctrl+r")
        let saved = try #require(demo.waitForLine("recording saved ", after: mark), "\(demo.lines.suffix(5)); \(demo.standardError)")
        let parts = demo.lines[saved].split(separator: " ")
        #expect(demo.lines[saved].hasPrefix("recording saved \(path) "))
        let frames = try #require(Int(parts.last!))
        #expect(frames >= 3, "the first frame and the fade's")
        let animation = try APNGAnimation(pngData: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(animation.frames.count == frames && animation.width == 320 && animation.height == 480)
        let last = try #require(try animation.images().last)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: last.pixels.map { $0 & 0x00FF_FFFF }, width: 320, height: 480,
                                             "the recording's last frame")
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }

    @Test(arguments: [SIGTERM, SIGINT])
    func aSignalFinishesTheRecordingIntoAValidFile(signal: Int32) throws {
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("signal.apng").path
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--clock", "9:41", "--screen", "controls", "--record", path,
        ])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("recording started \(path)"))
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        try demo.xdotool("key", "t")
        #expect(demo.waitForLine("theme ") != nil)
        Thread.sleep(forTimeInterval: 0.6)
        let mark = demo.lines.count
        demo.process.send(signal)
        #expect(demo.waitForExit() == 128 + signal, "ends by the signal, as before; stderr: \(demo.standardError)")
        let name = signal == SIGINT ? "SIGINT" : "SIGTERM"
        #expect(demo.lines.suffix(from: mark).contains("signal \(name)"), "\(demo.lines.suffix(5))")
        let saved = try #require(demo.lines.last { $0.hasPrefix("recording saved \(path) ") }, "\(demo.lines.suffix(5))")
        let frames = try #require(Int(saved.split(separator: " ").last!))
        #expect(frames >= 2)
        let animation = try APNGAnimation(pngData: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(animation.frames.count == frames)
        #expect(try animation.images().count == frames)
    }

    @Test func unwritablePathsAreClearErrorsAndTheAppRunsOn() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--record", "/nonexistent-crisp/rec.apng", "--media-dir", "/nonexistent-crisp",
        ])
        try #require(demo.waitForLine("frame 1") != nil, "the app runs; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("recording failed cannot write PNG file /nonexistent-crisp/rec.apng: No such file or directory"))
        #expect(demo.standardError.contains("--media-dir /nonexistent-crisp is not a folder: screenshots and recordings there will fail"))
        #expect(demo.standardError.contains("cannot record: cannot write PNG file /nonexistent-crisp/rec.apng: No such file or directory"))
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        let mark = demo.lines.count
        try demo.xdotool("key", "ctrl+r")
        #expect(demo.waitForLine("recording failed cannot write PNG file /nonexistent-crisp/Crisp — iPhone 3GS — ", after: mark) != nil,
                "\(demo.lines.suffix(5))")
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
