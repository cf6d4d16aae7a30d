import CrispGraphics
import Foundation
import Testing

/// Decoded PNGs keep the layout Apple's decoder gives them (8-bit grey, grey + alpha, RGB,
/// straight RGBA), with their bytes in `dataProvider`; cropping keeps it, masking keeps it
/// when it stores alpha; drawing still reads the native pixels.
@Suite struct PNGLayoutTests {
    /// Decodes `pixels` (2×2, premultiplied) written with the automatic encoder (which picks the
    /// smallest colour type).
    func roundTrip(_ pixels: [UInt32]) throws -> CGImage {
        let image = CGImage(width: 2, height: 2, pixels: pixels)
        return try CGImage(pngData: PNGEncoder(colorType: .automatic).encode(image))
    }

    func bytes(_ image: CGImage) -> [UInt8] { Array(image.dataProvider?.data ?? Data()) }

    @Test func greyIsEightBitGrey() throws {
        let image = try roundTrip([0xFF00_0000, 0xFF40_4040, 0xFF80_8080, 0xFFFF_FFFF])
        #expect(image.bitsPerPixel == 8 && image.bytesPerRow == 2 && image.alphaInfo == .none)
        #expect(image.colorSpace?.model == .monochrome)
        #expect(bytes(image) == [0x00, 0x40, 0x80, 0xFF])
        #expect(image.pixels == [0xFF00_0000, 0xFF40_4040, 0xFF80_8080, 0xFFFF_FFFF], "drawing reads the same pixels")
    }

    @Test func greyAlphaIsSixteenBitsStraight() throws {
        // Grey 0x80 at alpha 0x80 is stored premultiplied as 0x40.
        let image = try roundTrip([0x8040_4040, 0xFF80_8080, 0x0000_0000, 0xFFFF_FFFF])
        #expect(image.bitsPerPixel == 16 && image.bytesPerRow == 4 && image.alphaInfo == .last)
        #expect(image.colorSpace?.model == .monochrome)
        #expect(Array(bytes(image)[0...3]) == [0x80, 0x80, 0x80, 0xFF])
    }

    @Test func rgbIsTwentyFourBits() throws {
        let image = try roundTrip([0xFFFF_0000, 0xFF00_FF00, 0xFF00_00FF, 0xFF12_3456])
        #expect(image.bitsPerPixel == 24 && image.bytesPerRow == 6 && image.alphaInfo == .none)
        #expect(image.colorSpace?.model == .rgb)
        #expect(bytes(image) == [255, 0, 0, 0, 255, 0, 0, 0, 255, 0x12, 0x34, 0x56])
    }

    @Test func rgbaIsStraightLast() throws {
        let image = try roundTrip([0x8080_0000, 0xFF00_FF00, 0x0000_0000, 0xFF12_3456])
        #expect(image.bitsPerPixel == 32 && image.alphaInfo == .last)
        #expect(Array(bytes(image)[0...3]) == [0xFF, 0, 0, 0x80], "straight red at half alpha")
    }

    @Test func croppingKeepsTheLayoutAndMaskingKeepsAlpha() throws {
        let image = try roundTrip([0xFF00_0000, 0xFF40_4040, 0xFF80_8080, 0xFFFF_FFFF])
        let crop = try #require(image.cropping(to: CGRect(x: 1, y: 0, width: 1, height: 2)))
        #expect(crop.bitsPerPixel == 8 && bytes(crop) == [0x40, 0xFF])
        let rgba = try roundTrip([0xFFFF_0000, 0x8000_8000, 0xFF00_00FF, 0xFF12_3456])
        let provider = try #require(CGDataProvider(data: Data([0, 255, 0, 255])))
        let mask = try #require(CGImage(maskWidth: 2, height: 2, bitsPerComponent: 8, bitsPerPixel: 8, bytesPerRow: 2,
                                        provider: provider, decode: nil, shouldInterpolate: false))
        let masked = try #require(rgba.masking(mask))
        #expect(masked.bitsPerPixel == 32 && masked.alphaInfo == .last)
        #expect(Array(bytes(masked)[0...7]) == [0xFF, 0, 0, 0xFF, 0, 0, 0, 0], "kept, then masked out")
        // Grey has no alpha: the masked image is native.
        let greyMasked = try #require(image.masking(mask))
        #expect(greyMasked.bitmapInfo == .crispNative)
    }
}
