import Foundation

/// The sfnt table directory at the start of a TrueType file: which tables exist and where.
///
/// Records of tables Crisp never reads are kept without validation; a table is checked against
/// the file's size when it is asked for, so a broken record for, say, `DSIG` does not make a
/// usable font unreadable.
struct TableDirectory: Sendable {
    private struct Record: Sendable {
        var offset: Int
        var length: Int
    }

    let file: [UInt8]
    private var records: [String: Record] = [:]
    /// Whether the face's outlines are CFF-flavoured OpenType (signature 'OTTO').
    let isCFFFlavoured: Bool

    /// The number of faces in a font file: a collection's ('ttcf') count, else 1. Throws when
    /// the collection's header is malformed.
    static func faceCount(file: [UInt8]) throws(FontError) -> Int {
        let header = FontTable(tag: "ttcf header", file: file, start: 0, length: file.count)
        guard try header.u32(0) == 0x7474_6366 else { return 1 }
        let count = Int(try header.u32(8))
        guard count > 0, count <= (file.count - 12) / 4 else {
            throw .invalidValue(table: "ttcf header", field: "numFonts", value: count)
        }
        return count
    }

    /// The table directory of face `faceIndex` (0 unless the file is a collection).
    init(file: [UInt8], faceIndex: Int = 0) throws(FontError) {
        self.file = file
        var base = 0
        let whole = FontTable(tag: "sfnt header", file: file, start: 0, length: file.count)
        if try whole.u32(0) == 0x7474_6366 {       // 'ttcf': a collection; table offsets stay file-relative
            let count = try TableDirectory.faceCount(file: file)
            guard faceIndex >= 0, faceIndex < count else {
                throw .invalidValue(table: "ttcf header", field: "face index", value: faceIndex)
            }
            base = Int(try whole.u32(12 + 4 * faceIndex))
            guard base <= file.count - 12 else {
                throw .tableOutsideFile(table: "ttcf face \(faceIndex)", offset: base, length: 12, fileSize: file.count)
            }
        } else if faceIndex != 0 {
            throw .invalidValue(table: "sfnt header", field: "face index (the file is not a collection)", value: faceIndex)
        }
        let header = FontTable(tag: "sfnt header", file: file, start: base, length: file.count - base)
        let signature = try header.u32(0)
        switch signature {
        case 0x0001_0000, 0x7472_7565:   // 1.0 and 'true'
            isCFFFlavoured = false
        case 0x4F54_544F:                // 'OTTO'
            isCFFFlavoured = true
        default:
            throw .notTrueType(signature: signature)
        }
        let count = Int(try header.u16(4))
        // Each record is 16 bytes; a count the file cannot hold is a lie.
        guard count > 0, 12 + count * 16 <= file.count - base else {
            throw .invalidValue(table: "sfnt header", field: "numTables", value: count)
        }
        for i in 0..<count {
            let r = 12 + i * 16
            let tagValue = try header.u32(r)
            let tag = TableDirectory.tagString(tagValue)
            records[tag] = Record(offset: Int(try header.u32(r + 8)), length: Int(try header.u32(r + 12)))
        }
    }

    /// Whether the directory lists `tag`.
    func contains(_ tag: String) -> Bool { records[tag] != nil }

    /// The table `tag`, checked to lie inside the file; nil when the directory does not list it.
    func table(_ tag: String) throws(FontError) -> FontTable? {
        guard let r = records[tag] else { return nil }
        guard r.offset <= file.count, r.length <= file.count - r.offset else {
            throw .tableOutsideFile(table: tag, offset: r.offset, length: r.length, fileSize: file.count)
        }
        return FontTable(tag: tag, file: file, start: r.offset, length: r.length)
    }

    /// The table `tag`, which the font must have.
    func requiredTable(_ tag: String) throws(FontError) -> FontTable {
        guard let t = try table(tag) else { throw .missingTable(tag) }
        return t
    }

    static func tagString(_ v: UInt32) -> String {
        let bytes = [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
        return String(decoding: bytes.map { (0x20...0x7E).contains($0) ? $0 : 0x3F }, as: UTF8.self)
    }
}
