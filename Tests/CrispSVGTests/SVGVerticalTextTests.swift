import CrispGraphics
@_spi(Testing) import CrispSVG
import CrispTestSupport
import Foundation
import Testing

// Vertical text (issue 34): `writing-mode` on the text element, `text-orientation` and
// `glyph-orientation-vertical`, with a subset of Noto Sans CJK JP (Tests/CrispGraphicsTests/
// Fixtures/fonts/NotoSansCJKjp-vertical.otf: the characters of the documents below, its
// vertical metrics and 'vert' forms) and no system fonts, so the results do not depend on the
// machine. Latin outside the subset ("a", "b") falls back to the bundled Roboto.

@Suite("SVG text: vertical writing")
struct SVGVerticalTextTests {
    static let fontURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../CrispGraphicsTests/Fixtures/fonts/NotoSansCJKjp-vertical.otf").standardizedFileURL
    static let settings: FontSettings = {
        var s = FontSettings()
        s.usesSystemFonts = false
        s.fontFiles = [fontURL]
        return s
    }()
    static let font = try! TrueTypeFont(data: [UInt8](Data(contentsOf: fontURL)))

    func document(_ body: String, width: Int = 200, height: Int = 200) throws -> SVGDocument {
        try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="\##(height)" font-family="Noto Sans CJK JP" font-size="20">\##(body)</svg>"##,
                        fontSettings: Self.settings)
    }

    /// The ink box of the document's drawing, checking it drew without warnings.
    func box(_ body: String) throws -> CGRect {
        let doc = try document(body)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        return doc.root.boundingBox
    }

    func pixels(_ body: String) throws -> [UInt32] { try #require(document(body).makeImage(scale: 2)).pixels }

    @Test func uprightCharactersStackDownTheColumnCentredOnX() throws {
        let column = try box(##"<text x="100" y="20" writing-mode="tb">日本語</text>"##)
        #expect(abs(column.midX - 100) < 1, "centred on x: \(column)")
        // Three ideographs of one em each (the font's vmtx): the ink lies inside 20…80.
        #expect(column.minY >= 20 && column.maxY <= 80 && column.height > 50, "\(column)")
        #expect(column.width < 21)
        let row = try box(##"<text x="20" y="100">日本語</text>"##)
        #expect(abs(row.width - column.height) < 2, "the same glyphs, stacked: \(row) \(column)")
    }

    @Test func latinIsTurnedClockwiseAndCentredOnTheColumn() throws {
        // A turned run is the horizontal one rotated 90° about the start, its baseline moved
        // half the ascender plus the descender below the line (the em box centred).
        let m = CTFont(face: Self.font, size: 20).lineMetrics
        let turned = try box(##"<text x="100" y="20" writing-mode="tb">Crisp</text>"##)
        let rotated = try box(##"<g transform="translate(100 20) rotate(90)"><text y="\##((m.ascender + m.descender) / 2)">Crisp</text></g>"##)
        for (a, b) in [(turned.minX, rotated.minX), (turned.maxX, rotated.maxX), (turned.minY, rotated.minY), (turned.maxY, rotated.maxY)] {
            #expect(abs(a - b) < 1e-3, "\(turned) against \(rotated)")
        }
        // The tops of the letters face right: the cap height lies right of the centre line.
        #expect(turned.maxX > 100 + 5 && turned.minX < 100)
    }

    @Test func textAnchorRunsAlongTheColumn() throws {
        let start = try pixels(##"<text x="100" y="60" writing-mode="tb">日本</text>"##)
        #expect(try pixels(##"<text x="100" y="100" writing-mode="tb" text-anchor="end">日本</text>"##) == start)
        #expect(try pixels(##"<text x="100" y="80" writing-mode="tb" text-anchor="middle">日本</text>"##) == start)
        // The pen continues down the column into the next chunk.
        #expect(try pixels(##"<text x="100" y="60" writing-mode="tb">日<tspan x="100">本</tspan></text>"##) == start)
    }

    @Test func punctuationTakesItsVerticalForm() throws {
        // The ideographic comma sits in the top right quarter of its cell upright, in the
        // bottom left horizontally; 'vert' gives another glyph.
        let vertical = try box(##"<text x="100" y="20" writing-mode="tb" font-size="40">、</text>"##)
        #expect(vertical.minX > 100 && vertical.maxY < 40, "\(vertical)")
        let horizontal = try box(##"<text x="100" y="60" font-size="40">、</text>"##)
        #expect(horizontal.maxX < 120 && horizontal.minY > 40, "\(horizontal)")
        let font = CTFont(face: Self.font, size: 20)
        #expect(font.shapedGlyphsVertically(["、"]).first?.glyph != Self.font.glyph(for: "、"))
        #expect(font.hasVerticalForm("「") && !font.hasVerticalForm("C"))
    }

    @Test func textOrientationStandsOrTurnsEveryCharacter() throws {
        // Upright Latin takes a vertical advance per letter (an em in this font).
        let upright = try box(##"<text x="100" y="20" writing-mode="tb" text-orientation="upright">CC</text>"##)
        #expect(upright.width < 20 && upright.height > 25 && abs(upright.midX - 100) < 2, "\(upright)")
        #expect(try pixels(##"<text x="100" y="20" writing-mode="tb" glyph-orientation-vertical="0">CC</text>"##)
            == pixels(##"<text x="100" y="20" writing-mode="tb" text-orientation="upright">CC</text>"##))
        // Sideways turns the ideographs too, as sideways-rl does.
        let sideways = try pixels(##"<text x="100" y="20" writing-mode="tb" text-orientation="sideways">日本 C</text>"##)
        #expect(try pixels(##"<text x="100" y="20" writing-mode="sideways-rl">日本 C</text>"##) == sideways)
        #expect(try pixels(##"<text x="100" y="20" writing-mode="tb" glyph-orientation-vertical="90">日本 C</text>"##) == sideways)
        #expect(try pixels(##"<text x="100" y="20" writing-mode="tb">日本 C</text>"##) != sideways)
    }

    @Test func sidewaysLeftToRightRunsBottomToTop() throws {
        let m = CTFont(face: Self.font, size: 20).lineMetrics
        let up = try box(##"<text x="100" y="180" writing-mode="sideways-lr">Crisp 日本</text>"##)
        let rotated = try box(##"<g transform="translate(100 180) rotate(-90)"><text y="\##((m.ascender + m.descender) / 2)">Crisp 日本</text></g>"##)
        #expect(abs(up.minY - rotated.minY) < 1e-3 && abs(up.maxX - rotated.maxX) < 1e-3, "\(up) \(rotated)")
        #expect(up.maxY <= 180.5 && up.minY < 100, "from y up: \(up)")
    }

    @Test func baselineShiftMovesTowardTheColumnsRight() throws {
        let plain = try box(##"<text x="100" y="20" writing-mode="tb">日</text>"##)
        let shifted = try box(##"<text x="100" y="20" writing-mode="tb"><tspan baseline-shift="10">日</tspan></text>"##)
        #expect(abs(shifted.midX - plain.midX - 10) < 1e-3 && abs(shifted.midY - plain.midY) < 1e-3)
        let turnedPlain = try box(##"<text x="100" y="20" writing-mode="tb">C</text>"##)
        let turnedShifted = try box(##"<text x="100" y="20" writing-mode="tb"><tspan baseline-shift="10">C</tspan></text>"##)
        #expect(abs(turnedShifted.midX - turnedPlain.midX - 10) < 1e-3)
    }

    @Test func writingModeBelongsToTheTextElement() throws {
        // SVG 2: on a tspan it does nothing; on a text with a textPath the glyphs follow the path.
        #expect(try pixels(##"<text x="20" y="100">日<tspan writing-mode="tb">本</tspan></text>"##)
            == pixels(##"<text x="20" y="100">日本</text>"##))
        let doc = try document(##"<path id="p" d="M10 100H190"/><text writing-mode="tb"><textPath href="#p">日本</textPath></text>"##)
        #expect(doc.warnings.contains { $0.message.contains("writing-mode") && $0.message.contains("horizontally") }, "\(doc.warnings)")
        let bad = try document(##"<text x="20" y="100" writing-mode="diagonal">日本</text>"##)
        #expect(bad.warnings.contains { $0.message.contains("vertical-rl") }, "\(bad.warnings)")
        #expect(bad.root.boundingBox.width > bad.root.boundingBox.height, "an invalid value leaves the text horizontal")
    }

    @Test func textLengthStretchesTheColumnAndItsUnderline() throws {
        let doc = try document(##"<text x="100" y="10" writing-mode="tb" textLength="180" text-decoration="underline">日本 C</text>"##)
        #expect(doc.root.boundingBox.maxY > 185)
        // The underline (left of the column, half the line's height out) has no gaps.
        let image = try #require(doc.makeImage(scale: 1))
        let m = CTFont(face: Self.font, size: 20).lineMetrics
        let x = Int((100 - (m.ascender - m.descender) / 2).rounded(.down))
        let inked = (12..<186).filter { y in (x - 1...x + 1).contains { image.straightRGBA(x: $0, y: y).a > 100 } }
        #expect(inked.count == 174, "underline rows inked: \(inked.count) of 174")
    }

    /// Horizontal text too: the underline spans the spacing textLength adds, as it spans
    /// letter-spacing (it had a gap between each pair of glyphs).
    @Test func horizontalUnderlinesSpanTextLengthSpacing() throws {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="10" y="25" textLength="180" text-decoration="underline">Crisp</text></svg>"##)
        let image = try #require(doc.makeImage(scale: 1))
        let rows = (26..<34).map { y in (12..<188).filter { image.straightRGBA(x: $0, y: y).a > 100 }.count }
        #expect(rows.contains(176), "the underline's row covers 12…188: \(rows)")
    }

    /// Vertical text as resvg 0.44 draws it, against its rendering (resvg --skip-system-fonts
    /// --use-font-file on the fixture font): CJK upright, Latin turned, anchors, dx/dy/rotate,
    /// baseline-shift, letter-spacing, underline. Crisp 20.65 dB, 5.242 % off by more than 16.
    /// Where Crisp departs: upright glyphs hang from the font's vertical origin ('VORG', as
    /// HarfBuzz and the browsers place them), resvg sets them from the horizontal metrics, about
    /// 1 px lower here (縦's first inked row: 11 against 12), which every horizontal stroke of
    /// the ideographs shows; the line-through runs on the column's centre (resvg draws it on the
    /// turned glyphs' alphabetic baseline, off the centre).
    @Test func agreesWithResvg() throws {
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/text_vertical.svg"), fontSettings: Self.settings)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        let rendered = try #require(doc.makeImage())
        let crisp = try CGImage(pngData: try PNGEncoder(colorType: .rgba, compressionLevel: 1).encode(rendered))
        let resvg = try CGImage(contentsOfPNGFile: Fixtures.path("features/text_vertical.resvg.png"))
        let agreement = Agreement(crisp, resvg)
        #expect(agreement.psnr >= 20.5, "PSNR \(agreement.psnr) dB")
        #expect(agreement.percentOver16 <= 5.4, "\(agreement.percentOver16) % off by more than 16")
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", "text_vertical")
    }

    /// What resvg 0.44 does not draw (it turns every character but U ones, ignores
    /// text-orientation and draws sideways-rl/-lr horizontally): the golden was looked at.
    @Test func verticalFormsGolden() throws {
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/text_vertical_forms.svg"), fontSettings: Self.settings)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", "text_vertical_forms")
    }
}
