import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// An `APNGOutput` that fails with ENOSPC's message once `limit` bytes are in the file.
private final class FullDiskOutput: APNGOutput, @unchecked Sendable {
    var bytes: [UInt8] = []
    let limit: Int
    init(limit: Int) { self.limit = limit }
    func write(_ data: [UInt8], at offset: Int) throws {
        let n = min(data.count, max(0, limit - offset))
        if offset + n > bytes.count { bytes += [UInt8](repeating: 0, count: offset + n - bytes.count) }
        bytes.replaceSubrange(offset..<(offset + n), with: data[0..<n])
        if n < data.count { throw PNGError.writeFailed(path: "full disk", reason: String(cString: strerror(ENOSPC))) }
    }
    func truncate(to length: Int) throws { if bytes.count > length { bytes.removeLast(bytes.count - length) } }
    func close() {}
}

/// Issue 30's recordings (`Ctrl+R`, `--record`): an animated PNG of the presented frames that
/// plays back bit for bit, with the real delays; a path that cannot be written and a disk
/// that fills up stop it with a message while the app goes on.
@Suite(.serialized) struct RecordingTests {
    static func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("crisp-rec-\(UUID().uuidString)-\(name)").path
    }

    /// Records a theme fade, a loupe drag, an idle second and the call bar on the controls
    /// screen; every frame the window presented comes back from the file, bit for bit.
    /// (On the iPhone 3GS: a debug build encodes larger screens' frames too slowly for a test.)
    @Test func aRecordingPlaysBackEveryPresentedFrameBitForBit() throws {
        let device = Device.iPhone3GS
        let f = try LoupeTests().fixture("controls", device: device)
        let folder = Self.temporaryPath("media")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        f.app.mediaDirectory = folder
        var presented: [(pixels: [UInt32], time: TimeInterval)] = []
        func step(_ seconds: TimeInterval) throws {
            try f.wait(seconds)
            if !f.host.lastFrameRects.isEmpty { presented.append((f.host.context.makeImage()!.pixels, f.clock.now)) }
        }
        f.app.handleKey(KeyPress(characters: "\u{12}"))
        #expect(f.app.isRecording)
        #expect(f.lines.items.suffix(2) == ["key Ctrl+R", "recording started \(f.app.recorder!.path)"])
        #expect(f.app.recorder!.path.hasPrefix(folder + "/Crisp — iPhone 3GS — ") && f.app.recorder!.path.hasSuffix(".apng"))
        let start = f.clock.now
        // The recording repaints the whole screen as its first frame.
        try step(0)
        #expect(presented.count == 1)
        f.app.setTheme(.gold)
        for _ in 0..<22 { try step(1.0 / 60) }
        f.window.handlePointer(.down, at: CGPoint(x: 160, y: 300))
        try step(0.6)  // the loupe opens
        try step(0.01)
        for i in 0..<6 {
            f.window.handlePointer(.moved, at: CGPoint(x: 160 + 7 * i, y: 300 - 5 * i))
            try step(1.0 / 60)
        }
        f.window.handlePointer(.up, at: CGPoint(x: 200, y: 270))
        for _ in 0..<20 { try step(1.0 / 60) }
        try step(1.0)  // idle: no frame, only time
        f.app.handleKey(KeyPress(characters: "c"))
        for _ in 0..<30 { try step(1.0 / 60) }
        f.clock.now += 0.5
        let recorder = try #require(f.app.recorder)
        f.app.handleKey(KeyPress(characters: "\u{12}"))
        #expect(!f.app.isRecording && recorder.mergedFrameCount == 0)

        // Frames equal to the one before are not stored: what a player shows changes at the
        // same moments.
        var expected: [(pixels: [UInt32], time: TimeInterval)] = []
        for p in presented where expected.last?.pixels != p.pixels { expected.append(p) }
        let saved = try #require(f.lines.items.last)
        #expect(saved == "recording saved \(recorder.path) \(expected.count)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: recorder.path)))
        let animation = try APNGAnimation(pngData: bytes)
        #expect(animation.width == f.host.context.width && animation.height == f.host.context.height)
        #expect(animation.frames.count == expected.count)
        try animation.forEachImage { i, image in
            #expect(image.pixels == expected[i].pixels, "frame \(i) differs from the presented one")
        }
        // Each frame shows from its presentation until the next (milliseconds, rounded on the
        // absolute times); the last until the recording stopped.
        var t = 0.0
        for (i, frame) in animation.frames.enumerated() {
            #expect(abs(t - (expected[i].time - start)) < 0.0015, "frame \(i) starts at \(t)")
            t += frame.delay
        }
        #expect(abs(t - (f.clock.now - start)) < 0.0015)
        #expect(animation.frames.contains { $0.delay > 0.9 }, "the idle second is one frame's delay")
        #expect(animation.frames.dropFirst().allSatisfy { $0.width * $0.height < animation.width * animation.height || $0.dispose == .none })
        #expect(animation.frames.dropFirst().contains { $0.height < animation.height / 4 }, "small changes store small rectangles")
    }

    @Test func anUnwritablePathIsAClearErrorAndTheAppGoesOn() throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone3GS)
        var errors: [String] = []
        f.app.errorHandler = { errors.append($0) }
        #expect(!f.app.startRecording(to: "/nonexistent-crisp-folder/rec.apng"))
        #expect(!f.app.isRecording)
        #expect(f.lines.items.last == "recording failed cannot write PNG file /nonexistent-crisp-folder/rec.apng: No such file or directory")
        #expect(errors == ["cannot record: cannot write PNG file /nonexistent-crisp-folder/rec.apng: No such file or directory"])
        f.app.mediaDirectory = "/nonexistent-crisp-folder"
        f.app.handleKey(KeyPress(characters: "\u{12}"))
        #expect(f.lines.items.last?.hasPrefix("recording failed cannot write PNG file /nonexistent-crisp-folder/Crisp — iPhone 3GS — ") == true)
        f.app.setTheme(.gold)
        try f.wait(0.1)
        #expect(!f.host.lastFrameRects.isEmpty, "the app goes on")
    }

    @Test func aFullDiskStopsTheRecordingWithAMessageAndLeavesAValidFile() throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone3GS)
        var errors: [String] = []
        f.app.errorHandler = { errors.append($0) }
        let output = FullDiskOutput(limit: 120_000)
        #expect(f.app.startRecording(to: "full.apng", output: output))
        var presented: [[UInt32]] = []
        f.app.setTheme(.gold)
        for _ in 0..<40 where f.app.isRecording {
            try f.wait(1.0 / 60)
            if !f.host.lastFrameRects.isEmpty, let p = f.host.context.makeImage()?.pixels, p != presented.last { presented.append(p) }
            Thread.sleep(forTimeInterval: 0.02)  // lets the encoder thread meet the full disk
        }
        for _ in 0..<100 where f.app.isRecording {
            Thread.sleep(forTimeInterval: 0.02)
            try f.wait(0.1)
        }
        #expect(!f.app.isRecording, "the recording stopped")
        let failed = try #require(f.lines.items.firstIndex { $0.hasPrefix("recording failed ") })
        #expect(f.lines.items[failed] == "recording failed cannot write PNG file full disk: No space left on device")
        #expect(errors.first == "recording stopped: cannot write PNG file full disk: No space left on device")
        let saved = try #require(f.lines.items.last { $0.hasPrefix("recording saved full.apng ") })
        let frames = try #require(Int(saved.split(separator: " ").last!))
        #expect(frames >= 1)
        let animation = try APNGAnimation(pngData: output.bytes)
        #expect(animation.frames.count == frames)
        try animation.forEachImage { i, image in #expect(image.pixels == presented[i], "frame \(i)") }
        // The app keeps running, and records again.
        try f.wait(0.5)
        #expect(f.app.startRecording(to: "again.apng", output: FullDiskOutput(limit: .max)))
        f.app.stopRecording()
    }
}
