import CrispGraphics
import CrispUI
import Foundation
import Testing

@Suite struct DirtyRectTests {
    @Test func setNeedsDisplayMarksThePixelsOfTheViewAtTheScreenScale() throws {
        let window = makeWindow(scale: 2)
        let v = View(frame: CGRect(x: 10.25, y: 5, width: 20, height: 10))
        window.addSubview(v)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(!window.needsFrame)
        v.setNeedsDisplay(CGRect(x: 1, y: 1, width: 2, height: 2))
        #expect(window.dirtyRegion.rects == [CGRect(x: 22, y: 12, width: 5, height: 4)])
    }

    @Test func movingAViewRepaintsOldAndNewPlaceOnly() throws {
        let window = makeWindow(width: 400, height: 400)
        let v = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(v)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        v.frame.origin = CGPoint(x: 300, y: 300)
        #expect(try host.renderFrame() == [CGRect(x: 0, y: 0, width: 10, height: 10), CGRect(x: 300, y: 300, width: 10, height: 10)])
    }

    @Test func onlyViewsInTheDirtyAreaDraw() throws {
        let window = makeWindow(width: 200, height: 100)
        let a = RecordingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        let b = RecordingView(frame: CGRect(x: 100, y: 0, width: 50, height: 50))
        window.addSubview(a)
        window.addSubview(b)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(a.drawRects == [a.bounds])
        a.setNeedsDisplay(CGRect(x: 10, y: 10, width: 5, height: 5))
        try host.renderFrame()
        #expect(a.drawRects.last == CGRect(x: 10, y: 10, width: 5, height: 5))
        #expect(b.drawRects.count == 1)
        #expect(host.lastFrameRects == [CGRect(x: 10, y: 10, width: 5, height: 5)])
    }

    @Test func nothingDirtyNothingDrawn() throws {
        let window = makeWindow()
        let a = RecordingView(frame: CGRect(x: 0, y: 0, width: 50, height: 50))
        window.addSubview(a)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(try host.renderFrame().isEmpty)
        #expect(a.drawRects.count == 1)
    }

    /// A partial repaint must leave exactly the pixels a full repaint of the new state makes:
    /// the clip is a pixel rectangle, so anti-aliased edges inside it come out the same.
    @Test(arguments: [1, 2] as [CGFloat])
    func incrementalRepaintEqualsFullRepaint(scale: CGFloat) throws {
        func build() -> (Window, RecordingView, RecordingView) {
            let window = makeWindow(width: 120, height: 90, scale: scale)
            window.backgroundColor = CGColor(gray: 0.9, alpha: 1)
            let disc = RecordingView(frame: CGRect(x: 10.5, y: 10.25, width: 40, height: 30))
            let bar = RecordingView(frame: CGRect(x: 30, y: 30, width: 70.3, height: 20))
            bar.fill = CGColor(red: 0.2, green: 0.4, blue: 0.8, alpha: 0.6)
            disc.fill = CGColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
            window.addSubview(disc)
            window.addSubview(bar)
            return (window, disc, bar)
        }
        let (w1, _, bar1) = build()
        let h1 = try HeadlessHost(window: w1)
        try h1.renderFrame()
        bar1.fill = CGColor(red: 0.1, green: 0.7, blue: 0.2, alpha: 0.5)
        bar1.setNeedsDisplay(CGRect(x: 3.3, y: 2.7, width: 20, height: 10))
        bar1.frame.origin.x += 7.25
        try h1.renderFrame()

        let (w2, _, bar2) = build()
        bar2.fill = bar1.fill
        bar2.frame = bar1.frame
        let h2 = try HeadlessHost(window: w2)
        #expect(try h1.snapshot().pixels == h2.snapshot().pixels)
    }

    @Test func drawGetsAFlippedScaledContextInPoints() throws {
        final class Corner: View {
            var sawCurrentContext = false
            override func draw(_ rect: CGRect) {
                guard let ctx = UIGraphicsGetCurrentContext() else { return }
                sawCurrentContext = true
                ctx.setFillColor(.white)
                ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 2))
            }
        }
        let window = makeWindow(width: 20, height: 10, scale: 2)
        let v = Corner(frame: CGRect(x: 5, y: 1, width: 10, height: 5))
        window.addSubview(v)
        let image = try HeadlessHost(window: window).snapshot()
        #expect(v.sawCurrentContext)
        #expect(UIGraphicsGetCurrentContext() == nil)
        // (5, 1) pt → (10, 2) px from the top-left; 3×2 pt → 6×4 px.
        for y in 0..<20 {
            for x in 0..<40 {
                let inside = x >= 10 && x < 16 && y >= 2 && y < 6
                #expect(image.pixel(x: x, y: y) == (inside ? 0xFFFF_FFFF : 0xFF00_0000), "pixel \(x), \(y)")
            }
        }
    }

    @Test func hiddenAndClippedViews() throws {
        let window = makeWindow(width: 10, height: 10)
        let hidden = View(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        hidden.backgroundColor = .white
        hidden.isHidden = true
        let clipper = View(frame: CGRect(x: 5, y: 5, width: 2, height: 2))
        clipper.clipsToBounds = true
        let big = View(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        big.backgroundColor = .white
        clipper.addSubview(big)
        window.addSubview(hidden)
        window.addSubview(clipper)
        let image = try HeadlessHost(window: window).snapshot()
        #expect(image.pixel(x: 1, y: 1) == 0xFF00_0000)
        #expect(image.pixel(x: 6, y: 6) == 0xFFFF_FFFF)
        #expect(image.pixel(x: 8, y: 8) == 0xFF00_0000)
    }

    @Test func alphaMultipliesDownTheTree() throws {
        let window = makeWindow(width: 4, height: 4)
        let outer = View(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        outer.alpha = 0.5
        let inner = View(frame: CGRect(x: 0, y: 0, width: 4, height: 4))
        inner.backgroundColor = .white
        inner.alpha = 0.5
        outer.addSubview(inner)
        window.addSubview(outer)
        let p = try HeadlessHost(window: window).snapshot().pixel(x: 1, y: 1)
        // White at 25 % over black.
        #expect(abs(Int(p & 0xFF) - 64) <= 1)
    }

    @Test func whatAnOpaqueSubviewCoversIsNotDrawn() throws {
        let window = makeWindow(width: 100, height: 100)
        let parent = RecordingView(frame: CGRect(x: 0, y: 0, width: 100, height: 100))
        let cover = View(frame: CGRect(x: 0, y: 0, width: 100, height: 60))
        cover.backgroundColor = .white
        let translucent = View(frame: CGRect(x: 0, y: 60, width: 100, height: 40))
        translucent.backgroundColor = CGColor(gray: 1, alpha: 0.5)
        parent.addSubview(cover)
        parent.addSubview(translucent)
        window.addSubview(parent)
        try HeadlessHost(window: window).renderFrame()
        #expect(parent.drawRects == [CGRect(x: 0, y: 60, width: 100, height: 40)])
    }
}
