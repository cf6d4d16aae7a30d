import Foundation

/// The device-space clip: a pixel rectangle, plus a coverage mask when the clip is not a
/// pixel-aligned rectangle (built on first use when the clip is a path, see `PendingClip`).
struct ClipRegion {
    var bounds: PixelRect
    /// The clip path whose mask is built on first use, when the mask came from a path.
    let pending: PendingClip?
    private let builtMask: ClipMask?

    /// The coverage mask, nil for a pixel rectangle.
    var mask: ClipMask? { pending?.mask ?? builtMask }

    init(bounds: PixelRect, mask: ClipMask?) {
        self.bounds = bounds
        builtMask = mask
        pending = nil
    }

    init(bounds: PixelRect, pending: PendingClip) {
        self.bounds = bounds
        builtMask = nil
        self.pending = pending
    }
}

/// Everything `saveGState` saves and `restoreGState` restores (CoreGraphics' graphics state):
/// CTM, clip, colours, line attributes, alpha, blend mode, anti-aliasing, flatness, interpolation
/// quality and shadow. Not the current path.
struct CGGState {
    var ctm = CGAffineTransform.identity
    var clip: ClipRegion
    var fillColor = CGColor.black
    var strokeColor = CGColor.black
    var lineWidth: CGFloat = 1
    var lineCap = CGLineCap.butt
    var lineJoin = CGLineJoin.miter
    var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    var dashLengths: [CGFloat] = []
    /// Maximum distance, in device pixels, between a curve and its flattened polyline.
    var flatness: CGFloat = CGContext.defaultFlatness
    var alpha: CGFloat = 1
    var blendMode = CGBlendMode.normal
    var shouldAntialias = true
    var interpolationQuality = CGInterpolationQuality.default
    var shadow: Shadow?
}
