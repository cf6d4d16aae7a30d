import Foundation

/// The device-space clip: a pixel rectangle, plus a coverage mask when the clip is not a
/// pixel-aligned rectangle (built on first use when the clip is a path, see `PendingClip`).
@_spi(Testing) public struct ClipRegion {
    var bounds: PixelRect
    /// The clip path whose mask is built on first use, when the mask came from a path.
    @_spi(Testing) public let pending: PendingClip?
    private let builtMask: ClipMask?

    /// The coverage mask, nil for a pixel rectangle.
    @_spi(Testing) public var mask: ClipMask? { pending?.mask ?? builtMask }

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
@_spi(Testing) public struct CGGState {
    var ctm = CGAffineTransform.identity
    @_spi(Testing) public internal(set) var clip: ClipRegion
    @_spi(Testing) public internal(set) var fillColor = CGColor.black
    @_spi(Testing) public internal(set) var strokeColor = CGColor.black
    @_spi(Testing) public internal(set) var lineWidth: CGFloat = 1
    @_spi(Testing) public internal(set) var lineCap = CGLineCap.butt
    @_spi(Testing) public internal(set) var lineJoin = CGLineJoin.miter
    @_spi(Testing) public internal(set) var miterLimit: CGFloat = 10
    var dashPhase: CGFloat = 0
    @_spi(Testing) public internal(set) var dashLengths: [CGFloat] = []
    /// Maximum distance, in device pixels, between a curve and its flattened polyline.
    var flatness: CGFloat = CGContext.defaultFlatness
    @_spi(Testing) public internal(set) var alpha: CGFloat = 1
    @_spi(Testing) public internal(set) var blendMode = CGBlendMode.normal
    @_spi(Testing) public internal(set) var shouldAntialias = true
    var interpolationQuality = CGInterpolationQuality.default
    var shadow: Shadow?
}
