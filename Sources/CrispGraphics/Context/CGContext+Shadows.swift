import Foundation

/// A shadow as set by `setShadow(offset:blur:color:)`.
struct Shadow {
    /// Offset in device pixels (y up): the base-space offset through the base transform,
    /// unaffected by the CTM.
    var offset: CGSize
    /// Blur in device pixels (the base-space blur times the base transform's scale); the
    /// Gaussian's σ is blur / 2.
    var blur: CGFloat
    /// Premultiplied shadow colour.
    var color: UInt32

    var isVisible: Bool { color >> 24 != 0 }
}

extension CGContext {
    /// Casts a shadow from everything drawn until the shadow is cleared: black at one-third
    /// alpha, offset and blurred in base space, unaffected by the CTM.
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// Casts a shadow of `color` from everything drawn; a nil or fully transparent colour
    /// clears the shadow.
    ///
    /// `offset` and `blur` are in base space: device pixels with y up in a bitmap context;
    /// points with y down in a UIKit context (`setBaseTransform(_:)`), where a positive height
    /// casts the shadow down the screen. The offset is rounded to whole device pixels; `blur` is
    /// the Gaussian's 2σ (negative is 0; at most 1024 device pixels).
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color, offset.width.isFinite, offset.height.isFinite else { gstate.shadow = nil; return }
        let pixel = color.premultipliedPixel()
        guard pixel >> 24 != 0 else { gstate.shadow = nil; return }
        let b = blur.isNaN ? 0 : min(max(blur * baseTransform.areaScale, 0), 2 * BoxBlur.maximumSigma)
        gstate.shadow = Shadow(offset: offset.applying(baseTransform), blur: b, color: pixel)
    }

    /// Draws the shadow `producer` and `paint` would cast, beneath them.
    func drawShadow<C: CoverageProducer>(_ shadow: Shadow, of producer: C, paint: Paint) {
        let sigma = shadow.blur / 2
        let reach = BoxBlur.reach(sigma: sigma)
        // Offsets beyond the canvas cast nothing visible; clamping keeps the arithmetic finite.
        let limit = CGFloat(2 * CGContext.maximumDimension)
        let dx = Int(max(-limit, min(limit, shadow.offset.width)).rounded())
        let dy = Int(-max(-limit, min(limit, shadow.offset.height)).rounded())
        let clip = gstate.clip.bounds
        // Shape pixels that can reach the visible clip once offset and blurred.
        var region = PixelRect(x: clip.x - dx - reach, y: clip.y - dy - reach,
                               maxX: clip.maxX - dx + reach, maxY: clip.maxY - dy + reach)
        if let b = producer.bounds, b.isFiniteRect {
            // The blur spreads the shape's pixels by at most `reach`: the buffer holds exactly that
            // spread (enclosing rounds the bounds out to whole pixels), and nothing beyond it.
            let grown = b.insetBy(dx: -CGFloat(reach), dy: -CGFloat(reach))
            region = PixelRect(enclosing: grown, limit: region)
        }
        guard !region.isEmpty else { return }
        let mask = ClipMask(bounds: region)
        let shade = UnsafeMutablePointer<UInt32>.allocate(capacity: region.width)
        defer { shade.deallocate() }
        var writer = AlphaWriter(mask: mask, paint: paint, clipMask: nil, shadeBuffer: shade, maskScratch: maskScratch)
        producer.produce(into: &writer, clip: region)
        BoxBlur.blur(mask, sigma: sigma)
        composite(MaskCoverage(mask: mask, dx: dx, dy: dy), with: .solid(shadow.color))
    }
}
