import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CX11
import Foundation
import Testing

/// Issue 30's debug overlays in a real window (the headless side is `DebugOverlayTests`): the
/// tints reach the X window as the headless host draws them, `d` cycles through the overlays,
/// `none` gives back the frame without marks bit for bit, an idle app presents nothing, and a
/// flash is presented as its fade frames through the X11 host's own timers, then erased.
@Suite(.serialized) struct DebugOverlayEndToEndTests {
    /// The demo's first screen on an iPhone 3GS at 9:41 with `overlay`, as the headless host
    /// draws it (`configure` changes the app first), without the alpha byte.
    private static func headless(_ overlay: DebugOverlay, configure: (AppController) -> Void = { _ in }) throws -> [UInt32] {
        let app = AppController(application: DemoApplication.self,
                                configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41", debugOverlay: overlay))
        configure(app)
        return try HeadlessHost(window: app.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
    }

    /// The number of `frame` lines so far.
    private static func frames(_ demo: DemoProcess) -> Int { demo.lines.filter { $0.hasPrefix("frame ") }.count }

    /// Waits until no frame has been presented for `quiet` seconds (at most `timeout`); returns
    /// the number of frames then, or nil when frames kept coming.
    private static func settledFrames(_ demo: DemoProcess, quiet: TimeInterval = 0.6, timeout: TimeInterval = 20) -> Int? {
        let deadline = Date().addingTimeInterval(timeout)
        var count = frames(demo), since = Date()
        while Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
            let now = frames(demo)
            if now != count { count = now; since = Date() } else if Date().timeIntervalSince(since) >= quiet { return count }
        }
        return nil
    }

    @Test func tintsReachTheWindowAndDCyclesBackToTheUnmarkedFrame() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--overlay", "cached"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("overlay cached"), "the status line at start: \(demo.lines.prefix(12))")
        let window = try #require(demo.windowID.map { XID($0) })

        let plain = try Self.headless(.none)
        let cached = try Self.headless(.cached)
        let blended = try Self.headless(.blended)
        // Each overlay marks this screen (else the comparisons below would not tell them apart).
        #expect(zip(cached, plain).filter { $0 != $1 }.count > 1000)
        #expect(zip(blended, plain).filter { $0 != $1 }.count > 1000)
        #expect(cached != blended)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: cached, width: 320, height: 480, "cached overlay at start")

        // Idle: the tints stay in the window's bitmap, nothing is presented again.
        let idle = try #require(Self.settledFrames(demo), "frames kept coming with the cached overlay on an idle screen: \(demo.lines.suffix(5))")
        Thread.sleep(forTimeInterval: 1)
        #expect(Self.frames(demo) == idle, "an idle app presented frames under the overlay: \(demo.lines.suffix(5))")

        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        var mark = demo.lines.count
        try demo.xdotool("key", "d")
        #expect(demo.waitForLine("overlay blended", after: mark) != nil, "\(demo.lines.suffix(5))")
        DemoWindowEndToEndTests.expectWindow(x, window, equals: blended, width: 320, height: 480, "blended overlay after d")

        mark = demo.lines.count
        try demo.xdotool("key", "d")
        #expect(demo.waitForLine("overlay misaligned", after: mark) != nil, "\(demo.lines.suffix(5))")
        mark = demo.lines.count
        try demo.xdotool("key", "d")
        #expect(demo.waitForLine("overlay none", after: mark) != nil, "\(demo.lines.suffix(5))")
        // No overlay: the window is the frame the views drew, without a mark left over.
        DemoWindowEndToEndTests.expectWindow(x, window, equals: plain, width: 320, height: 480, "no overlay after cycling")

        mark = demo.lines.count
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }

    @Test func aFlashIsPresentedAsItsFadeFramesThenErased() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--overlay", "flash-updates"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        // The first frame flashes the whole window; its fade frames follow, then nothing.
        let start = try #require(Self.settledFrames(demo), "frames kept coming after the first flash: \(demo.lines.suffix(5))")
        #expect(start >= 1 + DebugOverlay.flashFrames, "the first frame's flash was not faded out: \(start) frames")
        DemoWindowEndToEndTests.expectWindow(x, window, equals: try Self.headless(.none), width: 320, height: 480, "after the first flash")

        // A tap on the graph marks a sample: one frame for the update, then one fade frame per
        // step of the flash over the same rectangle, the last of which erases it.
        let origin = x.origin(of: window)
        let mark = demo.lines.count
        try demo.xdotool("mousemove", "\(origin.x + 100)", "\(origin.y + 250)", "click", "1")
        let tap = try #require(demo.waitForLine("tap 100 250", after: mark), "\(demo.lines.suffix(5))")
        let end = try #require(Self.settledFrames(demo), "frames kept coming after the tap's flash: \(demo.lines.suffix(5))")
        let presented = demo.lines.suffix(from: tap).filter { $0.hasPrefix("frame ") }
        #expect(end - start == presented.count)
        #expect(presented.count >= 1 + DebugOverlay.flashFrames,
                "the tap's update and its \(DebugOverlay.flashFrames) fade frames: \(presented)")
        // The flash is gone: the window shows what the demo shows without an overlay after the tap.
        let tapped = try Self.headless(.none) { app in
            app.window.layoutIfNeeded()
            app.window.handlePointer(.down, at: CGPoint(x: 100, y: 250))
            app.window.handlePointer(.up, at: CGPoint(x: 100, y: 250))
        }
        #expect(tapped != (try Self.headless(.none)), "the tap changes the screen")
        DemoWindowEndToEndTests.expectWindow(x, window, equals: tapped, width: 320, height: 480, "after the tap's flash")

        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
