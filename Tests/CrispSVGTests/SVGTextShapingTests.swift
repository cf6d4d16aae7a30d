import CrispGraphics
@_spi(Testing) import CrispSVG
import Foundation
import Testing

// SVG text through the shaping stack (issues 31 and 34): HarfBuzz clusters, bidi runs, font
// fallback and features, each checked by drawing documents that must or must not give the same
// pixels. The system fonts these need come from Debian's fonts-dejavu-core, fonts-dejavu-extra
// and fonts-lohit-deva, which ./test.sh installs.

@Suite("SVG text shaping")
struct SVGTextShapingTests {
    /// A digest of the document's pixels (so that a failure does not print every pixel).
    func pixels(_ body: String, width: Int = 200) throws -> Int {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(width)" height="60">\##(body)</svg>"##)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        return try #require(doc.makeImage(scale: 1)).pixels.hashValue
    }

    func box(_ body: String) throws -> CGRect {
        try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60">\##(body)</svg>"##).root.boundingBox
    }

    @Test func systemFontsTheShapingTestsNeedAreInstalled() {
        for (family, package) in [("DejaVu Sans", "fonts-dejavu-core"), ("DejaVu Serif", "fonts-dejavu-core"),
                                  ("Lohit Devanagari", "fonts-lohit-deva")] {
            #expect(FontSource.standard.match(families: [family]).warning == nil,
                    "font \(family) missing: apt-get install \(package) (./test.sh installs it)")
        }
        let italic = FontSource.standard.match(families: ["DejaVu Serif"], italic: true)
        #expect(italic.face.isItalic, "DejaVu Serif Italic missing: apt-get install fonts-dejavu-extra")
    }

    @Test func latinLigatureIsOneCluster() throws {
        // DejaVu Serif has an fi ligature: "fi" draws as one glyph, unlike "f" and "i" apart.
        let joined = try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="32">fi</text>"##)
        // Turned off by font-variant-ligatures and font-feature-settings, it is the two glyphs.
        let noLiga = try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="32" font-variant-ligatures="none">fi</text>"##)
        let noLiga2 = try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="32" style="font-feature-settings: 'liga' 0">fi</text>"##)
        #expect(noLiga == noLiga2)
        #expect(noLiga != joined)
        // A span boundary inside does not break the run (one font): still the ligature, as resvg.
        #expect(try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="32">f<tspan>i</tspan></text>"##) == joined)
        // A ligature keeps its first character's position: the dx of the "i" is dropped.
        #expect(try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="32" dx="0 20">fi</text>"##) == joined)
    }

    @Test func arabicJoinsAndReadsRightToLeft() throws {
        // Joined beh-beh is narrower than the isolated forms separated by a zero-width non-joiner.
        let joined = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="30">ببب</text>"##)
        let isolated = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="30">ب‌ب‌ب</text>"##)
        #expect(joined.width < isolated.width - 5, "\(joined) \(isolated)")
        // The first logical letter (meem) is at the right end: "مب" ends with beh on the left.
        let meemBeh = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="30">م<tspan fill="none">ب</tspan></text>"##)
        let meem = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="30">م</text>"##)
        #expect(meemBeh.maxX > meem.maxX + 3, "\(meemBeh) \(meem)")
    }

    @Test func bidiReordersRunsInsideLatin() throws {
        // "a אב b": the Hebrew run reads right to left between the Latin letters; spelled out
        // visually with an override it must draw the same.
        let logical = try pixels(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="24">a אב b</text>"##)
        let visual = try pixels(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="24">a <tspan unicode-bidi="bidi-override" direction="ltr">בא</tspan> b</text>"##)
        #expect(logical == visual)
        #expect(logical != (try pixels(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="24">a בא b</text>"##)))
    }

    @Test func rightToLeftParagraphSwapsStartAndEnd() throws {
        let rtlStart = try box(##"<text x="150" y="40" font-family="DejaVu Sans" font-size="24" direction="rtl">שלום</text>"##)
        let ltrEnd = try box(##"<text x="150" y="40" font-family="DejaVu Sans" font-size="24" text-anchor="end">שלום</text>"##)
        #expect(abs(rtlStart.maxX - ltrEnd.maxX) < 0.01 && rtlStart.maxX <= 150.5, "\(rtlStart) \(ltrEnd)")
    }

    @Test func fallbackFaceDrawsWhatTheFontLacks() throws {
        // Roboto has no Hebrew: the letters come from the fallback (DejaVu Sans), not .notdef boxes.
        let fallback = try pixels(##"<text x="10" y="40" font-size="24">שלום</text>"##)
        let dejaVu = try pixels(##"<text x="10" y="40" font-size="24" font-family="DejaVu Sans">שלום</text>"##)
        #expect(fallback == dejaVu)
    }

    @Test func devanagariReordersTheIMatra() throws {
        // "कि": the i-matra (after ka in logical order) is drawn before it (HarfBuzz's Indic
        // shaper), one cluster, so SVG keeps the two together.
        let font = CTFont(face: FontSource.standard.match(families: ["Lohit Devanagari"]).face, size: 30)
        let glyphs = font.shapedGlyphs(["\u{915}", "\u{93F}"], direction: .leftToRight)
        #expect(glyphs.count == 2 && glyphs.allSatisfy { $0.cluster == 0 })
        #expect(glyphs.first?.glyph != font.face.glyph(for: "\u{915}"))
        let ki = try box(##"<text x="20" y="40" font-family="Lohit Devanagari" font-size="30">कि</text>"##)
        let ka = try box(##"<text x="20" y="40" font-family="Lohit Devanagari" font-size="30">क</text>"##)
        #expect(ki.maxX > ka.maxX + 2, "\(ki) \(ka)")
    }

    @Test func realItalicFaceIsPicked() throws {
        // DejaVu Serif has an italic face: it is drawn (not the upright sheared).
        let italic = try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="30" font-style="italic">a</text>"##)
        let sheared = try pixels(##"<text x="10" y="40" font-family="DejaVu Serif" font-size="30" transform="translate(10 40) skewX(-14) translate(-10 -40)">a</text>"##)
        #expect(italic != sheared)
    }

    @Test func decorationsAndBaselineShifts() throws {
        let plain = try box(##"<text x="10" y="40" font-size="20">ab</text>"##)
        let underlined = try box(##"<text x="10" y="40" font-size="20" text-decoration="underline">ab</text>"##)
        #expect(underlined.maxY > plain.maxY, "\(underlined) \(plain)")
        let raised = try box(##"<text x="10" y="40" font-size="20"><tspan baseline-shift="10">ab</tspan></text>"##)
        #expect(abs(raised.minY - (plain.minY - 10)) < 0.01)
        let hanging = try box(##"<text x="10" y="40" font-size="20" dominant-baseline="text-before-edge">ab</text>"##)
        #expect(hanging.minY > plain.minY + 10)
    }

    @Test func letterSpacingSkipsTheLastClusterAndCursiveScripts() throws {
        // resvg and CSS: no spacing after the chunk's last cluster (text-anchor end unmoved).
        let plain = try box(##"<text x="150" y="40" font-size="20" text-anchor="end">ab</text>"##)
        let spaced = try box(##"<text x="150" y="40" font-size="20" text-anchor="end" letter-spacing="10">ab</text>"##)
        #expect(abs(spaced.maxX - plain.maxX) < 0.01 && abs(spaced.minX - (plain.minX - 10)) < 0.01, "\(spaced) \(plain)")
        let arabic = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="24">ببب</text>"##)
        let arabicSpaced = try box(##"<text x="10" y="40" font-family="DejaVu Sans" font-size="24" letter-spacing="10">ببب</text>"##)
        #expect(abs(arabic.width - arabicSpaced.width) < 0.01)
    }
}
