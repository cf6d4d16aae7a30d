import Foundation

extension CGContext {
    /// Draws `image` scaled into `rect` (user space), upright in y-up space — so it appears
    /// upside down in a flipped (view) context, as in CoreGraphics. An image mask paints the
    /// fill colour through its mask. Sampling follows `interpolationQuality`.
    public func draw(_ image: CGImage, in rect: CGRect) {
        draw(image, in: rect, tiled: false)
    }

    /// Draws `image` into `rect`, or, when `byTiling` is true, repeats it across the whole
    /// clip with one copy exactly at `rect`.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool) {
        draw(image, in: rect, tiled: byTiling)
    }

    /// Intersects the clip with `mask` mapped into `rect`: an image mask's samples act as
    /// inverse alpha, an image's gray level as alpha (white is painted), as
    /// `CGContextClipToMask`. Leaves the current path alone.
    public func clip(to rect: CGRect, mask: CGImage) {
        let current = gstate.clip
        guard !current.bounds.isEmpty else { return }
        guard rect.isFiniteRect, rect.width != 0, rect.height != 0, mask.width > 0, mask.height > 0,
              gstate.ctm.determinant != 0 else {
            gstate.clip = ClipRegion(bounds: .empty, mask: nil)
            return
        }
        let r = rect.standardized
        let bounds = PixelRect(enclosing: r.applying(userToRaster), limit: current.bounds)
        guard !bounds.isEmpty else { gstate.clip = ClipRegion(bounds: .empty, mask: nil); return }
        let newMask = ClipMask(bounds: bounds)
        let coverage = rectCoverage(r)
        let shade = UnsafeMutablePointer<UInt32>.allocate(capacity: bounds.width)
        defer { shade.deallocate() }
        withImagePaint(mask, in: r, tiled: false, mode: .maskValue(isImageMask: mask.isMask), alpha: 255) { paint in
            var writer = AlphaWriter(mask: newMask, paint: .image(paint), clipMask: current.mask, shadeBuffer: shade,
                                     maskScratch: maskScratch)
            coverage.produce(into: &writer, clip: bounds)
        }
        newMask.summarizeRows()
        gstate.clip = ClipRegion(bounds: bounds, mask: newMask)
    }

    private func draw(_ image: CGImage, in rect: CGRect, tiled: Bool) {
        guard !gstate.clip.bounds.isEmpty, rect.isFiniteRect, rect.width != 0, rect.height != 0,
              image.width > 0, image.height > 0, gstate.ctm.determinant != 0 else { return }
        let r = rect.standardized
        imageDrawObserver?(image, r, gstate.ctm)
        let mode: ImagePaintMode = image.isMask ? .stencil(gstate.fillColor.premultipliedPixel()) : .color
        let alpha = UInt32((gstate.alpha * 255).rounded())
        withImagePaint(image, in: r, tiled: tiled, mode: mode, alpha: alpha, keepsSamples: !tiled) { paint in
            if tiled {
                self.paint(RectCoverage(rect: clipRect, antialias: true), with: .image(paint))
            } else {
                self.paint(rectCoverage(r), with: .image(paint))
            }
        }
    }

    /// Coverage of a user-space rectangle: the rectangle fast path under a rectilinear CTM.
    func rectCoverage(_ r: CGRect) -> AnyRectOrOutline {
        let t = userToRaster
        if t.isRectilinear { return .rect(RectCoverage(rect: r.applying(t), antialias: isAntialiasing)) }
        let path = CGMutablePath()
        path.addRect(r)
        return .outline(OutlineCoverage(rasterizer: rasterizer, outline: .fill(path, transform: t, tolerance: gstate.flatness),
                                        rule: CoverageRule(.winding, antialias: isAntialiasing)))
    }

    /// Builds the image paint for `image` mapped into user-space `r` and runs `body` with it
    /// while the pixel buffers are pinned. With `keepsSamples`, a draw repeated under the same
    /// mapping takes its samples from the image's kept ones (`ResampledSamples`).
    private func withImagePaint(_ image: CGImage, in r: CGRect, tiled: Bool, mode: ImagePaintMode, alpha: UInt32,
                                keepsSamples: Bool = false, _ body: (ImagePaint) -> Void) {
        let w = CGFloat(image.width), h = CGFloat(image.height)
        // User → image pixels: the rectangle's top-left (minX, maxY in y-up space) is pixel (0, 0).
        let userToImage = CGAffineTransform(a: w / r.width, b: 0, c: 0, d: -h / r.height,
                                            tx: -r.minX * w / r.width, ty: r.maxY * h / r.height)
        let toImage = userToRaster.inverted().concatenating(userToImage)
        // Image pixels per device pixel (geometric mean): above 1 the image is minified.
        let minification = toImage.areaScale
        let quality = gstate.interpolationQuality
        let nearest = quality == .none
        var levelIndex = 0, weight: UInt32 = 0
        if quality != .none && quality != .low && minification > 1 {
            // An image squeezed beyond 2^62 pixels per device pixel (an absurd transform) would
            // overflow Int: past 62 levels every pyramid has long reached 1×1 anyway.
            let lod = min(log2(minification), 62)
            levelIndex = Int(lod.rounded(.down))
            if quality == .high { weight = UInt32(((lod - CGFloat(levelIndex)) * 255).rounded()) }
        }
        let levels = levelIndex == 0 && weight == 0 ? [ImageLevel(width: image.width, height: image.height, pixels: image.pixels)]
                                                    : image.pyramid
        let first = min(levelIndex, levels.count - 1)
        let second = min(first + 1, levels.count - 1)
        var isImageOpaque = false
        if case .color = mode, alpha == 255 { isImageOpaque = image.hasOnlyOpaquePixels }
        levels[first].pixels.withUnsafeBufferPointer { p0 in
            levels[second].pixels.withUnsafeBufferPointer { p1 in
                let l0 = SampledLevel(pixels: p0.baseAddress!, width: levels[first].width, height: levels[first].height,
                                      scaleX: CGFloat(levels[first].width) / w, scaleY: CGFloat(levels[first].height) / h)
                let l1 = SampledLevel(pixels: p1.baseAddress!, width: levels[second].width, height: levels[second].height,
                                      scaleX: CGFloat(levels[second].width) / w, scaleY: CGFloat(levels[second].height) / h)
                var paint = ImagePaint(primary: l0, secondary: weight > 0 && second != first ? l1 : nil, secondaryWeight: weight,
                                       toImage: toImage, nearest: nearest, tiled: tiled, mode: mode, alpha: alpha,
                                       isImageOpaque: isImageOpaque)
                if keepsSamples {
                    let key = ResampleKey(toImage: toImage, nearest: nearest, level: first, secondaryWeight: paint.secondary == nil ? 0 : weight)
                    paint.resampled = keptSamples(of: image, key: key, rect: r, paint: paint)
                }
                body(paint)
            }
        }
    }
}

extension CGContext {
    /// The samples `image` keeps for `paint`'s mapping over the device box of user-space `rect`
    /// (see `ResampledSamples`). New ones are made only for an axis-aligned mapping whose rows are
    /// not the image's own, when the clip shows at least three quarters of the box.
    fileprivate func keptSamples(of image: CGImage, key: ResampleKey, rect: CGRect, paint: ImagePaint) -> ResampledSamples? {
        let t = key.toImage
        guard t.b == 0, t.c == 0 else { return nil }
        let box = PixelRect(enclosing: rect.applying(userToRaster), limit: PixelRect(x: 0, y: 0, maxX: width, maxY: height))
        guard !box.isEmpty, box.width * box.height <= ResampledSamples.maximumPixels else { return nil }
        let shown = box.intersection(gstate.clip.bounds)
        let canMake = shown.width * shown.height * 4 >= box.width * box.height * 3
            && paint.unmodifiedRow(x: box.x, y: box.y, count: box.width) == nil
        return image.resampledSamples(for: key, box: box, canMake: canMake) {
            ResampledSamples(key: key, box: box) { x, y, count, out in paint.rawSamples(x: x, y: y, count: count, into: out) }
        }
    }
}

/// Either coverage producer for a rectangle, without generics leaking into callers.
enum AnyRectOrOutline: CoverageProducer {
    case rect(RectCoverage)
    case outline(OutlineCoverage)

    func produce<B: SpanBlitter>(into blitter: inout B, clip: PixelRect) {
        switch self {
        case .rect(let r): r.produce(into: &blitter, clip: clip)
        case .outline(let o): o.produce(into: &blitter, clip: clip)
        }
    }

    var bounds: CGRect? {
        switch self {
        case .rect(let r): return r.bounds
        case .outline(let o): return o.bounds
        }
    }
}
