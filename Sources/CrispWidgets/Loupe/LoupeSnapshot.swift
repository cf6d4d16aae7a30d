import CrispGraphics
import CrispUI
import Foundation

// The loupe's cached bitmap of the window: the essay's `cachedImage`, rendered with
// `layer.render(in:)` at device scale when the loupe opens and reused while the finger moves.
//
// What: one bitmap the size of the screen in pixels, cut into 128-pixel tiles that are rendered
// on first need and then kept. Opening the loupe marks every tile stale (a new snapshot); a
// repaint of the window while the loupe is open (a clock tick, an animation) marks only the
// tiles it touches stale, so that region alone is rendered again.
//
// Why tiles rendered on need: rendering a whole retina iPad screen costs a full frame (8 to
// 25 ms on the demo's screens), four to six times the loupe's budget for opening; the loupe
// only ever shows the square around the touch, so it renders the tiles under that square.
// Rejected: copying the window's on-screen pixels — cheaper still, but it would magnify
// whatever lies on top (the loupe itself, the frame-time HUD) and is not the essay's method.
//
// Memory: the bitmap is a screen's worth of pixels (12 MiB on a retina iPad), so the loupe
// releases it when it closes. It comes from `calloc`, whose large blocks are fresh zero pages
// mapped on first touch: a new snapshot pays only for the tiles it renders, not for clearing
// 12 MiB.

/// A lazily rendered, tiled bitmap of a window's content (everything but the views it is told
/// to leave out), at the screen's pixel scale.
final class LoupeSnapshot {
    /// Tile edge, in pixels.
    static let tileSize = 128

    private(set) var context: CGContext?
    /// The context's pixels (`calloc`ed, freed by `release()`).
    private var memory: UnsafeMutableRawPointer?
    private var tilesAcross = 0
    private var tilesDown = 0
    private var valid: [Bool] = []
    /// Pixels rendered since the last `resetStatistics()` (for benchmarks and tests).
    private(set) var renderedPixels = 0

    deinit { release() }

    /// The bytes the bitmap takes (0 when released).
    var bytes: Int { context.map { $0.bytesPerRow * $0.height } ?? 0 }

    /// Forgets every tile: the next `prepare` renders afresh (a new snapshot).
    func invalidateAll() {
        for i in valid.indices { valid[i] = false }
    }

    /// Frees the bitmap; the next `prepare` allocates a new one.
    func release() {
        context = nil
        free(memory)
        memory = nil
        tilesAcross = 0
        tilesDown = 0
        valid = []
    }

    /// Marks the tiles under `rect` (window points) stale.
    func invalidate(_ rect: CGRect, scale: CGFloat) {
        guard let context, rect.minX.isFinite, rect.maxX.isFinite, rect.minY.isFinite, rect.maxY.isFinite else { return }
        forEachTile(in: pixelRect(rect, scale: scale, width: context.width, height: context.height)) { valid[$0] = false }
    }

    /// Whether any tile under `rect` (window points) is stale.
    func isStale(_ rect: CGRect, scale: CGFloat) -> Bool {
        guard let context else { return true }
        var stale = false
        forEachTile(in: pixelRect(rect, scale: scale, width: context.width, height: context.height)) { if !valid[$0] { stale = true } }
        return stale
    }

    /// Makes sure the pixels of `pixels` (a rectangle in screen pixels, top-left origin) are
    /// rendered, drawing the stale tiles under it with `draw` (user space: window points, y
    /// down, clipped to the tiles).
    func prepare(_ pixels: CGRect, window: Window, draw: (CGContext) -> Void) {
        let screen = window.screen
        if context?.width != screen.pixelWidth || context?.height != screen.pixelHeight {
            release()
            guard screen.pixelWidth > 0, screen.pixelHeight > 0,
                  let bytes = calloc(screen.pixelWidth * screen.pixelHeight, 4) else { return }
            memory = bytes
            context = CGContext(data: bytes, width: screen.pixelWidth, height: screen.pixelHeight, bitsPerComponent: 8,
                                bytesPerRow: 4 * screen.pixelWidth, space: CGColorSpaceCreateDeviceRGB(),
                                bitmapInfo: CGBitmapInfo.crispNative.rawValue)
            tilesAcross = (screen.pixelWidth + Self.tileSize - 1) / Self.tileSize
            tilesDown = (screen.pixelHeight + Self.tileSize - 1) / Self.tileSize
            valid = [Bool](repeating: false, count: tilesAcross * tilesDown)
        }
        guard let context else { return }
        // The box of the stale tiles, rendered in one traversal clipped to one rectangle (a clip
        // to several would rasterize a mask); valid tiles inside it are rendered again, alike.
        var stale = CGRect.null
        let t = Self.tileSize
        forEachTile(in: pixels) { i in
            if !valid[i] { stale = stale.union(CGRect(x: (i % tilesAcross) * t, y: (i / tilesAcross) * t, width: t, height: t)) }
        }
        guard !stale.isNull else { return }
        stale = stale.intersection(CGRect(x: 0, y: 0, width: context.width, height: context.height))
        forEachTile(in: stale) { valid[$0] = true }
        let h = CGFloat(context.height)
        context.saveGState()
        context.clip(to: CGRect(x: stale.minX, y: h - stale.maxY, width: stale.width, height: stale.height))
        context.clear(CGRect(x: stale.minX, y: h - stale.maxY, width: stale.width, height: stale.height))
        context.setBaseTransform(.uiKitBase(heightInPixels: h, scale: screen.scale))
        draw(context)
        context.setBaseTransform(.identity)
        context.restoreGState()
        renderedPixels += Int(stale.width * stale.height)
    }

    /// Resets `renderedPixels`.
    func resetStatistics() { renderedPixels = 0 }

    /// A copy of the pixels in `rect` (screen pixels, top-left origin, inside the bitmap).
    func image(of rect: (x: Int, y: Int, width: Int, height: Int)) -> CGImage? {
        guard let context, let data = context.data, rect.width > 0, rect.height > 0 else { return nil }
        let stride = context.bytesPerRow / 4
        let source = data.assumingMemoryBound(to: UInt32.self)
        var copy = [UInt32](repeating: 0, count: rect.width * rect.height)
        copy.withUnsafeMutableBufferPointer { out in
            for row in 0..<rect.height {
                (out.baseAddress! + row * rect.width).update(from: source + (rect.y + row) * stride + rect.x, count: rect.width)
            }
        }
        return CGImage(width: rect.width, height: rect.height, pixels: copy)
    }

    /// The premultiplied pixel at (`x`, `y`) (screen pixels), or nil outside the bitmap.
    func pixel(x: Int, y: Int) -> UInt32? {
        guard let context, let data = context.data, x >= 0, y >= 0, x < context.width, y < context.height else { return nil }
        return data.assumingMemoryBound(to: UInt32.self)[y * (context.bytesPerRow / 4) + x]
    }

    private func pixelRect(_ rect: CGRect, scale: CGFloat, width: Int, height: Int) -> CGRect {
        CGRect(x: rect.minX * scale, y: rect.minY * scale, width: rect.width * scale, height: rect.height * scale)
            .intersection(CGRect(x: 0, y: 0, width: width, height: height))
    }

    private func forEachTile(in pixels: CGRect, _ body: (Int) -> Void) {
        guard !pixels.isNull, !pixels.isEmpty, tilesAcross > 0 else { return }
        let t = CGFloat(Self.tileSize)
        let x0 = max(Int((pixels.minX / t).rounded(.down)), 0), x1 = min(Int((pixels.maxX / t).rounded(.up)), tilesAcross)
        let y0 = max(Int((pixels.minY / t).rounded(.down)), 0), y1 = min(Int((pixels.maxY / t).rounded(.up)), tilesDown)
        guard x0 < x1, y0 < y1 else { return }
        for ty in y0..<y1 {
            for tx in x0..<x1 { body(ty * tilesAcross + tx) }
        }
    }
}
