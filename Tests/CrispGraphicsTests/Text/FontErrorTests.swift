import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// Byte surgery on a font file for the malformed-input tests.
struct FontPatcher {
    var bytes: [UInt8]

    func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
    func u32(_ at: Int) -> Int { u16(at) << 16 | u16(at + 2) }
    mutating func setU16(_ at: Int, _ v: Int) { bytes[at] = UInt8((v >> 8) & 0xFF); bytes[at + 1] = UInt8(v & 0xFF) }
    mutating func setU32(_ at: Int, _ v: Int) { setU16(at, (v >> 16) & 0xFFFF); setU16(at + 2, v & 0xFFFF) }

    /// The position of `tag`'s table record in the directory.
    func record(_ tag: String) -> Int? {
        let count = u16(4)
        for i in 0..<count {
            let r = 12 + i * 16
            if String(decoding: bytes[r..<(r + 4)], as: UTF8.self) == tag { return r }
        }
        return nil
    }

    func tableOffset(_ tag: String) -> Int { u32(record(tag)! + 8) }

    /// The offset in the file of a glyph's data (short 'loca', as the bundled fonts have).
    func glyphOffset(_ glyph: Int) -> Int { tableOffset("glyf") + u16(tableOffset("loca") + glyph * 2) * 2 }

    func isComposite(_ glyph: Int) -> Bool {
        let start = u16(tableOffset("loca") + glyph * 2), end = u16(tableOffset("loca") + glyph * 2 + 2)
        return end > start && u16(glyphOffset(glyph)) >= 0x8000
    }

    /// Points the first component of composite `glyph` at `target`.
    mutating func setFirstComponent(of glyph: Int, to target: Int) { setU16(glyphOffset(glyph) + 12, target) }
}

@Suite struct FontErrorTests {
    static func regularBytes() throws -> FontPatcher { FontPatcher(bytes: try TestFonts.bytes("Roboto-Regular.ttf")) }

    @Test func compositeReferringToItself() throws {
        var p = try FontErrorTests.regularBytes()
        p.setFirstComponent(of: 171, to: 171)
        let font = try TrueTypeFont(data: p.bytes)
        #expect(throws: FontError.compositeLoop(glyph: 171)) { try font.path(for: 171) }
        // Other glyphs still work, and drawing the broken one draws nothing rather than crashing.
        #expect(try !font.path(for: 34).isEmpty)
        let ctx = CGContext(width: 40, height: 40)!
        ctx.textPosition = CGPoint(x: 5, y: 10)
        CTLine(string: "Ä", font: CTFont(face: font, size: 20)).draw(in: ctx)
        #expect(ctx.coveredArea == 0)
    }

    @Test func compositeLoopThroughAnotherGlyph() throws {
        var p = try FontErrorTests.regularBytes()
        p.setFirstComponent(of: 171, to: 197)
        p.setFirstComponent(of: 197, to: 171)
        let font = try TrueTypeFont(data: p.bytes)
        #expect(throws: FontError.compositeLoop(glyph: 171)) { try font.path(for: 171) }
        #expect(throws: FontError.compositeLoop(glyph: 197)) { try font.path(for: 197) }
    }

    @Test func compositesNestedTooDeep() throws {
        var p = try FontErrorTests.regularBytes()
        let composites = (0..<220).filter { p.isComposite($0) }
        #expect(composites.count > 20)
        let chain = Array(composites.prefix(GlyphOutlineReader.maximumDepth + 3))
        for (a, b) in zip(chain, chain.dropFirst()) { p.setFirstComponent(of: a, to: b) }
        let font = try TrueTypeFont(data: p.bytes)
        #expect(throws: FontError.compositeTooDeep(glyph: chain[0], limit: GlyphOutlineReader.maximumDepth)) {
            try font.path(for: CGGlyph(chain[0]))
        }
        // A short chain is fine.
        #expect(try !font.path(for: CGGlyph(chain[chain.count - 3])).isEmpty)
    }

    @Test func componentOutOfRange() throws {
        var p = try FontErrorTests.regularBytes()
        p.setFirstComponent(of: 171, to: 5000)
        let font = try TrueTypeFont(data: p.bytes)
        #expect(throws: FontError.glyphOutOfRange(glyph: 5000, glyphCount: 220)) { try font.path(for: 171) }
    }

    @Test func signatures() throws {
        var p = try FontErrorTests.regularBytes()
        // CFF-flavoured ('OTTO') without a 'CFF ' table: refused, naming the table.
        var otto = p
        otto.setU32(0, 0x4F54_544F)
        otto.setU32(otto.record("glyf")!, 0x7878_7878)
        #expect(throws: FontError.missingTable("CFF ")) { try TrueTypeFont(data: otto.bytes) }
        p.setU32(0, 0x1234_5678)
        #expect(throws: FontError.notTrueType(signature: 0x1234_5678)) { try TrueTypeFont(data: p.bytes) }
        #expect(throws: FontError.self) { try TrueTypeFont(data: []) }
        #expect(throws: FontError.self) { try TrueTypeFont(data: Array("hello".utf8)) }
    }

    @Test func tableOutsideTheFile() throws {
        var p = try FontErrorTests.regularBytes()
        let r = p.record("glyf")!
        p.setU32(r + 12, 0x7FFF_FFF0)
        #expect(throws: FontError.tableOutsideFile(table: "glyf", offset: p.u32(r + 8), length: 0x7FFF_FFF0,
                                                   fileSize: p.bytes.count)) { try TrueTypeFont(data: p.bytes) }
    }

    @Test func missingTable() throws {
        var p = try FontErrorTests.regularBytes()
        let r = p.record("hmtx")!
        p.bytes[r] = UInt8(ascii: "x")
        #expect(throws: FontError.missingTable("hmtx")) { try TrueTypeFont(data: p.bytes) }
    }

    @Test func absurdCounts() throws {
        var p = try FontErrorTests.regularBytes()
        p.setU16(4, 0xFFFF)   // numTables
        #expect(throws: FontError.invalidValue(table: "sfnt header", field: "numTables", value: 0xFFFF)) {
            try TrueTypeFont(data: p.bytes)
        }
        p = try FontErrorTests.regularBytes()
        p.setU16(p.tableOffset("maxp") + 4, 60000)   // numGlyphs: 'loca' cannot hold them
        #expect(throws: FontError.self) { try TrueTypeFont(data: p.bytes) }
        p = try FontErrorTests.regularBytes()
        p.setU16(p.tableOffset("hhea") + 34, 5000)   // numberOfHMetrics > numGlyphs
        #expect(throws: FontError.invalidValue(table: "hhea", field: "numberOfHMetrics", value: 5000)) {
            try TrueTypeFont(data: p.bytes)
        }
        p = try FontErrorTests.regularBytes()
        p.setU16(p.tableOffset("head") + 18, 3)      // unitsPerEm
        #expect(throws: FontError.invalidValue(table: "head", field: "unitsPerEm", value: 3)) {
            try TrueTypeFont(data: p.bytes)
        }
    }

    @Test func truncatedFiles() throws {
        let bytes = try TestFonts.bytes("Roboto-Regular.ttf")
        for length in [0, 3, 11, 12, 100, 1000, bytes.count / 2, bytes.count - 1] {
            #expect(throws: FontError.self, "length \(length)") { try TrueTypeFont(data: Array(bytes.prefix(length))) }
        }
    }

    @Test func errorsDescribeThemselves() {
        let e = FontError.truncated(table: "glyf", offset: 7712, length: 2, tableLength: 7700)
        #expect(e.description == "table 'glyf' is truncated: reading 2 bytes at offset 7712 of a 7700-byte table")
        #expect(FontError.compositeLoop(glyph: 3).description.contains("refers to itself"))
    }
}
