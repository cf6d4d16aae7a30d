import CX11
import Foundation
import Testing

/// The soak (`scripts/soak.sh`) as a test: 120 random actions with a fixed seed against
/// crisp-demo in an Xvfb of the test's own — clicks, drags and long presses on named views and
/// anywhere, every key, wheel notches, window resizes from 1×1 to twice the screen, tab clicks,
/// device presets. The script fails on a crash, a hang (no answer to a key within its limit),
/// resident memory that keeps growing after the warm-up, or an unclean quit; this test checks
/// that it passed and that every kind of action was taken.
@Suite(.serialized) struct SoakEndToEndTests {
    static var script: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/soak.sh").path
    }

    @Test(arguments: [true, false])
    func aShortSoakLeavesTheAppAliveAndItsMemoryLevel(sharedMemory: Bool) throws {
        let bash = try ExternalTools.require("bash", package: "bash")
        _ = try ExternalTools.require("xdotool", package: "xdotool")
        let x = try XvfbServer(sharedMemory: sharedMemory)
        let outputPath = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-soak-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: outputPath) }
        let actions = 120
        let soak = try ChildProcess(bash, [Self.script, "--actions", "\(actions)", "--seed", sharedMemory ? "1" : "2",
                                           "--demo", try ExternalTools.demoExecutable(), "--display", x.displayName,
                                           // A debug build on a loaded machine can take a minute for a retina
                                           // bubbles frame; the script's 30 s default is for release builds.
                                           "--hang", "120"],
                                    environment: ProcessInfo.processInfo.environment, outputPath: outputPath)
        // The script bounds every wait itself (a hang is its failure); this only keeps a wedged
        // script from holding the suite forever.
        let status = soak.waitForExit(timeout: 1800)
        if status == nil { soak.terminate() }
        let output = (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? ""
        #expect(status == 0, "the soak failed:\n\(output)")
        let summary = try #require(output.split(separator: "\n").first { $0.hasPrefix("soak: seed") }.map(String.init),
                                   "no summary line:\n\(output)")
        #expect(summary.contains(" \(actions) actions "), "\(summary)")
        // "… (click 31, drag 17, …), 412 frames, …": the number after a kind, before "frames".
        let words = summary.split { " ,();".contains($0) }.map(String.init)
        func number(after word: String) -> Int { words.firstIndex(of: word).flatMap { Int(words[$0 + 1]) } ?? 0 }
        func number(before word: String) -> Int { words.firstIndex(of: word).flatMap { Int(words[$0 - 1]) } ?? 0 }
        for kind in ["click", "drag", "longpress", "key", "wheel", "resize", "tab", "device"] {
            #expect(number(after: kind) > 0, "no \(kind) action in \(summary)")
        }
        #expect(number(before: "frames") > actions / 25, "\(summary)")
    }

    /// Soak finding (seed 5, 400 actions, SHM): `q` read in the same batch of events as the
    /// ShmCompletion behind it dropped the completion with the rest of the batch, and closing then
    /// waited for it forever. Made certain here: with the server grabbed, a help-key press makes
    /// the demo present a frame the server cannot read yet; the demo is stopped, `q` is queued,
    /// the grab is released (the completion is queued behind `q`), and the demo continues to read
    /// both at once.
    @Test func quitWithTheShmCompletionBehindItInOneBatchDoesNotHang() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        try #require(demo.lines.contains("present shm"))
        let window = try #require(demo.windowID.map { XID($0) })
        // Xlib loads the keyboard map at the first key (a round trip a grab would block).
        x.sendKey(KeySym(XK_x), to: window)
        try #require(demo.waitForLine("key x") != nil)
        XGrabServer(x.display)
        XSync(x.display, False)
        let mark = demo.lines.count
        x.sendKey(KeySym(XK_question), to: window)
        let shown = demo.waitForLine("help shown", after: mark)
        let presented = demo.waitForLine("frame", after: shown ?? mark)
        demo.process.send(SIGSTOP)
        x.sendKey(KeySym(XK_q), to: window)
        XUngrabServer(x.display)
        XSync(x.display, False)
        demo.process.send(SIGCONT)
        #expect(shown != nil && presented != nil, "\(demo.lines.suffix(4))")
        #expect(demo.waitForExit() == 0, "the demo did not end after q: \(demo.lines.suffix(4))")
        #expect(demo.lines.suffix(2) == ["quit", "exit"])
    }
}
