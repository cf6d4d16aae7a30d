// A clip path's mask is built when something first draws through it, not when the clip is set.
// SVG paints a gradient fill by clipping to the shape and painting the gradient across the clip
// (so do UIKit-style views that fill a rounded button with a gradient); a mask built for that
// one paint costs a rasterization into a zeroed buffer, a summary pass and a masked composite,
// where painting the gradient with the path's own coverage costs only the rasterization. The
// two give the same pixels: the mask would hold the path's coverage (times the clip before it)
// and hand exactly that coverage back to each pixel. `CGContext.paintAcrossClip` takes the
// direct way while the mask is not built; anything else that draws through the clip builds it,
// once, and every later draw shares it. Rejected: a special case in the SVG renderer (fill the
// shape with the gradient), which would leave the same pattern in CoreGraphics code slow.

/// A path clip whose coverage mask is rasterized on first use.
@_spi(Testing) public final class PendingClip {
    /// The clip path's coverage.
    let coverage: OutlineCoverage
    /// The pixels the clip can let through (the path's box within the clip before).
    let bounds: PixelRect
    /// The clip's mask before this path, multiplying its coverage.
    let parent: ClipMask?
    /// The context's scratch row for mask multiplication.
    private let maskScratch: UnsafeMutablePointer<UInt8>
    private var built: ClipMask?

    init(coverage: OutlineCoverage, bounds: PixelRect, parent: ClipMask?, maskScratch: UnsafeMutablePointer<UInt8>) {
        self.coverage = coverage
        self.bounds = bounds
        self.parent = parent
        self.maskScratch = maskScratch
    }

    /// Whether the mask has been built.
    @_spi(Testing) public var isBuilt: Bool { built != nil }

    /// The mask: the path's coverage times the previous clip's, over `bounds`.
    @_spi(Testing) public var mask: ClipMask {
        if let built { return built }
        let mask = ClipMask(bounds: bounds)
        var writer = MaskWriter(mask: mask, clipMask: parent, maskScratch: maskScratch)
        coverage.produce(into: &writer, clip: bounds)
        mask.finishRowRuns()
        built = mask
        return mask
    }
}
