import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Images, masks and transparency layers.
@Suite struct ImageTests {
    /// A 4×4 test image: red, green, blue, white quadrants… as a checker of 2×2 blocks.
    static let checker: CGImage = {
        let colors: [UInt32] = [0xFFE0_3020, 0xFF20_A040, 0xFF20_40D0, 0xFFF0_F0F0]
        var px = [UInt32]()
        for y in 0..<4 { for x in 0..<4 { px.append(colors[(y / 2) * 2 + x / 2]) } }
        return CGImage(width: 4, height: 4, pixels: px)
    }()

    /// A 64×64 image of fine detail (1-px stripes and a ring): what minification must not alias.
    static let detail: CGImage = {
        var px = [UInt32](repeating: 0xFFFF_FFFF, count: 64 * 64)
        for y in 0..<64 {
            for x in 0..<64 {
                let r = hypot(Double(x) - 31.5, Double(y) - 31.5)
                if x % 2 == 0 && y < 32 { px[y * 64 + x] = 0xFF10_1010 }
                if abs(r - 24) < 2 { px[y * 64 + x] = 0xFFD0_2020 }
            }
        }
        return CGImage(width: 64, height: 64, pixels: px)
    }()

    @Test func imageIsUprightInYUpSpaceAndFlippedInAViewContext() {
        let up = CGContext(width: 4, height: 4)!
        up.draw(Self.checker, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(up.pixelAt(0, 0) == 0xFFE0_3020)       // the image's top-left pixel is at the top
        let flipped = CGContext.flipped(width: 4, height: 4)
        flipped.draw(Self.checker, in: CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(flipped.pixelAt(0, 3) == 0xFFE0_3020)  // …and at the bottom in a flipped context
    }

    @Test(arguments: [CGInterpolationQuality.none, .low, .medium, .high])
    func qualities(quality: CGInterpolationQuality) {
        let ctx = FillGoldenTests.canvas(128, 48)
        ctx.interpolationQuality = quality
        ctx.draw(Self.checker, in: CGRect(x: 4, y: 4, width: 40, height: 40))           // 10× magnified
        ctx.draw(Self.detail, in: CGRect(x: 50, y: 14, width: 20, height: 20))          // 3.2× minified
        ctx.saveGState()
        ctx.translateBy(x: 100, y: 24)
        ctx.rotate(by: .pi / 7)
        ctx.draw(Self.detail, in: CGRect(x: -16, y: -16, width: 32, height: 32))        // rotated, 2× minified
        ctx.restoreGState()
        let names: [CGInterpolationQuality: String] = [.none: "none", .low: "low", .medium: "medium", .high: "high"]
        Golden.check(ctx, "image", "quality_\(names[quality]!)")
    }

    /// The production per-pixel sampler at the centre of device pixel (x, y).
    static func referenceSample(_ paint: ImagePaint, _ level: SampledLevel, x: Int, y: Int) -> UInt32 {
        let p = paint.toImage.apply(CGFloat(x) + 0.5, CGFloat(y) + 0.5)
        return paint.samplePixel(level, p.x, p.y)
    }

    /// The span loops (floors and weights from truncating conversions, rows hoisted when v is
    /// constant) must reproduce the per-pixel sampler bit for bit: on random affine maps, and on
    /// decimal scales with whole-pixel offsets, where coordinates land exactly on integers (a
    /// 32.32 fixed-point stepper failed here: 64 px drawn in 20 puts pixel 7 at u = 3.2 · 7.5 = 24,
    /// which stepping reached as 24 − 2⁻³² and so sampled column 23).
    @Test(arguments: [false, true], [false, true])
    func spansMatchPerPixelSampling(nearest: Bool, tiled: Bool) {
        let image = Self.detail
        var rng = SplitMix64(seed: 11)
        func random(_ range: ClosedRange<Double>) -> CGFloat {
            CGFloat(Double(rng.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound) + range.lowerBound)
        }
        image.pixels.withUnsafeBufferPointer { buffer in
            let level = SampledLevel(pixels: buffer.baseAddress!, width: 64, height: 64, scaleX: 1, scaleY: 1)
            for trial in 0..<300 {
                let t: CGAffineTransform
                if trial % 3 == 2 {
                    // Powers of two from half-pixel origins, some rotated a quarter turn: the exact
                    // fixed-point stepper.
                    let s = CGFloat(1 << (rng.next() % 5)) / 4, quarter = rng.next() % 2 == 0
                    let tx = CGFloat(rng.next() % 128) / 2 - 32, ty = CGFloat(rng.next() % 128) / 2
                    t = quarter ? CGAffineTransform(a: 0, b: s, c: s, d: 0, tx: tx, ty: ty)
                                : CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: tx, ty: ty)
                    #expect(ExactStep.isDyadic(t))
                } else if trial % 3 == 0 {
                    // Decimal scales (image pixels per device pixel) from whole-pixel origins.
                    let s = [0.1, 0.2, 0.4, 0.5, 1.6, 3.2, 2.5, 0.3][Int(rng.next() % 8)]
                    t = CGAffineTransform(a: s, b: 0, c: 0, d: -s, tx: -s * CGFloat(rng.next() % 60), ty: s * CGFloat(rng.next() % 60))
                } else {
                    let angle = random(-3.2...3.2), s = random(0.2...5)
                    t = CGAffineTransform(a: s * cos(angle), b: s * sin(angle), c: -s * sin(angle) * random(0.5...1.5),
                                          d: s * cos(angle), tx: random(-80...80), ty: random(-80...80))
                }
                let paint = ImagePaint(primary: level, secondary: nil, secondaryWeight: 0, toImage: t, nearest: nearest,
                                       tiled: tiled, mode: .color, alpha: 255, isImageOpaque: true)
                let x = Int(rng.next() % 120) - 40, y = Int(rng.next() % 120) - 40, count = Int(rng.next() % 90) + 1
                var out = [UInt32](repeating: 0, count: count)
                out.withUnsafeMutableBufferPointer { paint.shade(x: x, y: y, count: count, into: $0.baseAddress!) }
                let expected = (0..<count).map { Self.referenceSample(paint, level, x: x + $0, y: y) }
                #expect(out == expected, "trial \(trial)")
            }
        }
    }

    /// The floor and weight helpers agree with libm's `rounded(.down)` and `rounded()` on the
    /// awkward values: negatives, integers, halves, and neighbours of the weight's ties.
    @Test func floorAndWeightMatchLibm() {
        var values: [CGFloat] = [0, -0.0, 1, -1, 0.5, -0.5, 2.999_999_999, -2.000_000_001, 1e9 + 0.25, -1e9 - 0.75]
        for k in 0..<255 {
            let tie = (CGFloat(k) + 0.5) / 255
            values += [tie, tie.nextUp, tie.nextDown, 7 + tie, -3 + tie, (7 + tie).nextDown, (-3 + tie).nextUp]
        }
        for f in values {
            let x0 = f.rounded(.down)
            let (i, w) = ImagePaint.floorAndWeight(f)
            #expect(ImagePaint.floor(f) == Int(x0) && i == Int(x0), "\(f)")
            #expect(w == UInt32(((f - x0) * 255).rounded()), "\(f)")
        }
    }

    @Test func tilingRepeatsFromTheRectangle() {
        let ctx = FillGoldenTests.canvas(48, 32)
        ctx.interpolationQuality = .none
        ctx.clip(to: CGRect(x: 2, y: 2, width: 44, height: 28))
        ctx.draw(Self.checker, in: CGRect(x: 5, y: 5, width: 8, height: 8), byTiling: true)
        Golden.check(ctx, "image", "tiled")
        // One tile sits exactly at the rectangle: its top-left pixel at user (5, 13) → raster (5, 19).
        #expect(ctx.pixelAt(5, 19) == 0xFFE0_3020)
    }

    @Test func croppingUsesTopLeftPixelCoordinates() throws {
        let c = try #require(Self.checker.cropping(to: CGRect(x: 2, y: 0, width: 2, height: 2)))
        #expect(c.width == 2 && c.height == 2 && c.pixels.allSatisfy { $0 == 0xFF20_A040 })
        #expect(Self.checker.cropping(to: CGRect(x: 10, y: 10, width: 2, height: 2)) == nil)
        #expect(Self.checker.cropping(to: CGRect(x: CGFloat.nan, y: 0, width: 2, height: 2)) == nil)
        let clipped = try #require(Self.checker.cropping(to: CGRect(x: -5, y: 3, width: 100, height: 100)))
        #expect(clipped.width == 4 && clipped.height == 1)
    }

    @Test func imageMasksActAsInverseAlpha() throws {
        // 1-bit mask, 8×1: 0b1111_0000 → the left four samples are 1 (masked out), the right four 0 (painted).
        let provider = try #require(CGDataProvider(data: Data([0b1111_0000])))
        let mask = try #require(CGImage(maskWidth: 8, height: 1, bitsPerComponent: 1, bitsPerPixel: 1, bytesPerRow: 1,
                                        provider: provider, decode: nil, shouldInterpolate: false))
        #expect(mask.isMask)
        let ctx = CGContext(width: 8, height: 1)!
        ctx.interpolationQuality = .none
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.draw(mask, in: CGRect(x: 0, y: 0, width: 8, height: 1))   // stencils the fill colour
        #expect((0..<4).allSatisfy { ctx.pixelAt($0, 0) == 0 })
        #expect((4..<8).allSatisfy { ctx.pixelAt($0, 0) == 0xFF00_00FF })
        // A decode range [1, 0] inverts the samples. As an array literal it takes the [CGFloat]?
        // overload (no temporary pointer: one formed inside #require dangled under ASan, issue 35).
        let inverted = try #require(CGImage(maskWidth: 8, height: 1, bitsPerComponent: 1, bitsPerPixel: 1, bytesPerRow: 1,
                                            provider: provider, decode: [1, 0], shouldInterpolate: false))
        #expect(inverted.pixels[0] >> 24 == 255 && inverted.pixels[7] >> 24 == 0)
        // Through the pointer overload, with a buffer that lives across the call: the same mask.
        let range: [CGFloat] = [1, 0]
        let viaPointer = range.withUnsafeBufferPointer { buffer in
            CGImage(maskWidth: 8, height: 1, bitsPerComponent: 1, bitsPerPixel: 1, bytesPerRow: 1,
                    provider: provider, decode: buffer.baseAddress, shouldInterpolate: false)
        }
        #expect(viaPointer?.pixels == inverted.pixels)
        // A decode array that is not one pair: nil, never a read past its end.
        #expect(CGImage(maskWidth: 8, height: 1, bitsPerComponent: 1, bitsPerPixel: 1, bytesPerRow: 1,
                        provider: provider, decode: [1], shouldInterpolate: false) == nil)
        // Too little data: nil, not a crash.
        #expect(CGImage(maskWidth: 64, height: 64, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 64,
                        provider: provider, decode: nil, shouldInterpolate: false) == nil)
    }

    @Test func maskingWithAnImageUsesGrayAsAlpha() throws {
        let gray = CGImage(width: 2, height: 1, pixels: [0xFFFF_FFFF, 0xFF00_0000])   // white paints, black hides
        let masked = try #require(Self.checker.cropping(to: CGRect(x: 0, y: 0, width: 2, height: 1))?.masking(gray))
        #expect(masked.pixels[0] == 0xFFE0_3020 && masked.pixels[1] == 0)
    }

    @Test func clipToMaskMakesASoftRoundLoupe() {
        // The loupe: a circular, anti-aliased mask over a magnified snapshot.
        let scene = FillGoldenTests.canvas(64, 64)
        scene.setFillColor(red: 0.2, green: 0.5, blue: 0.9, alpha: 1)
        FillGoldenTests.star(scene, center: CGPoint(x: 32, y: 32), radius: 28)
        scene.fillPath()
        let snapshot = scene.makeImage()!
        let maskContext = CGContext(width: 32, height: 32)!
        maskContext.setFillColor(gray: 1, alpha: 1)
        maskContext.fillEllipse(in: CGRect(x: 1, y: 1, width: 30, height: 30))
        let mask = maskContext.makeImage()!
        let ctx = FillGoldenTests.canvas(64, 64)
        ctx.clip(to: CGRect(x: 8, y: 8, width: 48, height: 48), mask: mask)
        // Magnify the centre of the snapshot 2×.
        ctx.draw(snapshot, in: CGRect(x: -32, y: -32, width: 128, height: 128))
        Golden.check(ctx, "image", "loupe_clip_to_mask")
        #expect(ctx.alphaAt(2, 2) == 255 && ctx.pixelAt(2, 2) == 0xFFFF_FFFF)   // outside the mask: untouched white
    }

    @Test func transparencyLayerCompositesAsAWhole() {
        // Two overlapping discs at 50% alpha: without a layer the overlap is darker; with a
        // layer the group is one shape at 50%, so the overlap matches the rest.
        func draw(_ layered: Bool) -> CGContext {
            let ctx = FillGoldenTests.canvas(64, 40)
            ctx.setAlpha(0.5)
            if layered { ctx.beginTransparencyLayer(auxiliaryInfo: nil) }
            ctx.setFillColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)
            ctx.fillEllipse(in: CGRect(x: 6, y: 6, width: 28, height: 28))
            ctx.fillEllipse(in: CGRect(x: 26, y: 6, width: 28, height: 28))
            if layered { ctx.endTransparencyLayer() }
            return ctx
        }
        let plain = draw(false), layered = draw(true)
        #expect(plain.pixelAt(30, 20) != plain.pixelAt(12, 20))
        #expect(layered.pixelAt(30, 20) == layered.pixelAt(12, 20))
        Golden.check(layered, "image", "transparency_layer")
        #expect(layered.gstate.alpha == 0.5 && layered.layerStack.isEmpty)
        layered.endTransparencyLayer()   // unbalanced end: ignored
    }

    /// A layer holds only its rectangle (within the clip), not a canvas-sized buffer: nested
    /// layers in small rectangles on a large canvas cost their own area, and drawing beyond a
    /// layer's rectangle inside it changes nothing outside (the layer's clip is its bounds).
    @Test func layersAllocateOnlyTheirRectangle() {
        let ctx = CGContext(width: 4096, height: 4096)!
        let reference = CGContext(width: 4096, height: 4096)!
        for c in [ctx, reference] {
            c.setFillColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)
            c.fill(CGRect(x: 100, y: 100, width: 40, height: 30))
        }
        ctx.setAlpha(0.5)
        ctx.beginTransparencyLayer(in: CGRect(x: 90.5, y: 95, width: 60, height: 40), auxiliaryInfo: nil)
        #expect(ctx.layerStack.last?.bounds == PixelRect(x: 90, y: 4096 - 135, maxX: 151, maxY: 4096 - 95))
        #expect(ctx.layerStack.last?.rowStride == 61)
        ctx.clip(to: CGRect(x: 0, y: 0, width: 4096, height: 4096))
        ctx.beginTransparencyLayer(in: CGRect(x: 0, y: 0, width: 120, height: 120), auxiliaryInfo: nil)
        #expect(ctx.layerStack.last?.bounds == PixelRect(x: 90, y: 4096 - 120, maxX: 120, maxY: 4096 - 95))
        ctx.setFillColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        ctx.fill(CGRect(x: -1000, y: -1000, width: 8000, height: 8000))
        ctx.endTransparencyLayer()
        ctx.endTransparencyLayer()
        reference.setAlpha(0.5)
        reference.setFillColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        reference.fill(CGRect(x: 90, y: 95, width: 30, height: 25))
        #expect(ctx.snapshot == reference.snapshot)
    }

    /// Drawing fuzzer finding (`findings/drawing/crash-148f…`, AddressSanitizer
    /// heap-buffer-overflow): a state saved before a layer and restored inside it put back the
    /// wider clip, and a shadowed fill then wrote past the layer's one-pixel memory. A restore
    /// inside a layer stops at the states saved inside it; the layer's end drops those.
    @Test func restoreInsideALayerKeepsTheLayersClip() {
        let ctx = CGContext(width: 40, height: 40)!
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 0, y: 0, width: 40, height: 40))
        ctx.beginTransparencyLayer(in: CGRect(x: 10, y: 10, width: 1, height: 1), auxiliaryInfo: nil)
        ctx.restoreGState()
        #expect(ctx.boundingBoxOfClipPath == CGRect(x: 10, y: 10, width: 1, height: 1))
        ctx.saveGState()
        ctx.setShadow(offset: CGSize(width: 3, height: -3), blur: 4, color: CGColor(red: 0, green: 0, blue: 0, alpha: 1))
        ctx.setFillColor(red: 0.9, green: 0.1, blue: 0.1, alpha: 1)
        ctx.fill(CGRect(x: -64, y: -64, width: 200, height: 200))
        ctx.endTransparencyLayer()
        #expect(ctx.gstateStack.count == 1, "the state saved inside the layer ends with it")
        ctx.restoreGState()
        #expect(ctx.gstateStack.isEmpty && ctx.boundingBoxOfClipPath == CGRect(x: 0, y: 0, width: 40, height: 40))
        let painted = (0..<40).flatMap { y in (0..<40).map { x in (x, y) } }.filter { ctx.pixelAt($0.0, $0.1) != 0 }
        #expect(painted.map { "\($0.0),\($0.1)" } == ["10,29"])
    }

    @Test func layerCastsOneShadow() {
        let ctx = FillGoldenTests.canvas(64, 40)
        ctx.setShadow(offset: CGSize(width: 3, height: -3), blur: 3)
        ctx.beginTransparencyLayer(auxiliaryInfo: nil)
        ctx.setFillColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        ctx.fill(CGRect(x: 8, y: 10, width: 20, height: 20))
        ctx.fill(CGRect(x: 22, y: 14, width: 30, height: 12))
        ctx.endTransparencyLayer()
        Golden.check(ctx, "image", "layer_shadow")
    }

    @Test(arguments: [(0, 0), (1, 0), (1 << 14, 2)])
    func degenerateImagesAreDefined(width: Int, height: Int) {
        let ctx = CGContext(width: 8, height: 8)!
        let image = CGImage(width: width, height: height, pixels: [UInt32](repeating: 0xFF00_0000, count: width * height))
        ctx.draw(image, in: CGRect(x: 0, y: 0, width: 8, height: 8))
        ctx.draw(Self.checker, in: CGRect(x: 0, y: 0, width: 0, height: 8))
        ctx.draw(Self.checker, in: CGRect(x: CGFloat.nan, y: 0, width: 8, height: 8))
        if width * height > 0 { #expect(ctx.alphaAt(4, 4) == 255) } else { #expect(ctx.alphaAt(4, 4) == 0) }
    }
}
