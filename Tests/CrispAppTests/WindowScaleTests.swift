import CrispApp
import CrispTestSupport
import Foundation
import Testing

private enum OneScreenApp: CrispApplication {
    static let name = "One"
    static var screens: [AppScreen] { [AppScreen(name: "one") { _ in
        let v = View()
        v.backgroundColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)
        return v
    }] }
}

/// Issue 30's window modes: pixel, point, physical, and the `window-scale` status line.
@Suite struct WindowScaleTests {
    @Test func modesSetThePixelsPerPoint() throws {
        let app = AppController(application: OneScreenApp.self, configuration: AppConfiguration(device: .iPhone3GS, fixedTime: "9:41"))
        var lines: [String] = []
        app.eventLog = { lines.append($0) }
        app.logInitialState()
        #expect(lines.last == "window-scale pixel 1")
        app.setDesktop(scale: 2, dotsPerInch: 192)
        #expect(app.screen.scale == 1 && lines.last == "window-scale pixel 1", "pixel mode ignores the desktop")
        app.handleKey(KeyPress(characters: "2", isControlDown: true))
        #expect(lines.suffix(2) == ["key Ctrl+2", "window-scale point 2"])
        #expect(app.screen.pixelWidth == 640 && app.screen.pixelHeight == 960 && app.screen.device.name == "iPhone 3GS")
        // Drawn at the window's density: the same picture as the iPhone 4 (320 × 480 pt at 2×).
        let phone4 = AppController(application: OneScreenApp.self, configuration: AppConfiguration(device: .iPhone4, fixedTime: "9:41"))
        #expect(try HeadlessHost(window: app.window).snapshot().pixels == (try HeadlessHost(window: phone4.window).snapshot()).pixels)
        // Presets, s and turns keep the mode.
        app.handleKey(KeyPress(characters: "4"))
        #expect(app.screen.pixelWidth == 1536 && app.deviceScale == 1)
        app.handleKey(KeyPress(characters: "s"))
        #expect(app.screen.pixelWidth == 1536 && app.deviceScale == 2 && lines.last == "scale 2 1536x2048")
        app.setOrientation(.landscapeLeft, animated: false)
        #expect(app.screen.pixelWidth == 2048 && app.screen.scale == 2)
        // The desktop changes: a line.
        app.setDesktop(scale: 1.5, dotsPerInch: 144)
        #expect(lines.last == "window-scale point 1.5" && app.screen.pixelWidth == 1536)
        // Physical: 144 dpi over the iPad's 132 points per inch.
        app.handleKey(KeyPress(characters: "3", isControlDown: true))
        #expect(lines.last == "window-scale physical 1.091", "\(lines.last ?? "")")
        app.handleKey(KeyPress(characters: "2"))
        #expect(lines.suffix(2) == ["window-scale physical 0.883", "device iphone4 424x283"], "\(lines.suffix(3))")
        #expect(app.screen.scale == CGFloat(144.0) / 163)
        app.handleKey(KeyPress(characters: "1", isControlDown: true))
        #expect(lines.last == "window-scale pixel 2" && app.screen.pixelWidth == 960)
        // Plain 1 is still a preset.
        app.handleKey(KeyPress(characters: "1"))
        #expect(app.screen.pixelWidth == 480 && lines.last == "device iphone3gs 480x320")
    }

    @Test func theCommandLineTakesAMode() throws {
        #expect(OneScreenApp.run(arguments: ["--window-scale", "huge"]) == 64)
        let png = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-ws-\(UUID().uuidString).png").path
        defer { try? FileManager.default.removeItem(atPath: png) }
        setenv("CRISP_SCALE", "2", 1)
        defer { unsetenv("CRISP_SCALE") }
        #expect(OneScreenApp.run(arguments: ["--device", "iphone3gs", "--window-scale", "point", "--snapshot", png]) == 0)
        #expect(try CGImage(contentsOfPNGFile: png).width == 640)
    }
}
