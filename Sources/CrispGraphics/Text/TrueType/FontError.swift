import Foundation

/// Why a font file could not be read.
///
/// Every malformed input the TrueType reader meets ends in one of these, with enough detail to
/// find the fault with a hex dump: the table, the byte offset and what was expected there.
public enum FontError: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file does not start with a TrueType signature (`0x00010000` or `true`).
    case notTrueType(signature: UInt32)
    /// The file is an OpenType font with CFF outlines (`OTTO`), which Crisp does not draw.
    case unsupportedOutlines(String)
    /// A required table is absent.
    case missingTable(String)
    /// A table record points outside the file.
    case tableOutsideFile(table: String, offset: Int, length: Int, fileSize: Int)
    /// A read of `length` bytes at `offset` (relative to the table) runs past the table's end.
    case truncated(table: String, offset: Int, length: Int, tableLength: Int)
    /// A field holds a value the format does not allow (an absurd count, an unknown version, …).
    case invalidValue(table: String, field: String, value: Int)
    /// A composite glyph refers, directly or through other composites, to itself.
    case compositeLoop(glyph: Int)
    /// Composite glyphs nest deeper than `limit` levels.
    case compositeTooDeep(glyph: Int, limit: Int)
    /// A glyph would have more than `limit` points or components once composites are expanded.
    case glyphTooComplex(glyph: Int, limit: Int)
    /// A glyph index at or beyond the font's glyph count.
    case glyphOutOfRange(glyph: Int, glyphCount: Int)

    public var description: String {
        switch self {
        case .notTrueType(let signature):
            return String(format: "not a TrueType font: signature 0x%08X (expected 0x00010000 or 'true')", signature)
        case .unsupportedOutlines(let kind):
            return "unsupported outlines: \(kind) (only TrueType 'glyf' outlines are drawn)"
        case .missingTable(let tag):
            return "required table '\(tag)' is missing"
        case .tableOutsideFile(let table, let offset, let length, let fileSize):
            return "table '\(table)' at offset \(offset), length \(length), lies outside the \(fileSize)-byte file"
        case .truncated(let table, let offset, let length, let tableLength):
            return "table '\(table)' is truncated: reading \(length) bytes at offset \(offset) of a \(tableLength)-byte table"
        case .invalidValue(let table, let field, let value):
            return "table '\(table)': invalid \(field) \(value)"
        case .compositeLoop(let glyph):
            return "composite glyph \(glyph) refers to itself"
        case .compositeTooDeep(let glyph, let limit):
            return "composite glyph \(glyph) nests components deeper than \(limit) levels"
        case .glyphTooComplex(let glyph, let limit):
            return "glyph \(glyph) expands to more than \(limit) points or components"
        case .glyphOutOfRange(let glyph, let glyphCount):
            return "glyph \(glyph) is out of range (the font has \(glyphCount) glyphs)"
        }
    }
}
