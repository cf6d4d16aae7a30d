// How often each deflate symbol occurs in a run of tokens: the statistics from which a block's
// Huffman codes, its exact size and the parser's next cost model are computed. One flat array
// (literal/length symbols 0…287, then distance symbols at 288…317) so that the block splitter
// can keep snapshots and subtract them cheaply.

/// Symbol counts of a run of deflate tokens, the end-of-block symbol included.
struct DeflateHistogram: Equatable {
    /// Where the distance symbols start in `counts`.
    static let distanceOffset = 288
    /// Literal/length counts at 0…285, distance counts at `distanceOffset` + 0…29.
    var counts: [UInt32]

    /// The histogram of an empty block (the end-of-block symbol only).
    init() {
        counts = [UInt32](repeating: 0, count: Self.distanceOffset + 32)
        counts[DeflateAlphabet.endOfBlock] = 1
    }

    /// The histogram of `tokens` and one end-of-block symbol.
    init(_ tokens: some Sequence<DeflateToken>) {
        self.init()
        for token in tokens { add(token) }
    }

    /// Counts one more token.
    @inline(__always)
    mutating func add(_ token: DeflateToken) {
        if token.length == 0 {
            counts[Int(token.value)] += 1
        } else {
            counts[257 + Int(DeflateAlphabet.lengthCode[Int(token.length)])] += 1
            counts[Self.distanceOffset + DeflateAlphabet.distanceCode(Int(token.value))] += 1
        }
    }

    /// The counts of `self` minus those of `other` (a histogram of a sub-run); the
    /// end-of-block count stays 1.
    func subtracting(_ other: DeflateHistogram) -> DeflateHistogram {
        var result = self
        for i in counts.indices { result.counts[i] -= other.counts[i] }
        result.counts[DeflateAlphabet.endOfBlock] = 1
        return result
    }

    /// The extra bits the counted length and distance symbols carry.
    var extraBits: Int {
        var bits = 0
        for code in 0..<29 { bits += Int(counts[257 + code]) * DeflateAlphabet.lengthExtraBits[code] }
        for code in 0..<30 { bits += Int(counts[Self.distanceOffset + code]) * DeflateAlphabet.distanceExtraBits[code] }
        return bits
    }
}
