import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// Crisp's own deflate encoder: every output is inflated by zlib and compared with the input;
// Huffman codes respect their length limits and are complete and optimal; stored blocks split
// exactly at 65535 bytes; the zlib wrapper's header and checksum are what zlib expects.

/// A small effort, so that the tests run quickly in debug builds.
private let quick = DeflateEncoder.Effort(maximumChain: 16, niceLength: 64, skipsCoveredPositions: true, segmentPasses: 1, blockPasses: 2)
/// A level-6-like effort.
private let thorough = DeflateEncoder.Effort(maximumChain: 128, niceLength: 258, skipsCoveredPositions: false, segmentPasses: 2, blockPasses: 4)

/// Compresses `input` as a zlib stream and inflates it again with zlib; returns the stream.
@discardableResult
private func roundTrip(_ input: [UInt8], _ what: String) throws -> [UInt8] {
    try roundTrip(input, quick, what)
}

/// Compresses `input` with `effort` as a zlib stream and inflates it again with zlib; returns the stream.
@discardableResult
private func roundTrip(_ input: [UInt8], _ effort: DeflateEncoder.Effort, _ what: String) throws -> [UInt8] {
    let stream = input.withUnsafeBufferPointer { DeflateEncoder(effort).zlib($0) }
    let back = try stream.withUnsafeBufferPointer { try Zlib.inflate($0, expectedCount: input.count) }
    #expect(back == input, "\(what): \(input.count) bytes do not survive inflate")
    return stream
}

private func randomBytes(_ count: Int, seed: UInt64, alphabet: Int = 256) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: rng.next() % UInt64(alphabet)) }
}

/// Rows of a synthetic filtered image: flat runs, small deltas, repeated motifs and noise.
private func imageLikeBytes(rows: Int, rowBytes: Int, seed: UInt64) -> [UInt8] {
    var rng = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    let motif = randomBytes(rowBytes / 4, seed: seed &+ 1, alphabet: 8)
    for y in 0..<rows {
        bytes.append(UInt8(y % 5))
        for x in 0..<rowBytes {
            switch (y / 7 + x / 97) % 4 {
            case 0: bytes.append(0)
            case 1: bytes.append(motif[x % motif.count])
            case 2: bytes.append(UInt8(truncatingIfNeeded: rng.next() % 3))
            default: bytes.append(UInt8(truncatingIfNeeded: (x * 7 + y) / 13))
            }
        }
    }
    return bytes
}

@Suite struct DeflateEncoderRoundTripTests {
    @Test func emptyInput() throws {
        let stream = try roundTrip([], "empty")
        // Header, one empty fixed block (3 + 7 bits, two bytes), Adler-32 of nothing (1).
        #expect(stream == [0x08, 0xD7, 0x03, 0x00, 0, 0, 0, 1], "\(stream)")
    }

    @Test func oneByte() throws {
        for value: UInt8 in [0, 1, 127, 255] { try roundTrip([value], "one byte \(value)") }
    }

    @Test(arguments: [2, 3, 4, 17, 258, 259, 1000])
    func shortRandomInputs(count: Int) throws {
        try roundTrip(randomBytes(count, seed: UInt64(count)), "random \(count)")
        try roundTrip(randomBytes(count, seed: UInt64(count), alphabet: 3), "3 symbols \(count)")
    }

    @Test func repetitiveInputs() throws {
        try roundTrip([UInt8](repeating: 7, count: 100_000), "one byte repeated")
        try roundTrip(Array(repeatElement([1, 2, 3] as [UInt8], count: 20_000).joined()), "period 3")
        let period = randomBytes(1000, seed: 3)
        let copies = Array(repeatElement(period, count: 40).joined())
        let stream = try roundTrip(copies, "period 1000")
        let zlib9 = copies.withUnsafeBufferPointer { Zlib.deflate($0, level: 9) }
        #expect(stream.count <= zlib9.count, "40 copies of 1000 random bytes: \(stream.count) bytes, zlib 9 \(zlib9.count)")
    }

    @Test func largerThan64KiBAndSegments() throws {
        // Past one stored block's limit, and past one segment, with matches that cross it.
        let motif = randomBytes(50_000, seed: 11, alphabet: 16)
        var input = Array(repeatElement(motif, count: 4).joined()) + randomBytes(100_000, seed: 12, alphabet: 4)
        let target = DeflateEncoder.segmentSize + 70_000
        while input.count < target { input += input.prefix(target - input.count) }
        try roundTrip(input, DeflateEncoder.Effort(maximumChain: 4, niceLength: 32, skipsCoveredPositions: true, segmentPasses: 0, blockPasses: 1), "1 MiB + 70 KiB")
    }

    @Test func imageLikeDataAtBothEfforts() throws {
        let input = imageLikeBytes(rows: 120, rowBytes: 600, seed: 5)
        let small = try roundTrip(input, quick, "image-like, quick")
        let smaller = try roundTrip(input, thorough, "image-like, thorough")
        let zlib9 = input.withUnsafeBufferPointer { Zlib.deflate($0, level: 9) }
        #expect(smaller.count <= small.count, "thorough \(smaller.count) > quick \(small.count)")
        #expect(smaller.count < zlib9.count, "Crisp's deflate \(smaller.count) bytes, zlib 9 \(zlib9.count)")
    }

    @Test func incompressibleDataIsStored() throws {
        // (A single byte is smaller as a fixed block.)
        for count in [100, 65534, 65535, 65536, 2 * 65535, 2 * 65535 + 1, 200_000] {
            let input = randomBytes(count, seed: UInt64(count))
            let stream = try roundTrip(input, "incompressible \(count)")
            // Stored blocks of at most 65535 bytes, 5 bytes of header each, plus the zlib wrapper.
            let blocks = (count + 65534) / 65535
            #expect(stream.count == 2 + count + 5 * blocks + 4, "\(count) random bytes took \(stream.count) bytes")
        }
    }

    @Test func zlibHeaderAndChecksum() throws {
        for count in [0, 1, 200, 256, 257, 5000, 40_000] {
            let input = randomBytes(count, seed: 1, alphabet: 2)
            let stream = try roundTrip(input, "header \(count)")
            #expect((Int(stream[0]) << 8 | Int(stream[1])) % 31 == 0)
            #expect(stream[0] & 0x0F == 8)
            // The window named covers the input (and is the smallest power of two that does).
            let window = 1 << (Int(stream[0] >> 4) + 8)
            #expect(window >= min(count, 32768) && (window == 256 || window / 2 < count), "window \(window) for \(count) bytes")
            let adler = stream.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            #expect(adler == input.withUnsafeBufferPointer { DeflateEncoder.adler32($0) })
        }
        // Known value: Adler-32 of "Wikipedia" is 0x11E60398.
        #expect(Array("Wikipedia".utf8).withUnsafeBufferPointer { DeflateEncoder.adler32($0) } == 0x11E6_0398)
    }
}

@Suite struct DeflateHuffmanTests {
    /// Σ 2^−length over the used symbols, as a fraction of 2^limit.
    private func kraftSum(_ lengths: [UInt8], limit: Int) -> Int {
        lengths.filter { $0 > 0 }.reduce(0) { $0 + 1 << (limit - Int($1)) }
    }

    /// The cost Σ count × length of an unlimited Huffman code (sum of the merged weights).
    private func unlimitedCost(_ counts: [UInt32]) -> Int {
        var weights = counts.filter { $0 > 0 }.map(Int.init).sorted()
        var cost = 0
        while weights.count > 1 {
            let merged = weights.removeFirst() + weights.removeFirst()
            cost += merged
            weights.insert(merged, at: weights.firstIndex { $0 > merged } ?? weights.count)
        }
        return cost
    }

    private func lengths(_ counts: [UInt32], limit: Int) -> [UInt8] {
        counts.withUnsafeBufferPointer { DeflateHuffman.lengths($0, limit: limit) }
    }

    @Test func randomCountsAreCompleteWithinTheLimitAndOptimal() {
        var rng = SplitMix64(seed: 42)
        for trial in 0..<200 {
            let symbols = [19, 30, 286][trial % 3]
            let limit = symbols == 19 ? 7 : 15
            let counts = (0..<symbols).map { _ in rng.next() % 3 == 0 ? 0 : UInt32(rng.next() % 1000) }
            let result = lengths(counts, limit: limit)
            let used = counts.filter { $0 > 0 }.count
            #expect(result.allSatisfy { $0 <= limit })
            #expect(zip(counts, result).allSatisfy { ($0.0 > 0) == ($0.1 > 0) } || used < 2)
            #expect(kraftSum(result, limit: limit) == 1 << limit, "trial \(trial): incomplete code")
            // When the unlimited tree fits under the limit, the limited code costs the same.
            let cost = zip(counts, result).reduce(0) { $0 + Int($1.0) * Int($1.1) }
            if used >= 2 && unlimitedDepthFits(counts, limit: limit) { #expect(cost == unlimitedCost(counts), "trial \(trial)") }
            #expect(cost >= unlimitedCost(counts))
        }
    }

    /// Whether an unlimited Huffman tree over `counts` is at most `limit` deep.
    private func unlimitedDepthFits(_ counts: [UInt32], limit: Int) -> Bool {
        var nodes = counts.filter { $0 > 0 }.map { (weight: Int($0), depth: 0) }.sorted { $0.weight < $1.weight }
        while nodes.count > 1 {
            let a = nodes.removeFirst(), b = nodes.removeFirst()
            let merged = (weight: a.weight + b.weight, depth: max(a.depth, b.depth) + 1)
            nodes.insert(merged, at: nodes.firstIndex { $0.weight > merged.weight } ?? nodes.count)
        }
        return (nodes.first?.depth ?? 0) <= limit
    }

    @Test func fibonacciCountsAreLimited() {
        // Fibonacci counts make the unlimited Huffman tree as deep as there are symbols.
        var counts: [UInt32] = [1, 1]
        while counts.count < 30 { counts.append(counts[counts.count - 1] + counts[counts.count - 2]) }
        #expect(!unlimitedDepthFits(counts, limit: 15))
        for limit in [7, 15] {
            let subset = Array(counts.prefix(limit == 7 ? 19 : 30))
            let result = lengths(subset, limit: limit)
            #expect(result.max() == UInt8(limit))
            #expect(kraftSum(result, limit: limit) == 1 << limit)
            // A longer code never goes to a more frequent symbol.
            for i in 1..<subset.count where subset[i] > subset[i - 1] { #expect(result[i] <= result[i - 1]) }
        }
    }

    @Test func zeroAndOneUsedSymbolGiveACompleteCode() {
        #expect(lengths([0, 0, 0], limit: 15) == [1, 1, 0])
        #expect(lengths([0, 5, 0], limit: 15) == [1, 1, 0])
        #expect(lengths([0, 0, 9], limit: 7) == [1, 0, 1])
        #expect(lengths([3, 4], limit: 1) == [1, 1])
    }

    @Test func canonicalCodesMatchTheRFCExample() {
        // RFC 1951 §3.2.2: lengths (3, 3, 3, 3, 3, 2, 4, 4) give codes 010 011 100 101 110 00 1110 1111.
        let codes = DeflateHuffman.codes([3, 3, 3, 3, 3, 2, 4, 4])
        let expected = [0b010, 0b011, 0b100, 0b101, 0b110, 0b00, 0b1110, 0b1111]
        let lengths = [3, 3, 3, 3, 3, 2, 4, 4]
        for i in 0..<8 {
            var reversed = 0
            for bit in 0..<lengths[i] where expected[i] & (1 << bit) != 0 { reversed |= 1 << (lengths[i] - 1 - bit) }
            #expect(Int(codes[i]) == reversed, "symbol \(i)")
        }
    }
}
