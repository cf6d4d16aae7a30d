import CrispGraphics
import Foundation

// A `pattern` paint, resolved for one shape: the tile rectangle, where pattern space lies in the
// shape's user space, and the tile's content as a render node.
//
// Drawn as a bitmap tile at device resolution, repeated: the tile is rendered into a bitmap
// whose pixel size is the tile's size on the device (rounded up, so one tile pixel is at most one
// device pixel), and that bitmap is drawn tiled through the shape's clip with bilinear sampling
// that wraps around the tile's edges. Wrapping is what makes the tiling seamless — the sample
// between the last column and the first blends the two, as it would inside the tile — and the
// device-sized tile is what keeps it crisp at any scale: where the tile lands on whole device
// pixels (the common case: integer tile sizes at 1×, 2×), every sample hits a pixel centre and
// the result is the content drawn directly.
//
// Rejected: drawing the content once per tile, clipped to its cell — vector-exact inside a tile,
// but where two cells meet on a pixel both anti-aliased edges composite (1 − (1 − ½)² = ¾
// coverage): a visible seam at every cell boundary that content crosses. Also rejected (tried,
// the seam test failed): moving the tile bitmap by the fraction of a pixel that puts its pixels
// on the device's, so that tiles off the pixel grid are not resampled — content reaching the
// tile's edge then ends inside a device pixel the next tile shares, the same seam. So a tiling
// off the grid is sampled bilinearly: soft by up to a pixel at tile edges, never seamed.

/// A pattern paint for one shape, in its user space.
struct SVGPattern {
    /// The tile in pattern space.
    var tile: CGRect
    /// Pattern space to the shape's user space (`patternTransform`).
    var toUser: CGAffineTransform
    /// The content in tile space (origin at the tile's top-left corner; viewBox or
    /// objectBoundingBox content units applied).
    var content: SVGRenderNode
    /// Most pixels of one rendered tile; a bigger tile is rendered at a lower resolution.
    static let maximumTilePixels = 1 << 22

    /// The tile rendered for the device transform `ctm` (user space to device pixels); nil when
    /// it cannot be (a degenerate transform).
    func renderTile(ctm: CGAffineTransform) -> CGImage? {
        let toDevice = toUser.concatenating(ctm)
        var width = ((toDevice.a * toDevice.a + toDevice.b * toDevice.b).squareRoot() * tile.width).rounded(.up)
        var height = ((toDevice.c * toDevice.c + toDevice.d * toDevice.d).squareRoot() * tile.height).rounded(.up)
        guard width.isFinite, height.isFinite else { return nil }
        width = max(width, 1)
        height = max(height, 1)
        let limit = CGFloat(SVGPattern.maximumTilePixels)
        if width * height > limit {
            // Shrunk evenly; a tile stretched far more one way than the other (scale(1e300, 1))
            // still gets at most `limit` pixels along its long side, and never a side too big
            // for an Int.
            let shrink = (limit / (width * height)).squareRoot()
            width = min(max((width * shrink).rounded(.down), 1), limit)
            height = min(max((height * shrink).rounded(.down), 1), (limit / width).rounded(.down))
        }
        guard let context = SVGDocument.makeContext(width: Int(width), height: Int(height)) else { return nil }
        context.translateBy(x: 0, y: height)
        context.scaleBy(x: width / tile.width, y: -height / tile.height)
        SVGDocument.draw(content, in: context)
        return context.makeImage()
    }
}

extension SVGDocument {
    /// Paints a pattern across the current clip.
    static func draw(_ pattern: SVGPattern, opacity: Double, in context: CGContext) {
        guard let image = pattern.renderTile(ctm: context.ctm) else { return }
        context.setAlpha(min(max(opacity, 0), 1))
        context.concatenate(pattern.toUser)
        // Upright in SVG's y-down space (CGContext draws images upright in y-up space); the flip
        // maps the tile onto itself, so the tiling lines up.
        let t = pattern.tile
        context.concatenate(CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: t.minY + t.maxY))
        context.interpolationQuality = .low
        context.draw(image, in: t, byTiling: true)
    }
}
