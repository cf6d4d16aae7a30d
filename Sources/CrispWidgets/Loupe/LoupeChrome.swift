import CrispGraphics
import CrispUI
import Foundation

// The loupe's glass and frame, drawn once and copied while the finger moves.
//
// What: two bitmaps of the loupe's bounds at the screen's scale — what lies under the magnified
// disc (its shadow, and the disc filled with the window's background) and what lies over it
// (the glass highlight, the rim and the mode plate) — drawn by the loupe's own vector code into
// transparent bitmaps and composited under and over the disc each frame. They depend only on
// the loupe's size, the screen scale, the theme's colours and the window's background, so they
// are drawn again only when one of those changes (a theme fade redraws them every frame of the
// fade, as it must).
//
// Why: a move changes nothing but where the loupe is, yet drawing its frame in vectors costs a
// blurred shadow under a 144-point disc, two gradient fills through path clips and three
// stroked ellipses — most of a bitmap-mode move's time at retina. Copying two bitmaps of 288 px
// square costs a fraction of that. The loupe puts itself on whole device pixels so that the
// copies are pixel for pixel (no resampling); while it scales (the closing animation) it draws
// in vectors as before.
//
// Rejected: keeping the whole loupe (with the magnified content) as one bitmap — the content
// changes with every move, so nothing would be saved.

/// The loupe's frame as two cached bitmaps: under and over the magnified disc.
@_spi(Testing) public final class LoupeChrome {
    /// What the bitmaps depend on.
    struct Key: Equatable {
        var size: CGSize
        var scale: CGFloat
        var theme: Theme
        var background: CGColor?
    }

    private var key: Key?
    /// The bitmap under the disc, and the one over it.
    private(set) var images: (under: CGImage, over: CGImage)?
    /// How many times the bitmaps were drawn (for tests).
    @_spi(Testing) public private(set) var drawCount = 0

    /// The bytes the bitmaps take.
    var bytes: Int {
        guard let images else { return 0 }
        return 4 * (images.under.width * images.under.height + images.over.width * images.over.height)
    }

    /// The bitmaps for `key`: the kept ones, or new ones drawn by `under` and `over` (each given
    /// a transparent UIKit context of `key.size` points at `key.scale`, y down); nil when the
    /// size is empty or not a whole number of pixels.
    func images(for key: Key, under: (CGContext) -> Void, over: (CGContext) -> Void) -> (under: CGImage, over: CGImage)? {
        if key == self.key, let images { return images }
        let w = key.size.width * key.scale, h = key.size.height * key.scale
        guard w >= 1, h >= 1, w == w.rounded(), h == h.rounded(), w <= 4096, h <= 4096 else { return nil }
        func draw(_ body: (CGContext) -> Void) -> CGImage? {
            guard let context = CGContext(width: Int(w), height: Int(h)) else { return nil }
            context.setBaseTransform(.uiKitBase(heightInPixels: h, scale: key.scale))
            body(context)
            return context.makeImage()
        }
        guard let u = draw(under), let o = draw(over) else { return nil }
        self.key = key
        images = (u, o)
        drawCount += 1
        return images
    }
}
