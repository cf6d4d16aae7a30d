import CrispGraphics
@testable import CrispSVG
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

    @Test func textPathIsStillUnsupported() throws {
        let doc = try document(##"<path id="p" d="M0 20h100"/><text><textPath href="#p">x</textPath></text>"##)
        #expect(doc.unsupportedFeatures.map(\.reason) == ["<textPath>"])
    }
}
