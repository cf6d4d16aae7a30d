import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// Tests for the PNG codec: pixel conversions, encoder/decoder round trips and fixtures written
// by other encoders (pypng, Pillow; see Fixtures/png/make_fixtures.py). Errors and corrupted
// files are in PNGErrorTests.swift; the helpers here are shared with it.

// MARK: - Helpers

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
func pngError(_ body: () throws -> Void) -> PNGError? {
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
func pngDecodeError(_ bytes: [UInt8], decoder: PNGDecoder = PNGDecoder()) -> PNGError? {
    pngError { _ = try decoder.decode(bytes) }
}

/// A random valid premultiplied pixel: every colour channel ≤ alpha.
func pngRandomPixel(_ rng: inout SplitMix64) -> UInt32 {
    let a = UInt32.random(in: 0...255, using: &rng)
    return Pixel.pack(a: a, r: .random(in: 0...a, using: &rng), g: .random(in: 0...a, using: &rng), b: .random(in: 0...a, using: &rng))
}

let pngFixtureDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/png")

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
            return image(37, 23) { _, _, rng in pngRandomPixel(&rng) }
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
            return image(1, 300) { _, _, rng in pngRandomPixel(&rng) }
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
        // PNGEncoder itself; `pngData()` goes through the optimizer (PNGOptimizerTests).
        let data = try PNGEncoder(colorType: colorType).encode(image)
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
        let pixels = (0..<(300 * 300)).map { _ in pngRandomPixel(&rng) }
        let image = CGImage(width: 300, height: 300, pixels: pixels)
        let data = try PNGEncoder().encode(image)
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
