import CrispGraphics
@_spi(Testing) import CrispSVG
import CrispTestSupport
import Foundation
import Testing

// Colour glyphs in SVG text (issue 31): 'COLR' layers drawn in their palette's colours, the
// layers in the text colour taking the fill, through the toolkit's colour glyph path — with the
// graphics tests' COLR v0 fixture (family "Crisp Colour Test": A is a red square with a
// diamond in the text colour and a blue bar — palette 0: red (0.9, 0.1, 0.1), blue (0.1, 0.3,
// 0.9) — and B is a ring in the text colour).

@Suite("SVG text: colour glyphs")
struct SVGColorGlyphTests {
    static let settings: FontSettings = {
        var s = FontSettings()
        s.usesSystemFonts = false
        s.fontFiles = [URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../CrispGraphicsTests/Fixtures/fonts/color-colrv0.ttf").standardizedFileURL]
        return s
    }()

    func image(_ text: String) throws -> CGImage {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80">\##(text)</svg>"##,
                                  fontSettings: Self.settings)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        return try #require(doc.makeImage(scale: 1))
    }

    /// Pixels (at least half opaque) near the colour `c` (straight RGB, each channel within 50).
    func count(_ img: CGImage, _ c: (Int, Int, Int), alpha: Int = 128) -> Int {
        var n = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let p = img.straightRGBA(x: x, y: y)
                if Int(p.a) >= alpha, abs(Int(p.r) - c.0) < 50, abs(Int(p.g) - c.1) < 50, abs(Int(p.b) - c.2) < 50 { n += 1 }
            }
        }
        return n
    }

    @Test func layersKeepTheirColoursAndTheTextColourIsTheFill() throws {
        let black = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48">A</text>"##)
        // The palette's red square and blue bar, whatever the fill.
        #expect(count(black, (255, 0, 0)) > 300)
        #expect(count(black, (26, 77, 230)) > 50)
        #expect(count(black, (0, 0, 0)) > 100)
        let green = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" fill="#00ff00">A</text>"##)
        #expect(count(green, (255, 0, 0)) == count(black, (255, 0, 0)))
        #expect(count(green, (0, 255, 0)) == count(black, (0, 0, 0)))
        #expect(count(green, (0, 0, 0)) == 0)
        // currentColor and a tspan's own fill.
        let current = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" color="#00ff00" fill="currentColor">A</text>"##)
        #expect(current.pixels == green.pixels)
        let span = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48"><tspan fill="#00ff00">A</tspan></text>"##)
        #expect(span.pixels == green.pixels)
    }

    @Test func fillOpacityFadesTheGlyphAsOneLayer() throws {
        let half = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" fill-opacity="0.5">A</text>"##)
        // The red square at half alpha; the diamond over it does not let the red through.
        #expect(count(half, (255, 0, 0), alpha: 100) > 300)
        #expect(count(half, (255, 0, 0), alpha: 200) == 0)
        let opacity = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" opacity="0.5">A</text>"##)
        #expect(opacity.pixels == half.pixels)
        // No fill, no glyph (as a plain glyph with fill="none").
        let none = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" fill="none">A</text>"##)
        #expect(none.pixels.allSatisfy { $0 == 0 })
    }

    /// Emoji in ordinary text, by fallback to the system's Noto Color Emoji ('CBDT' bitmaps; the
    /// package fonts-noto-color-emoji, which ./test.sh installs): the golden was looked at.
    @Test func emojiByFallbackGolden() throws {
        let emoji = FontSource.standard.fallbackFace(for: "😀", weight: 400, italic: false)
        #expect(emoji?.hasColorGlyphs == true, "no colour emoji font: apt-get install fonts-noto-color-emoji (./test.sh installs it)")
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="60"><rect width="200" height="60" fill="white"/><text x="8" y="42" font-size="30" fill="navy">Hi 😀🎨 ok</text></svg>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        let img = try #require(doc.makeImage(scale: 2))
        // The grinning face's yellow is there, not an empty glyph.
        #expect(count(img, (255, 204, 77)) > 200)
        Golden.check(img, "features", "emoji_fallback")
    }

    @Test func colourGlyphsFollowTransformsAndCountInTheBoundingBox() throws {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="200" height="80"><text x="10" y="60" font-family="Crisp Colour Test" font-size="48">A</text></svg>"##,
                                  fontSettings: Self.settings)
        let box = doc.root.boundingBox
        #expect(box.width > 30 && box.height > 30, "\(box)")
        let plain = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48">A</text>"##)
        let moved = try image(##"<text x="10" y="60" font-family="Crisp Colour Test" font-size="48" transform="translate(100 0)">A</text>"##)
        #expect(count(moved, (255, 0, 0)) == count(plain, (255, 0, 0)))
        // The red lies right of x = 100 once moved.
        var redLeft = 0
        for y in 0..<moved.height { for x in 0..<100 where moved.straightRGBA(x: x, y: y).r > 200 && moved.straightRGBA(x: x, y: y).a > 200 { redLeft += 1 } }
        #expect(redLeft == 0)
        // As a clip path's content, a colour glyph clips by its outline.
        let clipped = try image(##"<clipPath id="c"><text x="10" y="60" font-family="Crisp Colour Test" font-size="48">A</text></clipPath><rect width="200" height="80" fill="#00ff00" clip-path="url(#c)"/>"##)
        #expect(count(clipped, (0, 255, 0)) > 300)
    }
}
