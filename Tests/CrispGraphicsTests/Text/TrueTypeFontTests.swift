import Foundation
import Testing
@_spi(Testing) import CrispGraphics

// Expected values were read with fontTools by Fixtures/fonts/make_fixtures.py (its output lists
// every number used here).

@Suite struct TrueTypeFontTests {
    @Test func regularFaceMetrics() throws {
        let f = try TestFonts.regular
        #expect(f.unitsPerEm == 2048)
        #expect(f.glyphCount == 220)
        #expect(f.ascender == 1900)
        #expect(f.descender == -500)
        #expect(f.lineGap == 0)
        #expect(f.typographicAscender == 2146)
        #expect(f.typographicDescender == -555)
        #expect(f.typographicLineGap == 0)
        #expect(f.capHeight == 1456)
        #expect(f.xHeight == 1082)
        #expect(f.familyName == "Roboto")
        #expect(f.styleName == "Regular")
        #expect(f.postScriptName == "Roboto-Regular")
        #expect(f.kerningSource == .gpos)
    }

    @Test func boldFaceNames() throws {
        let f = try TestFonts.bold
        #expect(f.fullName == "Roboto Bold")
        #expect(f.styleName == "Bold")
        #expect(f.postScriptName == "Roboto-Bold")
    }

    /// (character, glyph, advance) for Regular, then Bold's advance.
    static let glyphTable: [(Unicode.Scalar, CGGlyph, Int, Int)] = [
        ("A", 34, 1336, 1379), ("V", 55, 1304, 1339), ("a", 66, 1114, 1098), ("ä", 197, 1114, 1098),
        ("ß", 130, 1218, 1292), ("ñ", 208, 1131, 1147), ("¡", 96, 500, 579), ("¿", 125, 970, 1020),
        ("€", 156, 1151, 1175), ("•", 150, 691, 736), ("\u{2212}", 158, 1171, 1138), (".", 15, 540, 596),
        ("0", 17, 1151, 1175), (" ", 1, 508, 510),
    ]

    @Test func cmapAndAdvances() throws {
        let regular = try TestFonts.regular, bold = try TestFonts.bold, fixture = try TestFonts.kernCmap12
        for (c, glyph, advance, boldAdvance) in TrueTypeFontTests.glyphTable {
            #expect(regular.glyph(for: c) == glyph, "\(c)")
            #expect(bold.glyph(for: c) == glyph, "\(c)")
            #expect(fixture.glyph(for: c) == glyph, "format 12: \(c)")
            #expect(regular.advanceWidth(of: glyph) == advance, "\(c)")
            #expect(bold.advanceWidth(of: glyph) == boldAdvance, "\(c)")
        }
        // Unmapped characters give .notdef; U+1D400 exists only in the format 12 fixture.
        #expect(regular.glyph(for: "\u{100}") == 0)
        #expect(regular.glyph(for: "\u{1D400}") == 0)
        #expect(fixture.glyph(for: "\u{1D400}") == 34)
        #expect(fixture.glyph(for: "\u{1D401}") == 0)
    }

    /// (left, right, Regular, Bold).
    static let kernPairs: [(CGGlyph, CGGlyph, Int, Int)] = [
        (34, 55, -87, -77), (53, 80, -99, -208), (55, 34, -75, -75), (45, 53, -275, -205),
        (39, 66, -34, -34), (80, 80, 0, 0), (144, 84, -112, -232),
    ]

    @Test func gposAndKernTablePairKerning() throws {
        let regular = try TestFonts.regular, bold = try TestFonts.bold, fixture = try TestFonts.kernCmap12
        #expect(fixture.kerningSource == .kern)
        for (l, r, value, boldValue) in TrueTypeFontTests.kernPairs {
            #expect(regular.kerning(between: l, and: r) == value, "GPOS \(l) \(r)")
            #expect(bold.kerning(between: l, and: r) == boldValue, "GPOS bold \(l) \(r)")
            #expect(fixture.kerning(between: l, and: r) == value, "kern \(l) \(r)")
        }
    }

    @Test func compositeGlyphs() throws {
        let regular = try TestFonts.regular, fixture = try TestFonts.kernCmap12
        // Adieresis: A + dieresis with offsets; expanded point count and end points.
        let adieresis = try regular.outline(of: 171)
        #expect(adieresis.points.count == 35)
        #expect(adieresis.contourEnds.count == 4)
        #expect(adieresis.points.first.map { CGPoint(x: $0.x, y: $0.y) } == CGPoint(x: 29, y: 0))
        #expect(adieresis.points.last.map { CGPoint(x: $0.x, y: $0.y) } == CGPoint(x: 781, y: 1637))
        #expect(try regular.pointCount(of: 171) == 35)
        // Scaled component (0.5) with an offset.
        let aring = try fixture.outline(of: 172)
        #expect(aring.points.count == 33)
        #expect(aring.points.last.map { CGPoint(x: $0.x, y: $0.y) } == CGPoint(x: 410, y: 1128))
        // Point matching: the tilde's point 0 lands on A's point 2.
        let atilde = try fixture.outline(of: 170)
        #expect(atilde.points.count == 35)
        #expect(atilde.contourEnds.count == 3)
        #expect(atilde.points.last.map { CGPoint(x: $0.x, y: $0.y) } == CGPoint(x: 753, y: 1409))
        #expect(atilde.points[11].x == atilde.points[2].x && atilde.points[11].y == atilde.points[2].y)
    }

    @Test func simpleGlyphsAndNotdef() throws {
        let f = try TestFonts.regular
        let o = try f.outline(of: 80)
        #expect(o.points.count == 27)
        #expect(o.contourEnds.count == 2)
        #expect(o.points.first.map { CGPoint(x: $0.x, y: $0.y) } == CGPoint(x: 92, y: 552))
        let notdef = try f.outline(of: 0)
        #expect(notdef.points.count == 16)
        #expect(notdef.contourEnds.count == 5)
        #expect(try f.path(for: 1).isEmpty, "space has no outline")
    }

    @Test func glyphPathsAreClosedQuadraticOutlines() throws {
        let f = try TestFonts.regular
        let path = try f.path(for: 80)   // 'o'
        var moves = 0, closes = 0, quads = 0
        for e in path.elements {
            switch e {
            case .moveTo: moves += 1
            case .closeSubpath: closes += 1
            case .quadCurveTo: quads += 1
            default: break
            }
        }
        #expect(moves == 2 && closes == 2 && quads > 8)
        // The outline's tight bounds agree with the glyph's header box (read with fontTools: 92…1077 × -20…1102).
        let box = path.boundingBoxOfPath
        #expect(abs(box.minX - 92) < 1 && abs(box.maxX - 1077) < 1)
        #expect(abs(box.minY + 20) < 1 && abs(box.maxY - 1102) < 1)
    }

    @Test func outOfRangeGlyphs() throws {
        let f = try TestFonts.regular
        #expect(throws: FontError.glyphOutOfRange(glyph: 220, glyphCount: 220)) { try f.path(for: 220) }
        #expect(f.advanceWidth(of: 999) == 0)
        #expect(f.kerning(between: 999, and: 1000) == 0)
    }
}
