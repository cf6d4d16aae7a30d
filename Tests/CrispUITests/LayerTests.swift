import CrispGraphics
import CrispTestSupport
import CrispUI
import Foundation
import Testing

/// A view that draws a disc (its background stays transparent), so a shadow without a
/// `shadowPath` has a shape to come from; it counts its draws.
final class DiscView: View {
    var draws = 0
    var colour = CGColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
    /// Saves a graphics state it never restores (as the bubble essay does).
    var leavesStateSaved = false

    override func draw(_ rect: CGRect) {
        draws += 1
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        if leavesStateSaved {
            ctx.saveGState()
            ctx.clip(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        }
        ctx.setFillColor(colour)
        ctx.fillEllipse(in: bounds.insetBy(dx: 2, dy: 2))
    }
}

/// Core Animation's look on `view.layer` (shadow with and without a path, corner radius,
/// border, masksToBounds) and the cached contents.
@Suite struct LayerTests {
    func window(_ width: CGFloat, _ height: CGFloat, scale: CGFloat) -> Window {
        let w = makeWindow(width: width, height: height, scale: scale)
        w.backgroundColor = CGColor(gray: 0.92, alpha: 1)
        return w
    }

    /// Five cells: a shadow cast by a path (a rounded rectangle) under a square view, a shadow
    /// cast by the drawn disc (no path), a rounded background, a rounded border over a
    /// background, and masksToBounds clipping a subview to the rounded corners.
    func gallery(scale: CGFloat) -> Window {
        let w = window(300, 70, scale: scale)
        let pathShadow = View(frame: CGRect(x: 10, y: 10, width: 44, height: 44))
        pathShadow.backgroundColor = CGColor(red: 0.95, green: 0.8, blue: 0.3, alpha: 1)
        pathShadow.layer.shadowOpacity = 0.6
        pathShadow.layer.shadowOffset = CGSize(width: 3, height: 4)
        pathShadow.layer.shadowRadius = 3
        pathShadow.layer.shadowPath = CGPath(roundedRect: pathShadow.bounds, cornerWidth: 10, cornerHeight: 10, transform: nil)

        let alphaShadow = DiscView(frame: CGRect(x: 70, y: 10, width: 44, height: 44))
        alphaShadow.layer.shadowOpacity = 0.8
        alphaShadow.layer.shadowColor = CGColor(red: 0.6, green: 0, blue: 0, alpha: 1)
        alphaShadow.layer.shadowRadius = 4            // default offset (0, −3): up, as on iOS

        let rounded = View(frame: CGRect(x: 130, y: 10, width: 44, height: 44))
        rounded.backgroundColor = CGColor(red: 0.3, green: 0.7, blue: 0.4, alpha: 1)
        rounded.layer.cornerRadius = 12

        let bordered = View(frame: CGRect(x: 190, y: 10, width: 44, height: 44))
        bordered.backgroundColor = CGColor(gray: 1, alpha: 1)
        bordered.layer.cornerRadius = 8
        bordered.layer.borderWidth = 3
        bordered.layer.borderColor = CGColor(red: 0.2, green: 0.3, blue: 0.8, alpha: 1)

        let masked = View(frame: CGRect(x: 250, y: 10, width: 44, height: 44))
        masked.backgroundColor = CGColor(gray: 0.3, alpha: 1)
        masked.layer.cornerRadius = 16
        masked.layer.masksToBounds = true
        let inner = View(frame: CGRect(x: -10, y: -10, width: 40, height: 40))
        inner.backgroundColor = CGColor(red: 0.9, green: 0.4, blue: 0.1, alpha: 1)
        masked.addSubview(inner)
        for v in [pathShadow, alphaShadow, rounded, bordered, masked] { w.addSubview(v) }
        return w
    }

    @Test(arguments: [CGFloat(1), 2])
    func golden(scale: CGFloat) throws {
        Golden.check(try HeadlessHost(window: gallery(scale: scale)).snapshot(), "layer", "gallery-\(Int(scale))x")
    }

    @Test func defaultsAreCoreAnimations() {
        let layer = View().layer
        #expect(layer.shadowOpacity == 0 && layer.shadowOffset == CGSize(width: 0, height: -3) && layer.shadowRadius == 3)
        #expect(layer.shadowColor == CGColor(gray: 0, alpha: 1) && layer.shadowPath == nil)
        #expect(layer.cornerRadius == 0 && layer.borderWidth == 0 && !layer.masksToBounds && !layer.cachesContents)
    }

    @Test func masksToBoundsIsClipsToBounds() {
        let v = View()
        v.layer.masksToBounds = true
        #expect(v.clipsToBounds)
        v.clipsToBounds = false
        #expect(!v.layer.masksToBounds)
    }

    /// The default offset (0, −3) casts the shadow up the screen, as on iOS.
    @Test func defaultOffsetCastsUp() throws {
        let w = window(60, 60, scale: 1)
        let v = View(frame: CGRect(x: 20, y: 20, width: 20, height: 20))
        v.backgroundColor = CGColor(gray: 1, alpha: 1)
        v.layer.shadowOpacity = 1
        w.addSubview(v)
        let image = try HeadlessHost(window: w).snapshot()
        let above = image.pixel(x: 30, y: 18), below = image.pixel(x: 30, y: 41)
        #expect(above & 0xFF < below & 0xFF, "above \(String(above, radix: 16)), below \(String(below, radix: 16))")
    }

    /// The dirty area of a shadowed view reaches its shadow: moving it repaints where the
    /// shadow was and is, and a change of its drawing repaints its shadow too (no path).
    @Test func dirtyRectsIncludeTheShadowsReach() throws {
        let w = window(200, 100, scale: 2)
        let v = DiscView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
        v.layer.shadowOpacity = 0.5
        v.layer.shadowOffset = CGSize(width: 5, height: 6)
        v.layer.shadowRadius = 4
        w.addSubview(v)
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        v.setNeedsDisplay()
        let reach = v.layer.shadowRadius * 3 + 2
        let expected = CGRect(x: 20, y: 20, width: 40 + 5 + reach, height: 40 + 6 + reach)
        #expect(w.dirtyRegion.boundingBox.contains(CGRect(x: expected.minX * 2, y: expected.minY * 2, width: expected.width * 2, height: expected.height * 2)))
        try host.renderFrame()
        // With a path, a change of drawing repaints the bounds only.
        v.layer.shadowPath = CGPath(ellipseIn: v.bounds, transform: nil)
        try host.renderFrame()
        v.setNeedsDisplay()
        #expect(w.dirtyRegion.boundingBox == CGRect(x: 40, y: 40, width: 80, height: 80))
        try host.renderFrame()
        v.frame.origin.x = 120
        let moved = w.dirtyRegion.boundingBox
        #expect(moved.contains(CGRect(x: 40, y: 40, width: 2 * (100 + 5 + reach), height: 2 * (40 + 6 + reach))))
    }

    /// A repaint that touches only the shadow — of a path or of drawn alpha — leaves exactly
    /// the pixels a full repaint does (the shadow comes from casters outside the dirty area).
    @Test(arguments: [true, false])
    func repaintingPartOfAShadowEqualsAFullRepaint(withPath: Bool) throws {
        func build() -> (Window, View) {
            let w = window(120, 90, scale: 2)
            let v = DiscView(frame: CGRect(x: 20, y: 20, width: 40, height: 40))
            v.layer.shadowOpacity = 0.7
            v.layer.shadowOffset = CGSize(width: 8, height: 8)
            v.layer.shadowRadius = 5
            if withPath { v.layer.shadowPath = CGPath(ellipseIn: v.bounds.insetBy(dx: 2, dy: 2), transform: nil) }
            w.addSubview(v)
            let marker = View(frame: CGRect(x: 58, y: 58, width: 30, height: 30))
            w.addSubview(marker)
            return (w, marker)
        }
        let (w1, marker) = build()
        let host = try HeadlessHost(window: w1)
        try host.renderFrame()
        marker.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 0.3)
        try host.renderFrame()
        marker.backgroundColor = nil   // the marker's area (shadow only) is repainted alone
        #expect(try host.renderFrame().count == 1)
        let full = try HeadlessHost(window: build().0).snapshot()
        #expect(try host.snapshot().pixels == full.pixels)
    }

    @Test func aDrawThatLeavesStateSavedIsTidiedUp() throws {
        let w = window(100, 60, scale: 1)
        let a = DiscView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        a.leavesStateSaved = true
        let b = View(frame: CGRect(x: 50, y: 10, width: 40, height: 40))
        b.backgroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
        w.addSubview(a)
        w.addSubview(b)
        let image = try HeadlessHost(window: w).snapshot()
        #expect(image.pixel(x: 70, y: 30) == 0xFF00_FF00)
    }

    // MARK: Cached contents

    /// The bytes of one cached view of `cachingScene` at 2×: (60 + 2 · 11) points square.
    static let lookBytes = (82 * 2) * (82 * 2) * 4

    func cachingScene(scale: CGFloat = 2) -> (Window, DiscView, DiscView, View) {
        let w = window(200, 100, scale: scale)
        let a = DiscView(frame: CGRect(x: 10, y: 10, width: 60, height: 60))
        let b = DiscView(frame: CGRect(x: 60, y: 10, width: 60, height: 60))
        for v in [a, b] {
            v.layer.cachesContents = true
            v.layer.shadowOpacity = 0.5
            v.layer.shadowPath = CGPath(ellipseIn: v.bounds, transform: nil)
        }
        b.colour = CGColor(red: 0.9, green: 0.3, blue: 0.2, alpha: 1)
        let marker = View(frame: CGRect(x: 40, y: 30, width: 10, height: 10))
        for v in [a, b, marker] { w.addSubview(v) }
        return (w, a, b, marker)
    }

    @Test func cachedContentsAreCopiedNotDrawn() throws {
        let (w, a, b, marker) = cachingScene()
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        #expect(a.draws == 1 && b.draws == 1)
        // Each bitmap holds the view and its shadow: 60 points grown by the shadow's reach
        // (3 · 3 + 2 = 11 points) on every side, less the 3 points the offset moves it up.
        #expect(w.contentsCache.count == 2 && w.contentsCache.bytes == 2 * Self.lookBytes)
        // Something over both: copied, not drawn.
        marker.frame.origin.x = 64
        try host.renderFrame()
        #expect(a.draws == 1 && b.draws == 1)
        #expect(w.contentsCache.hits >= 2)
        // Alpha is applied when composing: no redraw either.
        a.alpha = 0.5
        try host.renderFrame()
        #expect(a.draws == 1)
        // setNeedsDisplay (any part) redraws the whole view once.
        b.setNeedsDisplay(CGRect(x: 0, y: 0, width: 4, height: 4))
        try host.renderFrame()
        #expect(b.draws == 2 && a.draws == 1)
        // A new size redraws.
        b.frame.size = CGSize(width: 50, height: 50)
        try host.renderFrame()
        #expect(b.draws == 3)
    }

    /// The picture is the same whether it was drawn through the cache or directly: a partial
    /// repaint from cached contents equals a full repaint.
    @Test(arguments: [CGFloat(1), 2])
    func cachedRepaintEqualsFullRepaint(scale: CGFloat) throws {
        let (w, _, _, marker) = cachingScene(scale: scale)
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        marker.backgroundColor = CGColor(gray: 0, alpha: 1)
        try host.renderFrame()
        marker.backgroundColor = nil
        try host.renderFrame()
        let full = try HeadlessHost(window: cachingScene(scale: scale).0).snapshot()
        #expect(try host.snapshot().pixels == full.pixels)
    }

    @Test func aChangeOfScreenEmptiesTheCache() throws {
        let (w, a, _, _) = cachingScene()
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        #expect(w.contentsCache.count == 2)
        w.screen.setDevice(w.screen.device.withScale(1))
        #expect(w.contentsCache.count == 0)
        _ = host
        _ = a
    }

    @Test func theCacheStaysWithinItsLimitDroppingTheLeastRecentlyUsed() throws {
        let (w, a, b, _) = cachingScene()
        w.contentsCache.limitInBytes = Self.lookBytes + 10   // room for one view
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        #expect(w.contentsCache.count == 1 && w.contentsCache.bytes <= w.contentsCache.limitInBytes)
        #expect(w.contentsCache.contains(b) && !w.contentsCache.contains(a))   // a was drawn first
    }

    /// A view off the pixel grid — a fractional origin, or a screen scale such as a physical-size
    /// window's 192/132 — is cached too, drawn at its fraction of a pixel: copied on the next
    /// repaints, drawn again when it moves to another fraction, and within 2 levels of drawing it
    /// directly (the cached look is composed over the background instead of drawn onto it), with
    /// a shadow from a path, from its drawing, and none.
    @Test(arguments: [(CGFloat(1), "path"), (CGFloat(1), "drawing"), (CGFloat(192.0 / 132), "path"), (CGFloat(192.0 / 132), "drawing"), (CGFloat(192.0 / 132), "none")] as [(CGFloat, String)])
    func offGridViewsAreCachedAtTheirFractionOfAPixel(scale: CGFloat, shadow: String) throws {
        func scene(cached: Bool) -> (Window, DiscView, View) {
            let w = window(100, 60, scale: scale)
            w.backgroundColor = CGColor(gray: 0.9, alpha: 1)
            let v = DiscView(frame: CGRect(x: 10.5, y: 10.25, width: 30, height: 30))
            v.layer.cachesContents = cached
            if shadow != "none" { v.layer.shadowOpacity = 0.5 }
            if shadow == "path" { v.layer.shadowPath = CGPath(ellipseIn: v.bounds, transform: nil) }
            let marker = View(frame: CGRect(x: 30, y: 20, width: 30, height: 10))
            for sub in [v, marker] { w.addSubview(sub) }
            return (w, v, marker)
        }
        let (w, v, marker) = scene(cached: true)
        let host = try HeadlessHost(window: w)
        try host.renderFrame()
        #expect(w.contentsCache.count == 1 && v.draws == 1)
        // A repaint over it copies it.
        marker.backgroundColor = CGColor(gray: 0, alpha: 1)
        try host.renderFrame()
        marker.backgroundColor = nil
        try host.renderFrame()
        #expect(v.draws == 1 && w.contentsCache.hits >= 2)
        // The same picture as a full repaint, and as drawing it without the cache.
        let picture = try host.snapshot()
        #expect(picture.pixels == (try HeadlessHost(window: scene(cached: true).0).snapshot().pixels))
        let direct = try HeadlessHost(window: scene(cached: false).0).snapshot()
        var worst = 0
        for (a, b) in zip(picture.pixels, direct.pixels) {
            for shift: UInt32 in [0, 8, 16, 24] { worst = max(worst, abs(Int((a >> shift) & 0xFF) - Int((b >> shift) & 0xFF))) }
        }
        #expect(worst <= 2, "cached look against direct drawing: \(worst) levels")
        // Moved by a fraction of a pixel: drawn again for the new fraction.
        v.frame.origin.x += 0.3
        try host.renderFrame()
        #expect(v.draws == 2)
    }

    @Test func leavingTheWindowDropsTheContents() throws {
        let (w, a, _, _) = cachingScene()
        try HeadlessHost(window: w).renderFrame()
        a.removeFromSuperview()
        #expect(!w.contentsCache.contains(a) && w.contentsCache.count == 1)
    }
}
