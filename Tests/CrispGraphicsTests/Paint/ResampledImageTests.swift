import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Samples an image keeps for repeated draws under one mapping (`ResampledSamples`): the
/// pictures must be the same bits as sampling afresh, for every filter, mode and clip.
@Suite struct ResampledImageTests {
    /// A fresh copy of `image`: a different object, so it has no kept samples.
    static func copy(_ image: CGImage) -> CGImage {
        CGImage(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// One draw of `image` in `rect` into a 96×80 canvas with a soft background, through an
    /// optional clip, with the given quality and alpha; returns the canvas's pixels.
    static func draw(_ image: CGImage, in rect: CGRect, quality: CGInterpolationQuality, alpha: CGFloat = 1,
                     clip: CGRect? = nil, asMask: Bool = false) -> [UInt32] {
        let ctx = CGContext(width: 96, height: 80)!
        ctx.setFillColor(CGColor(red: 0.2, green: 0.5, blue: 0.3, alpha: 0.5))
        ctx.fill(CGRect(x: 0, y: 0, width: 96, height: 80))
        ctx.interpolationQuality = quality
        ctx.setAlpha(alpha)
        if let clip { ctx.clip(to: clip) }
        ctx.setFillColor(CGColor(red: 0.9, green: 0.1, blue: 0.4, alpha: 1))
        ctx.draw(image, in: rect)
        return (0..<80).flatMap { y in (0..<96).map { x in ctx.pixelAt(x, y) } }
    }

    static let rects = [
        CGRect(x: 3.3, y: 5.7, width: 71.4, height: 60.2),   // magnified, fractional placement
        CGRect(x: 10, y: 10, width: 20, height: 17.5),        // minified: a pyramid level
        CGRect(x: -20, y: 40, width: 130, height: 70),        // partly outside the canvas
    ]

    @Test(arguments: [CGInterpolationQuality.none, .low, .medium, .high], [0, 1, 2])
    func repeatedDrawsEqualFreshOnes(quality: CGInterpolationQuality, rectIndex: Int) {
        let rect = Self.rects[rectIndex]
        let image = Self.copy(ImageTests.detail)
        let fresh = Self.draw(Self.copy(image), in: rect, quality: quality)
        for _ in 0..<3 { #expect(Self.draw(image, in: rect, quality: quality) == fresh) }
        // Another alpha uses the same samples; a small clip draws only part of the box from them.
        #expect(Self.draw(image, in: rect, quality: quality, alpha: 0.4)
                == Self.draw(Self.copy(image), in: rect, quality: quality, alpha: 0.4))
        let clip = CGRect(x: 20, y: 22, width: 13, height: 9)
        #expect(Self.draw(image, in: rect, quality: quality, clip: clip)
                == Self.draw(Self.copy(image), in: rect, quality: quality, clip: clip))
    }

    @Test func samplesAreKeptOnTheSecondDrawAndServeLaterOnes() {
        let image = Self.copy(ImageTests.detail)
        let rect = Self.rects[0]
        _ = Self.draw(image, in: rect, quality: .medium)
        #expect(image.keptSampleCount == 0)                       // a one-off draw keeps nothing
        _ = Self.draw(image, in: rect, quality: .medium)
        #expect(image.keptSampleCount == 1)
        _ = Self.draw(image, in: Self.rects[1], quality: .medium)  // another mapping, seen once
        #expect(image.keptSampleCount == 1)
        // A draw whose clip shows a small part of the box makes none.
        let clip = CGRect(x: 20, y: 22, width: 13, height: 9)
        _ = Self.draw(image, in: Self.rects[2], quality: .medium, clip: clip)
        _ = Self.draw(image, in: Self.rects[2], quality: .medium, clip: clip)
        #expect(image.keptSampleCount == 1)
    }

    @Test func oneImagePixelPerDevicePixelKeepsNothing() {
        // Nearest sampling at 1:1 blends from the image's own rows already.
        let image = Self.copy(ImageTests.detail)
        let rect = CGRect(x: 8, y: 8, width: 64, height: 64)
        for _ in 0..<3 { _ = Self.draw(image, in: rect, quality: .none) }
        #expect(image.keptSampleCount == 0)
    }

    @Test func imageMasksPaintTheFillColourFromKeptSamples() {
        let mask = CGImage(maskWidth: 64, height: 64, alpha: ImageTests.detail.pixels.map { ($0 & 0xFF) << 24 })
        let rect = Self.rects[0]
        let fresh = Self.draw(mask, in: rect, quality: .high)
        for _ in 0..<2 { _ = Self.draw(mask, in: rect, quality: .high) }
        #expect(mask.keptSampleCount == 1)
        #expect(Self.draw(mask, in: rect, quality: .high) == fresh)
    }

    @Test func keptSamplesGoWithTheirImage() {
        weak var kept: ResampledSamples?
        do {
            let image = Self.copy(ImageTests.detail)
            for _ in 0..<2 { _ = Self.draw(image, in: Self.rects[0], quality: .low) }
            kept = image.keptSamples.first
            #expect(kept != nil)
        }
        #expect(kept == nil)
    }

    @Test func theBudgetRefusesWhatDoesNotFit() {
        let budget = ResampleBudget(limitInBytes: 100)
        #expect(budget.reserve(60))
        #expect(!budget.reserve(60))
        budget.release(60)
        #expect(budget.reserve(100))
        #expect(budget.bytesInUse == 100)
    }

    /// A pyramid level is each channel's rounded mean of a 2×2 block, edge pixels repeated on odd
    /// sizes: the packed two-lanes-at-once arithmetic must equal the per-channel formula for
    /// every byte value, carries between channels included (all-255 blocks, odd sizes, 1-wide).
    @Test(arguments: [(7, 5), (1, 9), (16, 1), (33, 34)])
    func pyramidLevelsAreRoundedBlockMeans(width: Int, height: Int) {
        var generator = SplitMix64(seed: UInt64(width * 100 + height))
        let pixels = (0..<(width * height)).map { i -> UInt32 in
            i % 5 == 0 ? 0xFFFF_FFFF : UInt32(truncatingIfNeeded: generator.next())
        }
        let level = ImageLevel(width: width, height: height, pixels: pixels).halved()
        #expect(level.width == max(1, (width + 1) / 2) && level.height == max(1, (height + 1) / 2))
        for y in 0..<level.height {
            for x in 0..<level.width {
                let xs = [min(2 * x, width - 1), min(2 * x + 1, width - 1)]
                let ys = [min(2 * y, height - 1), min(2 * y + 1, height - 1)]
                var expected: UInt32 = 0
                for shift: UInt32 in [0, 8, 16, 24] {
                    var sum: UInt32 = 0
                    for py in ys { for px in xs { sum += (pixels[py * width + px] >> shift) & 0xFF } }
                    expected |= ((sum + 2) / 4) << shift
                }
                #expect(level.pixels[y * level.width + x] == expected, "level pixel (\(x), \(y))")
            }
        }
    }
}
