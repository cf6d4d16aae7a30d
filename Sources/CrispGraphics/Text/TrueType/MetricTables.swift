import Foundation

// The font-wide tables every TrueType font carries: 'head' (units per em, bounding box, loca
// format), 'maxp' (glyph count), 'hhea' + 'hmtx' (line metrics and advance widths) and, optionally,
// 'OS/2' (typographic metrics, cap height, x-height). Fields are read once; advance widths are
// read in place from 'hmtx' when asked for.

/// Fields of 'head' and 'maxp'.
struct FontHeader: Sendable {
    let unitsPerEm: Int
    /// The union of all glyph bounding boxes, in font units.
    let boundingBox: CGRect
    /// Whether 'loca' holds 32-bit offsets (`indexToLocFormat` 1) rather than 16-bit halves.
    let hasLongOffsets: Bool
    let glyphCount: Int

    init(head: FontTable, maxp: FontTable) throws(FontError) {
        let upem = Int(try head.u16(18))
        // The spec allows 16…16384; anything else makes every metric meaningless.
        guard (16...16384).contains(upem) else { throw .invalidValue(table: "head", field: "unitsPerEm", value: upem) }
        unitsPerEm = upem
        let xMin = Int(try head.i16(36)), yMin = Int(try head.i16(38))
        let xMax = Int(try head.i16(40)), yMax = Int(try head.i16(42))
        boundingBox = CGRect(x: xMin, y: yMin, width: max(0, xMax - xMin), height: max(0, yMax - yMin))
        let locaFormat = Int(try head.i16(50))
        guard locaFormat == 0 || locaFormat == 1 else {
            throw .invalidValue(table: "head", field: "indexToLocFormat", value: locaFormat)
        }
        hasLongOffsets = locaFormat == 1
        glyphCount = Int(try maxp.u16(4))
        guard glyphCount > 0 else { throw .invalidValue(table: "maxp", field: "numGlyphs", value: 0) }
    }
}

/// 'hhea' line metrics and 'hmtx' advance widths.
struct HorizontalMetrics: Sendable {
    let ascender: Int
    /// Negative below the baseline, as stored.
    let descender: Int
    let lineGap: Int
    private let hmtx: FontTable
    private let metricCount: Int

    init(hhea: FontTable, hmtx: FontTable, glyphCount: Int) throws(FontError) {
        ascender = Int(try hhea.i16(4))
        descender = Int(try hhea.i16(6))
        lineGap = Int(try hhea.i16(8))
        let count = Int(try hhea.u16(34))
        guard count >= 1, count <= glyphCount else {
            throw .invalidValue(table: "hhea", field: "numberOfHMetrics", value: count)
        }
        try hmtx.require(0, count * 4)
        metricCount = count
        self.hmtx = hmtx
    }

    /// The advance width of `glyph` in font units. Glyphs past `numberOfHMetrics` share the
    /// last record's advance.
    func advance(of glyph: Int) -> Int {
        let record = min(glyph, metricCount - 1)
        return Int((try? hmtx.u16(record * 4)) ?? 0)
    }
}

/// The 'OS/2' metrics Crisp uses.
struct OS2Metrics: Sendable {
    let typoAscender: Int
    let typoDescender: Int
    let typoLineGap: Int
    let winAscent: Int
    let winDescent: Int
    /// Only in version 2 and later.
    let xHeight: Int?
    let capHeight: Int?
    /// `usWeightClass` (100…900; 400 regular, 700 bold).
    let weightClass: Int
    /// `fsSelection` bit 0 (italic) or bit 9 (oblique).
    let isItalic: Bool

    init(_ t: FontTable) throws(FontError) {
        let version = Int(try t.u16(0))
        weightClass = Int(try t.u16(4))
        isItalic = try t.u16(62) & 0x201 != 0
        typoAscender = Int(try t.i16(68))
        typoDescender = Int(try t.i16(70))
        typoLineGap = Int(try t.i16(72))
        winAscent = Int(try t.u16(74))
        winDescent = Int(try t.u16(76))
        if version >= 2, t.length >= 90 {
            xHeight = Int(try t.i16(86))
            capHeight = Int(try t.i16(88))
        } else {
            xHeight = nil
            capHeight = nil
        }
    }
}

/// Names from the 'name' table.
struct FontNames: Sendable {
    var family: String?
    var subfamily: String?
    var full: String?
    var postScript: String?

    /// Reads what it can; a broken 'name' table just leaves names out.
    init(_ t: FontTable?) {
        guard let t else { return }
        family = FontNames.lookup(t, 16) ?? FontNames.lookup(t, 1)
        subfamily = FontNames.lookup(t, 17) ?? FontNames.lookup(t, 2)
        full = FontNames.lookup(t, 4)
        postScript = FontNames.lookup(t, 6)
    }

    private static func lookup(_ t: FontTable, _ nameID: UInt16) -> String? {
        guard let count = try? Int(t.u16(2)), let storage = try? Int(t.u16(4)) else { return nil }
        // Windows Unicode English first, then any Windows Unicode, then Unicode, then Mac Roman.
        var best: (rank: Int, record: Int)?
        for i in 0..<count {
            let r = 6 + i * 12
            guard let platform = try? t.u16(r), let encoding = try? t.u16(r + 2), let language = try? t.u16(r + 4),
                  let id = try? t.u16(r + 6), id == nameID else { continue }
            let rank: Int
            switch (platform, encoding) {
            case (3, 1), (3, 10): rank = language == 0x409 ? 4 : 3
            case (0, _): rank = 2
            case (1, 0): rank = 1
            default: continue
            }
            if rank > (best?.rank ?? 0) { best = (rank, r) }
        }
        guard let best, let length = try? Int(t.u16(best.record + 8)), let offset = try? Int(t.u16(best.record + 10)),
              let bytes = try? t.slice(storage + offset, length) else { return nil }
        let raw = Array(bytes.file[bytes.start..<(bytes.start + bytes.length)])
        if best.rank == 1 { return String(decoding: raw.map { $0 < 0x80 ? $0 : 0x3F }, as: UTF8.self) }
        var units: [UInt16] = []
        units.reserveCapacity(raw.count / 2)
        var i = 0
        while i + 1 < raw.count { units.append(UInt16(raw[i]) << 8 | UInt16(raw[i + 1])); i += 2 }
        return String(decoding: units, as: UTF16.self)
    }
}
