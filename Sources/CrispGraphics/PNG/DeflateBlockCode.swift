// The codes of one deflate block and their exact cost in bits, for each of the three block
// types (RFC 1951 §3.2.3–3.2.7), and writing a block with them.
//
// What. A dynamic block (type 2) carries its own Huffman codes: the literal/length and distance
// code lengths, run-length coded with the code-length alphabet (0…15 a length, 16 "repeat the
// previous 3…6 times", 17 "3…10 zeros", 18 "11…138 zeros"), which is itself Huffman coded with
// lengths of at most 7 bits sent in a fixed permuted order. Which of the repeat symbols pay off
// depends on the code that results, so all eight subsets of {16, 17, 18} are tried and the
// smallest header kept (Zopfli's idea). A fixed block (type 1) uses the RFC's code; a stored
// block (type 0) copies up to 65535 bytes after a byte boundary. The encoder compares the exact
// sizes of all three and writes the smallest.
//
// Why exact sizes. The block splitter and the choice of parse both compare candidates whose
// sizes differ by a few bytes; an estimate of the header (say, entropy of the lengths) would
// decide those wrongly often enough to matter.

/// The Huffman codes of one block and everything needed to write it.
struct DeflateBlockCode {
    /// Code lengths of the literal/length symbols (286) and the distance symbols (30).
    let literalLengthLengths: [UInt8]
    let distanceLengths: [UInt8]
    /// Whether this is the fixed code (no header).
    let isFixed: Bool
    /// The dynamic header: counts, code-length code lengths, and run-length symbols with their
    /// extra-bit values.
    private let literalLengthCount: Int, distanceCount: Int, codeLengthCount: Int
    private let codeLengthLengths: [UInt8]
    private let runs: [(symbol: UInt8, extra: UInt8)]
    /// The bits of the block header after the three type bits (0 for the fixed code).
    let headerBits: Int

    /// The order in which the code-length code's lengths are sent.
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The fixed code of block type 1.
    static let fixed = DeflateBlockCode(fixedLiteralLengthLengths: DeflateAlphabet.fixedLiteralLengthLengths,
                                        distanceLengths: DeflateAlphabet.fixedDistanceLengths)

    private init(fixedLiteralLengthLengths: [UInt8], distanceLengths: [UInt8]) {
        literalLengthLengths = fixedLiteralLengthLengths
        self.distanceLengths = distanceLengths
        isFixed = true
        literalLengthCount = 0; distanceCount = 0; codeLengthCount = 0
        codeLengthLengths = []; runs = []; headerBits = 0
    }

    /// The optimal dynamic code for `histogram`, with its smallest header.
    init(dynamicFor histogram: DeflateHistogram) {
        let counts = histogram.counts
        let literalLength = counts.withUnsafeBufferPointer {
            DeflateHuffman.lengths(UnsafeBufferPointer(rebasing: $0[0..<DeflateAlphabet.literalLengthCount]), limit: 15)
        }
        let distance = counts.withUnsafeBufferPointer {
            let start = DeflateHistogram.distanceOffset
            return DeflateHuffman.lengths(UnsafeBufferPointer(rebasing: $0[start..<start + DeflateAlphabet.distanceCount]), limit: 15)
        }
        literalLengthLengths = literalLength
        distanceLengths = distance
        isFixed = false
        literalLengthCount = max(257, (literalLength.lastIndex { $0 != 0 } ?? 0) + 1)
        distanceCount = max(1, (distance.lastIndex { $0 != 0 } ?? 0) + 1)
        let sequence = Array(literalLength[0..<literalLengthCount] + distance[0..<distanceCount])
        var best: (bits: Int, lengths: [UInt8], count: Int, runs: [(symbol: UInt8, extra: UInt8)])?
        for variant in 0..<8 {
            let runs = Self.runLengthCode(sequence, repeats: variant & 1 != 0, shortZeros: variant & 2 != 0,
                                          longZeros: variant & 4 != 0)
            var symbolCounts = [UInt32](repeating: 0, count: 19)
            for run in runs { symbolCounts[Int(run.symbol)] += 1 }
            let lengths = symbolCounts.withUnsafeBufferPointer { DeflateHuffman.lengths($0, limit: 7) }
            let sent = max(4, (Self.codeLengthOrder.lastIndex { lengths[$0] != 0 } ?? 0) + 1)
            var bits = 5 + 5 + 4 + 3 * sent
            for run in runs {
                bits += Int(lengths[Int(run.symbol)]) + Self.extraBits(ofCodeLengthSymbol: Int(run.symbol))
            }
            if best == nil || bits < best!.bits { best = (bits, lengths, sent, runs) }
        }
        codeLengthLengths = best!.lengths
        codeLengthCount = best!.count
        runs = best!.runs
        headerBits = best!.bits
    }

    /// The extra bits after a code-length symbol: 2, 3 and 7 after 16, 17 and 18, else none.
    private static func extraBits(ofCodeLengthSymbol symbol: Int) -> Int { symbol < 16 ? 0 : [2, 3, 7][symbol - 16] }

    /// The code-length sequence as run-length symbols, using the repeat symbols allowed.
    private static func runLengthCode(_ lengths: [UInt8], repeats: Bool, shortZeros: Bool, longZeros: Bool)
        -> [(symbol: UInt8, extra: UInt8)] {
        var runs: [(symbol: UInt8, extra: UInt8)] = []
        var i = 0
        while i < lengths.count {
            let value = lengths[i]
            var run = 1
            while i + run < lengths.count && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while longZeros && run >= 11 {
                    let n = min(run, 138); runs.append((18, UInt8(n - 11))); run -= n
                }
                while shortZeros && run >= 3 {
                    let n = min(run, 10); runs.append((17, UInt8(n - 3))); run -= n
                }
            } else {
                runs.append((value, 0)); run -= 1
                while repeats && run >= 3 {
                    let n = min(run, 6); runs.append((16, UInt8(n - 3))); run -= n
                }
            }
            for _ in 0..<run { runs.append((value, 0)) }
        }
        return runs
    }

    /// The bits of the symbols counted in `histogram` (end-of-block included) under this code.
    func bodyBits(_ histogram: DeflateHistogram) -> Int {
        var bits = histogram.extraBits
        let counts = histogram.counts
        for s in 0..<DeflateAlphabet.literalLengthCount { bits += Int(counts[s]) * Int(literalLengthLengths[s]) }
        for s in 0..<DeflateAlphabet.distanceCount {
            bits += Int(counts[DeflateHistogram.distanceOffset + s]) * Int(distanceLengths[s])
        }
        return bits
    }

    /// The whole block's size in bits, type bits included, for the tokens of `histogram`.
    func blockBits(_ histogram: DeflateHistogram) -> Int { 3 + headerBits + bodyBits(histogram) }

    /// The size in bits of `byteCount` bytes as stored blocks, starting `bitOffset` bits into
    /// the output (the first block's padding depends on it).
    static func storedBits(byteCount: Int, bitOffset: Int) -> Int {
        let blocks = max(1, (byteCount + 65534) / 65535)
        let firstPadding = (8 - (bitOffset + 3) % 8) % 8
        return 3 + firstPadding + 32 + (blocks - 1) * 40 + 8 * byteCount
    }

    /// Writes a block with this code: header, `tokens`, end of block.
    ///
    /// - Precondition: every symbol of `tokens` has a code (it was counted in the histogram
    ///   this code was built for, or the code is fixed).
    func write(_ tokens: UnsafeBufferPointer<DeflateToken>, isFinal: Bool, to writer: inout DeflateBitWriter) {
        writer.write(isFinal ? 1 : 0, 1)
        writer.write(isFixed ? 1 : 2, 2)
        if !isFixed {
            writer.write(literalLengthCount - 257, 5)
            writer.write(distanceCount - 1, 5)
            writer.write(codeLengthCount - 4, 4)
            for i in 0..<codeLengthCount { writer.write(Int(codeLengthLengths[Self.codeLengthOrder[i]]), 3) }
            let codeLengthCodes = DeflateHuffman.codes(codeLengthLengths)
            for run in runs {
                let symbol = Int(run.symbol)
                writer.write(Int(codeLengthCodes[symbol]), Int(codeLengthLengths[symbol]))
                writer.write(Int(run.extra), Self.extraBits(ofCodeLengthSymbol: symbol))
            }
        }
        let literalCodes = DeflateHuffman.codes(literalLengthLengths), distanceCodes = DeflateHuffman.codes(distanceLengths)
        literalCodes.withUnsafeBufferPointer { literalCodes in
            literalLengthLengths.withUnsafeBufferPointer { literalLengths in
                distanceCodes.withUnsafeBufferPointer { distanceCodes in
                    distanceLengths.withUnsafeBufferPointer { distanceLengths in
                        for token in tokens {
                            if token.length == 0 {
                                let s = Int(token.value)
                                writer.write(Int(literalCodes[s]), Int(literalLengths[s]))
                                continue
                            }
                            let length = Int(token.length), code = Int(DeflateAlphabet.lengthCode[length])
                            writer.write(Int(literalCodes[257 + code]), Int(literalLengths[257 + code]))
                            writer.write(length - DeflateAlphabet.lengthBase[code], DeflateAlphabet.lengthExtraBits[code])
                            let distance = Int(token.value), d = DeflateAlphabet.distanceCode(distance)
                            writer.write(Int(distanceCodes[d]), Int(distanceLengths[d]))
                            writer.write(distance - DeflateAlphabet.distanceBase[d], DeflateAlphabet.distanceExtraBits[d])
                        }
                        let end = DeflateAlphabet.endOfBlock
                        writer.write(Int(literalCodes[end]), Int(literalLengths[end]))
                    }
                }
            }
        }
    }

    /// Writes `bytes` as stored blocks of at most 65535 bytes; the last is final if `isFinal`.
    static func writeStored(_ bytes: UnsafeBufferPointer<UInt8>, isFinal: Bool, to writer: inout DeflateBitWriter) {
        var start = 0
        repeat {
            let end = min(start + 65535, bytes.count)
            writer.write(isFinal && end == bytes.count ? 1 : 0, 1)
            writer.write(0, 2)
            writer.alignToByte()
            writer.write(end - start, 16)
            writer.write(0xFFFF ^ (end - start), 16)
            writer.append(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            start = end
        } while start < bytes.count
    }
}
