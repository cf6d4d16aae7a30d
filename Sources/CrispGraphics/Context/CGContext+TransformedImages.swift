import CCrispKernels
import Foundation

// A fast path for an image drawn under a turning or skewing CTM (the emulator's rotation
// animation draws two screen-sized pictures a frame this way). `draw(_:in:)` rasterizes the
// image's rectangle as a path (coverage for every pixel) and samples each pixel centre through
// the transform in Double (see ImagePaint.swift for why it must, for its goldens). Here each
// destination row (in 256-pixel tiles, for the caches) is split analytically into the pixels the parallelogram covers fully — sampled
// by stepping 32.32 fixed-point image coordinates, written straight (an opaque image at full
// alpha) or blended source-over — and the few pixels along its edges, whose coverage comes from
// their distances to the four edges (a box filter's coverage of a half-plane approximated as
// `clamp(distance + ½)`, multiplied at corners). The result is within a few levels of
// `draw(_:in:)` inside and along the edges; it is not bit-identical, which is why it is a method
// of its own and `draw(_:in:)` keeps its pixels.
//
// The two calls a rotation frame spends most of its time in, the cross-fade and `copyMagnified`,
// split a large rectangle into bands of 128 rows that the processors' threads take in turn
// (`forEachBand`): rows are independent (each reads the pictures and writes its own row), so the
// pixels are the same as on one thread, bit for bit. On the retina iPad's turn frames at half
// resolution (`crisp-demo --bench-render 5 --bench-device ipadretina --bench-screen controls`,
// alternated, three runs each): wall time a frame median 5.5–5.9 ms on one thread, 5.4–5.7 in two
// halves, 3.4–5.1 in 128-row bands; the slowest frame 8.6–10.5, 7.7–9.1 and 5.1–6.7 ms.

extension CGContext {
    /// Draws `image` into `rect` as `draw(_:in:)` does, faster when the CTM turns or skews it:
    /// fixed-point sampling along each row and analytic edge coverage instead of a rasterized
    /// outline. The pixels differ from `draw(_:in:)`'s by a few levels inside and up to a sixth
    /// of full coverage along the edges. Under an axis-aligned CTM (or within rounding of one), with a clip mask, a blend mode other than normal, a
    /// shadow, an image mask, high interpolation quality or anti-aliasing off, it is exactly
    /// `draw(_:in:)`.
    public func drawTransformed(_ image: CGImage, in rect: CGRect) {
        guard let t = transformedSetup(image, in: rect) else {
            if !copyTurned(image, in: rect) { draw(image, in: rect) }
            return
        }
        guard let (blit, level, box) = transformedBlit(image, in: rect, transform: t) else { return }
        level.pixels.withUnsafeBufferPointer { source in
            Self.forEachTileRow(of: box, toImage: blit.toImage) { y, x, maxX in
                blit.row(y: y, x: x, maxX: maxX, source: source.baseAddress!, into: pixels + y * rowStride)
            }
        }
    }

    /// Draws `next` into `rect` and over it `image` at `1 − fraction` of the context's alpha, as
    /// `drawTransformed(next, in: rect)` followed by `drawTransformed(image, in: rect)` with the
    /// alpha multiplied by `1 − fraction` (the two images may differ in size: each fills
    /// `rect`), bit for bit, but in one pass over the destination: where both cover a pixel
    /// fully, both are sampled and composited in the same step (a cross-fade of two turned
    /// pictures, such as the emulator's rotation, writes each pixel once instead of twice).
    /// Falls back to the two calls wherever `drawTransformed` would fall back to `draw(_:in:)`.
    public func drawTransformed(_ image: CGImage, fadingInto next: CGImage, fraction: CGFloat, in rect: CGRect) {
        let f = fraction.isNaN ? 0 : min(max(fraction, 0), 1)
        let alpha = gstate.alpha
        func separately() {
            if f > 0 {
                drawTransformed(next, in: rect)
            }
            if f < 1 {
                gstate.alpha = alpha * (1 - f)
                drawTransformed(image, in: rect)
                gstate.alpha = alpha
            }
        }
        guard f > 0, f < 1, let t = transformedSetup(next, in: rect), transformedSetup(image, in: rect) != nil,
              let (under, underLevel, box) = transformedBlit(next, in: rect, transform: t) else {
            separately()
            return
        }
        gstate.alpha = alpha * (1 - f)
        let overBlit = transformedBlit(image, in: rect, transform: t)
        gstate.alpha = alpha
        guard let (over, overLevel, overBox) = overBlit, overBox == box else {
            separately()
            return
        }
        KernelDispatch.prepare()
        // Decided here, on the calling thread: the kernel path may be forced per thread.
        let avx2 = KernelDispatch.usesAVX2(1)
        let pixels = self.pixels, rowStride = self.rowStride
        underLevel.pixels.withUnsafeBufferPointer { underSource in
            overLevel.pixels.withUnsafeBufferPointer { overSource in
                Self.forEachBand(of: box) { band in
                    Self.forEachTileRow(of: band, toImage: under.toImage) { y, x, maxX in
                        TransformedImageBlit.crossFadeRow(y: y, x: x, maxX: maxX, under: under,
                                                          underSource: underSource.baseAddress!, over: over,
                                                          overSource: overSource.baseAddress!,
                                                          into: pixels + y * rowStride, avx2: avx2)
                    }
                }
            }
        }
    }

    /// Pixels from which a cross-fade or a magnification is split between threads: about 0.5 ms
    /// of one thread's work, well above the cost of waking another (tens of microseconds).
    static let parallelPixels = 1 << 18

    /// Calls `body` with `box` whole, or, when it has `parallelPixels` or more and the machine
    /// more than one processor, with bands of `bandRows` rows (the last one shorter) on the
    /// processors' threads at once, each thread taking the next band when it is done with one,
    /// so a thread that a neighbour slows down takes fewer; returns when every band is done.
    /// The bands share no destination row, and `body` reads only what no thread writes.
    static func forEachBand(of box: PixelRect, _ body: (PixelRect) -> Void) {
        let rows = box.height
        guard box.width * rows >= parallelPixels, rows >= 2 * bandRows, processors > 1 else {
            body(box)
            return
        }
        let count = (rows + bandRows - 1) / bandRows
        let bands = (0..<count).map { k in
            PixelRect(x: box.x, y: box.y + k * bandRows, maxX: box.maxX, maxY: min(box.y + (k + 1) * bandRows, box.maxY))
        }
        // The closure runs on several threads at once by design (disjoint rows, see above);
        // `body` does not escape `concurrentPerform`, which returns when every call has.
        withoutActuallyEscaping(body) { body in
            nonisolated(unsafe) let body = body
            DispatchQueue.concurrentPerform(iterations: count) { body(bands[$0]) }
        }
    }

    /// The rows of a band. Bands of 128 rows against two halves (the half-resolution turn
    /// frame's 1024 rows in 8 bands against 2): the threads finish together instead of one
    /// waiting 1.4–2 ms for the other (see docs/performance.md, "Session 11").
    static let bandRows = 128

    /// The threads a band split may use: the processors, or `CRISP_DRAW_THREADS=1` (to measure
    /// one thread's work, or on a machine where the second core is better left alone).
    private static let processors = ProcessInfo.processInfo.environment["CRISP_DRAW_THREADS"] == "1"
        ? 1 : ProcessInfo.processInfo.activeProcessorCount

    /// The user-to-raster transform when `drawTransformed` takes its own path for `image` in
    /// `rect`; nil when it falls back to `draw(_:in:)`.
    private func transformedSetup(_ image: CGImage, in rect: CGRect) -> CGAffineTransform? {
        let t = userToRaster
        // Within rounding of a quarter turn (`rotate(by: .pi / 2)` leaves 6e-17 where 0 belongs),
        // the general path is as fast and exact.
        let straight = abs(t.a) + abs(t.d), turned = abs(t.b) + abs(t.c)
        let isNearlyRectilinear = turned <= straight * 1e-9 || straight <= turned * 1e-9
        guard !isNearlyRectilinear, gstate.interpolationQuality != .high, ownPathsApply(to: image, in: rect) else {
            return nil
        }
        return t
    }

    /// What both of `drawTransformed`'s own paths (the turned blit and the exact copy) need,
    /// short of which they leave the image to `draw(_:in:)`: an image that is not a mask, no clip
    /// mask, blend mode or shadow, no transparency layer over caller memory, anti-aliasing on,
    /// a finite non-empty rectangle and an invertible CTM.
    private func ownPathsApply(to image: CGImage, in rect: CGRect) -> Bool {
        let t = userToRaster
        return !image.isMask && gstate.clip.mask == nil && gstate.blendMode == .normal
            && !(gstate.shadow?.isVisible ?? false) && (!layerStack.isEmpty || baseRows == nil) && isAntialiasing
            && rect.isFiniteRect && rect.width != 0 && rect.height != 0 && image.width > 0 && image.height > 0
            && t.determinant != 0 && t.determinant.isFinite
    }

    /// Draws `image` into `rect` when every device pixel centre maps exactly onto an image pixel
    /// centre under a quarter or half turn or a mirroring (the first frame of the emulator's
    /// rotation, the old picture turned into the new screen's shape): each pixel is its image
    /// pixel, which is what `draw(_:in:)`'s samples are there (zero weights), copied (4 × 4
    /// blocks transposed in SSE2, `crisp_copy_turned`) instead of sampled. False, drawing
    /// nothing, when the mapping is not such an exact one, the image is not opaque or the alpha
    /// not 1, or anything `drawTransformed` leaves to `draw(_:in:)` is set.
    private func copyTurned(_ image: CGImage, in rect: CGRect) -> Bool {
        let t = userToRaster
        guard gstate.alpha == 1, !gstate.clip.bounds.isEmpty, ownPathsApply(to: image, in: rect) else { return false }
        let r = rect.standardized
        let w = CGFloat(image.width), h = CGFloat(image.height)
        let userToImage = CGAffineTransform(a: w / r.width, b: 0, c: 0, d: -h / r.height,
                                            tx: -r.minX * w / r.width, ty: r.maxY * h / r.height)
        let m = t.inverted().concatenating(userToImage)
        // Each coefficient within rounding of 0 or ±1, the pixel centres' images within
        // rounding of whole numbers plus ½: the mapping, snapped, is exact.
        func snap(_ v: CGFloat) -> Int? {
            let n = v.rounded()
            return abs(v - n) <= 1e-9 * max(1, abs(v)) && abs(n) < 1e9 ? Int(n) : nil
        }
        guard let a = snap(m.a), let b = snap(m.b), let c = snap(m.c), let d = snap(m.d),
              abs(a) + abs(b) == 1, abs(c) + abs(d) == 1, abs(a) + abs(c) == 1,
              let u0 = snap(m.a * 0.5 + m.c * 0.5 + m.tx - 0.5), let v0 = snap(m.b * 0.5 + m.d * 0.5 + m.ty - 0.5) else {
            return false
        }
        let box = PixelRect(enclosing: r.applying(t), limit: PixelRect(x: 0, y: 0, maxX: width, maxY: height))
        guard !box.isEmpty else { return true }
        // Image pixel of raster pixel (x, y): (u0 + a·x + c·y, v0 + b·x + d·y); every one of the
        // rectangle's pixels must be inside the image (it is, when the rectangle is the image's
        // size in pixels and on whole pixels).
        let iw = image.width, ih = image.height
        func inside(_ x: Int, _ y: Int) -> Bool {
            let u = u0 + a * x + c * y, v = v0 + b * x + d * y
            return u >= 0 && u < iw && v >= 0 && v < ih
        }
        guard inside(box.x, box.y), inside(box.maxX - 1, box.y), inside(box.x, box.maxY - 1),
              inside(box.maxX - 1, box.maxY - 1), image.hasOnlyOpaquePixels else { return false }
        let clip = box.intersection(gstate.clip.bounds)
        guard !clip.isEmpty else { return true }
        // Raster pixel (x, y) is image pixel start + x·sx + y·sy of its packed rows.
        image.pixels.withUnsafeBufferPointer { source in
            crisp_copy_turned(pixels, rowStride, clip.x, clip.maxX, clip.y, clip.maxY, source.baseAddress!,
                              u0 + v0 * iw, a + b * iw, c + d * iw)
        }
        return true
    }

    /// Calls `body(y, x, maxX)` for every row piece of `box` in tiles of 64 × 64 pixels: along a
    /// turned row the source steps across its rows, each on other cache lines and pages; a tile's
    /// source footprint stays in the caches (a whole row at a time ran at about 35 ns a pixel on
    /// the retina iPad's screen). A tile's rows run downward, or upward when `toImage` moves the
    /// image column the other way down a row than along it (`a·c < 0`): so each next row's taps
    /// lie a little further along the image's rows in the direction the row walks them, which the
    /// hardware prefetchers follow. Against the other order, the rotation's cross-fade at 45°
    /// took 1.1–1.4× as long (a C bench of the kernel on the AMD EPYC, both directions of turn).
    @inline(__always)
    /// The tiles' side in pixels. 256 against 64 (`xfbench`-style timing of the retina iPad's
    /// half-resolution turn frames, 768 × 1024, one thread, two runs each): median 5.2–5.6
    /// against 6.5–7.8 ms, fastest frame 4.1–4.2 against 4.7–5.7 ms. Each tile row is a call of
    /// `crossFadeRow` with its two plans and the kernel's setup: fewer, longer calls pay less of
    /// that, and two pictures' taps along 256 pixels still stay in the 512 KB L2.
    static let tileSize = 256
    private static func forEachTileRow(of box: PixelRect, toImage: CGAffineTransform,
                                       _ body: (_ y: Int, _ x: Int, _ maxX: Int) -> Void) {
        let tile = tileSize
        let upward = toImage.a * toImage.c < 0
        for tileY in stride(from: box.y, to: box.maxY, by: tile) {
            let tileMaxY = min(tileY + tile, box.maxY)
            for tileX in stride(from: box.x, to: box.maxX, by: tile) {
                let maxX = min(tileX + tile, box.maxX)
                if upward {
                    for y in (tileY..<tileMaxY).reversed() { body(y, tileX, maxX) }
                } else {
                    for y in tileY..<tileMaxY { body(y, tileX, maxX) }
                }
            }
        }
    }

    /// The row painter, the level it samples and the raster box for `image` in `rect` under
    /// `t` (from `transformedSetup`) at the current alpha; nil when nothing is drawn.
    private func transformedBlit(_ image: CGImage, in rect: CGRect, transform t: CGAffineTransform)
        -> (TransformedImageBlit, ImageLevel, PixelRect)? {
        let clip = gstate.clip.bounds
        let alpha = UInt32((min(max(gstate.alpha, 0), 1) * 255).rounded())
        guard !clip.isEmpty, alpha > 0 else { return nil }
        let r = rect.standardized
        let w = CGFloat(image.width), h = CGFloat(image.height)
        let userToImage = CGAffineTransform(a: w / r.width, b: 0, c: 0, d: -h / r.height,
                                            tx: -r.minX * w / r.width, ty: r.maxY * h / r.height)
        let toImage = t.inverted().concatenating(userToImage)
        guard toImage.a.isFinite, toImage.b.isFinite, toImage.c.isFinite, toImage.d.isFinite,
              toImage.tx.isFinite, toImage.ty.isFinite else { return nil }
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
        guard !box.isEmpty else { return nil }
        let blit = TransformedImageBlit(toImage: toImage, imageWidth: w, imageHeight: h, levelWidth: level.width,
                                        levelHeight: level.height, nearest: nearest, alpha: alpha,
                                        isOpaque: alpha == 255 && image.hasOnlyOpaquePixels)
        return (blit, level, box)
    }
}

extension CGContext {
    /// Replaces this context's pixels within its clip rectangle with `source` magnified 2×
    /// bilinearly, for a frame drawn at half resolution: each pixel is 9/16 of the source pixel
    /// under it and 3/16, 3/16 and 1/16 of the nearer neighbours (the bilinear sample at
    /// ((x + ½)/2 − ½, (y + ½)/2 − ½), edges clamped, rounded once), in device pixels: the CTM,
    /// alpha and blend mode are not used. For an opaque `source` this is
    /// `draw(source.makeImage()!, in: bounds)` within a level a channel, without the copy.
    ///
    /// Returns false, drawing nothing, unless `source` is exactly half this context's width
    /// and height and the clip is a rectangle (no mask, no transparency layer): draw the image
    /// then.
    @discardableResult
    public func copyMagnified(from source: CGContext) -> Bool {
        guard source !== self, source.width * 2 == width, source.height * 2 == height, gstate.clip.mask == nil,
              layerStack.isEmpty, source.layerStack.isEmpty else { return false }
        let clip = gstate.clip.bounds
        guard !clip.isEmpty else { return true }
        KernelDispatch.prepare()
        let avx2 = KernelDispatch.usesAVX2(1)
        let sourcePixels = source.pixels, sourceWidth = source.width, sourceHeight = source.height
        let sourceStride = source.rowStride, pixels = self.pixels, rowStride = self.rowStride, width = self.width
        // Each band its own scratch rows; the bands write disjoint rows of this context.
        Self.forEachBand(of: clip) { band in
            let scratch = UnsafeMutablePointer<UInt16>.allocate(capacity: 4 * (sourceWidth + 2))
            let row = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
            defer {
                scratch.deallocate()
                row.deallocate()
            }
            if avx2 {
                crisp_magnify2x_avx2(sourcePixels, sourceWidth, sourceHeight, sourceStride, pixels, rowStride,
                                     band.x, band.maxX, band.y, band.maxY, scratch, row)
            } else {
                crisp_magnify2x(sourcePixels, sourceWidth, sourceHeight, sourceStride, pixels, rowStride,
                                band.x, band.maxX, band.y, band.maxY, scratch, row)
            }
        }
        return true
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

    /// What a row does: pixels `start..<end` (from the row's `x`) have coverage, of which
    /// `fullStart..<fullEnd` are fully covered and sampled from `u`, `v` (32.32 fixed point, at
    /// `fullStart`) stepping by `su`, `sv`; `u0`, `v0` are the image coordinates of pixel 0.
    struct RowPlan {
        var start = 0, end = 0, fullStart = 0, fullEnd = 0
        var u0: CGFloat = 0, v0: CGFloat = 0
        var u: Int64 = 0, v: Int64 = 0, su: Int64 = 0, sv: Int64 = 0
    }

    /// The plan of raster row `y` between `x` and `maxX` (clipped already); nil when no pixel has coverage.
    @inline(__always)
    func plan(y: Int, x: Int, maxX: Int) -> RowPlan? {
        let py = CGFloat(y) + 0.5, px = CGFloat(x) + 0.5
        let u0 = toImage.a * px + toImage.c * py + toImage.tx
        let v0 = toImage.b * px + toImage.d * py + toImage.ty
        let du = toImage.a, dv = toImage.b
        // Each edge distance is affine along the row: e(i) = e0 + k·i. The pixels with any
        // coverage have every e > −½; the fully covered ones every e ≥ ½.
        let n = maxX - x
        var anyLo: CGFloat = 0, anyHi = CGFloat(n - 1), fullLo: CGFloat = 0, fullHi = CGFloat(n - 1)
        var outside = false
        // Whether an edge ends the fully covered pixels inside the row piece (else they run to
        // its end, and no margin is needed there).
        var edgeLo = false, edgeHi = false
        @inline(__always) func constrain(_ e: CGFloat, _ k: CGFloat) {
            if k == 0 {
                if e <= -0.5 { outside = true }
                if e < 0.5 { fullLo = 1; fullHi = 0 }
            } else if k > 0 {
                anyLo = max(anyLo, (-0.5 - e) / k)
                let lo = (0.5 - e) / k
                if lo > -1 { edgeLo = true }
                fullLo = max(fullLo, lo)
            } else {
                anyHi = min(anyHi, (-0.5 - e) / k)
                let hi = (0.5 - e) / k
                if hi < CGFloat(n) { edgeHi = true }
                fullHi = min(fullHi, hi)
            }
        }
        constrain(u0 * uDistance, du * uDistance)
        constrain((imageWidth - u0) * uDistance, -du * uDistance)
        constrain(v0 * vDistance, dv * vDistance)
        constrain((imageHeight - v0) * vDistance, -dv * vDistance)
        guard !outside else { return nil }
        guard anyLo.isFinite, anyHi.isFinite, anyLo <= anyHi else { return nil }
        let start = max(Int(anyLo.rounded(.down)), 0), end = min(Int(anyHi.rounded(.up)) + 1, n)
        guard start < end else { return nil }
        // One pixel of margin beside an edge that ends them: rounding never makes an edge pixel
        // count as covered. (A tile's own ends need none: a margin there sent two pixels of
        // every 64 down the edge pixels' slow path.)
        var plan = RowPlan(start: start, end: end, fullStart: end, fullEnd: end, u0: u0, v0: v0)
        if fullLo.isFinite, fullHi.isFinite, fullLo <= fullHi {
            plan.fullStart = min(max(edgeLo ? Int(fullLo.rounded(.up)) + 1 : 0, start), end)
            plan.fullEnd = max(min(edgeHi ? Int(fullHi.rounded(.down)) : n, end), plan.fullStart)
        }
        if plan.fullStart < plan.fullEnd {
            let bias: CGFloat = nearest ? 0 : 0.5
            plan.u = fixed((u0 + du * CGFloat(plan.fullStart)) * scaleX - bias)
            plan.v = fixed((v0 + dv * CGFloat(plan.fullStart)) * scaleY - bias)
            plan.su = fixed(du * scaleX)
            plan.sv = fixed(dv * scaleY)
        }
        return plan
    }

    /// Paints raster row `y` between `x` and `maxX` (clipped already) into `row`.
    func row(y: Int, x: Int, maxX: Int, source: UnsafePointer<UInt32>, into row: UnsafeMutablePointer<UInt32>) {
        guard let p = plan(y: y, x: x, maxX: maxX) else { return }
        let du = toImage.a, dv = toImage.b
        let dest = row + x
        for i in p.start..<p.fullStart { edgePixel(i, p.u0, p.v0, du, dv, source, dest) }
        if p.fullStart < p.fullEnd { interior(p, source, dest) }
        for i in p.fullEnd..<p.end { edgePixel(i, p.u0, p.v0, du, dv, source, dest) }
    }

    /// Pixel `i` of a row planned as `p`, alone: what `row` does to it.
    @inline(__always)
    private func pixel(_ i: Int, _ p: RowPlan, _ source: UnsafePointer<UInt32>, _ dest: UnsafeMutablePointer<UInt32>) {
        guard i >= p.start, i < p.end else { return }
        guard i >= p.fullStart, i < p.fullEnd else {
            edgePixel(i, p.u0, p.v0, toImage.a, toImage.b, source, dest)
            return
        }
        let k = Int64(i - p.fullStart)
        dest[i] = interiorPixel(sample(p.u &+ p.su &* k, p.v &+ p.sv &* k, source), dest[i])
    }

    /// A fully covered pixel's sample `s` composited over `d`.
    @inline(__always)
    private func interiorPixel(_ s: UInt32, _ d: UInt32) -> UInt32 {
        if isOpaque { return s }
        if alpha == 255 { return Pixel.sourceOver(s, d) }
        return Pixel.sourceOver(Pixel.scale(s, by: alpha), d)
    }

    /// Raster row `y` between `x` and `maxX` as `under.row` and then `over.row` paint it (two
    /// blits of the same rectangle under the same transform and clip), bit for bit; where both
    /// cover the pixels fully, in one loop that samples both.
    static func crossFadeRow(y: Int, x: Int, maxX: Int, under: TransformedImageBlit, underSource: UnsafePointer<UInt32>,
                             over: TransformedImageBlit, overSource: UnsafePointer<UInt32>,
                             into row: UnsafeMutablePointer<UInt32>, avx2: Bool) {
        let pu = under.plan(y: y, x: x, maxX: maxX), po = over.plan(y: y, x: x, maxX: maxX)
        guard let pu, let po else {
            // Rounding gave one of them no pixels: each alone.
            under.row(y: y, x: x, maxX: maxX, source: underSource, into: row)
            over.row(y: y, x: x, maxX: maxX, source: overSource, into: row)
            return
        }
        let dest = row + x
        let lo = min(pu.start, po.start), hi = max(pu.end, po.end)
        var from = max(pu.fullStart, po.fullStart), to = min(pu.fullEnd, po.fullEnd)
        if from >= to { from = hi; to = hi }
        for i in lo..<from {
            under.pixel(i, pu, underSource, dest)
            over.pixel(i, po, overSource, dest)
        }
        if from < to {
            let ku = Int64(from - pu.fullStart), ko = Int64(from - po.fullStart)
            var uu = pu.u &+ pu.su &* ku, vu = pu.v &+ pu.sv &* ku
            var uo = po.u &+ po.su &* ko, vo = po.v &+ po.sv &* ko
            let suu = pu.su, svu = pu.sv, suo = po.su, svo = po.sv
            if under.isOpaque && over.alpha < 255 && !under.nearest && !over.nearest {
                // The rotation's case, an opaque picture under a fading one: the C kernels' SSE2
                // or AVX2 taps (CCrispKernels/CrossFade.c), bit for bit `sample`, `scale` and
                // `sourceOver`.
                var u = crisp_bilinear(pixels: underSource, width: under.levelWidth, height: under.levelHeight)
                var o = crisp_bilinear(pixels: overSource, width: over.levelWidth, height: over.levelHeight)
                if avx2 {
                    crisp_cross_fade_row_avx2(dest + from, to - from, &u, uu, vu, suu, svu, &o, uo, vo, suo, svo, over.alpha)
                } else {
                    crisp_cross_fade_row(dest + from, to - from, &u, uu, vu, suu, svu, &o, uo, vo, suo, svo, over.alpha)
                }
            } else {
                for i in from..<to {
                    let d = under.interiorPixel(under.sample(uu, vu, underSource), dest[i])
                    dest[i] = over.interiorPixel(over.sample(uo, vo, overSource), d)
                    uu &+= suu; vu &+= svu; uo &+= suo; vo &+= svo
                }
            }
        }
        for i in max(to, from)..<hi {
            under.pixel(i, pu, underSource, dest)
            over.pixel(i, po, overSource, dest)
        }
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

    /// The pixels `p.fullStart..<p.fullEnd`, every one fully covered: coordinates stepped in
    /// 32.32 fixed point.
    private func interior(_ p: RowPlan, _ source: UnsafePointer<UInt32>, _ dest: UnsafeMutablePointer<UInt32>) {
        var u = p.u, v = p.v
        let su = p.su, sv = p.sv
        if isOpaque {
            for i in p.fullStart..<p.fullEnd {
                dest[i] = sample(u, v, source)
                u &+= su
                v &+= sv
            }
        } else if alpha == 255 {
            for i in p.fullStart..<p.fullEnd {
                dest[i] = Pixel.sourceOver(sample(u, v, source), dest[i])
                u &+= su
                v &+= sv
            }
        } else {
            let a = alpha
            for i in p.fullStart..<p.fullEnd {
                dest[i] = Pixel.sourceOver(Pixel.scale(sample(u, v, source), by: a), dest[i])
                u &+= su
                v &+= sv
            }
        }
    }

    /// A level coordinate in 32.32 fixed point (the coordinates of covered pixels lie within
    /// the image, so far inside Int64's range; others are clamped first).
    @inline(__always)
    func fixed(_ c: CGFloat) -> Int64 {
        Int64(min(max(c, -1_048_576), 1_048_576) * 4_294_967_296)
    }

    /// The bilinear (or nearest) sample at level coordinates (u, v) in fixed point, already
    /// biased by −½ for bilinear, clamped to the level's edges.
    @inline(__always)
    func sample(_ u: Int64, _ v: Int64, _ source: UnsafePointer<UInt32>) -> UInt32 {
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
