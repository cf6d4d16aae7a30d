import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// `drawTransformed`, the fast path for turned images, against `draw(_:in:)`: close to it under a
/// rotation (a few levels inside, an edge's coverage approximated), exactly it where it falls back.
@Suite struct TransformedImageTests {
    /// A 150×110 image with smooth gradients, sharp stripes and a translucent corner.
    static let picture: CGImage = {
        let w = 150, h = 110
        var px = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var r = UInt32(x * 255 / (w - 1)), g = UInt32(y * 255 / (h - 1)), b: UInt32 = 128
                if (x / 7) % 3 == 0 { r = 20; g = 30; b = 220 }
                if x > 120 && y > 80 { r = r / 2; g = g / 2; b = b / 2; px[y * w + x] = 0x8000_0000 | r << 16 | g << 8 | b; continue }
                px[y * w + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return CGImage(width: w, height: h, pixels: px)
    }()

    /// A canvas with a patterned background, so blending shows.
    static func canvas() -> CGContext {
        let ctx = CGContext(width: 240, height: 200)!
        ctx.setFillColor(CGColor(red: 0.9, green: 0.85, blue: 0.7, alpha: 1))
        ctx.fill(CGRect(x: 0, y: 0, width: 240, height: 200))
        ctx.setFillColor(CGColor(red: 0.1, green: 0.4, blue: 0.3, alpha: 1))
        for i in stride(from: 0, to: 240, by: 24) { ctx.fill(CGRect(x: CGFloat(i), y: 0, width: 9, height: 200)) }
        return ctx
    }

    /// Draws the picture turned by `angle` about the canvas centre, scaled by `scale`, with `alpha`.
    static func render(angle: CGFloat, scale: CGFloat, alpha: CGFloat, quality: CGInterpolationQuality = .default,
                       fast: Bool, clip: CGRect? = nil) -> CGContext {
        let ctx = canvas()
        if let clip { ctx.clip(to: clip) }
        ctx.interpolationQuality = quality
        ctx.setAlpha(alpha)
        ctx.translateBy(x: 120, y: 100)
        ctx.rotate(by: angle)
        ctx.scaleBy(x: scale, y: scale)
        let rect = CGRect(x: -75, y: -55, width: 150, height: 110)
        if fast { ctx.drawTransformed(picture, in: rect) } else { ctx.draw(picture, in: rect) }
        return ctx
    }

    /// The largest channel difference between the two contexts, and how many pixels differ by
    /// more than `interior` levels.
    static func compare(_ a: CGContext, _ b: CGContext, interior: UInt32) -> (maximum: UInt32, beyond: Int) {
        var maximum: UInt32 = 0, beyond = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.pixelAt(x, y), q = b.pixelAt(x, y)
                var d: UInt32 = 0
                for shift in stride(from: 0, through: 24, by: 8) {
                    let u = (p >> UInt32(shift)) & 0xFF, v = (q >> UInt32(shift)) & 0xFF
                    d = max(d, u > v ? u - v : v - u)
                }
                maximum = max(maximum, d)
                if d > interior { beyond += 1 }
            }
        }
        return (maximum, beyond)
    }

    @Test(arguments: [(CGFloat.pi / 7, CGFloat(1), CGFloat(1)), (0.3, 1.3, 1), (-1.1, 0.8, 0.6), (CGFloat.pi / 4, 1, 0.35),
                      (2.5, 1.1, 1)])
    func turnedDrawIsCloseToTheGeneralPath(angle: CGFloat, scale: CGFloat, alpha: CGFloat) {
        let general = Self.render(angle: angle, scale: scale, alpha: alpha, fast: false)
        let fast = Self.render(angle: angle, scale: scale, alpha: alpha, fast: true)
        // Inside, sampling agrees within rounding; only the edge pixels' coverage differs more
        // (clamp(distance + ½) against the exact area), by at most a sixth of full coverage.
        let (maximum, beyond) = Self.compare(general, fast, interior: 3)
        #expect(maximum <= 44, "largest difference \(maximum)")
        // The outline is about 2·(150 + 110)·scale pixels long; only (part of) it may differ more.
        #expect(beyond <= Int(2 * 260 * scale * 1.2), "\(beyond) pixels beyond 3 levels")
    }

    @Test func nearestSamplingAndAClipRectangle() {
        let clip = CGRect(x: 50, y: 40, width: 120, height: 90)
        let general = Self.render(angle: 0.7, scale: 1.2, alpha: 1, quality: .none, fast: false, clip: clip)
        let fast = Self.render(angle: 0.7, scale: 1.2, alpha: 1, quality: .none, fast: true, clip: clip)
        let (maximum, beyond) = Self.compare(general, fast, interior: 0)
        #expect(maximum <= 255)
        // Nearest sampling picks the same pixel except where a centre lies within rounding of a
        // pixel boundary, and along the edges.
        #expect(beyond <= 700, "\(beyond) pixels differ")
        // Nothing outside the clip changes.
        let background = Self.canvas()
        for y in 0..<200 {
            for x in 0..<240 where !(x >= 50 && x < 170 && y >= 70 && y < 160) {
                #expect(fast.pixelAt(x, y) == background.pixelAt(x, y))
            }
        }
    }

    @Test(arguments: [CGFloat(1), 0.5])
    func quarterTurnsAreExactlyTheGeneralPath(alpha: CGFloat) {
        for quarters in 0..<4 {
            let angle = CGFloat(quarters) * .pi / 2
            #expect(Self.compare(Self.render(angle: angle, scale: 1, alpha: alpha, fast: false),
                                 Self.render(angle: angle, scale: 1, alpha: alpha, fast: true), interior: 0).maximum == 0)
        }
    }

    /// An opaque picture turned by quarter and half turns, mirrored, clipped, on whole pixels:
    /// `drawTransformed` copies its pixels (the rotation's first frame) instead of sampling
    /// them, and the copy is `draw(_:in:)`'s result bit for bit. Off whole pixels, or at an
    /// alpha, it hands the draw to `draw(_:in:)`.
    @Test(arguments: [(false, false, CGFloat(1)), (true, false, 1), (false, true, 1), (true, true, 1), (false, false, 0.5)])
    func exactQuarterTurnsOfAnOpaquePictureAreCopies(mirrored: Bool, clipped: Bool, alpha: CGFloat) {
        let opaque = CGImage(width: Self.picture.width, height: Self.picture.height,
                             pixels: Self.picture.pixels.map { $0 | 0xFF00_0000 })
        for quarters in 0..<4 {
            for offset in [CGFloat(0), 0.25] {
                var fellBack = false
                func render(fast: Bool) -> CGContext {
                    let ctx = Self.canvas()
                    if fast { ctx.imageDrawObserver = { _, _, _ in fellBack = true } }
                    if clipped { ctx.clip(to: CGRect(x: 37, y: 21, width: 131, height: 97)) }
                    ctx.setAlpha(alpha)
                    ctx.translateBy(x: 120 + offset, y: 100)
                    ctx.rotate(by: CGFloat(quarters) * .pi / 2)
                    if mirrored { ctx.scaleBy(x: -1, y: 1) }
                    let rect = CGRect(x: -75, y: -55, width: 150, height: 110)
                    if fast { ctx.drawTransformed(opaque, in: rect) } else { ctx.draw(opaque, in: rect) }
                    return ctx
                }
                let general = render(fast: false), fast = render(fast: true)
                let (maximum, beyond) = Self.compare(general, fast, interior: 0)
                #expect(maximum == 0, "\(quarters) quarter turns, offset \(offset): \(beyond) pixels differ")
                #expect(fellBack == (offset != 0 || alpha != 1), "\(quarters) quarter turns, offset \(offset)")
                #expect(Self.compare(fast, Self.canvas(), interior: 0).beyond > 5000)
            }
        }
    }

    @Test func fallsBackUnderAClipMaskABlendModeAShadowAndHighQuality() {
        func both(_ setup: (CGContext) -> Void) -> (CGContext, CGContext) {
            let contexts = (Self.canvas(), Self.canvas())
            for (ctx, fast) in [(contexts.0, false), (contexts.1, true)] {
                setup(ctx)
                ctx.translateBy(x: 120, y: 100)
                ctx.rotate(by: 0.4)
                let rect = CGRect(x: -75, y: -55, width: 150, height: 110)
                if fast { ctx.drawTransformed(Self.picture, in: rect) } else { ctx.draw(Self.picture, in: rect) }
            }
            return contexts
        }
        let cases: [(CGContext) -> Void] = [
            { $0.addEllipse(in: CGRect(x: 30, y: 20, width: 180, height: 150)); $0.clip() },
            { $0.setBlendMode(.multiply) },
            { $0.setShadow(offset: CGSize(width: 4, height: -4), blur: 3) },
            { $0.interpolationQuality = .high },
            { $0.setShouldAntialias(false) },
        ]
        for setup in cases {
            let (a, b) = both(setup)
            #expect(Self.compare(a, b, interior: 0).maximum == 0)
        }
    }

    @Test func absurdInputDrawsNothingOrFallsBack() {
        let ctx = Self.canvas()
        let before = ctx.makeImage()!.pixels
        ctx.rotate(by: 0.5)
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 10))
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: 0, height: 10))
        ctx.drawTransformed(Self.picture, in: CGRect(x: 1e300, y: -1e300, width: 1e300, height: 1e300))
        ctx.setAlpha(0)
        ctx.drawTransformed(Self.picture, in: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(ctx.makeImage()!.pixels == before)
    }

    /// A 110×150 picture (the other one's shape turned), opaque, with stripes the other way.
    static let tallPicture: CGImage = {
        let w = 110, h = 150
        var px = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                var r = UInt32(255 - x * 255 / (w - 1)), g: UInt32 = 90, b = UInt32(y * 255 / (h - 1))
                if (y / 5) % 4 == 0 { r = 240; g = 200; b = 10 }
                px[y * w + x] = 0xFF00_0000 | r << 16 | g << 8 | b
            }
        }
        return CGImage(width: w, height: h, pixels: px)
    }()

    /// The cross-fade in one pass against its definition, the two `drawTransformed` calls:
    /// bit for bit, for pictures of different shapes, opaque and translucent, with a global
    /// alpha, a clip rectangle, nearest sampling, and at the ends of the fade.
    @Test(arguments: [(CGFloat(0.35), CGFloat(0.5), CGFloat(1), CGInterpolationQuality.default, false),
                      (1.2, 0.1, 1, .default, true), (-0.8, 0.9, 0.7, .default, false), (2.9, 0.5, 1, .none, false),
                      (0.6, 0.5, 1, .low, true), (0.6, 0, 1, .default, false), (0.6, 1, 1, .default, false),
                      (CGFloat.pi / 2, 0.4, 1, .default, false)])
    func crossFadeInOnePassIsTheTwoDrawsExactly(angle: CGFloat, fraction: CGFloat, alpha: CGFloat,
                                                quality: CGInterpolationQuality, clipped: Bool) {
        for (old, new) in [(Self.picture, Self.tallPicture), (Self.tallPicture, Self.picture), (Self.tallPicture, Self.tallPicture)] {
            func render(fused: Bool) -> CGContext {
                let ctx = Self.canvas()
                if clipped { ctx.clip(to: CGRect(x: 37, y: 21, width: 131, height: 97)) }
                ctx.interpolationQuality = quality
                ctx.setAlpha(alpha)
                ctx.translateBy(x: 120, y: 100)
                ctx.rotate(by: angle)
                let rect = CGRect(x: -70.3, y: -61.7, width: 140.6, height: 121.1)
                if fused {
                    ctx.drawTransformed(old, fadingInto: new, fraction: fraction, in: rect)
                } else {
                    if fraction > 0 { ctx.drawTransformed(new, in: rect) }
                    if fraction < 1 {
                        ctx.setAlpha(alpha * (1 - fraction))
                        ctx.drawTransformed(old, in: rect)
                    }
                }
                return ctx
            }
            let twoDraws = render(fused: false), onePass = render(fused: true)
            #expect(Self.compare(twoDraws, onePass, interior: 0).maximum == 0,
                    "angle \(angle), fraction \(fraction): \(Self.compare(twoDraws, onePass, interior: 0).beyond) pixels differ")
            // And it drew something: the fade is not the background.
            #expect(Self.compare(onePass, Self.canvas(), interior: 0).beyond > 1000)
        }
    }

    /// The 2× magnification of a half-resolution frame: each pixel against the formula
    /// (9, 3, 3, 1 sixteenths of the nearest source pixels, edges clamped), bit for bit, and
    /// within a level of drawing the half frame as an image; only the clip is written.
    @Test(arguments: [(120, 100, false), (75, 55, false), (120, 100, true), (1, 1, false), (9, 3, true)])
    func magnifiedCopyIsTheBilinearDoubling(width: Int, height: Int, clipped: Bool) {
        let half = CGContext(width: width, height: height)!
        half.setFillColor(.black)
        half.fill(CGRect(x: 0, y: 0, width: width, height: height))
        half.translateBy(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
        half.rotate(by: 0.5)
        half.draw(Self.picture, in: CGRect(x: -CGFloat(width) * 0.45, y: -CGFloat(height) * 0.45,
                                           width: CGFloat(width) * 0.9, height: CGFloat(height) * 0.9))
        let image = half.makeImage()!
        let clip = CGRect(x: 3, y: 1, width: CGFloat(width) * 2 - 7, height: CGFloat(height) - 1)
        let full = CGContext(width: width * 2, height: height * 2)!
        let background: UInt32 = 0xFF33_6699
        Self.setEveryPixel(full, background)
        if clipped { full.clip(to: clip) }
        #expect(full.copyMagnified(from: half))
        // The formula, in raster rows (pixelAt counts from the top, as the kernel does).
        func channel(_ p: UInt32, _ shift: UInt32) -> UInt32 { (p >> shift) & 0xFF }
        var worstAgainstDraw: UInt32 = 0
        let drawn = CGContext(width: width * 2, height: height * 2)!
        drawn.draw(image, in: CGRect(x: 0, y: 0, width: width * 2, height: height * 2))
        for y in 0..<height * 2 {
            for x in 0..<width * 2 {
                let inside = !clipped || (x >= 3 && x < width * 2 - 4 && y >= height * 2 - height && y < height * 2 - 1)
                let got = full.pixelAt(x, y)
                guard inside else {
                    #expect(got == background, "(\(x), \(y)) outside the clip was written")
                    continue
                }
                let sx = x / 2, sy = y / 2
                let nx = min(max(x % 2 == 0 ? sx - 1 : sx + 1, 0), width - 1)
                let ny = min(max(y % 2 == 0 ? sy - 1 : sy + 1, 0), height - 1)
                var want: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let c = 9 * channel(half.pixelAt(sx, sy), shift) + 3 * channel(half.pixelAt(nx, sy), shift)
                        + 3 * channel(half.pixelAt(sx, ny), shift) + channel(half.pixelAt(nx, ny), shift)
                    want |= ((c + 8) >> 4) << shift
                }
                #expect(got == want, "(\(x), \(y)): \(String(got, radix: 16)) against \(String(want, radix: 16))")
                if got != want { return }
                let d = drawn.pixelAt(x, y)
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let a = channel(got, shift), b = channel(d, shift)
                    worstAgainstDraw = max(worstAgainstDraw, a > b ? a - b : b - a)
                }
            }
        }
        if !clipped { #expect(worstAgainstDraw <= 2, "\(worstAgainstDraw) levels from draw(_:in:)") }
    }

    static func setEveryPixel(_ ctx: CGContext, _ value: UInt32) {
        for y in 0..<ctx.height {
            for x in 0..<ctx.width { ctx.pixels[y * ctx.rowStride + x] = value }
        }
    }

    @Test func magnifiedCopyRefusesOtherSizes() {
        let half = CGContext(width: 10, height: 10)!, full = CGContext(width: 21, height: 20)!
        Self.setEveryPixel(full, 0xFF00_FF00)
        #expect(!full.copyMagnified(from: half))
        #expect(!full.copyMagnified(from: full))
        #expect(full.pixelAt(5, 5) == 0xFF00_FF00)
    }

    /// Random opaque pixels (`seed`), `width` × `height`: every tap of a sample differs from its
    /// neighbours, so a lane or weight mixed up shows.
    static func noise(width: Int, height: Int, seed: UInt64) -> CGImage {
        var rng = SplitMix64(seed: seed)
        return CGImage(width: width, height: height,
                       pixels: (0..<width * height).map { _ in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &rng) })
    }

    /// The rotation's cross-fade through the AVX2 kernel (four pixels a step, the span inside
    /// both pictures found once per row) against the SSE2 kernel, bit for bit: turns in all
    /// four quadrants and near the quarter turns (the tiles' rows then run upward or downward),
    /// a mirror, pictures magnified 3× and minified, rows that cross the pictures' edges, a clip.
    @Test func crossFadeKernelsAgreeBitForBit() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: KernelDispatchTests.noAVX2))
            return
        }
        let under = Self.noise(width: 173, height: 131, seed: 1), over = Self.noise(width: 128, height: 171, seed: 2)
        for angle in [0.05, 0.7, -0.7, 1.55, -1.55, 2.4, -2.9, CGFloat.pi / 2 - 0.01] {
            for (scaleX, scaleY) in [(CGFloat(1), CGFloat(1)), (3, 3), (0.45, 0.6), (-1, 1)] {
                func render(_ path: KernelDispatch.Path) -> CGContext {
                    let ctx = Self.canvas()
                    if scaleY == 0.6 { ctx.clip(to: CGRect(x: 30, y: 17, width: 150, height: 140)) }
                    ctx.translateBy(x: 118.3, y: 101.6)
                    ctx.rotate(by: angle)
                    ctx.scaleBy(x: scaleX, y: scaleY)
                    _ = KernelDispatch.withPath(path) {
                        ctx.drawTransformed(over, fadingInto: under, fraction: 0.37, in: CGRect(x: -80.4, y: -66.2, width: 161, height: 133))
                    }
                    return ctx
                }
                let sse2 = render(.sse2), avx2 = render(.avx2)
                let (maximum, beyond) = Self.compare(sse2, avx2, interior: 0)
                #expect(maximum == 0, "angle \(angle), scale \(scaleX)×\(scaleY): \(beyond) pixels differ")
                #expect(Self.compare(avx2, Self.canvas(), interior: 0).beyond > 2000)
            }
        }
    }

    /// The 2× magnification's AVX2 kernel against its SSE2 one, bit for bit: even and odd widths
    /// (the four-pixel step's tail), a clip inside the frame, one-pixel frames.
    @Test func magnifyKernelsAgreeBitForBit() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: KernelDispatchTests.noAVX2))
            return
        }
        for (width, height, clip) in [(120, 100, nil), (75, 55, nil), (9, 3, CGRect(x: 3, y: 1, width: 11, height: 4)),
                                      (1, 1, nil), (77, 40, CGRect(x: 5, y: 3, width: 120, height: 60)), (4, 7, nil)] {
            let half = Self.noise(width: width, height: height, seed: UInt64(width * 100 + height)).pixels
            let source = CGContext(width: width, height: height)!
            for y in 0..<height { for x in 0..<width { source.pixels[y * source.rowStride + x] = half[y * width + x] } }
            func magnified(_ path: KernelDispatch.Path) -> CGContext {
                let full = CGContext(width: width * 2, height: height * 2)!
                Self.setEveryPixel(full, 0xFF33_6699)
                if let clip { full.clip(to: clip) }
                _ = KernelDispatch.withPath(path) { full.copyMagnified(from: source) }
                return full
            }
            let sse2 = magnified(.sse2), avx2 = magnified(.avx2)
            var differing = 0
            for y in 0..<height * 2 { for x in 0..<width * 2 where sse2.pixelAt(x, y) != avx2.pixelAt(x, y) { differing += 1 } }
            #expect(differing == 0, "\(width)×\(height): \(differing) pixels differ")
        }
    }

    /// `halfSize()`: each pixel the rounded mean of its 2 × 2 block per channel, the last column
    /// or row of an odd size repeated (the SSE2 kernel and its scalar tail), for even, odd and
    /// one-pixel sizes; a mask stays a mask; the half image's own half is the next level.
    @Test(arguments: [(150, 110), (7, 3), (1, 5), (5, 1), (33, 64), (1, 1), (2, 2), (9, 9)])
    func halfSizeIsTheMeanOfEachBlock(width: Int, height: Int) {
        var rng = SplitMix64(seed: UInt64(width * 1000 + height))
        let pixels = (0..<width * height).map { _ in UInt32.random(in: 0...UInt32.max, using: &rng) }
        let image = CGImage(width: width, height: height, pixels: pixels)
        let half = image.halfSize()
        let w = (width + 1) / 2, h = (height + 1) / 2
        #expect(half.width == w && half.height == h)
        if width == 1 && height == 1 { #expect(half === image) }
        var wrong = 0
        for y in 0..<h {
            for x in 0..<w {
                let x0 = 2 * x, x1 = min(2 * x + 1, width - 1), y0 = 2 * y, y1 = min(2 * y + 1, height - 1)
                let block = [pixels[y0 * width + x0], pixels[y0 * width + x1], pixels[y1 * width + x0], pixels[y1 * width + x1]]
                var expected: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    let sum = block.reduce(UInt32(0)) { $0 + (($1 >> shift) & 0xFF) }
                    expected |= ((sum + 2) >> 2) << shift
                }
                if half.pixel(x: x, y: y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) of \(w * h) pixels are not their block's mean")
        let quarter = half.halfSize()
        #expect(quarter.width == (w + 1) / 2 && quarter.height == (h + 1) / 2)
        #expect(quarter.pixels == image.pyramid[min(2, image.pyramid.count - 1)].pixels)
        let mask = CGImage(maskWidth: width, height: height, alpha: pixels.map { $0 & 0xFF00_0000 })
        #expect(mask.halfSize().isMask)
    }

    /// The band split covers its rectangle exactly: small rectangles whole, large ones as bands
    /// of `bandRows` rows from the top (the last one shorter), neither overlapping nor leaving
    /// a row out.
    @Test func bandsPartitionTheRectangle() {
        for box in [PixelRect(x: 0, y: 0, maxX: 240, maxY: 200), PixelRect(x: 3, y: 7, maxX: 771, maxY: 1031),
                    PixelRect(x: 0, y: 0, maxX: 1536, maxY: 600), PixelRect(x: -40, y: -300, maxX: 2000, maxY: 300),
                    PixelRect(x: 0, y: 0, maxX: 4000, maxY: 200)] {
            let lock = NSLock()
            nonisolated(unsafe) var bands: [PixelRect] = []
            CGContext.forEachBand(of: box) { band in
                lock.lock()
                bands.append(band)
                lock.unlock()
            }
            bands.sort { $0.y < $1.y }
            let large = box.width * box.height >= CGContext.parallelPixels && box.height >= 2 * CGContext.bandRows
            if !large || ProcessInfo.processInfo.activeProcessorCount < 2 {
                #expect(bands == [box])
                continue
            }
            #expect(bands.count == (box.height + CGContext.bandRows - 1) / CGContext.bandRows)
            #expect(bands.first?.y == box.y && bands.last?.maxY == box.maxY)
            #expect(zip(bands, bands.dropFirst()).allSatisfy { $0.maxY == $1.y && $0.height == CGContext.bandRows })
            #expect(bands.allSatisfy { $0.x == box.x && $0.maxX == box.maxX && !$0.isEmpty })
        }
    }

    /// A cross-fade and a magnification large enough to be split between two threads give the
    /// pixels of their definitions: the two `drawTransformed` calls (never split) and the
    /// per-pixel formula (every 7th row and column, the band boundary rows all).
    @Test func splitDrawsAreTheUnsplitOnesExactly() {
        let width = 620, height = 560
        let under = Self.noise(width: 300, height: 410, seed: 5), over = Self.noise(width: 410, height: 300, seed: 6)
        func render(fused: Bool) -> CGContext {
            let ctx = CGContext(width: width, height: height)!
            Self.setEveryPixel(ctx, 0xFF20_4060)
            ctx.translateBy(x: CGFloat(width) / 2, y: CGFloat(height) / 2)
            ctx.rotate(by: 0.41)
            let rect = CGRect(x: -260.3, y: -231.7, width: 520.6, height: 463.1)
            if fused {
                ctx.drawTransformed(over, fadingInto: under, fraction: 0.37, in: rect)
            } else {
                ctx.drawTransformed(under, in: rect)
                ctx.setAlpha(0.63)
                ctx.drawTransformed(over, in: rect)
            }
            return ctx
        }
        let onePass = render(fused: true), twoDraws = render(fused: false)
        #expect(Self.compare(twoDraws, onePass, interior: 0).maximum == 0)
        #expect(Self.compare(onePass, { let c = CGContext(width: width, height: height)!; Self.setEveryPixel(c, 0xFF20_4060); return c }(),
                             interior: 0).beyond > 150_000)

        let half = CGContext(width: 310, height: 280)!
        let noise = Self.noise(width: 310, height: 280, seed: 7).pixels
        for y in 0..<280 { for x in 0..<310 { half.pixels[y * half.rowStride + x] = noise[y * 310 + x] } }
        let full = CGContext(width: 620, height: 560)!
        #expect(full.copyMagnified(from: half))
        func channel(_ p: UInt32, _ shift: UInt32) -> UInt32 { (p >> shift) & 0xFF }
        var wrong = 0
        for y in 0..<560 where y % 7 == 0 || (250...262).contains(y) {
            for x in stride(from: 0, to: 620, by: 7) {
                let sx = x / 2, sy = y / 2
                let nx = min(max(x % 2 == 0 ? sx - 1 : sx + 1, 0), 309), ny = min(max(y % 2 == 0 ? sy - 1 : sy + 1, 0), 279)
                let p = { (xx: Int, yy: Int) in half.pixels[yy * half.rowStride + xx] }
                var expected: UInt32 = 0
                for shift in stride(from: UInt32(0), through: 24, by: 8) {
                    let v = (9 * channel(p(sx, sy), shift) + 3 * channel(p(nx, sy), shift) + 3 * channel(p(sx, ny), shift)
                             + channel(p(nx, ny), shift) + 8) >> 4
                    expected |= v << shift
                }
                if full.pixelAt(x, y) != expected { wrong += 1 }
            }
        }
        #expect(wrong == 0, "\(wrong) magnified pixels differ from the formula")
    }
}

