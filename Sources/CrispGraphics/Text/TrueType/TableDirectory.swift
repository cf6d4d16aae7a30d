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

    init(file: [UInt8]) throws(FontError) {
        self.file = file
        let header = FontTable(tag: "sfnt header", file: file, start: 0, length: file.count)
        let signature = try header.u32(0)
        switch signature {
        case 0x0001_0000, 0x7472_7565:   // 1.0 and 'true'
            break
        case 0x4F54_544F:                // 'OTTO'
            throw .unsupportedOutlines("OpenType with CFF outlines ('OTTO')")
        default:
            throw .notTrueType(signature: signature)
        }
        let count = Int(try header.u16(4))
        // Each record is 16 bytes; a count the file cannot hold is a lie.
        guard count > 0, 12 + count * 16 <= file.count else {
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
