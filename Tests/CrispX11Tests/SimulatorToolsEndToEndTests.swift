import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CX11
import Foundation
import Testing

/// Issue 30's keys in a real window: Ctrl+S writes the device screen as a PNG into
/// `--media-dir` (the window's pixels, not the desktop's), Ctrl+T turns slow animations on,
/// and `--status-bar` shows in the window.
@Suite(.serialized) struct SimulatorToolsEndToEndTests {
    @Test func ctrlSScreenshotAndCtrlTSlowAnimations() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-media-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--clock", "9:41", "--media-dir", folder.path,
            "--status-bar", "operatorName=Test,dataNetwork=3g,batteryState=charging",
        ])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("slow-animations off"))
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 160)", "\(origin.y + 240)")

        var mark = demo.lines.count
        try demo.xdotool("key", "ctrl+t")
        #expect(demo.waitForLine("slow-animations on", after: mark) != nil, "\(demo.lines.suffix(5))")

        mark = demo.lines.count
        try demo.xdotool("key", "ctrl+s")
        let index = try #require(demo.waitForLine("screenshot ", after: mark), "\(demo.lines.suffix(5)); \(demo.standardError)")
        let path = String(demo.lines[index].dropFirst("screenshot ".count))
        #expect(path.hasPrefix(folder.path + "/Crisp — iPhone 3GS — "), "\(path)")
        let shot = try CGImage(contentsOfPNGFile: path)
        #expect(shot.width == 320 && shot.height == 480, "the device screen, not the desktop")
        // The same picture as the window shows and as a headless run with the same options.
        let overrides = try StatusBarOverrides(parsing: "operatorName=Test,dataNetwork=3g,batteryState=charging")
        let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41"))
        overrides.apply(to: app.statusBar)
        let expected = try HeadlessHost(window: app.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
        #expect(shot.pixels.map { $0 & 0x00FF_FFFF } == expected)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: expected, width: 320, height: 480, "after the screenshot")

        mark = demo.lines.count
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }

    /// `--orientation` starts the window on its side; Ctrl+Right and Ctrl+Left turn it: the
    /// `orientation` line, then the window takes the new shape and, once the turn has played,
    /// shows what a headless run started in that orientation shows.
    @Test func ctrlArrowsTurnTheWindow() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--clock", "9:41", "--screen", "controls", "--orientation", "landscape-left",
        ])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("orientation landscape-left"))
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(x.size(of: window).map { $0.width == 480 && $0.height == 320 } == true)
        #expect(x.minimumSize(of: window).map { $0.width == 360 && $0.height == 240 } == true, "the minimum on its side")
        func expected(_ orientation: DeviceOrientation) throws -> [UInt32] {
            let app = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41", screen: "controls"))
            app.setOrientation(orientation, animated: false)
            return try HeadlessHost(window: app.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
        }
        DemoWindowEndToEndTests.expectWindow(x, window, equals: try expected(.landscapeLeft), width: 480, height: 320, "landscape at start")

        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 100)", "\(origin.y + 100)")
        var mark = demo.lines.count
        try demo.xdotool("key", "ctrl+Right")
        let turned = try #require(demo.waitForLine("orientation portrait", after: mark), "\(demo.lines.suffix(5))")
        #expect(demo.lines[turned - 1] == "key Ctrl+Right")
        #expect(demo.waitForLine("layout ", after: turned) != nil, "layout lines follow")
        #expect(demo.waitForLine("resize 320x480", after: turned) != nil)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: try expected(.portrait), width: 320, height: 480, "portrait after the turn")

        mark = demo.lines.count
        try demo.xdotool("key", "ctrl+Left")
        #expect(demo.waitForLine("orientation landscape-left", after: mark) != nil)
        DemoWindowEndToEndTests.expectWindow(x, window, equals: try expected(.landscapeLeft), width: 480, height: 320, "landscape again")
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
