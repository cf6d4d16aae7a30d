import CX11
import Foundation
import Testing

/// crisp-demo's controls screen in a real X server, driven like a user with xdotool and seen
/// through the status file (`layout`, `state`, `screen`, `theme`, `frame` lines) and the window's
/// pixels.
@Suite(.serialized) struct ControlsEndToEndTests {
    /// The last `layout` frame reported for `identifier`, in window pixels.
    static func frame(_ demo: DemoProcess, _ identifier: String) -> (x: Int, y: Int, width: Int, height: Int)? {
        guard let line = demo.lines.last(where: { $0.hasPrefix("layout \(identifier) ") }) else { return nil }
        let v = line.split(separator: " ").dropFirst(2).compactMap { Int($0) }
        return v.count == 4 ? (v[0], v[1], v[2], v[3]) : nil
    }

    /// The window's pixels inside a frame.
    static func pixels(_ x: XvfbServer, _ window: XID, in f: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
        guard let all = x.pixels(of: window) else { return [] }
        return (f.y..<(f.y + f.height)).flatMap { row in (f.x..<(f.x + f.width)).map { all.pixels[row * all.width + $0] } }
    }

    /// CPU time the process has used, in clock ticks (utime + stime from /proc/<pid>/stat).
    static func cpuTicks(_ pid: Int32) -> Int? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, utime 14 and stime 15 (1-based, counting pid and comm).
        guard fields.count > 13, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    @Test func controlsScreenUnderTheMouseAndKeyboard() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--screen", "controls"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(demo.lines.prefix(2) == ["screen controls", "theme blue"])
        #expect(x.titleAndClass(of: window).title == "Crisp — Controls — iPhone 3GS")
        let minimum = x.minimumSize(of: window)
        #expect(minimum?.width == 240 && minimum?.height == 360, "the window's minimum size is the app's, in pixels at 1×")
        let origin = x.origin(of: window)
        func point(_ f: (x: Int, y: Int, width: Int, height: Int), _ fx: Double, _ fy: Double = 0.5) -> (String, String) {
            ("\(origin.x + f.x + Int(Double(f.width) * fx))", "\(origin.y + f.y + Int(Double(f.height) * fy))")
        }
        func drag(_ f: (x: Int, y: Int, width: Int, height: Int), from a: Double, to b: Double) throws {
            let start = point(f, a)
            try demo.xdotool("mousemove", start.0, start.1, "mousedown", "1")
            for i in 1...8 {
                let p = point(f, a + (b - a) * Double(i) / 8)
                try demo.xdotool("mousemove", p.0, p.1)
            }
            try demo.xdotool("mouseup", "1")
        }

        // The check box: a click unchecks it, and its pixels change.
        let box = try #require(Self.frame(demo, "checkbox"), "\(demo.lines.prefix(40))")
        let boxBefore = Self.pixels(x, window, in: box)
        var mark = demo.lines.count
        let c = point(box, 0.5)
        try demo.xdotool("mousemove", c.0, c.1, "click", "1")
        #expect(demo.waitForLine("state checkbox off", after: mark) != nil, "\(demo.lines.suffix(5))")
        #expect(waitUntil { Self.pixels(x, window, in: box) != boxBefore }, "the check mark is gone from the window")

        // The iOS-style switch: its knob dragged to the right end turns it on.
        let uiswitch = try #require(Self.frame(demo, "uiswitch"))
        mark = demo.lines.count
        try drag(uiswitch, from: 0.15, to: 0.95)
        #expect(demo.waitForLine("state uiswitch on", after: mark) != nil, "\(demo.lines.suffix(5))")

        // The sound switch: a tap turns it on.
        let sound = try #require(Self.frame(demo, "switch.sound"))
        mark = demo.lines.count
        let s = point(sound, 0.5)
        try demo.xdotool("mousemove", s.0, s.1, "click", "1")
        #expect(demo.waitForLine("state switch.sound on", after: mark) != nil, "\(demo.lines.suffix(5))")

        // The battery follows a drag; the last value is where the pointer let go.
        let battery = try #require(Self.frame(demo, "battery"))
        mark = demo.lines.count
        try drag(battery, from: 0.7, to: 0.25)
        #expect(demo.waitForLine("state battery", after: mark) != nil)
        let levels = demo.lines[mark...].filter { $0.hasPrefix("state battery ") }.compactMap { Double($0.split(separator: " ")[2]) }
        #expect(levels.count >= 2 && (levels.last ?? 100) < 40, "\(levels)")

        // The mouse wheel over the zoom panel zooms in.
        let zoom = try #require(Self.frame(demo, "zoom"))
        mark = demo.lines.count
        try demo.xdotool("mousemove", "\(origin.x + zoom.x + zoom.width / 2)", "\(origin.y + zoom.y - 40)", "click", "4")
        #expect(demo.waitForLine("state zoom 1.3", after: mark) != nil, "\(demo.lines.suffix(5))")

        // t: the next theme, and the bar cross-fades to its colours.
        let bar = try #require(Self.frame(demo, "toggle.1")).y
        let barStrip = (x: 0, y: bar - 2, width: 320, height: 1)
        let blueBar = Self.pixels(x, window, in: barStrip)
        mark = demo.lines.count
        try demo.xdotool("key", "t")
        #expect(demo.waitForLine("theme red", after: mark) != nil)
        #expect(waitUntil {
            let now = Self.pixels(x, window, in: barStrip)
            return now != blueBar && now.contains { ($0 >> 16) & 0xFF > ($0 & 0xFF) + 40 }
        }, "the bar turns red")

        // b: frames arrive while the battery runs down and up; then the app is idle (0 CPU).
        mark = demo.lines.count
        try demo.xdotool("key", "b")
        #expect(demo.waitForLine("state battery 0", after: mark) != nil)
        let done = demo.waitForLine("state battery 100", after: mark)
        #expect(done != nil)
        #expect(demo.lines[mark...].filter { $0.hasPrefix("frame ") }.count > 30, "frames while animating")
        // Quiet: no status line for half a second, then not one tick of CPU in three seconds.
        var count = demo.lines.count
        waitUntil(timeout: 10) {
            usleep(500_000)
            defer { count = demo.lines.count }
            return demo.lines.count == count
        }
        let before = try #require(Self.cpuTicks(demo.pid))
        sleep(3)
        let after = try #require(Self.cpuTicks(demo.pid))
        #expect(after == before, "idle CPU: \(after - before) ticks in 3 s")

        // A tab: the signal screen, a `screen` line and a new picture.
        let tab = try #require(Self.frame(demo, "tab.signal"))
        let controlsPicture = x.pixels(of: window)?.pixels
        mark = demo.lines.count
        let t = point(tab, 0.5)
        try demo.xdotool("mousemove", t.0, t.1, "click", "1")
        #expect(demo.waitForLine("screen signal", after: mark) != nil)
        #expect(waitUntil { x.pixels(of: window)?.pixels != controlsPicture })
        #expect(waitUntil { x.titleAndClass(of: window).title == "Crisp — Signal — iPhone 3GS" })

        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }

    @Test func unknownScreenOrThemeIsAUsageErrorListingTheNames() throws {
        let demo = try ExternalTools.demoExecutable()
        let screen = try ExternalTools.run(demo, ["--screen", "plots", "--snapshot", "/dev/null"])
        #expect(screen.status == 64)
        #expect(screen.output.contains("unknown --screen plots; use one of signal, controls, plot"))
        let theme = try ExternalTools.run(demo, ["--theme", "purple", "--snapshot", "/dev/null"])
        #expect(theme.status == 64)
        #expect(theme.output.contains("unknown --theme purple; use one of blue, red, green, gold"))
    }
}
