import CrispGraphics
@_spi(Testing) import CrispSVG
import Testing

// `text-decoration-style` and `text-decoration-color` (CSS Text Decoration 3; issue 31), and
// the `text-decoration` shorthand's style and colour words. resvg draws every line solid in the
// declaring element's paint; Crisp draws the style and colour a browser would, and the element's
// paint when no colour is given. Each case counts the pixels of a colour in the band under the
// baseline, where an underline lies and the glyphs (no descenders in "HHHH") do not.

@Suite("SVG text decoration style and colour")
struct SVGTextDecorationTests {
    /// The document's image, with no warning unless `warns`.
    func image(_ text: String, warns: Bool = false) throws -> CGImage {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="240" height="80">\##(text)</svg>"##)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        #expect(doc.warnings.isEmpty != warns, "\(doc.warnings)")
        return try #require(doc.makeImage(scale: 1))
    }

    /// How many pixels in rows `rows` (all columns) are mostly `color` (straight RGB, each
    /// channel within 60) and at least half opaque.
    func count(_ image: CGImage, rows: Range<Int>, _ color: (Int, Int, Int)) -> Int {
        var n = 0
        for y in rows {
            for x in 0..<image.width {
                let p = image.straightRGBA(x: x, y: y)
                if p.a >= 128, abs(Int(p.r) - color.0) < 60, abs(Int(p.g) - color.1) < 60, abs(Int(p.b) - color.2) < 60 { n += 1 }
            }
        }
        return n
    }

    /// "HHHH" at 40 px on the baseline y = 50, with `decoration` as attributes.
    func underlined(_ decoration: String, warns: Bool = false) throws -> CGImage {
        try image(##"<text x="10" y="50" font-size="40" \##(decoration)>HHHH</text>"##, warns: warns)
    }

    let below = 51..<66
    let black = (0, 0, 0), red = (255, 0, 0), blue = (0, 0, 255)

    @Test func solidByDefaultInTheElementsPaint() throws {
        let plain = try underlined("")
        #expect(count(plain, rows: below, black) == 0)
        let solid = try underlined(##"text-decoration="underline""##)
        #expect(count(solid, rows: below, black) > 200)
        // The shorthand's style word solid and the longhand give the same pixels.
        #expect(try underlined(##"text-decoration="underline solid""##).pixels == solid.pixels)
        #expect(try underlined(##"text-decoration-line="underline" text-decoration-style="solid""##).pixels == solid.pixels)
    }

    @Test func colourFromTheShorthandTheLonghandAndCurrentColor() throws {
        for decoration in [##"text-decoration="underline red""##,
                           ##"text-decoration="red underline""##,
                           ##"text-decoration="underline rgb(255, 0, 0)""##,
                           ##"text-decoration="underline" text-decoration-color="red""##,
                           ##"text-decoration="underline" color="red" text-decoration-color="currentColor""##] {
            let img = try underlined(decoration)
            #expect(count(img, rows: below, red) > 200, "\(decoration)")
            #expect(count(img, rows: below, black) == 0, "\(decoration)")
            // The glyphs keep their own fill.
            #expect(count(img, rows: 25..<45, black) > 200, "\(decoration)")
            #expect(count(img, rows: 25..<45, red) == 0, "\(decoration)")
        }
        // A colour replaces the element's fill and stroke on the line, not on the glyphs.
        // (Rows from 53: the glyphs' stroke reaches half its width under the baseline.)
        let stroked = try underlined(##"fill="blue" stroke="black" stroke-width="1" text-decoration="underline red""##)
        #expect(count(stroked, rows: 53..<66, black) == 0 && count(stroked, rows: 53..<66, red) > 200)
        #expect(count(stroked, rows: 25..<45, blue) > 50 && count(stroked, rows: 25..<45, black) > 50)
        // Without a colour the line takes the element's paint.
        #expect(count(try underlined(##"fill="blue" text-decoration="underline""##), rows: below, blue) > 200)
    }

    @Test func eachStyleHasItsOwnInk() throws {
        func ink(_ style: String) throws -> Int {
            count(try underlined(##"text-decoration="underline \##(style)""##), rows: below, black)
        }
        let solid = try ink("solid"), double = try ink("double"), dotted = try ink("dotted"), dashed = try ink("dashed")
        let wavy = try ink("wavy")
        // A double line is two solid lines; dots cover about a quarter of a solid line (round,
        // every other thickness), dashes three fifths; a wave is longer than its line and
        // spreads over three thicknesses.
        #expect(double > solid * 3 / 2, "double \(double) solid \(solid)")
        #expect(dotted > 0 && dotted < solid / 2, "dotted \(dotted) solid \(solid)")
        #expect(dashed > solid * 2 / 5 && dashed < solid * 4 / 5, "dashed \(dashed) solid \(solid)")
        #expect(wavy > solid, "wavy \(wavy) solid \(solid)")
        // Each style's rows: the wavy line reaches a thickness above and below the solid one.
        let solidImage = try underlined(##"text-decoration="underline""##)
        let wavyImage = try underlined(##"text-decoration="underline wavy""##)
        let solidRows = below.filter { count(solidImage, rows: $0..<$0 + 1, black) > 0 }
        let wavyRows = below.filter { count(wavyImage, rows: $0..<$0 + 1, black) > 0 }
        #expect(wavyRows.count > solidRows.count, "wavy rows \(wavyRows) solid rows \(solidRows)")
    }

    @Test func dotsAndDashesRunOnAcrossClusters() throws {
        // One span of four clusters, or four spans of one: the same dots in the same places.
        let one = try underlined(##"text-decoration="underline dotted""##)
        let split = try image(##"<text x="10" y="50" font-size="40" text-decoration="underline dotted"><tspan>H</tspan><tspan>H</tspan><tspan>HH</tspan></text>"##)
        #expect(one.pixels == split.pixels)
    }

    @Test func overlineAndLineThroughTakeTheStyle() throws {
        let solid = try underlined(##"text-decoration="overline line-through""##)
        let double = try underlined(##"text-decoration="overline line-through double""##)
        #expect(solid.pixels != double.pixels)
        // The overline's second line lies above the first: ink above the glyphs' top.
        let above = 0..<12
        #expect(count(double, rows: above, black) > count(solid, rows: above, black))
    }

    @Test func badWordsAreWarnedAndTheDeclarationDropped() throws {
        let plain = try underlined("")
        for decoration in [##"text-decoration="underline bogus""##, ##"text-decoration-style="zigzag" text-decoration="underline""##,
                           ##"text-decoration="underline" text-decoration-color="notacolour""##,
                           ##"text-decoration-line="underline wavy""##] {
            let img = try underlined(decoration, warns: true)
            if decoration.hasPrefix(##"text-decoration="underline bogus""##) || decoration.hasPrefix("text-decoration-line") {
                #expect(img.pixels == plain.pixels, "\(decoration)")
            } else {
                // The valid declaration stays: a solid underline in the element's paint.
                #expect(count(img, rows: below, black) > 200, "\(decoration)")
            }
        }
    }

    @Test func hugeStretchesStayBounded() throws {
        // textLength stretching four clusters over a billion units: the dotted line is drawn
        // solid rather than as billions of dots (and the document still renders).
        let img = try image(##"<text x="10" y="50" font-size="40" textLength="1e9" text-decoration="underline dotted">HHHH</text>"##)
        #expect(img.width == 240)
    }
}
