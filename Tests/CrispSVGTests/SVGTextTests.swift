import CrispGraphics
@_spi(Testing) import CrispSVG
import Foundation
import Testing

// `text` and `tspan`: each rule checked by drawing two documents that must give the same pixels
// (one written with the feature, one with the positions or faces spelled out), so the tests do
// not depend on the face's metrics beyond what CTFont reports.

@Suite("SVG text")
struct SVGTextTests {
    func document(_ body: String) throws -> SVGDocument {
        try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">\##(body)</svg>"##)
    }

    func pixels(_ body: String) throws -> [UInt32] {
        let doc = try document(body)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        return try #require(doc.makeImage(scale: 2)).pixels
    }

    func inkBox(_ body: String) throws -> CGRect { try document(body).root.boundingBox }

    static let face = try! CTFont.bundledFace(.system)
    func advance(_ s: Unicode.Scalar, size: CGFloat = 16) -> CGFloat {
        CTFont(face: SVGTextTests.face, size: size).advance(for: SVGTextTests.face.glyph(for: s))
    }

    @Test func whiteSpaceCollapsesAndTrimsByDefault() throws {
        let expected = try pixels(##"<text x="4" y="30">a b c</text>"##)
        #expect(try pixels("<text x=\"4\" y=\"30\">\n  a   b\t\n c  </text>") == expected)
        // Across span boundaries too.
        #expect(try pixels(##"<text x="4" y="30">a <tspan> b </tspan> c</text>"##) == expected)
        #expect(try pixels(##"<text x="4" y="30">a  b  c</text>"##) == expected)
    }

    @Test func preservedSpaceKeepsEverySpace() throws {
        let preserved = try inkBox(##"<text xml:space="preserve" x="4" y="30">a    b</text>"##)
        let collapsed = try inkBox(##"<text x="4" y="30">a    b</text>"##)
        #expect(abs(preserved.width - collapsed.width - 3 * advance(" ")) < 1e-6)
    }

    @Test func absolutePositionListsPlaceEachCharacter() throws {
        let expected = try pixels(##"<text x="10" y="30">a</text><text x="40" y="25">b</text><text x="70" y="30">c</text>"##)
        #expect(try pixels(##"<text x="10 40 70" y="30 25 30">abc</text>"##) == expected)
        // An inner element's values win; an ancestor's list still reaches characters past them.
        #expect(try pixels(##"<text x="0 40 70" y="30 25 30"><tspan x="10">a</tspan>bc</text>"##) == expected)
    }

    @Test func relativeShiftsAccumulate() throws {
        let expected = try pixels(##"<text x="15" y="30">a<tspan dx="5" dy="-3">b</tspan><tspan dy="3">c</tspan></text>"##)
        #expect(try pixels(##"<text x="10" y="30" dx="5 5" dy="0 -3 3">abc</text>"##) == expected)
    }

    @Test func fontStyleSlantsTheGlyphs() throws {
        // Issue 31: the bundled faces have no italic, so italic and oblique slant the upright
        // outline by 14° (oblique by its own angle) about the baseline: an "l" of height h
        // leans h·tan 14° to the right at its top, and nothing moves on the baseline.
        let upright = try inkBox(##"<text x="10" y="30" font-size="20">l</text>"##)
        for style in ["italic", "oblique", "oblique 14deg"] {
            let slanted = try inkBox(##"<text x="10" y="30" font-size="20" font-style="\##(style)">l</text>"##)
            #expect(abs(slanted.minX - upright.minX) < 1e-6 && abs(slanted.maxY - upright.maxY) < 1e-6, "\(style)")
            #expect(abs(slanted.width - upright.width - upright.height * tan(14 * .pi / 180)) < 1e-6, "\(style)")
        }
        #expect(try pixels(##"<text x="4" y="30" font-style="oblique 0deg">abc</text>"##) == (try pixels(##"<text x="4" y="30">abc</text>"##)))
        // Inherited, and reset by normal.
        #expect(try pixels(##"<g font-style="italic"><text x="4" y="30">a<tspan font-style="normal">b</tspan></text></g>"##)
                == (try pixels(##"<text x="4" y="30"><tspan font-style="italic">a</tspan>b</text>"##)))
        #expect(try document(##"<text font-style="slanted">a</text>"##).warnings.count == 1)
    }

    @Test func textLengthSpreadsTheDifferenceBetweenCharacters() throws {
        // Issue 31, SVG 2's "resolve text length": with spacing, the n characters get the
        // difference in n − 1 equal steps (the last ends at the length), and what follows in the
        // chunk moves with the end; anchoring uses the adjusted width.
        let a = advance("a"), b = advance("b"), c = advance("c")
        let stretched = 10 + 60 - c
        #expect(try pixels(##"<text x="10" y="30" textLength="60">abc</text>"##)
                == (try pixels(##"<text x="10 \##(10 + a + (60 - a - b - c) / 2) \##(stretched)" y="30">abc</text>"##)))
        #expect(try pixels(##"<text x="10" y="30"><tspan textLength="60">abc</tspan>a</text>"##)
                == (try pixels(##"<text x="10 \##(10 + a + (60 - a - b - c) / 2) \##(stretched) 70" y="30">abca</text>"##)))
        #expect(try pixels(##"<text x="100" y="30" text-anchor="end" textLength="60">abc</text>"##)
                == (try pixels(##"<text x="40" y="30" textLength="60">abc</text>"##)))
        // spacingAndGlyphs scales advances and glyphs: the ink box scales about the start.
        let natural = try inkBox(##"<text x="10" y="30">abc</text>"##)
        let scaled = try inkBox(##"<text x="10" y="30" textLength="\##(2 * (a + b + c))" lengthAdjust="spacingAndGlyphs">abc</text>"##)
        #expect(abs((scaled.minX - 10) - 2 * (natural.minX - 10)) < 1e-6 && abs(scaled.width - 2 * natural.width) < 1e-6)
        #expect(abs(scaled.height - natural.height) < 1e-6)
        #expect(try document(##"<text textLength="60" lengthAdjust="stretch">a</text>"##).warnings.count == 1)
    }

    @Test func textPathPlacesGlyphsAlongThePath() throws {
        // Issue 31: on a straight path each glyph lands where plain text would put it (its middle
        // at its distance along the path); startOffset moves it along; side="right" walks the
        // path backwards; a glyph whose middle is past the end is not drawn.
        let plain = try inkBox(##"<text x="10" y="30">Path</text>"##)
        func onPath(_ d: String, _ extra: String = "") throws -> CGRect {
            try inkBox(##"<defs><path id="p" d="\##(d)"/></defs><text><textPath href="#p"\##(extra)>Path</textPath></text>"##)
        }
        func near(_ a: CGRect, _ b: CGRect) -> Bool {
            abs(a.minX - b.minX) < 1e-6 && abs(a.maxX - b.maxX) < 1e-6 && abs(a.minY - b.minY) < 1e-6 && abs(a.maxY - b.maxY) < 1e-6
        }
        #expect(near(try onPath("M10 30 H200"), plain))
        #expect(near(try onPath("M0 30 H200", ##" startOffset="10""##), plain))
        #expect(near(try onPath("M-180 30 H200", ##" startOffset="50%""##), plain))
        #expect(near(try onPath("M200 30 H10", ##" side="right""##), plain))
        // Upside down when the path runs right to left.
        let flipped = try onPath("M200 30 H-100")
        #expect(flipped.minY > 28 && flipped.maxX < 200)
        // The path ends inside the text: fewer glyphs.
        #expect(try onPath("M10 30 H30").maxX < plain.maxX - 5)
        // References to nothing or to a non-shape: nothing drawn, a warning.
        for body in [##"<text><textPath href="#none">a</textPath></text>"##, ##"<g id="g"/><text><textPath href="#g">a</textPath></text>"##] {
            let doc = try document(body)
            #expect(doc.isFullySupported && doc.warnings.count == 1, "\(doc.warnings)")
        }
    }

    @Test func nestedSpansInheritTheirParentsStyle() throws {
        let expected = try pixels(##"<text x="4" y="30" font-size="20" fill="#c30">abc</text>"##)
        #expect(try pixels(##"<text x="4" y="30" font-size="20" fill="#c30">a<tspan>b<tspan>c</tspan></tspan></text>"##) == expected)
    }

    @Test(arguments: [("middle", 0.5), ("end", 1.0)])
    func anchorMovesEachChunkByItsWidth(anchor: String, fraction: CGFloat) throws {
        let start = try inkBox(##"<text x="60" y="30">Hi</text>"##)
        let anchored = try inkBox(##"<text x="60" y="30" text-anchor="\##(anchor)">Hi</text>"##)
        let width = advance("H") + advance("i")
        #expect(abs(anchored.minX - (start.minX - fraction * width)) < 1e-6)
        // A second chunk (a new absolute x) is anchored on its own.
        let two = try inkBox(##"<text y="30" text-anchor="\##(anchor)"><tspan x="60">Hi</tspan><tspan x="100">i</tspan></text>"##)
        let i = try inkBox(##"<text y="30">i</text>"##)
        #expect(abs(two.maxX - (100 - fraction * advance("i") + i.maxX)) < 1e-6)
    }

    @Test func fontSizeUnitsAndKeywords() throws {
        let expected = try pixels(##"<text x="4" y="30" font-size="16">Ag</text>"##)
        #expect(try pixels(##"<text x="4" y="30" font-size="12pt">Ag</text>"##) == expected)
        #expect(try pixels(##"<text x="4" y="30" font-size="medium">Ag</text>"##) == expected)
        #expect(try pixels(##"<g font-size="8"><text x="4" y="30" font-size="2em">Ag</text></g>"##) == expected)
    }

    @Test func weightsAboveFiveHundredUseTheBoldFace() throws {
        let regular = try pixels(##"<text x="4" y="30">Bold</text>"##)
        let bold = try pixels(##"<text x="4" y="30" font-weight="bold">Bold</text>"##)
        #expect(regular != bold)
        #expect(try pixels(##"<text x="4" y="30" font-weight="600">Bold</text>"##) == bold)
        #expect(try pixels(##"<text x="4" y="30" font-weight="500">Bold</text>"##) == regular)
        #expect(try pixels(##"<g font-weight="bold"><text x="4" y="30" font-weight="bolder">Bold</text></g>"##) == bold)
    }

    @Test func unknownFamiliesFallBackWithOneWarning() throws {
        let body = ##"<text x="4" y="20" font-family="Helvetica">a</text><text x="4" y="30" font-family="'Times New Roman', serif">b</text><text font-family="Roboto">c</text>"##
        let doc = try document(body)
        let warnings = doc.warnings.filter { $0.message.contains("font-family") }
        #expect(warnings.count == 1 && warnings[0].count == 1, "\(doc.warnings)")
        let column = ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">"##.utf8.count
            + body.utf8.distance(from: body.startIndex, to: body.range(of: "Helvetica")!.lowerBound) + 1
        #expect(warnings.first?.location == SVGSourceLocation(line: 1, column: column))
        #expect(try pixels(##"<text x="4" y="30" font-family="Helvetica">ab</text>"##) == pixels(##"<text x="4" y="30">ab</text>"##))
    }

    /// `font-family` lists are looked up in the document's font source: the bundled fonts, the
    /// user's files and folders, the system's (fonts-dejavu-core is installed by ./test.sh).
    @Test func fontFamilyListsAndFontSettings() throws {
        func image(_ body: String, _ settings: FontSettings? = nil) throws -> [UInt32] {
            let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40">\##(body)</svg>"##,
                                      fontSettings: settings)
            return try #require(doc.makeImage(scale: 2)).pixels
        }
        let roboto = try image(##"<text x="4" y="30">Wig</text>"##)
        let mono = try image(##"<text x="4" y="30" font-family="Nope, 'DejaVu Sans Mono', serif">Wig</text>"##)
        #expect(mono != roboto)
        #expect(try image(##"<text x="4" y="30" font-family="monospace">Wig</text>"##) == mono)
        var settings = FontSettings()
        settings.monospaceFamily = "Roboto"
        #expect(try image(##"<text x="4" y="30" font-family="monospace">Wig</text>"##, settings) == roboto)
        settings.usesSystemFonts = false
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="30" font-family="DejaVu Sans Mono">Wig</text></svg>"##,
                                  fontSettings: settings)
        #expect(try #require(doc.makeImage(scale: 2)).pixels == roboto)
        let warning = doc.warnings.first { $0.message.contains("font-family") }?.message ?? ""
        #expect(warning.contains("\"DejaVu Sans Mono\" not found") && !warning.contains("fontconfig"), "\(warning)")
        settings.defaultFamily = "DejaVu Sans Mono"
        settings.usesSystemFonts = true
        #expect(try image(##"<text x="4" y="30" font-family="Nope">Wig</text>"##, settings) == mono)
    }

    /// A variable font (the graphics tests' CFF2 fixture, a 'wght' axis 100…900) follows
    /// `font-weight` and `font-variation-settings`; static CFF faces (Cantarell, installed by
    /// ./test.sh) draw too.
    @Test func variableFontsFollowFontWeightAndVariationSettings() throws {
        var settings = FontSettings()
        settings.usesSystemFonts = false
        settings.fontFiles = [URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CrispGraphicsTests/Fixtures/fonts/VariableTest-CFF2.otf").standardizedFileURL]
        func ink(_ attributes: String) throws -> Int {
            let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40"><text x="4" y="30" font-family="Variable Test" font-size="30" \##(attributes)>HIH</text></svg>"##,
                                      fontSettings: settings)
            #expect(doc.warnings.isEmpty, "\(doc.warnings)")
            return try #require(doc.makeImage()).pixels.reduce(0) { $0 + Int($1 >> 24) }
        }
        let thin = try ink(##"font-weight="100""##), regular = try ink("")
        let bold = try ink(##"font-weight="bold""##), black = try ink(##"font-variation-settings="'wght' 900""##)
        #expect(thin < regular && regular < bold && bold < black)
        #expect(try ink(##"font-weight="100" font-variation-settings="'wght' 400""##) == regular)
        #expect(try ink(##"font-variation-settings="normal""##) == regular)
        let cff = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="30" font-family="Cantarell" font-size="20">Hamburg</text></svg>"##)
        #expect(cff.warnings.isEmpty, "\(cff.warnings) (apt-get install fonts-cantarell)")
        #expect(try #require(cff.makeImage()).pixels.contains { $0 >> 24 == 255 })
    }

    @Test func letterAndWordSpacingWidenTheAdvance() throws {
        // The same positions summed in another order: equal up to rounding (one level).
        func image(_ body: String) throws -> CGImage { try #require(try document(body).makeImage(scale: 2)) }
        #expect(Agreement(try image(##"<text x="4" y="30" letter-spacing="3">ab</text>"##),
                          try image(##"<text x="4" y="30">a<tspan dx="3">b</tspan></text>"##)).maximum <= 1)
        #expect(Agreement(try image(##"<text x="4" y="30" word-spacing="0.5em">a b</text>"##),
                          try image(##"<text x="4" y="30">a <tspan dx="8">b</tspan></text>"##)).maximum <= 1)
    }

    @Test func rotateTurnsEachGlyphAboutItsOrigin() throws {
        let turned = try inkBox(##"<text x="40" y="30" rotate="90" font-size="20">l</text>"##)
        let upright = try inkBox(##"<text x="40" y="30" font-size="20">l</text>"##)
        // An upright "l" stands above the baseline; turned clockwise by 90° it lies right of x.
        #expect(upright.maxY <= 30.01 && upright.height > upright.width)
        #expect(turned.minX >= 39.99 && turned.width > turned.height)
    }

    @Test func textClipsByItsGlyphs() throws {
        let clipped = try pixels(##"<clipPath id="c"><text x="4" y="30" font-size="30">Hx</text></clipPath><rect width="120" height="40" fill="#000" clip-path="url(#c)"/>"##)
        let drawn = try pixels(##"<text x="4" y="30" font-size="30">Hx</text>"##)
        #expect(clipped.count == drawn.count)
        let largest = zip(clipped, drawn).map { abs(Int($0 >> 24) - Int($1 >> 24)) }.max() ?? 0
        #expect(largest <= 1)
    }

    @Test func textTakesOpacityTransformsAndPaintServers() throws {
        let doc = try document(##"<linearGradient id="g"><stop stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient><g transform="rotate(10 60 20)" opacity="0.5"><text x="4" y="30" fill="url(#g)" stroke="#000" stroke-width="0.5">Text</text></g>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        #expect(doc.makeImage() != nil)
    }

    @Test func sizeZeroOrOverflowingDrawsNothing() throws {
        let empty = try pixels(##"<text x="4" y="30"></text>"##)
        #expect(try pixels(##"<text x="4" y="30" font-size="0">abc</text>"##) == empty)
        let nested = String(repeating: ##"<tspan font-size="1000em">"##, count: 120) + "x" + String(repeating: "</tspan>", count: 120)
        #expect(try pixels(##"<text x="4" y="30">\##(nested)</text>"##) == empty)
        // A zero-size span takes no room: the next one starts where it would have.
        #expect(try pixels(##"<text x="4" y="30">a<tspan font-size="0">bbb</tspan>c</text>"##)
                == pixels(##"<text x="4" y="30">a<tspan font-size="0">b</tspan>c</text>"##))
    }

    @Test func trefDrawsTheReferencedCharacters() throws {
        // (SVG 2 removed tref; resvg draws it.) The referenced element's character data, its
        // descendants' included, as a span with the tref's own positions and properties; white
        // space handled where the tref is.
        let defs = ##"<defs><text id="t">  a<tspan>b</tspan>  c </text></defs>"##
        let doc = try document(defs + ##"<text x="4" y="30"><tref href="#t"/></text>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        #expect(try pixels(defs + ##"<text x="4" y="30"><tref href="#t"/></text>"##) == pixels(##"<text x="4" y="30">ab c</text>"##))
        #expect(try pixels(defs + ##"<text x="4" y="30">x<tref xlink:href="#t" xmlns:xlink="http://www.w3.org/1999/xlink" dy="-4" fill="red"/>y</text>"##)
                == pixels(##"<text x="4" y="30">x<tspan dy="-4" fill="red"> ab c </tspan>y</text>"##))
        // Referenced text outside a text element (a desc) works too.
        #expect(try pixels(##"<desc id="d">hello</desc><text x="4" y="30"><tref href="#d"/></text>"##)
                == pixels(##"<text x="4" y="30">hello</text>"##))
    }

    @Test func trefWithoutATargetDrawsNothing() throws {
        let doc = try document(##"<text x="4" y="30">a<tref href="#nope"/><tref/>b</text>"##)
        #expect(doc.isFullySupported)
        #expect(doc.warnings.map(\.message) == [##"no element has id "nope""##, "<tref> without href (not drawn)"])
        #expect(try pixels(##"<text x="4" y="30">a<tref href="#nope"/>b</text>"##) == pixels(##"<text x="4" y="30">ab</text>"##))
    }
}
