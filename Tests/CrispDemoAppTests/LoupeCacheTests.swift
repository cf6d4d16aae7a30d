import CrispDemoApp
import CrispGraphics
import CrispUI
@_spi(Testing) import CrispWidgets
import Foundation
import Testing

/// What the loupe keeps between frames and what it shows from it: the snapshot matches the
/// window pixel for pixel (cached view contents included), follows a theme fade, and is
/// released when the loupe closes; the loupe's frame is drawn once, not per move.
@Suite struct LoupeCacheTests {
    /// The first pixel (window pixels) outside `excluded` (window points) where `a` and `b`
    /// differ, or nil when they agree everywhere outside it.
    static func firstDifference(_ a: CGImage, _ b: CGImage, outside excluded: CGRect?, scale: CGFloat) -> String? {
        guard a.width == b.width, a.height == b.height else { return "sizes \(a.width)×\(a.height) and \(b.width)×\(b.height)" }
        let hole = excluded.map { CGRect(x: $0.minX * scale, y: $0.minY * scale, width: $0.width * scale, height: $0.height * scale) }
        let pa = a.pixels, pb = b.pixels
        for y in 0..<a.height {
            for x in 0..<a.width where pa[y * a.width + x] != pb[y * a.width + x] {
                if let hole, hole.contains(CGPoint(x: CGFloat(x) + 0.5, y: CGFloat(y) + 0.5)) { continue }
                return String(format: "(%d, %d): %08X against %08X", x, y, pa[y * a.width + x], pb[y * a.width + x])
            }
        }
        return nil
    }

    /// The window painted wholly from the loupe's snapshot (every tile rendered afresh), with
    /// the loupe over it.
    static func windowFromSnapshot(_ f: LoupeTests.Fixture) throws -> CGImage {
        f.window.invalidateEverything()
        try f.host.renderFrame()
        return try f.host.snapshot()
    }

    @Test(arguments: ["signal", "controls", "plot", "bubbles"])
    func theSnapshotMatchesTheWindowPixelForPixel(screen: String) throws {
        let f = try LoupeTests().fixture(screen, device: .iPhone4)
        f.window.finishAnimations()
        try f.host.renderFrame()
        let window = try f.host.snapshot()
        if screen == "bubbles" {
            #expect(f.window.contentsCache.count > 0, "the bubbles draw from cached contents")
        }
        f.loupe.open(at: CGPoint(x: 150, y: 260))
        let fromSnapshot = try Self.windowFromSnapshot(f)
        let difference = Self.firstDifference(window, fromSnapshot, outside: f.loupe.frame, scale: 2)
        #expect(difference == nil, "the snapshot differs from the window at \(difference ?? "")")
    }

    @Test func closingReleasesTheSnapshotAndReopeningTakesANewOne() throws {
        let f = try LoupeTests().fixture("controls", device: .iPhone4)
        #expect(f.loupe.snapshotBytes == 0, "nothing before the loupe first opens")
        let point = CGPoint(x: 160, y: 300)
        try f.press(at: point)
        #expect(f.loupe.isOpen && f.loupe.snapshotBytes == 640 * 960 * 4)
        let shown = try f.host.snapshot()
        f.window.handlePointer(.up, at: point)
        try f.wait(0.1)
        #expect(f.loupe.snapshotBytes > 0, "kept while the closing animation paints from it")
        try f.wait(LoupeView.hideDuration)
        try f.wait(0.02)
        #expect(f.loupe.isHidden)
        #expect(f.loupe.snapshotBytes == 0, "released once the loupe has closed")
        try f.press(at: point)
        #expect(f.loupe.isOpen && f.loupe.snapshotCount == 2 && f.loupe.snapshotBytes > 0)
        let difference = Self.firstDifference(shown, try f.host.snapshot(), outside: nil, scale: 2)
        #expect(difference == nil, "the reopened loupe looks as the first time: \(difference ?? "")")
    }

    @Test func theFrameIsDrawnOnceWhileTheLoupeMoves() throws {
        let f = try LoupeTests().fixture("signal", device: .iPhone4)
        try f.press(at: CGPoint(x: 160, y: 300))
        #expect(f.loupe.chrome.drawCount == 1)
        for i in 0..<8 {
            f.window.handlePointer(.moved, at: CGPoint(x: 160 + CGFloat(i) * 7.3, y: 300 - CGFloat(i) * 3.1))
            try f.host.renderFrame()
        }
        f.loupe.mode = .vector
        f.loupe.zoom = 4
        try f.host.renderFrame()
        #expect(f.loupe.chrome.drawCount == 1, "moves, the mode and the zoom reuse the frame's bitmaps")
        f.loupe.theme = .red
        try f.host.renderFrame()
        #expect(f.loupe.chrome.drawCount == 2, "a new theme draws them again")
    }

    @Test(arguments: [CGPoint(x: 160.3, y: 300.7), CGPoint(x: 0.25, y: 479.75), CGPoint(x: 319.6, y: 1.1)])
    func theFrameSitsOnWholePixelsInsideTheWindow(touch: CGPoint) {
        for (bounds, scale) in [(CGRect(x: 0, y: 0, width: 320, height: 480), CGFloat(2)),
                                (CGRect(x: 0, y: 0, width: 100.5, height: 100), 2), (CGRect(x: 0, y: 0, width: 320, height: 480), 1)] {
            let frame = LoupeView.frame(forTouch: touch, in: bounds, scale: scale)
            #expect(frame.minX * scale == (frame.minX * scale).rounded() && frame.minY * scale == (frame.minY * scale).rounded(), "\(frame)")
            #expect(bounds.contains(frame), "\(frame) in \(bounds)")
        }
    }

    @Test func openedDuringAThemeFadeTheLoupeShowsEachFrameOfTheFade() throws {
        // Two apps driven alike: `f` paints as the app does (only what the fade repaints, the
        // loupe and its backdrop from the snapshot, refreshed where the fade repainted); `g`
        // repaints everything from a snapshot rendered afresh each frame — the truth for that
        // moment of the fade.
        let f = try LoupeTests().fixture("controls", device: .iPhone4)
        let g = try LoupeTests().fixture("controls", device: .iPhone4)
        let tabBar = f.app.tabBar
        let touch = tabBar.convert(CGPoint(x: tabBar.bounds.midX, y: tabBar.bounds.midY), to: nil)
        for x in [f, g] {
            x.app.setTheme(.red)
            try x.wait(0.08)
            #expect(x.app.isFadingTheme)
            x.loupe.open(at: touch)
            try x.host.renderFrame()
        }
        var shown: [[UInt32]] = []
        for _ in 0..<3 {
            try f.wait(0.05)
            g.clock.now += 0.05
            g.window.eventLoop.runDueWork()
            g.window.invalidateEverything()
            try g.host.renderFrame()
            #expect(f.app.isFadingTheme && g.app.isFadingTheme)
            let painted = try #require(f.host.context.makeImage()), truth = try #require(g.host.context.makeImage())
            let difference = Self.firstDifference(painted, truth, outside: nil, scale: 2)
            #expect(difference == nil, "the loupe or its backdrop shows a stale moment of the fade at \(difference ?? "")")
            let s: CGFloat = 2, r = f.loupe.frame
            shown.append(try #require(painted.cropping(to: CGRect(x: r.minX * s, y: r.minY * s, width: r.width * s, height: r.height * s))).pixels)
        }
        #expect(shown[0] != shown[1] && shown[1] != shown[2], "the loupe follows the fade")
    }
}
