import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// Tests for the lossless optimizer: every colour type, bit depth and interlacing the decoder
// reads goes through it unchanged; reductions pick the expected formats; files never grow;
// metadata chunks are kept or stripped; bad input fails with typed errors; writes are atomic.

/// Builds a PNG file of `width × height` random pixels in any format, with random filter bytes.
/// Random filtered data unfilters to random samples, so every sample value occurs.
func makeRandomPNG(colorType: UInt8, bitDepth: UInt8, width: Int, height: Int, interlaced: Bool, seed: UInt64,
                   transparency: [UInt8]? = nil, extraChunks: [PNGBuilder.Chunk] = []) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    let header = PNGHeader(width: width, height: height, bitDepth: Int(bitDepth), colorType: PNGColorType(rawValue: colorType)!,
                           isInterlaced: interlaced)
    var raw: [UInt8] = []
    for pass in header.passes where pass.width > 0 && pass.height > 0 {
        for _ in 0..<pass.height {
            raw.append(UInt8.random(in: 0...4, using: &rng))
            for _ in 0..<header.scanlineByteCount(pixels: pass.width) { raw.append(.random(in: 0...255, using: &rng)) }
        }
    }
    var chunks: [PNGBuilder.Chunk] = [PNGBuilder.ihdr(width: UInt32(width), height: UInt32(height), bitDepth: bitDepth,
                                                      colorType: colorType, interlace: interlaced ? 1 : 0)]
    chunks += extraChunks
    if colorType == 3 {
        chunks.append(("PLTE", (0..<(3 << Int(bitDepth))).map { _ in UInt8.random(in: 0...255, using: &rng) }))
    }
    if let transparency { chunks.append(("tRNS", transparency)) }
    return PNGBuilder.file(chunks + [PNGBuilder.idat(raw, level: 1), PNGBuilder.iend])
}

/// A non-interlaced RGBA file (8 or 16 bits) holding `pixels` (packed like `PNGRawImage`).
func makeRGBAPNG(width: Int, height: Int, sixteenBits: Bool, pixels: [UInt64], extraChunks: [PNGBuilder.Chunk] = []) -> [UInt8] {
    var raw: [UInt8] = []
    for y in 0..<height {
        raw.append(0)
        for x in 0..<width {
            let p = pixels[y * width + x]
            for shift: UInt64 in [48, 32, 16, 0] {
                let v = UInt16(truncatingIfNeeded: p >> shift)
                raw += sixteenBits ? [UInt8(v >> 8), UInt8(truncatingIfNeeded: v)] : [UInt8(v >> 8)]
            }
        }
    }
    let ihdr = PNGBuilder.ihdr(width: UInt32(width), height: UInt32(height), bitDepth: sixteenBits ? 16 : 8, colorType: 6)
    return PNGBuilder.file([ihdr] + extraChunks + [PNGBuilder.idat(raw, level: 1), PNGBuilder.iend])
}

/// An 8-bit pixel packed like `PNGRawImage`'s.
func rawPixel(_ r: Int, _ g: Int, _ b: Int, _ a: Int = 255) -> UInt64 {
    PNGRawImage.pack(r: UInt64(r * 257), g: UInt64(g * 257), b: UInt64(b * 257), a: UInt64(a * 257))
}

/// Every legal (colour type, bit depth) pair.
let everyPNGFormat: [(UInt8, UInt8)] = [(0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
                                        (4, 8), (4, 16), (6, 8), (6, 16)]

@Suite struct PNGOptimizerRoundTripTests {
    /// Optimizes `file` at `level` and checks the result: same pixels, exactly and as CGImage; never bigger.
    @discardableResult
    static func check(_ file: [UInt8], level: Int = PNGOptimizer.defaultLevel, _ what: String) throws -> PNGOptimizer.Result {
        let result = try PNGOptimizer(level: level).optimize(file)
        #expect(try PNGRawImage(pngData: result.data) == PNGRawImage(pngData: file), "\(what): pixels")
        #expect(try CGImage(pngData: result.data).pixels == CGImage(pngData: file).pixels, "\(what): premultiplied pixels")
        #expect(result.data.count <= file.count, "\(what): \(file.count) → \(result.data.count) bytes")
        return result
    }

    @Test(arguments: 0..<everyPNGFormat.count, [false, true])
    func everyFormatRoundTrips(format: Int, interlaced: Bool) throws {
        let (colorType, bitDepth) = everyPNGFormat[format]
        for (width, height) in [(1, 1), (3, 2), (13, 9)] {
            let file = makeRandomPNG(colorType: colorType, bitDepth: bitDepth, width: width, height: height,
                                     interlaced: interlaced, seed: UInt64(format * 100 + width))
            try Self.check(file, "colour type \(colorType) depth \(bitDepth) \(width)×\(height)")
        }
    }

    @Test(arguments: [(0, 1), (0, 8), (0, 16), (2, 8), (2, 16), (3, 4)])
    func transparencyRoundTrips(colorType: Int, bitDepth: Int) throws {
        // A key or alpha table that some pixels match: 0 for gray and RGB (random data hits it).
        let trns: [UInt8] = colorType == 0 ? [0, 0] : colorType == 2 ? [0, 0, 0, 0, 0, 0] : [0, 128, 255, 7]
        // Small samples so that 16-bit keys of 0 occur: few random bytes, many zero.
        let file = makeRandomPNG(colorType: UInt8(colorType), bitDepth: UInt8(bitDepth), width: 16, height: 16, interlaced: false,
                                 seed: 5, transparency: trns)
        try Self.check(file, "colour type \(colorType) depth \(bitDepth) with tRNS")
    }

    @Test(arguments: PNGOptimizer.levels)
    func everyLevelRoundTrips(level: Int) throws {
        let file = makeRandomPNG(colorType: 6, bitDepth: 8, width: 24, height: 20, interlaced: true, seed: 9)
        try Self.check(file, level: level, "level \(level)")
        let palette = makeRandomPNG(colorType: 3, bitDepth: 4, width: 30, height: 7, interlaced: false, seed: 10)
        try Self.check(palette, level: level, "palette, level \(level)")
    }

    @Test func fixturesFromOtherEncodersRoundTrip() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: pngFixtureDirectory.path).filter { $0.hasSuffix(".png") }
        #expect(names.count >= 100)
        for name in names {
            let file = [UInt8](try Data(contentsOf: pngFixtureDirectory.appendingPathComponent(name)))
            try Self.check(file, level: 1, name)
        }
    }

    @Test func goldensRoundTripAndShrinkOrStay() throws {
        // A sample of the goldens (all of them run in the benchmark script).
        for url in Golden.allGoldens().enumerated().filter({ $0.offset % 8 == 0 }).map(\.element) {
            try Self.check([UInt8](try Data(contentsOf: url)), level: 1, url.lastPathComponent)
        }
    }

    @Test func level4CompressesWithCrispsDeflateAndBeatsZlib() throws {
        // A rendered golden of moderate size: the near-optimal encoder should win over every
        // zlib setting level 3 tries, and the result is verified like every other.
        let url = try #require(Golden.allGoldens()
            .first { (try? Data(contentsOf: $0).count).map { (4000...30_000).contains($0) } ?? false })
        let file = [UInt8](try Data(contentsOf: url))
        let three = try Self.check(file, level: 3, url.lastPathComponent)
        let four = try Self.check(file, level: 4, url.lastPathComponent)
        #expect(four.method.hasSuffix("Crisp deflate"), "\(url.lastPathComponent): \(four.method)")
        #expect(four.data.count < three.data.count, "\(url.lastPathComponent): level 4 \(four.data.count), level 3 \(three.data.count)")
    }

    @Test func cgImageRoundTripsThroughTheOptimizingEncoder() throws {
        for kind in SyntheticPNGImage.allCases {
            let image = kind.make()
            #expect(try CGImage(pngData: image.pngData()).pixels == image.pixels, "\(kind)")
        }
    }
}

@Suite struct PNGReductionTests {
    /// The optimized file's (colour type, bit depth, chunk types).
    static func optimized(_ file: [UInt8], level: Int = PNGOptimizer.defaultLevel, strip: Bool = false) throws
        -> (colorType: Int, bitDepth: Int, chunks: [String]) {
        let result = try PNGOptimizer(level: level, stripsMetadata: strip).optimize(file)
        #expect(try PNGRawImage(pngData: result.data) == PNGRawImage(pngData: file))
        let info = try PNGInfo(pngData: result.data)
        return (info.colorTypeCode, info.bitDepth, info.chunks.map(\.type))
    }

    /// `width × height` pixels from `pixel(x, y)`.
    static func pixels(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> UInt64) -> [UInt64] {
        (0..<height).flatMap { y in (0..<width).map { x in pixel(x, y) } }
    }

    @Test func grayImageBecomesGray() throws {
        let file = makeRGBAPNG(width: 40, height: 30, sixteenBits: false,
                               pixels: Self.pixels(40, 30) { x, y in rawPixel((x * 7 + y * 3) % 256, (x * 7 + y * 3) % 256, (x * 7 + y * 3) % 256) })
        let out = try Self.optimized(file)
        #expect(out.colorType == 0 && out.bitDepth == 8)
    }

    @Test func threeColourImageBecomesATwoBitPalette() throws {
        let colours = [rawPixel(200, 10, 10), rawPixel(10, 200, 10), rawPixel(10, 10, 200, 128)]
        let file = makeRGBAPNG(width: 33, height: 21, sixteenBits: false, pixels: Self.pixels(33, 21) { x, y in colours[(x / 4 + y) % 3] })
        let out = try Self.optimized(file)
        #expect(out.colorType == 3 && out.bitDepth == 2)
        #expect(out.chunks.contains("tRNS"), "the translucent colour needs tRNS")
    }

    @Test func twoGrayLevelsBecomeOneBitGray() throws {
        let file = makeRGBAPNG(width: 17, height: 9, sixteenBits: false, pixels: Self.pixels(17, 9) { x, y in (x ^ y) & 1 == 0 ? rawPixel(0, 0, 0) : rawPixel(255, 255, 255) })
        let out = try Self.optimized(file)
        #expect(out.colorType == 0 && out.bitDepth == 1)
    }

    @Test func opaqueRGBABecomesRGB() throws {
        // More than 256 colours, so no palette.
        let file = makeRGBAPNG(width: 64, height: 64, sixteenBits: false, pixels: Self.pixels(64, 64) { x, y in rawPixel(x * 4, y * 4, (x + y) % 256) })
        let out = try Self.optimized(file)
        #expect(out.colorType == 2 && out.bitDepth == 8)
    }

    @Test func binaryAlphaWithOneTransparentColourBecomesRGBWithAColourKey() throws {
        let file = makeRGBAPNG(width: 64, height: 64, sixteenBits: false, pixels: Self.pixels(64, 64) { x, y in
            x < 8 ? rawPixel(1, 2, 3, 0) : rawPixel(x * 4, y * 4, (x + y) % 256)
        })
        let out = try Self.optimized(file)
        #expect(out.colorType == 2 && out.chunks.contains("tRNS"))
    }

    @Test func sixteenBitsWithExactEightBitValuesBecomeEightBits() throws {
        let file = makeRGBAPNG(width: 64, height: 64, sixteenBits: true, pixels: Self.pixels(64, 64) { x, y in rawPixel(x * 4, y * 4, (x + y) % 256, 255 - x) })
        let out = try Self.optimized(file)
        #expect(out.colorType == 6 && out.bitDepth == 8)
    }

    @Test func sixteenBitsWithRealSixteenBitValuesStaySixteen() throws {
        let file = makeRGBAPNG(width: 32, height: 32, sixteenBits: true, pixels: Self.pixels(32, 32) { x, y in
            PNGRawImage.pack(r: UInt64(x * 2001 + 1), g: UInt64(y * 999), b: 7, a: 65535)
        })
        let out = try Self.optimized(file)
        #expect(out.colorType == 2 && out.bitDepth == 16)
    }

    @Test func interlacingIsRemoved() throws {
        let file = makeRandomPNG(colorType: 2, bitDepth: 8, width: 40, height: 40, interlaced: true, seed: 3)
        let result = try PNGOptimizer().optimize(file)
        #expect(try PNGInfo(pngData: result.data).isInterlaced == false)
    }

    @Test func colourSpaceAndPhysicalSizeChunksAreKeptUnlessStripped() throws {
        let extra: [PNGBuilder.Chunk] = [("gAMA", [0, 0, 0xB1, 0x8F]), ("pHYs", [0, 0, 0x0B, 0x13, 0, 0, 0x0B, 0x13, 1]),
                                         ("tEXt", Array("Comment\0hello".utf8)), ("tIME", [7, 0xEA, 11, 23, 12, 0, 0])]
        let file = makeRGBAPNG(width: 20, height: 20, sixteenBits: false, pixels: Self.pixels(20, 20) { x, y in rawPixel(x * 9, y * 9, 0) },
                               extraChunks: extra)
        #expect(try Self.optimized(file).chunks == ["IHDR", "gAMA", "pHYs", "IDAT", "IEND"])
        #expect(try Self.optimized(file, strip: true).chunks == ["IHDR", "IDAT", "IEND"])
    }

    @Test func anICCProfileKeepsAColourImageInColour() throws {
        let iccp: PNGBuilder.Chunk = ("iCCP", Array("profile\0\0".utf8) + PNGBuilder.zlib([1, 2, 3]))
        let file = makeRGBAPNG(width: 30, height: 30, sixteenBits: false, pixels: Self.pixels(30, 30) { x, y in rawPixel(x * 8, x * 8, x * 8) },
                               extraChunks: [iccp])
        let kept = try Self.optimized(file)
        #expect([2, 3].contains(kept.colorType) && kept.chunks.contains("iCCP"))
        #expect(try Self.optimized(file, strip: true).colorType == 0)
    }

    @Test func anAlreadySmallerFileKeepsItsImageData() throws {
        let file = makeRandomPNG(colorType: 2, bitDepth: 8, width: 50, height: 40, interlaced: false, seed: 4)
        let strong = try PNGOptimizer(level: 6).optimize(file).data
        let again = try PNGOptimizer(level: 0).optimize(strong)
        #expect(again.data.count <= strong.count)
        #expect(try PNGRawImage(pngData: again.data) == PNGRawImage(pngData: file))
    }

    @Test func paletteOrderPutsTranslucentEntriesFirst() throws {
        let colours = [rawPixel(9, 9, 9), rawPixel(200, 0, 0, 10), rawPixel(0, 0, 200), rawPixel(0, 200, 0, 0), rawPixel(255, 255, 255)]
        let image = PNGRawImage(width: 5, height: 1, pixels: colours)
        for order in PNGReduction.PaletteOrder.allCases {
            let format = try #require(PNGReduction(image).paletteFormat(order))
            #expect(format.palette.prefix(2).allSatisfy { $0 & 0xFFFF != 0xFFFF }, "\(order)")
            #expect(format.transparencyChunk?.count == 2)
            #expect(format.bitDepth == 4)
        }
    }
}

@Suite struct PNGOptimizerErrorTests {
    static let valid = makeRandomPNG(colorType: 2, bitDepth: 8, width: 8, height: 8, interlaced: false, seed: 1)

    static func optimizeError(_ file: [UInt8], optimizer: PNGOptimizer = PNGOptimizer()) -> PNGError? {
        pngError { _ = try optimizer.optimize(file) }
    }

    @Test func badInputFailsLikeTheDecoder() {
        var badCRC = Self.valid
        badCRC[30] ^= 1
        for file in [Array(Self.valid.prefix(40)), badCRC, [1, 2, 3], Array(Self.valid.prefix(8))] {
            let error = Self.optimizeError(file)
            #expect(error != nil && error == pngDecodeError(file))
        }
    }

    @Test func hugeDimensionsAreRejectedBeforeAllocating() {
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: 1 << 20, height: 1 << 20, colorType: 6), PNGBuilder.idat([0]), PNGBuilder.iend])
        guard case .imageTooLarge = Self.optimizeError(file) else { Issue.record("expected imageTooLarge"); return }
    }

    @Test func decompressionBombStopsAtTheExpectedSize() {
        let bomb = PNGBuilder.file([PNGBuilder.ihdr(width: 4, height: 4, colorType: 0), PNGBuilder.idat([UInt8](repeating: 0, count: 1 << 22)), PNGBuilder.iend])
        #expect(Self.optimizeError(bomb) == .decompressedDataTooLong(expected: 20))
    }

    @Test func animatedPNGIsRefused() {
        var chunks = PNGBuilder.chunks(of: Self.valid).map { c in (type: c.type, data: Array(Self.valid[(c.offset + 8)..<(c.offset + 8 + c.length)])) }
        chunks.insert(("acTL", [0, 0, 0, 3, 0, 0, 0, 0]), at: 1)
        #expect(Self.optimizeError(PNGBuilder.file(chunks)) == .animatedPNGUnsupported(frames: 3))
    }

    @Test func infoDescribesAnAPNGWithoutDecodingIt() throws {
        var chunks = PNGBuilder.chunks(of: Self.valid).map { c in (type: c.type, data: Array(Self.valid[(c.offset + 8)..<(c.offset + 8 + c.length)])) }
        chunks.insert(("acTL", [0, 0, 0, 3, 0, 0, 0, 0]), at: 1)
        // acTL promises 3 frames and there is none: a clear error.
        #expect(throws: PNGError.invalidChunkData(chunk: "acTL", reason: "3 frames declared, 0 found")) {
            try PNGInfo(pngData: PNGBuilder.file(chunks))
        }
        chunks[1] = ("acTL", [0, 0, 0, 1, 0, 0, 0, 0])
        chunks.insert(APNGTests.fcTL(0, 8, 8, 0, 0), at: 2)
        let info = try PNGInfo(pngData: PNGBuilder.file(chunks))
        #expect(info.animationFrameCount == 1 && info.animationFrames?.count == 1 && info.animationPlays == 0)
        #expect(info.chunks.map(\.type) == ["IHDR", "acTL", "fcTL", "IDAT", "IEND"])
        #expect(info.width == 8 && info.colorType == "RGB" && info.bitDepth == 8 && !info.isInterlaced)
        #expect(info.rawByteCount == 8 * (1 + 24))
    }

    @Test func aFailedRunLeavesTheOutputUntouched() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-opt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.png").path, output = directory.appendingPathComponent("out.png").path
        var corrupt = Self.valid
        corrupt[corrupt.count - 20] ^= 0xFF
        _ = FileManager.default.createFile(atPath: input, contents: Data(corrupt))
        _ = FileManager.default.createFile(atPath: output, contents: Data("keep me".utf8))
        #expect(pngError { try PNGOptimizer().optimizeFile(at: input, to: output) } != nil)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "keep me")
        #expect(pngError { try PNGOptimizer().optimizeFile(at: input, to: input) } != nil)
        #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: input))) == corrupt, "in place: input untouched")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["in.png", "out.png"])
        // A directory that does not exist: a write failure, nothing created.
        _ = FileManager.default.createFile(atPath: input, contents: Data(Self.valid))
        guard case .writeFailed = pngError({ try PNGOptimizer().optimizeFile(at: input, to: directory.path + "/missing/out.png") }) else {
            Issue.record("expected writeFailed"); return
        }
    }

    @Test func inPlaceKeepsThePermissions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-opt-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("image.png").path
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.valid), attributes: [.posixPermissions: 0o640])
        try PNGOptimizer().optimizeFile(at: path, to: path)
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o640)
        #expect(try PNGRawImage(pngData: Data(contentsOf: URL(fileURLWithPath: path))) == PNGRawImage(pngData: Self.valid))
    }
}
