import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CX11
import Foundation
import Testing

/// crisp-demo in a real X server (Xvfb, started by the test), with and without MIT-SHM:
/// first frame equal to the headless snapshot, call bar, free resize, pointer input, closing by
/// WM_DELETE_WINDOW, and no shared-memory segment left behind, also after kill -9.
@Suite(.serialized) struct DemoWindowEndToEndTests {
    /// The headless rendering of the same screen, as 0x00RRGGBB.
    static func headless(_ device: Device, inCall: Bool = false) throws -> [UInt32] {
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: device, isInCall: inCall, fixedTime: "9:41"))
        return try HeadlessHost(window: app.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
    }

    /// Waits until the window shows `expected` (the server may still be painting), then checks.
    ///
    /// `tolerance` pixels may differ by one level per channel (a caller that allows any says why).
    static func expectWindow(_ x: XvfbServer, _ window: XID, equals expected: [UInt32], width: Int, height: Int,
                             _ what: String, tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        var last: (width: Int, height: Int, pixels: [UInt32])?
        func nearlyEqual(_ a: UInt32, _ b: UInt32) -> Bool {
            for shift: UInt32 in [0, 8, 16, 24] {
                let ca = Int((a >> shift) & 0xFF), cb = Int((b >> shift) & 0xFF)
                if abs(ca - cb) > 1 { return false }
            }
            return true
        }
        func accepted(_ pixels: [UInt32]) -> Bool {
            pixels.count == expected.count
                && zip(pixels, expected).allSatisfy { nearlyEqual($0, $1) }
                && zip(pixels, expected).filter { $0 != $1 }.count <= tolerance
        }
        waitUntil(timeout: 10) {
            last = x.pixels(of: window)
            return last?.width == width && last?.height == height && last.map { accepted($0.pixels) } == true
        }
        guard let last else {
            Issue.record("\(what): cannot read the window's pixels", sourceLocation: sourceLocation)
            return
        }
        #expect(last.width == width && last.height == height, "\(what): window is \(last.width)×\(last.height)",
                sourceLocation: sourceLocation)
        if last.pixels.count == expected.count {
            let differing = zip(last.pixels, expected).filter { $0 != $1 }.count
            let first = zip(last.pixels, expected).enumerated().first { $0.element.0 != $0.element.1 }
                .map { " (first at x \($0.offset % width), y \($0.offset / width): window \(String($0.element.0, radix: 16)), headless \(String($0.element.1, radix: 16)))" } ?? ""
            #expect(accepted(last.pixels), "\(what): \(differing) pixels differ from the headless snapshot\(first)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: [true, false])
    func demoWindow(sharedMemory: Bool) throws {
        let x = try XvfbServer(sharedMemory: sharedMemory)
        #expect(x.hasSharedMemory == sharedMemory)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(demo.lines.first { $0.hasPrefix("present") } == (sharedMemory ? "present shm" : "present putimage (the X server has no MIT-SHM extension)"))
        #expect(demo.lines.prefix(2) == ["screen signal", "theme blue"])

        // Window properties for window managers.
        let names = x.titleAndClass(of: window)
        #expect(names.title == "Crisp — Signal — iPhone 3GS")
        #expect(names.instance == "crisp-demo" && names.className == "Crisp")

        // First frame: exactly the headless snapshot.
        let first = try Self.headless(.iPhone3GS)
        Self.expectWindow(x, window, equals: first, width: 320, height: 480, "first frame")
        if sharedMemory {
            #expect(try !sharedMemorySegments(createdBy: demo.pid).isEmpty, "the SHM image lives in a segment")
        }

        // c: the in-call status bar moves the content down.
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")
        var mark = demo.lines.count
        try demo.xdotool("key", "c")
        let callLine = try #require(demo.waitForLine("call on", after: mark))
        #expect(demo.waitForLine("frame", after: callLine) != nil)
        let inCall = try Self.headless(.iPhone3GS, inCall: true)
        #expect(inCall != first)
        Self.expectWindow(x, window, equals: inCall, width: 320, height: 480, "in call")

        // A click and a drag on the graph arrive as a tap and a pan.
        mark = demo.lines.count
        try demo.xdotool("mousemove", "\(origin.x + 100)", "\(origin.y + 250)", "click", "1")
        #expect(demo.waitForLine("tap 100 250", after: mark) != nil, "\(demo.lines.suffix(5))")
        mark = demo.lines.count
        try demo.xdotool("mousedown", "1")
        for dx in stride(from: 5, through: 80, by: 5) { try demo.xdotool("mousemove", "\(origin.x + 100 + dx)", "\(origin.y + 250)") }
        try demo.xdotool("mouseup", "1")
        let began = demo.waitForLine("pan began", after: mark)
        let ended = demo.waitForLine("pan ended 180 250", after: mark)
        #expect(began != nil && ended != nil && began! < ended!, "\(demo.lines.suffix(8))")

        // Back to the normal status bar, then a free resize: a custom screen, the graph grows.
        mark = demo.lines.count
        try demo.xdotool("key", "c")
        try #require(demo.waitForLine("call off", after: mark) != nil)
        mark = demo.lines.count
        try demo.xdotool("windowsize", "\(window)", "420", "600")
        #expect(demo.waitForLine("resize 420x600", after: mark) != nil, "\(demo.lines.suffix(5))")
        // The drag left the marker on the sample under x = 180.
        let small = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41"))
        small.window.layoutIfNeeded()
        let marked = small.signalGraph.plot.sample(nearestTo: small.signalGraph.plot.convert(CGPoint(x: 180, y: 0), from: nil).x)
        let grown = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .custom(pixelWidth: 420, pixelHeight: 600, scale: 1), fixedTime: "9:41"))
        grown.signalGraph.plot.markedSample = marked
        grown.window.layoutIfNeeded()
        #expect(grown.signalGraph.plot.frame.width == small.signalGraph.plot.frame.width + 100)
        #expect(grown.signalGraph.plot.frame.height == small.signalGraph.plot.frame.height + 120)
        let resized = try HeadlessHost(window: grown.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
        Self.expectWindow(x, window, equals: resized, width: 420, height: 600, "after resize")

        // A preset key resizes the window to the preset.
        mark = demo.lines.count
        try demo.xdotool("key", "3")
        #expect(demo.waitForLine("resize 640x1136", after: mark) != nil)
        #expect(waitUntil { x.titleAndClass(of: window).title == "Crisp — Signal — iPhone 5" }, "\(x.titleAndClass(of: window).title)")
        let phone5 = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone5, fixedTime: "9:41"))
        phone5.signalGraph.plot.markedSample = marked
        let phone5Pixels = try HeadlessHost(window: phone5.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
        Self.expectWindow(x, window, equals: phone5Pixels, width: 640, height: 1136, "iPhone 5 preset")

        // The window manager's close button: WM_DELETE_WINDOW ends the app cleanly.
        x.sendDeleteWindow(to: window)
        #expect(demo.waitForExit() == 0)
        #expect(demo.lines.suffix(2) == ["close", "exit"], "\(demo.lines.suffix(4))")
        #expect(try waitUntil { try sharedMemorySegments(createdBy: demo.pid).isEmpty }, "a shared-memory segment leaked")
    }

    @Test func killNineLeaksNoSegment() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone4", "--clock", "9:41"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.first { $0.hasPrefix("present") } == "present shm")
        #expect(try !sharedMemorySegments(createdBy: demo.pid).isEmpty)
        kill(demo.pid, SIGKILL)
        #expect(demo.waitForExit() != nil)
        #expect(try waitUntil { try sharedMemorySegments(createdBy: demo.pid).isEmpty }, "a shared-memory segment leaked after kill -9")
    }

    @Test func noSHMEnvironmentVariableForcesXPutImage() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41"],
                                   environment: ["CRISP_NO_SHM": "1"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.first { $0.hasPrefix("present") } == "present putimage (disabled by CRISP_NO_SHM=1)")
        #expect(try sharedMemorySegments(createdBy: demo.pid).isEmpty)
        let window = try #require(demo.windowID.map { XID($0) })
        Self.expectWindow(x, window, equals: try Self.headless(.iPhone3GS), width: 320, height: 480, "XPutImage frame")
        let mark = demo.lines.count
        try demo.xdotool("mousemove", "100", "100", "key", "q")
        #expect(demo.waitForLine("quit", after: mark) != nil)
        #expect(demo.waitForExit() == 0)
    }

    @Test func withoutADisplayItSaysSoAndFails() throws {
        let demo = try ExternalTools.demoExecutable()
        let result = try ExternalTools.run(demo, ["--device", "iphone3gs"], environment: ["DISPLAY": ":9876"])
        #expect(result.status == 1)
        #expect(result.output.contains("cannot open X display \":9876\""))
    }
}

private extension AppController {
    /// The demo's signal graph, on a demo launched as a user's tests launch theirs.
    var signalGraph: SignalGraphView { (view(forScreen: SignalScreen.name) as! SignalScreen).graph }
}
