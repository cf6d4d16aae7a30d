import Foundation
import Testing
@testable import CrispGraphics

// Tests for the PNG codec: pixel conversions, encoder/decoder round trips, fixtures written by
// other encoders (pypng, Pillow; see Fixtures/png/make_fixtures.py), one test per error, and a
// corpus of corrupted files that must each decode or throw — never crash or hang.

// MARK: - Helpers

/// SplitMix64: a tiny deterministic generator so every random corpus is reproducible.
fileprivate struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds PNG files chunk by chunk, with correct CRCs unless told otherwise.
enum PNGBuilder {
    typealias Chunk = (type: String, data: [UInt8])

    static func file(_ chunks: [Chunk]) -> [UInt8] {
        var out = PNGChunk.signature
        for chunk in chunks {
            chunk.data.withUnsafeBufferPointer { PNGChunk.append(type: chunk.type, data: $0, to: &out) }
        }
        return out
    }

    static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8 = 8, colorType: UInt8 = 0,
                     compression: UInt8 = 0, filter: UInt8 = 0, interlace: UInt8 = 0) -> Chunk {
        var data: [UInt8] = []
        PNGChunk.appendUInt32(width, to: &data)
        PNGChunk.appendUInt32(height, to: &data)
        return ("IHDR", data + [bitDepth, colorType, compression, filter, interlace])
    }

    /// An IDAT holding `raw` (filter bytes and samples) deflated.
    static func idat(_ raw: [UInt8], level: Int32 = 9) -> Chunk {
        ("IDAT", zlib(raw, level: level))
    }

    static func zlib(_ raw: [UInt8], level: Int32 = 9) -> [UInt8] {
        raw.withUnsafeBufferPointer { Zlib.deflate($0, level: level) }
    }

    static let iend: Chunk = ("IEND", [])

    /// (type, offset of the length field, data length) of every chunk of a well-formed file.
    static func chunks(of file: [UInt8]) -> [(type: String, offset: Int, length: Int)] {
        var result: [(String, Int, Int)] = []
        var offset = 8
        while offset + 12 <= file.count {
            let length = Int(file.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: offset) })
            result.append((String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self), offset, length))
            offset += 12 + length
        }
        return result
    }

    /// Recomputes the CRC of every chunk whose frame still fits in the file.
    static func repairingCRCs(_ file: [UInt8]) -> [UInt8] {
        var file = file
        var offset = 8
        while offset + 12 <= file.count {
            let length = Int(file.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: offset) })
            guard length <= file.count - offset - 12 else { break }
            let crc = file.withUnsafeBufferPointer {
                Zlib.crc32(UnsafeBufferPointer(rebasing: $0[(offset + 4)..<(offset + 8 + length)]))
            }
            let end = offset + 8 + length
            file[end] = UInt8(crc >> 24); file[end + 1] = UInt8(truncatingIfNeeded: crc >> 16)
            file[end + 2] = UInt8(truncatingIfNeeded: crc >> 8); file[end + 3] = UInt8(truncatingIfNeeded: crc)
            offset = end + 4
        }
        return file
    }
}

/// The error `body` throws, or `nil` if it succeeds.
fileprivate func pngError(_ body: () throws -> Void) -> PNGError? {
    do {
        try body()
        return nil
    } catch let error as PNGError {
        return error
    } catch {
        Issue.record("expected a PNGError, got \(error)")
        return nil
    }
}

/// The error decoding `bytes` throws, or `nil` if it decodes.
fileprivate func decodeError(_ bytes: [UInt8], decoder: PNGDecoder = PNGDecoder()) -> PNGError? {
    pngError { _ = try decoder.decode(bytes) }
}

/// A random valid premultiplied pixel: every colour channel ≤ alpha.
fileprivate func randomPixel(_ rng: inout SplitMix64) -> UInt32 {
    let a = UInt32.random(in: 0...255, using: &rng)
    return Pixel.pack(a: a, r: .random(in: 0...a, using: &rng), g: .random(in: 0...a, using: &rng), b: .random(in: 0...a, using: &rng))
}

fileprivate let pngFixtureDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/png")

// MARK: - Pixel conversions

@Suite struct PNGPixelConversionTests {
    @Test func premultiplyInvertsUnpremultiplyForEveryValidPixel() {
        var failures = 0
        for a in 0...255 {
            for c in 0...a {
                let p = Pixel.pack(a: UInt32(a), r: UInt32(c), g: UInt32(a - c), b: UInt32(c / 2))
                let s = Pixel.unpremultiplied(p)
                if Pixel.premultiplied(r: s.r, g: s.g, b: s.b, a: s.a) != p { failures += 1 }
            }
        }
        #expect(failures == 0)
    }

    @Test func sixteenBitSamplesRoundToNearest() {
        for v in 0...65535 {
            let expected = UInt8((Double(v) * 255 / 65535).rounded())
            #expect(PNGPixelConverter.reduce(UInt16(v)) == expected, "sample \(v)")
        }
    }

    @Test func paethPredictorFollowsTheSpec() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<20_000 {
            let a = UInt8.random(in: 0...255, using: &rng), b = UInt8.random(in: 0...255, using: &rng)
            let c = UInt8.random(in: 0...255, using: &rng)
            let p = Int(a) + Int(b) - Int(c)
            let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
            let expected = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
            #expect(PNGFilter.paethPredictor(a, b, c) == expected)
        }
    }

    @Test(arguments: PNGFilter.allCases, [1, 2, 3, 4, 6, 8])
    func filterThenUnfilterIsIdentity(filter: PNGFilter, distance: Int) {
        var rng = SplitMix64(seed: UInt64(filter.rawValue) * 31 + UInt64(distance))
        for count in [0, 1, distance - 1, distance, 17, 64] where count >= 0 {
            let row = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            let prior = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            var filtered = [UInt8](repeating: 0, count: count)
            var restored = [UInt8](repeating: 0, count: count)
            row.withUnsafeBufferPointer { row in
                prior.withUnsafeBufferPointer { prior in
                    filtered.withUnsafeMutableBufferPointer { out in
                        guard count > 0 else { return }
                        _ = filter.filter(row.baseAddress!, prior: prior.baseAddress!, count: count, distance: distance, into: out.baseAddress!)
                    }
                    restored = filtered
                    restored.withUnsafeMutableBufferPointer { out in
                        guard count > 0 else { return }
                        filter.unfilter(out.baseAddress!, prior: prior.baseAddress!, count: count, distance: distance)
                    }
                }
            }
            #expect(restored == row, "count \(count)")
        }
    }
}

// MARK: - Round trips

/// Synthetic images for round trips, with the colour type `.automatic` must pick.
enum SyntheticPNGImage: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case randomPremultiplied, opaque, gray, grayTranslucent, transparent, onePixel, tall, gradient

    var testDescription: String { rawValue }

    var automaticColorType: UInt8 {
        switch self {
        case .randomPremultiplied, .onePixel, .tall, .gradient: return 6
        case .opaque: return 2
        case .gray: return 0
        case .grayTranslucent, .transparent: return 4
        }
    }

    func make() -> CGImage {
        var rng = SplitMix64(seed: UInt64(rawValue.utf8.count) * 1_000_003)
        func image(_ width: Int, _ height: Int, _ pixel: (Int, Int, inout SplitMix64) -> UInt32) -> CGImage {
            var pixels: [UInt32] = []
            for y in 0..<height { for x in 0..<width { pixels.append(pixel(x, y, &rng)) } }
            return CGImage(width: width, height: height, pixels: pixels)
        }
        switch self {
        case .randomPremultiplied:
            return image(37, 23) { _, _, rng in randomPixel(&rng) }
        case .opaque:
            return image(31, 17) { _, _, rng in 0xFF00_0000 | UInt32.random(in: 0...0xFF_FFFF, using: &rng) }
        case .gray:
            return image(19, 29) { _, _, rng in let g = UInt32.random(in: 0...255, using: &rng); return Pixel.pack(a: 255, r: g, g: g, b: g) }
        case .grayTranslucent:
            return image(23, 11) { _, _, rng in
                let a = UInt32.random(in: 0...255, using: &rng), g = UInt32.random(in: 0...a, using: &rng)
                return Pixel.pack(a: a, r: g, g: g, b: g)
            }
        case .transparent:
            return image(8, 8) { _, _, _ in 0 }
        case .onePixel:
            return image(1, 1) { _, _, _ in Pixel.pack(a: 100, r: 99, g: 3, b: 50) }
        case .tall:
            return image(1, 300) { _, _, rng in randomPixel(&rng) }
        case .gradient:
            return image(96, 64) { x, y, _ in
                let a = UInt32(128 + (x + y) % 128)
                return Pixel.pack(a: a, r: UInt32(x * 2) * a / 255, g: UInt32(y * 3) * a / 255, b: UInt32((x + y) % 200) * a / 255)
            }
        }
    }
}

@Suite struct PNGRoundTripTests {
    @Test(arguments: SyntheticPNGImage.allCases, [PNGEncoder.ColorType.automatic, .rgba])
    func roundTripIsExact(kind: SyntheticPNGImage, colorType: PNGEncoder.ColorType) throws {
        let image = kind.make()
        let data = try image.pngData(colorType: colorType)
        #expect(data[25] == (colorType == .rgba ? 6 : kind.automaticColorType), "IHDR colour type")
        let decoded = try CGImage(pngData: data)
        #expect(decoded.width == image.width && decoded.height == image.height)
        #expect(decoded.pixels == image.pixels)
    }

    @Test func encoderPicksTheMinimumSumFilterForEachRow() throws {
        let image = SyntheticPNGImage.gradient.make()
        let data = try PNGEncoder(colorType: .rgba).encode(image)
        let idat = PNGBuilder.chunks(of: data).filter { $0.type == "IDAT" }
        let compressed = idat.flatMap { data[($0.offset + 8)..<($0.offset + 8 + $0.length)] }
        let rowBytes = image.width * 4
        let raw = try compressed.withUnsafeBufferPointer { (buffer) throws(PNGError) in
            try Zlib.inflate(buffer, expectedCount: image.height * (rowBytes + 1))
        }
        var used = Set<UInt8>()
        var prior = [UInt8](repeating: 0, count: rowBytes)
        for y in 0..<image.height {
            var row = Array(raw[(y * (rowBytes + 1) + 1)..<((y + 1) * (rowBytes + 1))])
            let chosen = PNGFilter(rawValue: raw[y * (rowBytes + 1)])!
            used.insert(chosen.rawValue)
            var sums: [Int] = []
            var scratch = [UInt8](repeating: 0, count: rowBytes)
            row.withUnsafeMutableBufferPointer { row in
                prior.withUnsafeBufferPointer { prior in
                    chosen.unfilter(row.baseAddress!, prior: prior.baseAddress!, count: rowBytes, distance: 4)
                    scratch.withUnsafeMutableBufferPointer { out in
                        for f in PNGFilter.allCases {
                            sums.append(f.filter(UnsafePointer(row.baseAddress!), prior: prior.baseAddress!, count: rowBytes, distance: 4, into: out.baseAddress!))
                        }
                    }
                }
            }
            #expect(sums[Int(chosen.rawValue)] == sums.min(), "row \(y)")
            prior = row
        }
        #expect(used.count >= 2, "a gradient should use more than one filter, used \(used)")
    }

    @Test(arguments: [0, 1, 6])
    func everyCompressionLevelRoundTrips(level: Int) throws {
        let image = SyntheticPNGImage.randomPremultiplied.make()
        let data = try PNGEncoder(compressionLevel: level).encode(image)
        #expect(try CGImage(pngData: data).pixels == image.pixels)
    }

    @Test func largeImageSplitsIntoSeveralIDATChunks() throws {
        var rng = SplitMix64(seed: 99)
        let pixels = (0..<(300 * 300)).map { _ in randomPixel(&rng) }
        let image = CGImage(width: 300, height: 300, pixels: pixels)
        let data = try image.pngData()
        #expect(PNGBuilder.chunks(of: data).filter { $0.type == "IDAT" }.count >= 2)
        #expect(try CGImage(pngData: data).pixels == pixels)
    }

    @Test func writeThenReadFile() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-png-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("image.png").path
        let first = SyntheticPNGImage.randomPremultiplied.make(), second = SyntheticPNGImage.gray.make()
        try first.writePNG(to: path)
        #expect(try CGImage(contentsOfPNGFile: path).pixels == first.pixels)
        try second.writePNG(to: path)
        #expect(try CGImage(contentsOfPNGFile: path).pixels == second.pixels)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["image.png"])
    }

    @Test func decodesFromFoundationData() throws {
        let image = SyntheticPNGImage.opaque.make()
        #expect(try CGImage(pngData: Data(image.pngData())).pixels == image.pixels)
    }
}

// MARK: - Fixtures from other encoders

@Suite struct PNGFixtureTests {
    /// The lines of manifest.txt: "NAME WIDTH HEIGHT" for every fixture.
    static let fixtures: [String] = {
        let manifest = (try? String(contentsOf: pngFixtureDirectory.appendingPathComponent("manifest.txt"), encoding: .utf8)) ?? ""
        return manifest.split(separator: "\n").map(String.init)
    }()

    @Test func manifestListsEveryColorTypeAndDepth() {
        #expect(Self.fixtures.count >= 100)
    }

    @Test(arguments: PNGFixtureTests.fixtures)
    func decodesEveryPixel(_ line: String) throws {
        let fields = line.split(separator: " ")
        let name = String(fields[0]), width = Int(fields[1])!, height = Int(fields[2])!
        let image = try CGImage(contentsOfPNGFile: pngFixtureDirectory.appendingPathComponent(name + ".png").path)
        #expect(image.width == width && image.height == height)
        let expected = [UInt8](try Data(contentsOf: pngFixtureDirectory.appendingPathComponent(name + ".rgba")))
        try #require(expected.count == width * height * 4)
        var mismatches: [String] = []
        for i in 0..<(width * height) {
            let want = Pixel.premultiplied(r: expected[4 * i], g: expected[4 * i + 1], b: expected[4 * i + 2], a: expected[4 * i + 3])
            if image.pixels[i] != want {
                mismatches.append("(\(i % width), \(i / width)): got \(String(image.pixels[i], radix: 16)), want \(String(want, radix: 16))")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.first ?? "")")
        // And back through Crisp's encoder.
        #expect(try CGImage(pngData: image.pngData()).pixels == image.pixels)
    }
}

// MARK: - Errors, one test per case

@Suite struct PNGErrorTests {
    /// A valid 3×2 8-bit gray file.
    static let gray3x2 = PNGBuilder.file([
        PNGBuilder.ihdr(width: 3, height: 2), PNGBuilder.idat([0, 1, 2, 3, 0, 4, 5, 6]), PNGBuilder.iend,
    ])

    static func ihdrOnly(_ ihdr: PNGBuilder.Chunk) -> [UInt8] {
        PNGBuilder.file([ihdr, PNGBuilder.idat([0, 0]), PNGBuilder.iend])
    }

    @Test func validFileDecodes() throws {
        let image = try PNGDecoder().decode(Self.gray3x2)
        #expect(image.pixels == [1, 2, 3, 4, 5, 6].map { Pixel.pack(a: 255, r: $0, g: $0, b: $0) })
    }

    @Test func notPNG() {
        #expect(decodeError([]) == .notPNG)
        #expect(decodeError(Array("GIF89a and more bytes".utf8)) == .notPNG)
        var wrong = Self.gray3x2
        wrong[1] = UInt8(ascii: "p")
        #expect(decodeError(wrong) == .notPNG)
    }

    @Test func truncatedChunk() {
        #expect(decodeError(Array(Self.gray3x2.prefix(12))) == .truncatedChunk(offset: 8))
        #expect(decodeError(Array(Self.gray3x2.prefix(8 + 8 + 13 + 3))) == .truncatedChunk(offset: 8))
        #expect(decodeError(Array(Self.gray3x2.prefix(40))) == .truncatedChunk(offset: 33))
    }

    @Test func invalidChunkLength() {
        var file = Self.gray3x2
        file[8] = 0x80
        #expect(decodeError(file) == .invalidChunkLength(length: 0x8000_000D, offset: 8))
    }

    @Test func invalidChunkType() {
        var file = Self.gray3x2
        file[14] = UInt8(ascii: "1")
        #expect(decodeError(file) == .invalidChunkType(offset: 8))
    }

    @Test func crcMismatch() {
        var file = Self.gray3x2
        file[19] ^= 0x01  // width's low byte: 3 → 2
        let computed = file.withUnsafeBufferPointer { Zlib.crc32(UnsafeBufferPointer(rebasing: $0[12..<29])) }
        #expect(decodeError(file) == .crcMismatch(chunk: "IHDR", offset: 8, stored: Self.storedIHDRCRC, computed: computed))
    }

    static var storedIHDRCRC: UInt32 { gray3x2.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: 29) } }

    @Test func missingChunks() {
        let ihdr = PNGBuilder.ihdr(width: 1, height: 1)
        #expect(decodeError(PNGChunk.signature) == .missingChunk("IHDR"))
        #expect(decodeError(PNGBuilder.file([PNGBuilder.idat([0, 0]), ihdr, PNGBuilder.iend])) == .missingChunk("IHDR"))
        #expect(decodeError(PNGBuilder.file([ihdr, PNGBuilder.iend])) == .missingChunk("IDAT"))
        #expect(decodeError(PNGBuilder.file([ihdr])) == .missingChunk("IDAT"))
        #expect(decodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 0])])) == .missingChunk("IEND"))
        let indexed = PNGBuilder.ihdr(width: 1, height: 1, colorType: 3)
        #expect(decodeError(PNGBuilder.file([indexed, PNGBuilder.idat([0, 0]), PNGBuilder.iend])) == .missingChunk("PLTE"))
    }

    @Test func misplacedChunks() {
        let gray = PNGBuilder.ihdr(width: 1, height: 1)
        let rgb = PNGBuilder.ihdr(width: 1, height: 1, colorType: 2)
        let indexed = PNGBuilder.ihdr(width: 1, height: 1, colorType: 3)
        let rgba = PNGBuilder.ihdr(width: 1, height: 1, colorType: 6)
        let data = PNGBuilder.idat([0, 0]), rgbData = PNGBuilder.idat([0, 0, 0, 0]), rgbaData = PNGBuilder.idat([0, 0, 0, 0, 0])
        let plte: PNGBuilder.Chunk = ("PLTE", [1, 2, 3])
        #expect(decodeError(PNGBuilder.file([gray, gray, data, PNGBuilder.iend]))
            == .misplacedChunk("IHDR", reason: "a second IHDR at offset 33"))
        #expect(decodeError(PNGBuilder.file([rgb, rgbData, plte, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "PLTE must come before IDAT"))
        #expect(decodeError(PNGBuilder.file([indexed, plte, plte, data, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "a second PLTE at offset 48"))
        #expect(decodeError(PNGBuilder.file([gray, plte, data, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "not allowed in a grayscale image"))
        #expect(decodeError(PNGBuilder.file([indexed, ("tRNS", [0]), plte, data, PNGBuilder.iend]))
            == .misplacedChunk("tRNS", reason: "tRNS must come after PLTE"))
        #expect(decodeError(PNGBuilder.file([rgba, ("tRNS", [0, 0, 0, 0, 0, 0]), rgbaData, PNGBuilder.iend]))
            == .misplacedChunk("tRNS", reason: "not allowed in an image with an alpha channel"))
        #expect(decodeError(PNGBuilder.file([gray, data, ("tEXt", Array("a\0b".utf8)), data, PNGBuilder.iend]))
            == .misplacedChunk("IDAT", reason: "IDAT chunks must be consecutive"))
    }

    @Test func paletteLongerThanTheBitDepthCanIndexIsAccepted() throws {
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 2, colorType: 3),
                                    ("PLTE", [UInt8](repeating: 9, count: 15)), PNGBuilder.idat([0, 0]), PNGBuilder.iend])
        #expect(try PNGDecoder().decode(file).pixels == [0xFF09_0909])
    }

    @Test func unknownCriticalChunkIsRejectedAndAncillaryIgnored() throws {
        let ihdr = PNGBuilder.ihdr(width: 1, height: 1), data = PNGBuilder.idat([0, 7])
        #expect(decodeError(PNGBuilder.file([ihdr, ("CrIT", [1, 2, 3]), data, PNGBuilder.iend])) == .unknownCriticalChunk("CrIT"))
        let ancillary = PNGBuilder.file([ihdr, ("crIt", [1, 2, 3]), ("gAMA", [0, 0, 0xB1, 0x8F]), data, ("zzZz", []), PNGBuilder.iend])
        #expect(try PNGDecoder().decode(ancillary).pixels == [0xFF07_0707])
    }

    @Test func invalidChunkData() {
        var shortHeader = PNGBuilder.ihdr(width: 1, height: 1)
        shortHeader.data.removeLast()
        #expect(decodeError(Self.ihdrOnly(shortHeader)) == .invalidChunkData(chunk: "IHDR", reason: "length is 12, must be 13"))

        let indexed2 = PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 2, colorType: 3)
        let data = PNGBuilder.idat([0, 0])
        #expect(decodeError(PNGBuilder.file([indexed2, ("PLTE", [1, 2, 3, 4]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "PLTE", reason: "length 4 is not 3 × (1…256)"))
        #expect(decodeError(PNGBuilder.file([indexed2, ("PLTE", []), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "PLTE", reason: "length 0 is not 3 × (1…256)"))
        #expect(decodeError(PNGBuilder.file([indexed2, ("PLTE", [1, 2, 3]), ("tRNS", [0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "2 alpha values for a palette of 1 entries"))
        #expect(decodeError(PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1), ("tRNS", [0, 0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "length is 3, must be 2 for grayscale"))
        #expect(decodeError(PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, colorType: 2), ("tRNS", [0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "length is 2, must be 6 for RGB"))
    }

    @Test func invalidHeaderValues() {
        #expect(decodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 0, height: 1))) == .invalidHeaderValue(field: "width", value: 0))
        #expect(decodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 0x8000_0000))) == .invalidHeaderValue(field: "height", value: 0x8000_0000))
        #expect(decodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, compression: 1))) == .invalidHeaderValue(field: "compression method", value: 1))
        #expect(decodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, filter: 1))) == .invalidHeaderValue(field: "filter method", value: 1))
        #expect(decodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, interlace: 2))) == .invalidHeaderValue(field: "interlace method", value: 2))
    }

    @Test(arguments: [(2, 4), (5, 8), (3, 16), (0, 3), (6, 1), (4, 4), (7, 8), (0, 0)])
    func invalidColorTypeAndBitDepth(colorType: Int, bitDepth: Int) {
        let file = Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, bitDepth: UInt8(bitDepth), colorType: UInt8(colorType)))
        #expect(decodeError(file) == .invalidColorTypeAndBitDepth(colorType: colorType, bitDepth: bitDepth))
    }

    @Test func imageTooLarge() {
        let huge = Self.ihdrOnly(PNGBuilder.ihdr(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, colorType: 6))
        #expect(decodeError(huge) == .imageTooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: 1 << 28))
        #expect(decodeError(Self.gray3x2, decoder: PNGDecoder(maximumPixelCount: 5)) == .imageTooLarge(width: 3, height: 2, limit: 5))
        #expect(decodeError(Self.gray3x2, decoder: PNGDecoder(maximumPixelCount: 6)) == nil)
        #expect(decodeError(huge, decoder: PNGDecoder(maximumPixelCount: .max)) == .imageTooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: .max / 16))
    }

    @Test func zlibErrors() {
        let ihdr = PNGBuilder.ihdr(width: 3, height: 2)
        let raw: [UInt8] = [0, 1, 2, 3, 0, 4, 5, 6]
        var badChecksum = PNGBuilder.zlib(raw)
        badChecksum[badChecksum.count - 1] ^= 0xFF
        let cases: [[UInt8]] = [[0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00], badChecksum]
        for compressed in cases {
            let error = decodeError(PNGBuilder.file([ihdr, ("IDAT", compressed), PNGBuilder.iend]))
            guard case .zlibError(let message)? = error else {
                Issue.record("expected a zlib error, got \(String(describing: error))")
                continue
            }
            #expect(!message.isEmpty)
        }
        let noChecksum = Array(PNGBuilder.zlib(raw).dropLast(4))
        #expect(decodeError(PNGBuilder.file([ihdr, ("IDAT", noChecksum), PNGBuilder.iend]))
            == .zlibError("the zlib stream ends before its end marker and checksum"))
    }

    @Test func decompressedDataTooShortOrTooLong() {
        let ihdr = PNGBuilder.ihdr(width: 3, height: 2)
        #expect(decodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 1, 2, 3, 0, 4, 5]), PNGBuilder.iend]))
            == .decompressedDataTooShort(expected: 8, actual: 7))
        #expect(decodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 1, 2, 3, 0, 4, 5, 6, 0]), PNGBuilder.iend]))
            == .decompressedDataTooLong(expected: 8))
        // A truncated stream that stops early is "too short" too.
        let partial = Array(PNGBuilder.zlib([UInt8](repeating: 0, count: 8), level: 0).prefix(8))
        #expect(decodeError(PNGBuilder.file([ihdr, ("IDAT", partial), PNGBuilder.iend]))
            == .decompressedDataTooShort(expected: 8, actual: 1))
    }

    @Test func invalidFilterType() {
        let plain = PNGBuilder.file([PNGBuilder.ihdr(width: 3, height: 2), PNGBuilder.idat([0, 1, 2, 3, 5, 4, 5, 6]), PNGBuilder.iend])
        #expect(decodeError(plain) == .invalidFilterType(5, row: 1, pass: 0))
        // 2×2 Adam7: pass 1 is pixel (0,0), pass 6 pixel (1,0), pass 7 row y = 1.
        let interlaced = PNGBuilder.file([PNGBuilder.ihdr(width: 2, height: 2, interlace: 1), PNGBuilder.idat([0, 1, 9, 2, 0, 3, 4]), PNGBuilder.iend])
        #expect(decodeError(interlaced) == .invalidFilterType(9, row: 0, pass: 6))
    }

    @Test func paletteIndexOutOfRange() {
        let plte: PNGBuilder.Chunk = ("PLTE", [255, 0, 0, 0, 255, 0])
        let eightBit = PNGBuilder.file([PNGBuilder.ihdr(width: 4, height: 2, colorType: 3), plte,
                                        PNGBuilder.idat([0, 0, 1, 0, 1, 0, 1, 0, 7, 0]), PNGBuilder.iend])
        #expect(decodeError(eightBit) == .paletteIndexOutOfRange(index: 7, paletteCount: 2, x: 2, y: 1))
        let oneBit = PNGBuilder.file([PNGBuilder.ihdr(width: 8, height: 1, bitDepth: 1, colorType: 3), ("PLTE", [1, 2, 3]),
                                      PNGBuilder.idat([0, 0b0001_0000]), PNGBuilder.iend])
        #expect(decodeError(oneBit) == .paletteIndexOutOfRange(index: 1, paletteCount: 1, x: 3, y: 0))
    }

    @Test func emptyImageCannotBeEncoded() {
        #expect(pngError { _ = try PNGEncoder().encode(CGImage(width: 0, height: 3, pixels: [])) } == .emptyImage(width: 0, height: 3))
    }

    @Test func readFailed() {
        let path = "/nonexistent-crisp-\(UUID().uuidString)/a.png"
        #expect(pngError { _ = try CGImage(contentsOfPNGFile: path) } == .readFailed(path: path, reason: "No such file or directory"))
    }

    @Test func writeFailedLeavesNothingBehind() throws {
        let image = SyntheticPNGImage.onePixel.make()
        let missing = "/nonexistent-crisp-\(UUID().uuidString)/a.png"
        guard case .writeFailed(missing, _)? = pngError({ try image.writePNG(to: missing) }) else {
            Issue.record("expected writeFailed for \(missing)")
            return
        }
        // The destination is a directory: the rename fails after the data was written.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-png-\(UUID().uuidString)")
        let blocked = directory.appendingPathComponent("blocked.png")
        try FileManager.default.createDirectory(at: blocked, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        guard case .writeFailed(blocked.path, let reason)? = pngError({ try image.writePNG(to: blocked.path) }) else {
            Issue.record("expected writeFailed for \(blocked.path)")
            return
        }
        #expect(reason.contains("renaming"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["blocked.png"])
    }

    @Test func descriptionsSayWhatAndWhere() {
        #expect(PNGError.truncatedChunk(offset: 42).description == "truncated PNG: the file ends inside the chunk at offset 42")
        #expect(PNGError.crcMismatch(chunk: "IDAT", offset: 33, stored: 0xAB, computed: 0xCD).description
            == "CRC mismatch in chunk IDAT at offset 33: stored 0xab, computed 0xcd")
        #expect(PNGError.invalidFilterType(7, row: 3, pass: 5).description == "invalid filter type 7 on row 3 of Adam7 pass 5")
        #expect(PNGError.invalidFilterType(7, row: 3, pass: 0).description == "invalid filter type 7 on row 3")
    }

    @Test func bytesAfterTheZlibStreamAndAfterIENDAreIgnored() throws {
        let ihdr = PNGBuilder.ihdr(width: 3, height: 2)
        let stream = PNGBuilder.zlib([0, 1, 2, 3, 0, 4, 5, 6]) + [0xDE, 0xAD]
        let file = PNGBuilder.file([ihdr, ("IDAT", stream), PNGBuilder.iend]) + Array("trailing".utf8)
        #expect(try PNGDecoder().decode(file).pixels == PNGDecoder().decode(Self.gray3x2).pixels)
    }
}

// MARK: - Hostile input

@Suite struct PNGCorruptionTests {
    /// Small valid files: Crisp-encoded RGBA and an interlaced palette fixture.
    static func seeds() throws -> [[UInt8]] {
        var rng = SplitMix64(seed: 2024)
        let image = CGImage(width: 7, height: 5, pixels: (0..<35).map { _ in randomPixel(&rng) })
        let fixture = [UInt8](try Data(contentsOf: pngFixtureDirectory.appendingPathComponent("indexed4-trns-adam7.png")))
        return [try image.pngData(colorType: .rgba), fixture]
    }

    @Test func everyTruncationThrows() throws {
        for file in try Self.seeds() {
            #expect(try PNGDecoder().decode(file).width > 0)
            for length in 0..<file.count {
                #expect(decodeError(Array(file.prefix(length))) != nil, "prefix of \(length) bytes")
            }
        }
    }

    @Test func randomBitFlipsDecodeOrThrow() throws {
        var rng = SplitMix64(seed: 1)
        var outcomes = [0, 0]
        for file in try Self.seeds() {
            for iteration in 0..<1500 {
                var mutated = file
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    mutated[Int.random(in: 8..<mutated.count, using: &rng)] ^= 1 << UInt8.random(in: 0..<8, using: &rng)
                }
                // Half the time repair the CRCs so the damage reaches IHDR parsing, inflate and unfiltering.
                if iteration % 2 == 0 { mutated = PNGBuilder.repairingCRCs(mutated) }
                outcomes[decodeError(mutated) == nil ? 0 : 1] += 1
            }
        }
        #expect(outcomes[1] > 0)
    }

    @Test func randomByteRunsInImageDataDecodeOrThrow() throws {
        var rng = SplitMix64(seed: 2)
        for file in try Self.seeds() {
            let idat = PNGBuilder.chunks(of: file).first { $0.type == "IDAT" }!
            for _ in 0..<500 {
                var mutated = file
                let start = idat.offset + 8 + Int.random(in: 0..<idat.length, using: &rng)
                let end = min(idat.offset + 8 + idat.length, start + Int.random(in: 1...8, using: &rng))
                for i in start..<end { mutated[i] = UInt8.random(in: 0...255, using: &rng) }
                _ = decodeError(PNGBuilder.repairingCRCs(mutated))
            }
        }
    }

    @Test func chunkLengthLiesThrow() throws {
        for file in try Self.seeds() {
            for chunk in PNGBuilder.chunks(of: file) {
                for lie in [0, chunk.length - 1, chunk.length + 1, chunk.length + 1000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF]
                where lie >= 0 && lie != chunk.length {
                    var mutated = file
                    for k in 0..<4 { mutated[chunk.offset + k] = UInt8(truncatingIfNeeded: lie >> (24 - 8 * k)) }
                    #expect(decodeError(mutated) != nil, "\(chunk.type) length \(lie)")
                }
            }
        }
    }

    @Test(arguments: [(0x7FFF_FFFF, 0x7FFF_FFFF), (1 << 16, 1 << 16), (0x7FFF_FFFF, 1), (1, 0x7FFF_FFFF), (1 << 14 + 1, 1 << 14)])
    func hugeDimensionsAreRejectedBeforeAllocating(width: Int, height: Int) {
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: UInt32(width), height: UInt32(height), colorType: 6),
                                    PNGBuilder.idat([0, 1, 2, 3, 4]), PNGBuilder.iend])
        #expect(decodeError(file) == .imageTooLarge(width: width, height: height, limit: 1 << 28))
    }

    @Test func hugeImageWithLittleDataFailsAsTooShort() {
        // Exactly at the pixel limit: accepted by the header check, but the data runs out long
        // before the 1 GiB the header promises (the inflate buffer grows only with real data).
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: 1 << 14, height: 1 << 14, colorType: 6),
                                    PNGBuilder.idat([UInt8](repeating: 0, count: 1000)), PNGBuilder.iend])
        #expect(decodeError(file) == .decompressedDataTooShort(expected: (1 << 14) * (1 + 4 << 14), actual: 1000))
    }

    @Test func zlibBombStopsAtTheExpectedSize() {
        let bomb = PNGBuilder.zlib([UInt8](repeating: 0, count: 32 << 20), level: 9)
        #expect(bomb.count < 64 << 10)
        let tiny = PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, colorType: 6), ("IDAT", bomb), PNGBuilder.iend])
        #expect(decodeError(tiny) == .decompressedDataTooLong(expected: 5))
        let medium = PNGBuilder.file([PNGBuilder.ihdr(width: 1000, height: 1000), ("IDAT", bomb), PNGBuilder.iend])
        #expect(decodeError(medium) == .decompressedDataTooLong(expected: 1_001_000))
    }
}
