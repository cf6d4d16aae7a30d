import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// Bad input for the PNG codec: one test per PNGError case, checking the exact error, and a
// corpus of corrupted files (every truncation, bit flips, length lies, huge headers, a zlib
// bomb) each of which must decode or throw a PNGError — never crash, hang or allocate wildly.
// Helpers (PNGBuilder, pngDecodeError, SplitMix64) are in PNGTests.swift.

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
        #expect(pngDecodeError([]) == .notPNG)
        #expect(pngDecodeError(Array("GIF89a and more bytes".utf8)) == .notPNG)
        var wrong = Self.gray3x2
        wrong[1] = UInt8(ascii: "p")
        #expect(pngDecodeError(wrong) == .notPNG)
    }

    @Test func truncatedChunk() {
        #expect(pngDecodeError(Array(Self.gray3x2.prefix(12))) == .truncatedChunk(offset: 8))
        #expect(pngDecodeError(Array(Self.gray3x2.prefix(8 + 8 + 13 + 3))) == .truncatedChunk(offset: 8))
        #expect(pngDecodeError(Array(Self.gray3x2.prefix(40))) == .truncatedChunk(offset: 33))
    }

    @Test func invalidChunkLength() {
        var file = Self.gray3x2
        file[8] = 0x80
        #expect(pngDecodeError(file) == .invalidChunkLength(length: 0x8000_000D, offset: 8))
    }

    @Test func invalidChunkType() {
        var file = Self.gray3x2
        file[14] = UInt8(ascii: "1")
        #expect(pngDecodeError(file) == .invalidChunkType(offset: 8))
    }

    @Test func crcMismatch() {
        var file = Self.gray3x2
        file[19] ^= 0x01  // width's low byte: 3 → 2
        let computed = file.withUnsafeBufferPointer { Zlib.crc32(UnsafeBufferPointer(rebasing: $0[12..<29])) }
        #expect(pngDecodeError(file) == .crcMismatch(chunk: "IHDR", offset: 8, stored: Self.storedIHDRCRC, computed: computed))
    }

    static var storedIHDRCRC: UInt32 { gray3x2.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: 29) } }

    @Test func missingChunks() {
        let ihdr = PNGBuilder.ihdr(width: 1, height: 1)
        #expect(pngDecodeError(PNGChunk.signature) == .missingChunk("IHDR"))
        #expect(pngDecodeError(PNGBuilder.file([PNGBuilder.idat([0, 0]), ihdr, PNGBuilder.iend])) == .missingChunk("IHDR"))
        #expect(pngDecodeError(PNGBuilder.file([ihdr, PNGBuilder.iend])) == .missingChunk("IDAT"))
        #expect(pngDecodeError(PNGBuilder.file([ihdr])) == .missingChunk("IDAT"))
        #expect(pngDecodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 0])])) == .missingChunk("IEND"))
        let indexed = PNGBuilder.ihdr(width: 1, height: 1, colorType: 3)
        #expect(pngDecodeError(PNGBuilder.file([indexed, PNGBuilder.idat([0, 0]), PNGBuilder.iend])) == .missingChunk("PLTE"))
    }

    @Test func misplacedChunks() {
        let gray = PNGBuilder.ihdr(width: 1, height: 1)
        let rgb = PNGBuilder.ihdr(width: 1, height: 1, colorType: 2)
        let indexed = PNGBuilder.ihdr(width: 1, height: 1, colorType: 3)
        let rgba = PNGBuilder.ihdr(width: 1, height: 1, colorType: 6)
        let data = PNGBuilder.idat([0, 0]), rgbData = PNGBuilder.idat([0, 0, 0, 0]), rgbaData = PNGBuilder.idat([0, 0, 0, 0, 0])
        let plte: PNGBuilder.Chunk = ("PLTE", [1, 2, 3])
        #expect(pngDecodeError(PNGBuilder.file([gray, gray, data, PNGBuilder.iend]))
            == .misplacedChunk("IHDR", reason: "a second IHDR at offset 33"))
        #expect(pngDecodeError(PNGBuilder.file([rgb, rgbData, plte, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "PLTE must come before IDAT"))
        #expect(pngDecodeError(PNGBuilder.file([indexed, plte, plte, data, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "a second PLTE at offset 48"))
        #expect(pngDecodeError(PNGBuilder.file([gray, plte, data, PNGBuilder.iend]))
            == .misplacedChunk("PLTE", reason: "not allowed in a grayscale image"))
        #expect(pngDecodeError(PNGBuilder.file([indexed, ("tRNS", [0]), plte, data, PNGBuilder.iend]))
            == .misplacedChunk("tRNS", reason: "tRNS must come after PLTE"))
        #expect(pngDecodeError(PNGBuilder.file([rgba, ("tRNS", [0, 0, 0, 0, 0, 0]), rgbaData, PNGBuilder.iend]))
            == .misplacedChunk("tRNS", reason: "not allowed in an image with an alpha channel"))
        #expect(pngDecodeError(PNGBuilder.file([gray, data, ("tEXt", Array("a\0b".utf8)), data, PNGBuilder.iend]))
            == .misplacedChunk("IDAT", reason: "IDAT chunks must be consecutive"))
    }

    @Test func paletteLongerThanTheBitDepthCanIndexIsAccepted() throws {
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 2, colorType: 3),
                                    ("PLTE", [UInt8](repeating: 9, count: 15)), PNGBuilder.idat([0, 0]), PNGBuilder.iend])
        #expect(try PNGDecoder().decode(file).pixels == [0xFF09_0909])
    }

    @Test func unknownCriticalChunkIsRejectedAndAncillaryIgnored() throws {
        let ihdr = PNGBuilder.ihdr(width: 1, height: 1), data = PNGBuilder.idat([0, 7])
        #expect(pngDecodeError(PNGBuilder.file([ihdr, ("CrIT", [1, 2, 3]), data, PNGBuilder.iend])) == .unknownCriticalChunk("CrIT"))
        let ancillary = PNGBuilder.file([ihdr, ("crIt", [1, 2, 3]), ("gAMA", [0, 0, 0xB1, 0x8F]), data, ("zzZz", []), PNGBuilder.iend])
        #expect(try PNGDecoder().decode(ancillary).pixels == [0xFF07_0707])
    }

    @Test func invalidChunkData() {
        var shortHeader = PNGBuilder.ihdr(width: 1, height: 1)
        shortHeader.data.removeLast()
        #expect(pngDecodeError(Self.ihdrOnly(shortHeader)) == .invalidChunkData(chunk: "IHDR", reason: "length is 12, must be 13"))

        let indexed2 = PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 2, colorType: 3)
        let data = PNGBuilder.idat([0, 0])
        #expect(pngDecodeError(PNGBuilder.file([indexed2, ("PLTE", [1, 2, 3, 4]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "PLTE", reason: "length 4 is not 3 × (1…256)"))
        #expect(pngDecodeError(PNGBuilder.file([indexed2, ("PLTE", []), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "PLTE", reason: "length 0 is not 3 × (1…256)"))
        #expect(pngDecodeError(PNGBuilder.file([indexed2, ("PLTE", [1, 2, 3]), ("tRNS", [0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "2 alpha values for a palette of 1 entries"))
        #expect(pngDecodeError(PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1), ("tRNS", [0, 0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "length is 3, must be 2 for grayscale"))
        #expect(pngDecodeError(PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, colorType: 2), ("tRNS", [0, 0]), data, PNGBuilder.iend]))
            == .invalidChunkData(chunk: "tRNS", reason: "length is 2, must be 6 for RGB"))
    }

    @Test func invalidHeaderValues() {
        #expect(pngDecodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 0, height: 1))) == .invalidHeaderValue(field: "width", value: 0))
        #expect(pngDecodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 0x8000_0000))) == .invalidHeaderValue(field: "height", value: 0x8000_0000))
        #expect(pngDecodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, compression: 1))) == .invalidHeaderValue(field: "compression method", value: 1))
        #expect(pngDecodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, filter: 1))) == .invalidHeaderValue(field: "filter method", value: 1))
        #expect(pngDecodeError(Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, interlace: 2))) == .invalidHeaderValue(field: "interlace method", value: 2))
    }

    @Test(arguments: [(2, 4), (5, 8), (3, 16), (0, 3), (6, 1), (4, 4), (7, 8), (0, 0)])
    func invalidColorTypeAndBitDepth(colorType: Int, bitDepth: Int) {
        let file = Self.ihdrOnly(PNGBuilder.ihdr(width: 1, height: 1, bitDepth: UInt8(bitDepth), colorType: UInt8(colorType)))
        #expect(pngDecodeError(file) == .invalidColorTypeAndBitDepth(colorType: colorType, bitDepth: bitDepth))
    }

    @Test func imageTooLarge() {
        let huge = Self.ihdrOnly(PNGBuilder.ihdr(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, colorType: 6))
        #expect(pngDecodeError(huge) == .imageTooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: 1 << 28))
        #expect(pngDecodeError(Self.gray3x2, decoder: PNGDecoder(maximumPixelCount: 5)) == .imageTooLarge(width: 3, height: 2, limit: 5))
        #expect(pngDecodeError(Self.gray3x2, decoder: PNGDecoder(maximumPixelCount: 6)) == nil)
        #expect(pngDecodeError(huge, decoder: PNGDecoder(maximumPixelCount: .max)) == .imageTooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: .max / 16))
    }

    @Test func zlibErrors() {
        let ihdr = PNGBuilder.ihdr(width: 3, height: 2)
        let raw: [UInt8] = [0, 1, 2, 3, 0, 4, 5, 6]
        var badChecksum = PNGBuilder.zlib(raw)
        badChecksum[badChecksum.count - 1] ^= 0xFF
        let cases: [[UInt8]] = [[0x78, 0x9C, 0xFF, 0xFF, 0xFF, 0xFF], [0x00, 0x00], badChecksum]
        for compressed in cases {
            let error = pngDecodeError(PNGBuilder.file([ihdr, ("IDAT", compressed), PNGBuilder.iend]))
            guard case .zlibError(let message)? = error else {
                Issue.record("expected a zlib error, got \(String(describing: error))")
                continue
            }
            #expect(!message.isEmpty)
        }
        let noChecksum = Array(PNGBuilder.zlib(raw).dropLast(4))
        #expect(pngDecodeError(PNGBuilder.file([ihdr, ("IDAT", noChecksum), PNGBuilder.iend]))
            == .zlibError("the zlib stream ends before its end marker and checksum"))
    }

    @Test func decompressedDataTooShortOrTooLong() {
        let ihdr = PNGBuilder.ihdr(width: 3, height: 2)
        #expect(pngDecodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 1, 2, 3, 0, 4, 5]), PNGBuilder.iend]))
            == .decompressedDataTooShort(expected: 8, actual: 7))
        #expect(pngDecodeError(PNGBuilder.file([ihdr, PNGBuilder.idat([0, 1, 2, 3, 0, 4, 5, 6, 0]), PNGBuilder.iend]))
            == .decompressedDataTooLong(expected: 8))
        // A truncated stream that stops early is "too short" too.
        let partial = Array(PNGBuilder.zlib([UInt8](repeating: 0, count: 8), level: 0).prefix(8))
        #expect(pngDecodeError(PNGBuilder.file([ihdr, ("IDAT", partial), PNGBuilder.iend]))
            == .decompressedDataTooShort(expected: 8, actual: 1))
    }

    @Test func invalidFilterType() {
        let plain = PNGBuilder.file([PNGBuilder.ihdr(width: 3, height: 2), PNGBuilder.idat([0, 1, 2, 3, 5, 4, 5, 6]), PNGBuilder.iend])
        #expect(pngDecodeError(plain) == .invalidFilterType(5, row: 1, pass: 0))
        // 2×2 Adam7: pass 1 is pixel (0,0), pass 6 pixel (1,0), pass 7 row y = 1.
        let interlaced = PNGBuilder.file([PNGBuilder.ihdr(width: 2, height: 2, interlace: 1), PNGBuilder.idat([0, 1, 9, 2, 0, 3, 4]), PNGBuilder.iend])
        #expect(pngDecodeError(interlaced) == .invalidFilterType(9, row: 0, pass: 6))
    }

    @Test func paletteIndexOutOfRange() {
        let plte: PNGBuilder.Chunk = ("PLTE", [255, 0, 0, 0, 255, 0])
        let eightBit = PNGBuilder.file([PNGBuilder.ihdr(width: 4, height: 2, colorType: 3), plte,
                                        PNGBuilder.idat([0, 0, 1, 0, 1, 0, 1, 0, 7, 0]), PNGBuilder.iend])
        #expect(pngDecodeError(eightBit) == .paletteIndexOutOfRange(index: 7, paletteCount: 2, x: 2, y: 1))
        let oneBit = PNGBuilder.file([PNGBuilder.ihdr(width: 8, height: 1, bitDepth: 1, colorType: 3), ("PLTE", [1, 2, 3]),
                                      PNGBuilder.idat([0, 0b0001_0000]), PNGBuilder.iend])
        #expect(pngDecodeError(oneBit) == .paletteIndexOutOfRange(index: 1, paletteCount: 1, x: 3, y: 0))
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
        let image = CGImage(width: 7, height: 5, pixels: (0..<35).map { _ in pngRandomPixel(&rng) })
        let fixture = [UInt8](try Data(contentsOf: pngFixtureDirectory.appendingPathComponent("indexed4-trns-adam7.png")))
        return [try image.pngData(colorType: .rgba), fixture]
    }

    @Test func everyTruncationThrows() throws {
        for file in try Self.seeds() {
            #expect(try PNGDecoder().decode(file).width > 0)
            for length in 0..<file.count {
                #expect(pngDecodeError(Array(file.prefix(length))) != nil, "prefix of \(length) bytes")
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
                outcomes[pngDecodeError(mutated) == nil ? 0 : 1] += 1
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
                _ = pngDecodeError(PNGBuilder.repairingCRCs(mutated))
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
                    #expect(pngDecodeError(mutated) != nil, "\(chunk.type) length \(lie)")
                }
            }
        }
    }

    @Test(arguments: [(0x7FFF_FFFF, 0x7FFF_FFFF), (1 << 16, 1 << 16), (0x7FFF_FFFF, 1), (1, 0x7FFF_FFFF), (1 << 14 + 1, 1 << 14)])
    func hugeDimensionsAreRejectedBeforeAllocating(width: Int, height: Int) {
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: UInt32(width), height: UInt32(height), colorType: 6),
                                    PNGBuilder.idat([0, 1, 2, 3, 4]), PNGBuilder.iend])
        #expect(pngDecodeError(file) == .imageTooLarge(width: width, height: height, limit: 1 << 28))
    }

    @Test func hugeImageWithLittleDataFailsAsTooShort() {
        // Exactly at the pixel limit: accepted by the header check, but the data runs out long
        // before the 1 GiB the header promises (the inflate buffer grows only with real data).
        let file = PNGBuilder.file([PNGBuilder.ihdr(width: 1 << 14, height: 1 << 14, colorType: 6),
                                    PNGBuilder.idat([UInt8](repeating: 0, count: 1000)), PNGBuilder.iend])
        #expect(pngDecodeError(file) == .decompressedDataTooShort(expected: (1 << 14) * (1 + 4 << 14), actual: 1000))
    }

    @Test func zlibBombStopsAtTheExpectedSize() {
        let bomb = PNGBuilder.zlib([UInt8](repeating: 0, count: 32 << 20), level: 9)
        #expect(bomb.count < 64 << 10)
        let tiny = PNGBuilder.file([PNGBuilder.ihdr(width: 1, height: 1, colorType: 6), ("IDAT", bomb), PNGBuilder.iend])
        #expect(pngDecodeError(tiny) == .decompressedDataTooLong(expected: 5))
        let medium = PNGBuilder.file([PNGBuilder.ihdr(width: 1000, height: 1000), ("IDAT", bomb), PNGBuilder.iend])
        #expect(pngDecodeError(medium) == .decompressedDataTooLong(expected: 1_001_000))
    }
}
