import Foundation

/// The device-space clip: a pixel rectangle, plus a coverage mask when the clip is not a
/// pixel-aligned rectangle.
struct ClipRegion {
    var bounds: PixelRect
    var mask: ClipMask?
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
