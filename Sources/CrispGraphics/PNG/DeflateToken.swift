// One step of an LZ77 parse: a literal byte or a back-reference (length 3…258, distance
// 1…32768). Four bytes, so a parse of a megabyte segment stays a few megabytes.

/// A literal or a match in a deflate parse.
struct DeflateToken: Equatable {
    /// 0 for a literal, else the match length 3…258.
    let length: UInt16
    /// The literal byte, or the match distance 1…32768.
    let value: UInt16

    /// A literal byte.
    init(literal: UInt8) {
        length = 0
        value = UInt16(literal)
    }

    /// A match of `length` bytes `distance` bytes back.
    init(length: Int, distance: Int) {
        self.length = UInt16(length)
        value = UInt16(distance)
    }

    /// The number of input bytes the token stands for.
    var byteCount: Int { length == 0 ? 1 : Int(length) }
}
