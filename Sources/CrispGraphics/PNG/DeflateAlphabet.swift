// Deflate's symbols (RFC 1951 §3.2.5): how match lengths and distances map to codes and
// extra bits, and the fixed Huffman code of block type 1.
//
// A deflate block codes two alphabets. The literal/length alphabet holds the 256 byte values,
// the end-of-block marker (256) and 29 length codes (257…285), each standing for a range of
// match lengths 3…258 told apart by extra bits written after the code; the distance alphabet
// holds 30 codes for the distances 1…32768, likewise with extra bits. Everything here is a
// table lookup, computed once from the RFC's base/extra-bit lists rather than written out as
// 258- and 32768-entry literals: the lists are the specification, the tables follow from them.

/// The deflate alphabets: lengths, distances, their codes and extra bits.
enum DeflateAlphabet {
    /// Size of the literal/length alphabet as used in blocks (0…285).
    static let literalLengthCount = 286
    /// Size of the distance alphabet as used in blocks (0…29).
    static let distanceCount = 30
    /// The end-of-block symbol.
    static let endOfBlock = 256
    /// The shortest and longest match.
    static let minimumMatch = 3, maximumMatch = 258
    /// The farthest a match may reach back.
    static let windowSize = 32768

    /// The first length of each length code 257…285, and its extra bits.
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtraBits: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                         3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// The first distance of each distance code 0…29, and its extra bits.
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                      513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtraBits: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
                                           8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The length code index (0…28, symbol − 257) of every match length 0…258 (below 3: 0).
    static let lengthCode: [UInt8] = {
        var table = [UInt8](repeating: 0, count: maximumMatch + 1)
        for code in 0..<lengthBase.count {
            let end = code + 1 < lengthBase.count ? lengthBase[code + 1] : maximumMatch + 1
            for length in lengthBase[code]..<min(end, maximumMatch + 1) { table[length] = UInt8(code) }
        }
        return table
    }()

    /// The distance code of every distance 1…256 (index distance − 1), and of every larger
    /// distance by `(distance − 1) >> 7` (index 256 + that).
    private static let distanceCodeTable: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 512)
        for code in 0..<distanceBase.count {
            let first = distanceBase[code], last = first + (1 << distanceExtraBits[code]) - 1
            for distance in first...last {
                if distance <= 256 { table[distance - 1] = UInt8(code) }
                if distance > 256 { table[256 + ((distance - 1) >> 7)] = UInt8(code) }
            }
        }
        return table
    }()

    /// The distance code (0…29) of `distance` (1…32768).
    @inline(__always)
    static func distanceCode(_ distance: Int) -> Int {
        distanceCodeTable.withUnsafeBufferPointer { table in
            Int(distance <= 256 ? table[distance - 1] : table[256 + ((distance - 1) >> 7)])
        }
    }

    /// The code lengths of the fixed Huffman code (block type 1): literal/length symbols
    /// 0…287 then distance symbols 0…29.
    static let fixedLiteralLengthLengths: [UInt8] = (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)
}
