// What each literal, match length and distance is expected to cost, in bits, for the parser.
//
// The near-optimal parse needs prices before it knows the parse that sets them. The answer,
// from Zopfli and libdeflate, is to iterate: parse with some prices, count the symbols the parse
// used, price each symbol at the length of its Huffman code for those counts (plus its extra
// bits), and parse again. The first prices come from a greedy parse's counts. A symbol the
// previous parse never used has no code length; it is priced like a rare symbol (13 bits for a
// literal or length code, 10 for a distance code — libdeflate's defaults), expensive enough
// not to be chosen lightly, cheap enough that a long match through it can still win.
//
// Rejected alternative: entropy prices (−log₂ p, Zopfli's choice). They are fractional, so the
// parse sees differences a real code cannot deliver; the code lengths are what the block will
// actually pay. On a retina screenshot's filtered rows entropy prices came out 1.7 % larger
// with long matches skipped and 0.1 % smaller without (99 491 / 95 682 against 97 784 / 95 772
// bytes): not worth a second model.

/// Bit prices of deflate symbols for the optimal parse.
struct DeflateCostModel {
    /// The price of each byte as a literal.
    var literal: [Float]
    /// The price of each match length 0…258 (code and extra bits; 0…2 unused).
    var length: [Float]
    /// The price of each distance code 0…29 (code and extra bits).
    var distanceCode: [Float]

    /// Prices of the fixed code (block type 1).
    static let fixed = DeflateCostModel(literalLengthLengths: DeflateAlphabet.fixedLiteralLengthLengths,
                                        distanceLengths: DeflateAlphabet.fixedDistanceLengths,
                                        unusedLiteralLength: 8, unusedDistance: 5)

    /// Prices from the optimal code for `histogram`.
    init(_ histogram: DeflateHistogram) {
        let code = DeflateBlockCode(dynamicFor: histogram)
        // A code built for a single symbol gives an unused one length 1: price the counts.
        var literalLengths = code.literalLengthLengths, distanceLengths = code.distanceLengths
        for s in literalLengths.indices where histogram.counts[s] == 0 { literalLengths[s] = 0 }
        for s in distanceLengths.indices where histogram.counts[DeflateHistogram.distanceOffset + s] == 0 { distanceLengths[s] = 0 }
        self.init(literalLengthLengths: literalLengths, distanceLengths: distanceLengths, unusedLiteralLength: 13, unusedDistance: 10)
    }

    private init(literalLengthLengths: [UInt8], distanceLengths: [UInt8], unusedLiteralLength: Float, unusedDistance: Float) {
        func price(_ length: UInt8, unused: Float) -> Float { length == 0 ? unused : Float(length) }
        literal = (0..<256).map { price(literalLengthLengths[$0], unused: unusedLiteralLength) }
        length = (0...DeflateAlphabet.maximumMatch).map { length in
            guard length >= DeflateAlphabet.minimumMatch else { return 0 }
            let code = Int(DeflateAlphabet.lengthCode[length])
            return price(literalLengthLengths[257 + code], unused: unusedLiteralLength) + Float(DeflateAlphabet.lengthExtraBits[code])
        }
        distanceCode = (0..<DeflateAlphabet.distanceCount).map {
            price(distanceLengths[$0], unused: unusedDistance) + Float(DeflateAlphabet.distanceExtraBits[$0])
        }
    }
}
