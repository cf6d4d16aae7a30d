import CrispDemoApp
import CrispGraphics
import CrispUI
import CX11
import Foundation
import Testing

/// The in-call status bar animates in a real window: several frames arrive while it moves, the
/// window ends exactly at the headless in-call picture, and then the display link has stopped —
/// no frames and no CPU time while nothing animates.
@Suite(.serialized) struct CallBarAnimationEndToEndTests {
    /// User plus system CPU time of `pid` so far, in clock ticks (from `/proc/PID/stat`).
    static func cpuTicks(of pid: Int32) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        // The command name (field 2) is in parentheses and may hold spaces: count after it.
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        return Int(fields[11])! + Int(fields[12])!   // utime and stime: fields 14 and 15
    }

    @Test func callBarAnimatesThenTheAppIsIdle() throws {
        let x = try XvfbServer(sharedMemory: true)
        // A fixed clock: no clock timer, no call timer, so only the animation can wake the app.
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        let mark = demo.lines.count
        try demo.xdotool("key", "c")
        let callLine = try #require(demo.waitForLine("call on", after: mark))
        let inCall = try DemoWindowEndToEndTests.headless(.iPhone3GS, inCall: true)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: inCall, width: 320, height: 480, "after the animation")

        // The bar moved over several frames (time-based: a loaded machine shows fewer, never one).
        let frames = demo.lines[callLine...].filter { $0.hasPrefix("frame ") }.count
        #expect(frames >= 3, "\(frames) frames while the call bar animated")

        // Idle: a measurement window (not a wait for a condition): nothing is scheduled, so the
        // app sleeps in poll() — no frames, no CPU ticks.
        let linesBefore = demo.lines.count
        let ticksBefore = try Self.cpuTicks(of: demo.pid)
        Thread.sleep(forTimeInterval: 3)
        #expect(try Self.cpuTicks(of: demo.pid) == ticksBefore)
        #expect(demo.lines.count == linesBefore, "\(demo.lines.suffix(3))")
    }
}
