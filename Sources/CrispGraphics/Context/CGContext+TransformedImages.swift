import Foundation

// A fast path for an image drawn under a turning or skewing CTM (the emulator's rotation
// animation draws two screen-sized pictures a frame this way). `draw(_:in:)` rasterizes the
// image's rectangle as a path (coverage for every pixel) and samples each pixel centre through
// the transform in Double (see ImagePaint.swift for why it must, for its goldens). Here each
// destination row (in 64-pixel tiles, for the caches) is split analytically into the pixels the parallelogram covers fully — sampled
// by stepping 32.32 fixed-point image coordinates, written straight (an opaque image at full
// alpha) or blended source-over — and the few pixels along its edges, whose coverage comes from
// their distances to the four edges (a box filter's coverage of a half-plane approximated as
// `clamp(distance + ½)`, multiplied at corners). The result is within a few levels of
// `draw(_:in:)` inside and along the edges; it is not bit-identical, which is why it is a method
// of its own and `draw(_:in:)` keeps its pixels.

extension CGContext {
    /// Draws `image` into `rect` as `draw(_:in:)` does, faster when the CTM turns or skews it:
    /// fixed-point sampling along each row and analytic edge coverage instead of a rasterized
    /// outline. The pixels differ from `draw(_:in:)`'s by a few levels inside and up to a sixth
    /// of full coverage along the edges. Under an axis-aligned CTM (or within rounding of one), with a clip mask, a blend mode other than normal, a
    /// shadow, an image mask, high interpolation quality or anti-aliasing off, it is exactly
    /// `draw(_:in:)`.
    public func drawTransformed(_ image: CGImage, in rect: CGRect) {
        let t = userToRaster
        // Within rounding of a quarter turn (`rotate(by: .pi / 2)` leaves 6e-17 where 0 belongs),
        // the general path is as fast and exact.
        let straight = abs(t.a) + abs(t.d), turned = abs(t.b) + abs(t.c)
        let isNearlyRectilinear = turned <= straight * 1e-9 || straight <= turned * 1e-9
        guard !isNearlyRectilinear, !image.isMask, gstate.clip.mask == nil, gstate.blendMode == .normal,
              !(gstate.shadow?.isVisible ?? false), !layerStack.isEmpty || baseRows == nil,
              gstate.interpolationQuality != .high, isAntialiasing,
              rect.isFiniteRect, rect.width != 0, rect.height != 0, image.width > 0, image.height > 0,
              t.determinant != 0, t.determinant.isFinite else {
            draw(image, in: rect)
            return
        }
        let clip = gstate.clip.bounds
        let alpha = UInt32((min(max(gstate.alpha, 0), 1) * 255).rounded())
        guard !clip.isEmpty, alpha > 0 else { return }
        let r = rect.standardized
        let w = CGFloat(image.width), h = CGFloat(image.height)
        let userToImage = CGAffineTransform(a: w / r.width, b: 0, c: 0, d: -h / r.height,
                                            tx: -r.minX * w / r.width, ty: r.maxY * h / r.height)
        let toImage = t.inverted().concatenating(userToImage)
        guard toImage.a.isFinite, toImage.b.isFinite, toImage.c.isFinite, toImage.d.isFinite,
              toImage.tx.isFinite, toImage.ty.isFinite else { return }
        let quality = gstate.interpolationQuality
        let nearest = quality == .none
        var levelIndex = 0
        if !nearest && quality != .low && toImage.areaScale > 1 {
            levelIndex = Int(min(log2(toImage.areaScale), 62).rounded(.down))
        }
        let level: ImageLevel
        if levelIndex == 0 {
            level = ImageLevel(width: image.width, height: image.height, pixels: image.pixels)
        } else {
            let levels = image.pyramid
            level = levels[min(levelIndex, levels.count - 1)]
        }
        let box = PixelRect(enclosing: r.applying(t), limit: clip)
        guard !box.isEmpty else { return }
        let blit = TransformedImageBlit(toImage: toImage, imageWidth: w, imageHeight: h, levelWidth: level.width,
                                        levelHeight: level.height, nearest: nearest, alpha: alpha,
                                        isOpaque: alpha == 255 && image.hasOnlyOpaquePixels)
        level.pixels.withUnsafeBufferPointer { source in
            // In tiles of 64 × 64 pixels: along a turned row the source steps across its rows,
            // each on other cache lines and pages; a tile's source footprint stays in the caches
            // (a whole row at a time ran at about 35 ns a pixel on the retina iPad's screen).
            let tile = 64
            for tileY in stride(from: box.y, to: box.maxY, by: tile) {
                for tileX in stride(from: box.x, to: box.maxX, by: tile) {
                    let maxX = min(tileX + tile, box.maxX)
                    for y in tileY..<min(tileY + tile, box.maxY) {
                        blit.row(y: y, x: tileX, maxX: maxX, source: source.baseAddress!, into: pixels + y * rowStride)
                    }
                }
            }
        }
    }
}

/// The per-row work of `drawTransformed`: raster pixel centres map through `toImage` into
/// level-0 image coordinates (u, v), the image covering [0, w) × [0, h).
struct TransformedImageBlit {
    let toImage: CGAffineTransform
    let imageWidth: CGFloat, imageHeight: CGFloat
    let levelWidth: Int, levelHeight: Int
    let nearest: Bool
    /// Global alpha, 1…255.
    let alpha: UInt32
    /// Whether every sample is opaque (an opaque image at full alpha): covered pixels are stored.
    let isOpaque: Bool
    /// Device pixels per image unit across the edges u = const and v = const.
    let uDistance: CGFloat, vDistance: CGFloat
    /// Level pixels per level-0 pixel.
    let scaleX: CGFloat, scaleY: CGFloat

    init(toImage: CGAffineTransform, imageWidth: CGFloat, imageHeight: CGFloat, levelWidth: Int, levelHeight: Int,
         nearest: Bool, alpha: UInt32, isOpaque: Bool) {
        self.toImage = toImage
        self.imageWidth = imageWidth
        self.imageHeight = imageHeight
        self.levelWidth = levelWidth
        self.levelHeight = levelHeight
        self.nearest = nearest
        self.alpha = alpha
        self.isOpaque = isOpaque
        // u = a·x + c·y + tx: its gradient over device space is (a, c); the distance from the
        // line u = u₀ is |u − u₀| / |∇u|.
        uDistance = 1 / (toImage.a * toImage.a + toImage.c * toImage.c).squareRoot()
        vDistance = 1 / (toImage.b * toImage.b + toImage.d * toImage.d).squareRoot()
        scaleX = CGFloat(levelWidth) / imageWidth
        scaleY = CGFloat(levelHeight) / imageHeight
    }

    /// The four edge distances (device pixels, positive inside) of the pixel centre at image
    /// coordinates (u, v).
    @inline(__always)
    private func distances(_ u: CGFloat, _ v: CGFloat) -> (CGFloat, CGFloat, CGFloat, CGFloat) {
        (u * uDistance, (imageWidth - u) * uDistance, v * vDistance, (imageHeight - v) * vDistance)
    }

    /// Coverage 0…255 of the pixel whose centre maps to (u, v), times the global alpha.
    @inline(__always)
    func coverage(_ u: CGFloat, _ v: CGFloat) -> UInt32 {
        let (e0, e1, e2, e3) = distances(u, v)
        func c(_ e: CGFloat) -> CGFloat { min(max(e + 0.5, 0), 1) }
        let f = c(e0) * c(e1) * c(e2) * c(e3)
        return UInt32((f * CGFloat(alpha)).rounded())
    }

    /// Paints raster row `y` between `x` and `maxX` (clipped already) into `row`.
    func row(y: Int, x: Int, maxX: Int, source: UnsafePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>) {
        let py = CGFloat(y) + 0.5, px = CGFloat(x) + 0.5
        let u0 = toImage.a * px + toImage.c * py + toImage.tx
        let v0 = toImage.b * px + toImage.d * py + toImage.ty
        let du = toImage.a, dv = toImage.b
        // Each edge distance is affine along the row: e(i) = e0 + k·i. The pixels with any
        // coverage have every e > −½; the fully covered ones every e ≥ ½.
        let n = maxX - x
        var anyLo: CGFloat = 0, anyHi = CGFloat(n - 1), fullLo: CGFloat = 0, fullHi = CGFloat(n - 1)
        var outside = false
        @inline(__always) func constrain(_ e: CGFloat, _ k: CGFloat) {
            if k == 0 {
                if e <= -0.5 { outside = true }
                if e < 0.5 { fullLo = 1; fullHi = 0 }
            } else if k > 0 {
                anyLo = max(anyLo, (-0.5 - e) / k)
                fullLo = max(fullLo, (0.5 - e) / k)
            } else {
                anyHi = min(anyHi, (-0.5 - e) / k)
                fullHi = min(fullHi, (0.5 - e) / k)
            }
        }
        constrain(u0 * uDistance, du * uDistance)
        constrain((imageWidth - u0) * uDistance, -du * uDistance)
        constrain(v0 * vDistance, dv * vDistance)
        constrain((imageHeight - v0) * vDistance, -dv * vDistance)
        guard !outside else { return }
        guard anyLo.isFinite, anyHi.isFinite, anyLo <= anyHi else { return }
        let start = max(Int(anyLo.rounded(.down)), 0), end = min(Int(anyHi.rounded(.up)) + 1, n)
        guard start < end else { return }
        // One pixel of margin each side: rounding never makes an edge pixel count as covered.
        var fullStart = end, fullEnd = end
        if fullLo.isFinite, fullHi.isFinite, fullLo <= fullHi {
            fullStart = min(max(Int(fullLo.rounded(.up)) + 1, start), end)
            fullEnd = max(min(Int(fullHi.rounded(.down)), end), fullStart)
        }
        let dest = row + x
        for i in start..<fullStart { edgePixel(i, u0, v0, du, dv, source, dest) }
        if fullStart < fullEnd { interior(fullStart, fullEnd, u0, v0, du, dv, source, dest) }
        for i in fullEnd..<end { edgePixel(i, u0, v0, du, dv, source, dest) }
    }

    @inline(__always)
    private func edgePixel(_ i: Int, _ u0: CGFloat, _ v0: CGFloat, _ du: CGFloat, _ dv: CGFloat,
                           _ source: UnsafePointer<UInt32>, _ dest: UnsafeMutablePointer<UInt32>) {
        let u = u0 + du * CGFloat(i), v = v0 + dv * CGFloat(i)
        let f = coverage(u, v)
        guard f > 0 else { return }
        let s = sample(fixed(u * scaleX - (nearest ? 0 : 0.5)), fixed(v * scaleY - (nearest ? 0 : 0.5)), source)
        dest[i] = Pixel.sourceOver(Pixel.scale(s, by: f), dest[i])
    }

    /// Pixels `from..<to`, every one fully covered: coordinates stepped in 32.32 fixed point.
    private func interior(_ from: Int, _ to: Int, _ u0: CGFloat, _ v0: CGFloat, _ du: CGFloat, _ dv: CGFloat,
                          _ source: UnsafePointer<UInt32>, _ dest: UnsafeMutablePointer<UInt32>) {
        let bias: CGFloat = nearest ? 0 : 0.5
        var u = fixed((u0 + du * CGFloat(from)) * scaleX - bias), v = fixed((v0 + dv * CGFloat(from)) * scaleY - bias)
        let su = fixed(du * scaleX), sv = fixed(dv * scaleY)
        if isOpaque {
            for i in from..<to {
                dest[i] = sample(u, v, source)
                u &+= su
                v &+= sv
            }
        } else if alpha == 255 {
            for i in from..<to {
                dest[i] = Pixel.sourceOver(sample(u, v, source), dest[i])
                u &+= su
                v &+= sv
            }
        } else {
            let a = alpha
            for i in from..<to {
                dest[i] = Pixel.sourceOver(Pixel.scale(sample(u, v, source), by: a), dest[i])
                u &+= su
                v &+= sv
            }
        }
    }

    /// A level coordinate in 32.32 fixed point (the coordinates of covered pixels lie within
    /// the image, so far inside Int64's range; others are clamped first).
    @inline(__always)
    private func fixed(_ c: CGFloat) -> Int64 {
        Int64(min(max(c, -1_048_576), 1_048_576) * 4_294_967_296)
    }

    /// The bilinear (or nearest) sample at level coordinates (u, v) in fixed point, already
    /// biased by −½ for bilinear, clamped to the level's edges.
    @inline(__always)
    private func sample(_ u: Int64, _ v: Int64, _ source: UnsafePointer<UInt32>) -> UInt32 {
        let w = levelWidth, h = levelHeight
        let x0 = Int(truncatingIfNeeded: u >> 32), y0 = Int(truncatingIfNeeded: v >> 32)
        if nearest {
            return source[min(max(y0, 0), h &- 1) &* w &+ min(max(x0, 0), w &- 1)]
        }
        let ax = UInt32(truncatingIfNeeded: ((UInt64(bitPattern: u) & 0xFFFF_FFFF) &* 255 &+ 0x8000_0000) >> 32)
        let ay = UInt32(truncatingIfNeeded: ((UInt64(bitPattern: v) & 0xFFFF_FFFF) &* 255 &+ 0x8000_0000) >> 32)
        let c0 = min(max(x0, 0), w &- 1), c1 = min(max(x0 &+ 1, 0), w &- 1)
        let top = source + min(max(y0, 0), h &- 1) &* w, bottom = source + min(max(y0 &+ 1, 0), h &- 1) &* w
        return Pixel.lerp(Pixel.lerp(top[c0], top[c1], ax), Pixel.lerp(bottom[c0], bottom[c1], ax), ay)
    }
}
