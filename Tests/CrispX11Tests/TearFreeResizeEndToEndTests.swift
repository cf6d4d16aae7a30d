import CrispApp
import CrispGraphics
import CrispUI
import CrispDemoApp
import CrispX11
import CX11
import Foundation
import Testing

/// Issue 30's tear-free resizing under a real window manager (openbox, which implements
/// `_NET_WM_SYNC_REQUEST` for interactive resizes): the window advertises the protocol and
/// publishes a counter, the counter is set only after the frame of the new size is presented,
/// and that frame has no uninitialised pixels.
@Suite(.serialized) struct TearFreeResizeEndToEndTests {
    @Test func aWindowManagersResizeWaitsForTheNewFrame() throws {
        let openbox = try ExternalTools.require("openbox", package: "openbox")
        let xprop = try ExternalTools.require("xprop", package: "x11-utils")
        let x = try XvfbServer(sharedMemory: true)
        let wm = try ChildProcess(openbox, ["--sm-disable"], environment: ["DISPLAY": x.displayName, "HOME": NSTemporaryDirectory()])
        defer { wm.terminate() }
        // The window manager is up when it has published its check window on the root.
        let managed = waitUntil {
            let r = try? ExternalTools.run(xprop, ["-root", "_NET_SUPPORTING_WM_CHECK"], environment: ["DISPLAY": x.displayName])
            return r?.output.contains("window id") == true
        }
        try #require(managed, "openbox did not start")

        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41"])
        try #require(demo.waitForLine("frame 1") != nil,
                     "no first frame; running: \(demo.process.isRunning); status: \(demo.lines.suffix(8)); stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        let properties = try ExternalTools.run(xprop, ["-id", "\(window)", "WM_PROTOCOLS", "_NET_WM_SYNC_REQUEST_COUNTER"],
                                               environment: ["DISPLAY": x.displayName]).output
        #expect(properties.contains("_NET_WM_SYNC_REQUEST"), "\(properties)")
        #expect(properties.contains("_NET_WM_SYNC_REQUEST_COUNTER(CARDINAL) = "), "\(properties)")

        for (dx, dy) in [(60, 100), (-90, -40)] {
            let size = try #require(x.size(of: window))
            let origin = x.origin(of: window)
            // Openbox's Alt + right-button drag resizes from the nearest corner: grab near the
            // bottom-right one.
            let startX = origin.x + size.width - 20, startY = origin.y + size.height - 20
            let mark = demo.lines.count
            try demo.xdotool("mousemove", "\(startX)", "\(startY)")
            try demo.xdotool("keydown", "alt", "mousedown", "3")
            try demo.xdotool("mousemove", "\(startX + dx / 2)", "\(startY + dy / 2)")
            try demo.xdotool("mousemove", "\(startX + dx)", "\(startY + dy)")
            try demo.xdotool("mouseup", "3", "keyup", "alt")
            let syncLine = try #require(demo.waitForLine("sync ", after: mark), "no sync request acknowledged: \(demo.lines.suffix(8))")
            let value = try #require(Int64(demo.lines[syncLine].dropFirst(5)))
            // Openbox counts its requests from 1 in each interactive resize.
            #expect(value > 0)
            // The frame of the new size was presented before the counter was set.
            let resize = try #require(demo.lines[mark..<syncLine].lastIndex { $0.hasPrefix("resize ") }, "\(demo.lines.suffix(8))")
            let presented = demo.lines[resize..<syncLine].contains { $0.hasPrefix("frame ") }
            #expect(presented, "\(demo.lines[resize...syncLine])")

            // At once, every pixel of the window is the frame of its new size: nothing
            // uninitialised (what was on screen before, or the root's pattern) shows.
            let shown = try #require(x.pixels(of: window))
            let phone = AppController(application: DemoApplication.self, configuration: AppConfiguration(
                device: .custom(pixelWidth: shown.width, pixelHeight: shown.height, scale: 1), fixedTime: "9:41"))
            let expected = try HeadlessHost(window: phone.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
            let differing = zip(shown.pixels, expected).filter { a, b in
                [0, 8, 16].contains { (shift: UInt32) in abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF)) > 1 }
            }.count
            #expect(shown.pixels.count == expected.count && differing == 0,
                    "\(differing) of \(shown.width)×\(shown.height) pixels are not the new frame's")
        }
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
