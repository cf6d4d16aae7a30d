import CrispDemoApp
import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The `f` overlay: it graphs the app's frames, keeps its own frames out of the graph, and never
/// makes frames by itself.
@Suite struct FrameTimeHUDTests {
    @Test func recordsTheAppsFramesAndNotItsOwn() throws {
        let f = try LoupeTests().fixture()
        f.app.handleKey(KeyPress(characters: "f"))
        #expect(f.lines.items.last == "hud shown")
        #expect(!f.app.hud.isHidden)
        try f.host.renderFrame()  // the overlay appears: a frame of the app's
        let afterShow = f.app.hud.frames.count
        try f.host.renderFrame()  // the overlay's own repaint
        #expect(!f.window.needsFrame, "the overlay does not make frames by itself")
        #expect(f.app.hud.frames.count == afterShow, "its own frame is not in the graph")
        f.app.statusBar.timeLabel.text = "10:00"
        try f.host.renderFrame()
        #expect(f.app.hud.frames.count == afterShow + 1)
        #expect(f.app.hud.frames.last?.dirtyPixels ?? 0 > 0)
        try f.host.renderFrame()
        #expect(!f.window.needsFrame)
        for _ in 0..<200 {
            f.app.statusBar.timeLabel.text = f.app.statusBar.timeLabel.text == "10:00" ? "10:01" : "10:00"
            try f.host.renderFrame()
        }
        #expect(f.app.hud.frames.count == FrameTimeHUD.capacity)
        f.app.handleKey(KeyPress(characters: "f"))
        #expect(f.app.hud.isHidden)
    }

    @Test func golden() throws {
        let f = try LoupeTests().fixture(device: .iPhone4)
        f.app.handleKey(KeyPress(characters: "f"))
        f.window.frameStatisticsObserver = nil
        let hud = f.app.hud
        for i in 0..<130 {
            let render = 0.002 + 0.010 * Double(i % 17) / 17
            let present = 0.001 * Double(i % 5)
            hud.record(FrameStatistics(time: Double(i) / 60, render: render, present: present,
                                       rects: [CGRect(x: 0, y: 0, width: 100, height: 50 + i)]))
        }
        #expect(hud.framesPerSecond.map { abs($0 - 60) < 0.5 } == true)
        let s = f.app.screen.scale
        let r = hud.frame
        Golden.check(try #require(f.host.snapshot().cropping(to: CGRect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s))),
                     "hud", "iphone4")
    }
}
