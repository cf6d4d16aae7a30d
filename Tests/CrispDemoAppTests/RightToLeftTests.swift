import CrispApp
import CrispDemoApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The demo in Arabic: the layout mirrors as UIKit's does for a right-to-left language, the
/// controls run right to left, the charts do not, and the status file says which way it runs.
@Suite struct RightToLeftTests {
    func app(_ language: String, device: Device = .iPhone4, screen: String = "controls") throws -> (AppController, StatusLines) {
        let (app, _, lines) = try launchedApp(screen: screen, device: device, inCall: false, language: language)
        return (app, lines)
    }

    /// `view`'s frame in window points.
    func onScreen(_ view: View) -> CGRect { view.convert(view.bounds, to: nil) }

    @Test(arguments: [Device.iPhone4, .iPad])
    func theControlsScreenIsTheEnglishOneMirrored(device: Device) throws {
        let (en, _) = try app("en", device: device), (ar, _) = try app("ar", device: device)
        #expect(ar.window.userInterfaceLayoutDirection == .rightToLeft && en.window.userInterfaceLayoutDirection == .leftToRight)
        let e = en.controlsScreen, a = ar.controlsScreen
        let screenBox = onScreen(e)
        #expect(screenBox == onScreen(a))
        let pairs: [(View, View)] = [(e.bar, a.bar), (e.zoomPanel, a.zoomPanel), (e.battery, a.battery), (e.compass, a.compass),
                                     (e.bitmap, a.bitmap), (e.checkBox, a.checkBox), (e.uiSwitch, a.uiSwitch)]
            + Array(zip(e.swatches, a.swatches)) + Array(zip(e.captions, a.captions))
        for (left, right) in pairs {
            #expect(onScreen(right) == onScreen(left).mirroredHorizontally(in: screenBox), "\(type(of: left))")
        }
        // Inside the bar the toggles start at the right.
        #expect(onScreen(a.bar.toggles[0]).midX > onScreen(a.bar.toggles[1]).midX)
        #expect(onScreen(e.bar.toggles[0]).midX < onScreen(e.bar.toggles[1]).midX)
        // The captions are Arabic and sit against the right edge of their boxes.
        let caption = a.captions[0]
        #expect(caption.text == "تكبير بلا فقد")
        #expect(abs(caption.textRect.maxX - caption.bounds.maxX) < 0.5)
    }

    @Test func theStatusBarAndTabBarMirror() throws {
        let (ar, _) = try app("ar"), (en, _) = try app("en")
        let bar = ar.statusBar
        #expect(bar.battery.frame.maxX < bar.timeLabel.frame.minX && bar.timeLabel.frame.maxX < bar.signalBars.frame.minX,
                "battery, clock, signal from left to right")
        #expect(bar.signalBars.frame == en.statusBar.signalBars.frame.mirroredHorizontally(in: bar.bounds))
        let tabs = ar.tabBar
        let xs = (0..<5).map { tabs.itemRect($0).midX }
        #expect(xs == xs.sorted(by: >), "the first tab is the rightmost")
        #expect(tabs.itemIndex(at: CGPoint(x: tabs.itemRect(0).midX, y: tabs.bounds.midY)) == 0)
    }

    @Test func theSwitchAndSliderRunRightToLeft() throws {
        let (ar, _) = try app("ar")
        let s = ar.controlsScreen.uiSwitch
        #expect(!s.isOn)
        let track = s.convert(s.bounds, to: nil)
        // Off, the knob is at the right; a drag to the left turns it on.
        ar.window.handlePointer(.down, at: CGPoint(x: track.maxX - 10, y: track.midY))
        ar.window.handlePointer(.moved, at: CGPoint(x: track.minX - 40, y: track.midY))
        ar.window.handlePointer(.up, at: CGPoint(x: track.minX - 40, y: track.midY))
        #expect(s.isOn)
        let slider = ar.controlsScreen.zoomPanel.slider
        let r = slider.convert(slider.bounds, to: nil)
        ar.window.handlePointer(.down, at: CGPoint(x: r.maxX - 1, y: r.midY))
        ar.window.handlePointer(.up, at: CGPoint(x: r.maxX - 1, y: r.midY))
        #expect(slider.value == slider.minimumValue, "the minimum is at the right end")
        ar.window.handlePointer(.down, at: CGPoint(x: r.minX + 1, y: r.midY))
        ar.window.handlePointer(.up, at: CGPoint(x: r.minX + 1, y: r.midY))
        #expect(slider.value == slider.maximumValue)
    }

    @Test func chartsKeepTheirAxesLeftToRight() throws {
        let (ar, _) = try app("ar", screen: "plot"), (en, _) = try app("en", screen: "plot")
        #expect(onScreen(ar.plotScreen.plot) == onScreen(en.plotScreen.plot))
        #expect(ar.plotScreen.plot.points == en.plotScreen.plot.points)
        let (arAssets, _) = try app("ar", device: .iPad, screen: "assets")
        #expect(arAssets.assetsScreen.chart.effectiveUserInterfaceLayoutDirection == .leftToRight)
        #expect(arAssets.assetsScreen.table.effectiveUserInterfaceLayoutDirection == .rightToLeft)
    }

    @Test func theStatusFileSaysWhichWayTheLayoutRuns() throws {
        let (app, lines) = try app("en")
        app.logInitialState()
        #expect(lines.items.contains("layout-direction left-to-right"))
        lines.items.removeAll()
        for _ in 0..<3 { app.handleKey(KeyPress(characters: "l")) }
        #expect(lines.items.filter { $0.hasPrefix("language") || $0.hasPrefix("layout-direction") }
            == ["language de", "language es", "language ar", "layout-direction right-to-left"])
        #expect(app.controlsScreen.captions[1].text == "البطارية")
        try HeadlessHost(window: app.window).renderFrame()
        lines.items.removeAll()
        app.handleKey(KeyPress(characters: "l"))
        #expect(lines.items.filter { $0.hasPrefix("language") || $0.hasPrefix("layout-direction") }
            == ["language en", "layout-direction left-to-right"])
        app.window.layoutIfNeeded()
        #expect(app.statusBar.battery.frame.minX > app.statusBar.timeLabel.frame.maxX, "back on the right")
    }

    /// The Arabic labels draw from the bundled Noto Sans Arabic, joined, whether or not the
    /// system has an Arabic font.
    @Test func arabicTextIsShapedInTheBundledFont() throws {
        var settings = FontSettings()
        settings.usesSystemFonts = false
        let source = FontSource(settings: settings)
        let font = try CTFont.uiFont(.system, size: 17)
        let line = CTLine(string: "البطارية", font: font, fallback: source)
        let run = try #require(line.fontRuns.first)
        #expect(run.font.fullName == "Noto Sans Arabic Regular" && line.fontRuns.count == 1)
        let isolated = Set("البطارية".unicodeScalars.map { run.font.face.glyph(for: $0) })
        #expect(!line.glyphs.contains(0) && !Set(line.glyphs).isSubset(of: isolated), "contextual forms, not isolated letters")
        #expect(line.paragraphDirection == .rightToLeft)
    }
}
