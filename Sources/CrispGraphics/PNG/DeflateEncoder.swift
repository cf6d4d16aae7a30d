// Crisp's own deflate encoder: slower than zlib, and 9–11 % smaller on image data (a retina
// screenshot's filtered rows: zlib 9 103 312 bytes, this encoder 93 484 or 92 280 bytes at
// levels 4 and 5–6 of `png optimize`, libdeflate 12 94 442, Zopfli 91 520).
//
// What. zlib's best level parses lazily (take a match unless the next position has a longer
// one) and ends blocks when a symbol buffer fills. This encoder spends more time for fewer
// bits, with the methods of Zopfli and libdeflate's levels 10–12:
//
//  1. Matches: every useful match at every position of a 1 MiB segment, from hash chains over
//     the 32 KiB window, with a second chain for runs (`DeflateMatchFinder`).
//  2. Parse: a greedy parse gives the first symbol counts; then, `segmentPasses` times, the
//     cheapest parse under prices from the last counts (`DeflateParser`, `DeflateCostModel`).
//  3. Blocks: the segment's parse is split where separate codes save bits
//     (`DeflateBlockSplitter`); each block is parsed again under its own prices up to
//     `blockPasses` times (until a pass stops helping), and also under the fixed code's.
//  4. Output: each block as the smallest of dynamic (with the best run-length coding of its
//     code lengths), fixed and stored (`DeflateBlockCode`), with optimal length-limited codes
//     (`DeflateHuffman`).
//
// Segments bound memory (the match lists and parse arrays of one segment, ~10–20 MB for 1 MiB)
// while matches still reach back across segment ends; a block never spans two segments.
// The zlib wrapper (RFC 1950) is written here too: a two-byte header naming the smallest
// window that covers the data, and the Adler-32 of the input.
//
// Why not Zopfli's full method. Zopfli repeats the whole parse up to 15 times per block with
// randomized restarts and costs 40–80× zlib's time (measured in docs/png.md, "Figures"); the passes here
// stop when they stop paying, which keeps most of the gain at a fraction of the time. Why not
// libdeflate itself: a C dependency of ~10 k lines for one feature of one command, where the
// algorithms fit in a few hundred lines of Swift.

/// A deflate (RFC 1951) and zlib (RFC 1950) encoder with near-optimal parsing.
struct DeflateEncoder: Sendable {
    /// How hard the encoder searches.
    struct Effort: Hashable, Sendable {
        /// Chain entries examined per position by the match finder.
        var maximumChain: Int
        /// A match this long ends the search at its position.
        var niceLength: Int
        /// Whether such a match is taken outright, its covered positions left unsearched.
        var skipsCoveredPositions: Bool
        /// Optimal-parse passes over a whole segment before splitting it into blocks.
        var segmentPasses: Int
        /// Most optimal-parse passes per block after splitting.
        var blockPasses: Int
    }

    /// Bytes per segment (see the essay above).
    static let segmentSize = 1 << 20
    /// The fewest tokens a block is split down to.
    static let minimumBlockTokens = 256

    /// The search effort.
    let effort: Effort

    /// An encoder with the given effort.
    init(_ effort: Effort) {
        self.effort = effort
    }

    /// `input` as a complete zlib stream.
    func zlib(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var windowBits = 8
        while windowBits < 15 && 1 << windowBits < input.count { windowBits += 1 }
        let cmf = (windowBits - 8) << 4 | 8
        let flags = 3 << 6
        var output = [UInt8(cmf), UInt8(flags | (31 - (cmf << 8 | flags) % 31) % 31)]
        output += deflate(input)
        let checksum = Self.adler32(input)
        output += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: checksum >> UInt32($0)) }
        return output
    }

    /// `input` as raw deflate data (a sequence of blocks, the last marked final).
    func deflate(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var writer = DeflateBitWriter()
        guard let base = input.baseAddress, !input.isEmpty else {
            DeflateBlockCode.fixed.write(UnsafeBufferPointer(start: nil, count: 0), isFinal: true, to: &writer)
            writer.alignToByte()
            return writer.bytes
        }
        writer.reserve(input.count / 8 + 64)
        let finder = DeflateMatchFinder(data: base, count: input.count, maximumChain: effort.maximumChain,
                                        niceLength: effort.niceLength, skipsCoveredPositions: effort.skipsCoveredPositions)
        let parser = DeflateParser(data: base)
        var start = 0
        while start < input.count {
            let segment = start..<min(input.count, start + Self.segmentSize)
            let matches = finder.matches(in: segment)
            var tokens = parser.greedy(matches, segment)
            for _ in 0..<effort.segmentPasses {
                tokens = parser.parse(matches, segment, DeflateCostModel(DeflateHistogram(tokens)))
            }
            let blockStarts = DeflateBlockSplitter.split(tokens, minimumTokens: Self.minimumBlockTokens) + [tokens.count]
            var token = 0, position = segment.lowerBound
            for (index, blockEnd) in blockStarts.enumerated() {
                let blockTokens = Array(tokens[token..<blockEnd])
                let byteCount = blockTokens.reduce(0) { $0 + $1.byteCount }
                let isFinal = segment.upperBound == input.count && index == blockStarts.count - 1
                writeBlock(position..<position + byteCount, parsed: blockTokens, matches, parser, input, isFinal: isFinal, to: &writer)
                token = blockEnd
                position += byteCount
            }
            start = segment.upperBound
        }
        writer.alignToByte()
        return writer.bytes
    }

    /// Re-parses one block under its own prices and writes it in the smallest of the three forms.
    private func writeBlock(_ range: Range<Int>, parsed: [DeflateToken], _ matches: DeflateMatchList, _ parser: DeflateParser,
                            _ input: UnsafeBufferPointer<UInt8>, isFinal: Bool, to writer: inout DeflateBitWriter) {
        var histogram = DeflateHistogram(parsed)
        var best = (tokens: parsed, code: DeflateBlockCode(dynamicFor: histogram), bits: 0)
        best.bits = best.code.blockBits(histogram)
        for _ in 0..<effort.blockPasses {
            let tokens = parser.parse(matches, range, DeflateCostModel(histogram))
            histogram = DeflateHistogram(tokens)
            let code = DeflateBlockCode(dynamicFor: histogram)
            let bits = code.blockBits(histogram)
            guard bits < best.bits else { break }
            best = (tokens, code, bits)
        }
        // The fixed code: worth a parse of its own only when it comes near with this parse
        // (small blocks, where a dynamic header is a large share).
        if DeflateBlockCode.fixed.blockBits(histogram) < best.bits + best.bits / 8 {
            let fixedTokens = parser.parse(matches, range, .fixed)
            let fixedBits = DeflateBlockCode.fixed.blockBits(DeflateHistogram(fixedTokens))
            if fixedBits < best.bits { best = (fixedTokens, .fixed, fixedBits) }
        }
        let block = UnsafeBufferPointer(rebasing: input[range])
        if DeflateBlockCode.storedBits(byteCount: range.count, bitOffset: writer.bitCount) < best.bits {
            DeflateBlockCode.writeStored(block, isFinal: isFinal, to: &writer)
        } else {
            best.tokens.withUnsafeBufferPointer { best.code.write($0, isFinal: isFinal, to: &writer) }
        }
    }

    /// The Adler-32 checksum (RFC 1950 §8.2) of `bytes`.
    static func adler32(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        let modulus: UInt32 = 65521
        var a: UInt32 = 1, b: UInt32 = 0
        var start = 0
        // 5552 bytes is the most that cannot overflow b before the next reduction.
        while start < bytes.count {
            let end = min(start + 5552, bytes.count)
            for i in start..<end {
                a &+= UInt32(bytes[i])
                b &+= a
            }
            a %= modulus
            b %= modulus
            start = end
        }
        return b << 16 | a
    }
}
