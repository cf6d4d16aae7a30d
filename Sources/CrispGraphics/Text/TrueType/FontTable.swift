import Foundation

/// A bounds-checked, big-endian view of one table of a font file.
///
/// Every read names the table in its error, so a fault in a mutated file reads like
/// "table 'glyf' is truncated: reading 2 bytes at offset 7712 of a 7700-byte table". Offsets
/// are relative to the table's start; a table never reads bytes of its neighbours.
struct FontTable: Sendable {
    let tag: String
    /// The whole file, shared by every table.
    let file: [UInt8]
    /// The table's first byte in `file`.
    let start: Int
    /// The table's length in bytes.
    let length: Int

    init(tag: String, file: [UInt8], start: Int, length: Int) {
        self.tag = tag
        self.file = file
        self.start = start
        self.length = length
    }

    /// Checks that `count` bytes at `offset` lie inside the table.
    @inline(__always)
    func require(_ offset: Int, _ count: Int) throws(FontError) {
        guard offset >= 0, count >= 0, offset <= length - count else {
            throw .truncated(table: tag, offset: offset, length: count, tableLength: length)
        }
    }

    func u8(_ offset: Int) throws(FontError) -> UInt8 {
        try require(offset, 1)
        return file[start + offset]
    }

    func i8(_ offset: Int) throws(FontError) -> Int8 { Int8(bitPattern: try u8(offset)) }

    func u16(_ offset: Int) throws(FontError) -> UInt16 {
        try require(offset, 2)
        let p = start + offset
        return UInt16(file[p]) << 8 | UInt16(file[p + 1])
    }

    func i16(_ offset: Int) throws(FontError) -> Int16 { Int16(bitPattern: try u16(offset)) }

    func u32(_ offset: Int) throws(FontError) -> UInt32 {
        try require(offset, 4)
        let p = start + offset
        return UInt32(file[p]) << 24 | UInt32(file[p + 1]) << 16 | UInt32(file[p + 2]) << 8 | UInt32(file[p + 3])
    }

    /// A signed 2.14 fixed-point number.
    func f2dot14(_ offset: Int) throws(FontError) -> Double { Double(try i16(offset)) / 16384 }

    /// A sub-view of `count` bytes at `offset`, checked to lie inside this table.
    func slice(_ offset: Int, _ count: Int) throws(FontError) -> FontTable {
        try require(offset, count)
        return FontTable(tag: tag, file: file, start: start + offset, length: count)
    }

    /// The bytes from `offset` to the end of this table.
    func tail(from offset: Int) throws(FontError) -> FontTable {
        try require(offset, 0)
        return FontTable(tag: tag, file: file, start: start + offset, length: length - offset)
    }
}
