import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispX11
import CX11
import Foundation
import Testing

/// Issue 30's HiDPI: the desktop's scale from `CRISP_SCALE`, XSETTINGS `Xft/DPI`,
/// `RESOURCE_MANAGER` `Xft.dpi` and the display's millimetres, in that order, absurd values
/// passed over; and the window following it under Xvfb.
@Suite(.serialized) struct DesktopScaleTests {
    /// An `_XSETTINGS_SETTINGS` property: a string setting, then `Xft/DPI` (an integer).
    static func xsettings(dpi: Int32, bigEndian: Bool) -> [UInt8] {
        var bytes: [UInt8] = [bigEndian ? 1 : 0, 0, 0, 0]
        func card16(_ v: Int) { bytes += bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func card32(_ v: UInt32) {
            let b = [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)]
            bytes += bigEndian ? b.reversed() : b
        }
        func name(_ s: String) {
            let u = Array(s.utf8)
            card16(u.count)
            bytes += u + [UInt8](repeating: 0, count: (4 - u.count % 4) % 4)
        }
        card32(7)      // serial
        card32(2)      // settings
        bytes += [1, 0]; name("Net/ThemeName"); card32(0); card32(5); bytes += Array("Adwai".utf8) + [0, 0, 0]
        bytes += [0, 0]; name("Xft/DPI"); card32(0); card32(UInt32(bitPattern: dpi))
        return bytes
    }

    @Test func eachSourceReadsAsToolkitsReadIt() {
        #expect(DesktopScale.fromEnvironment("2") == 2 && DesktopScale.fromEnvironment(" 1.5 ") == 1.5)
        #expect(DesktopScale.fromResources("Xcursor.size:\t24\nXft.dpi:\t192\n") == 2)
        #expect(DesktopScale.fromResources("*Xft.dpi: 144") == 1.5)
        #expect(DesktopScale.fromXSettings(Self.xsettings(dpi: 192 * 1024, bigEndian: false)) == 2)
        #expect(DesktopScale.fromXSettings(Self.xsettings(dpi: 144 * 1024, bigEndian: true)) == 1.5)
        #expect(DesktopScale.dotsPerInch(pixels: 1920, millimetres: 254)! == 192)
    }

    @Test func absurdValuesSayNothing() {
        for text in ["0", "-2", "1e9", "two", "", "nan", "inf"] { #expect(DesktopScale.fromEnvironment(text) == nil, "\(text)") }
        for text in ["Xft.dpi:\t0", "Xft.dpi: -96", "Xft.dpi: 99999999", "Xft.dpi: big", "Xft.dpi", "Xft.dpi:"] {
            #expect(DesktopScale.fromResources(text) == nil, "\(text)")
        }
        #expect(DesktopScale.fromXSettings(Self.xsettings(dpi: -1024, bigEndian: false)) == nil)
        #expect(DesktopScale.fromXSettings([0, 0, 0]) == nil)
        #expect(DesktopScale.fromXSettings(Array(Self.xsettings(dpi: 192 * 1024, bigEndian: false).prefix(30))) == nil, "truncated")
        var lying = Self.xsettings(dpi: 192 * 1024, bigEndian: false)
        lying[8] = 0xFF; lying[9] = 0xFF; lying[10] = 0xFF; lying[11] = 0x7F
        _ = DesktopScale.fromXSettings(lying) // a count far beyond the bytes: no crash
        #expect(DesktopScale.dotsPerInch(pixels: 1920, millimetres: 0) == nil)
        #expect(DesktopScale.dotsPerInch(pixels: 1920, millimetres: 1) == nil)
    }

    @Test func theOrderIsEnvironmentXSettingsResourcesMillimetres() {
        let xs = Self.xsettings(dpi: 120 * 1024, bigEndian: false)
        func pick(_ env: String?, _ x: [UInt8]?, _ r: String?, _ mm: Int) -> DesktopScale {
            DesktopScale.choose(environment: env, xsettings: x, resources: r, pixels: 3840, millimetres: mm)
        }
        #expect(pick("3", xs, "Xft.dpi: 192", 508).source == "CRISP_SCALE")
        #expect(pick("3", xs, "Xft.dpi: 192", 508).scale == 3)
        #expect(pick(nil, xs, "Xft.dpi: 192", 508).scale == 1.25)
        #expect(pick("-1", xs, "Xft.dpi: 192", 508).scale == 1.25, "an absurd CRISP_SCALE is passed over")
        #expect(pick(nil, nil, "Xft.dpi: 192", 508).scale == 2)
        #expect(pick(nil, nil, "Xft.dpi: 0", 508).source == "millimetres")
        #expect(pick(nil, nil, nil, 508).scale == 2 && pick(nil, nil, nil, 508).dotsPerInch == 192)
        #expect(pick(nil, nil, nil, 0) == DesktopScale(scale: 1, dotsPerInch: 96, source: "default"))
    }

    @Test func theXRandROutputMeasuresTheDisplay() {
        typealias O = DesktopScale.OutputMeasure
        let laptop = O(pixels: 2880, millimetres: 344, isPrimary: false, isActive: true)
        let monitor = O(pixels: 1920, millimetres: 510, isPrimary: true, isActive: true)
        let off = O(pixels: 0, millimetres: 600, isPrimary: true, isActive: false)
        #expect(DesktopScale.primaryMeasure([laptop, monitor])! == (1920, 510), "the primary output")
        #expect(DesktopScale.primaryMeasure([off, laptop])! == (2880, 344), "an inactive primary is passed over")
        #expect(DesktopScale.primaryMeasure([off]) == nil && DesktopScale.primaryMeasure([]) == nil)
        // 2880 px on 344 mm: 212.7 dpi, 2×; XRandR's 0 mm (a virtual display) or absurd sizes: 1×.
        #expect(DesktopScale.choose(environment: nil, xsettings: nil, resources: nil, pixels: 2880, millimetres: 344).scale == 2)
        for mm in [0, 1, 5, 100_000] {
            let r = DesktopScale.choose(environment: nil, xsettings: nil, resources: nil, pixels: 2880, millimetres: mm)
            #expect(r == DesktopScale(scale: 1, dotsPerInch: 96, source: "default"), "\(mm) mm")
        }
    }

    /// Under Xvfb: `--window-scale point` follows `Xft.dpi` set on the root while the app runs
    /// (and passes over an absurd one); `Ctrl+1` and `Ctrl+3` switch modes.
    @Test func theWindowFollowsTheDesktopScale() throws {
        let x = try XvfbServer(sharedMemory: true)
        let xprop = try ExternalTools.require("xprop", package: "x11-utils")
        func setDPI(_ value: String) throws {
            try ExternalTools.run(xprop, ["-root", "-f", "RESOURCE_MANAGER", "8s", "-set", "RESOURCE_MANAGER", "Xft.dpi:\t\(value)\n"],
                                  environment: ["DISPLAY": x.displayName])
        }
        try setDPI("144")
        let demo = try DemoProcess(display: x.displayName, arguments: [
            "--device", "iphone3gs", "--clock", "9:41", "--window-scale", "point",
        ], environment: ["CRISP_SCALE": ""])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        #expect(demo.lines.contains("window-scale point 1.5"), "\(demo.lines.prefix(12))")
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(x.size(of: window).map { $0.width == 480 && $0.height == 720 } == true)

        var mark = demo.lines.count
        try setDPI("192")
        #expect(demo.waitForLine("window-scale point 2", after: mark) != nil, "\(demo.lines.suffix(5))")
        #expect(demo.waitForLine("resize 640x960", after: mark) != nil)
        // The vectors at the window's density: the iPhone 3GS at 2 pixels a point is the
        // iPhone 4's picture (same points, same scale), not a scaled bitmap.
        let phone4 = AppController(application: DemoApplication.self, configuration: AppConfiguration(device: .iPhone4, fixedTime: "9:41"))
        let expected = try HeadlessHost(window: phone4.window).snapshot().pixels.map { $0 & 0x00FF_FFFF }
        DemoWindowEndToEndTests.expectWindow(x, window, equals: expected, width: 640, height: 960, "point mode at 2×")

        mark = demo.lines.count
        try setDPI("-7")
        // Passed over: Xvfb's millimetres say 1× (its default 96-ish dpi).
        #expect(demo.waitForLine("window-scale point 1", after: mark) != nil, "\(demo.lines.suffix(5))")
        #expect(demo.waitForLine("resize 320x480", after: mark) != nil, "\(demo.lines.suffix(5))")

        let origin = x.origin(of: window)
        try demo.xdotool("mousemove", "\(origin.x + 50)", "\(origin.y + 50)")
        mark = demo.lines.count
        try demo.xdotool("key", "ctrl+3")
        let physical = try #require(demo.waitForLine("window-scale physical ", after: mark), "\(demo.lines.suffix(5))")
        #expect(demo.lines[physical - 1] == "key Ctrl+3")
        // The physical size is on screen before the next key: keys handled in one pass of the
        // event loop are presented once, so Ctrl+1 pressed before that frame would leave the
        // window at 320×480 with no resize in between (seen under AddressSanitizer).
        #expect(demo.waitForLine("resize ", after: physical) != nil, "\(demo.lines.suffix(5))")
        mark = demo.lines.count
        try demo.xdotool("key", "ctrl+1")
        #expect(demo.waitForLine("window-scale pixel 1", after: mark) != nil, "\(demo.lines.suffix(8))")
        #expect(demo.waitForLine("resize 320x480", after: mark) != nil,
                "every line since Ctrl+3: \(demo.lines[(physical - 1)...].filter { !$0.hasPrefix("layout ") })")
        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
