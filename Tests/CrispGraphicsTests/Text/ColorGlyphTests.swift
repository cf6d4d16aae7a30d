import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Colour glyphs through the public API: COLR v0 layers with CPAL palettes, COLR v1 paint graphs,
/// sbix and CBDT bitmaps, and hostile colour tables (cycles, recursion, huge layer counts,
/// truncated tables, bitmaps claiming 60000×60000 pixels). The fonts are made by
/// `Fixtures/fonts/make_color_fixtures.py`; each golden was looked at before it was committed.
@Suite struct ColorGlyphTests {
    static func face(_ name: String) throws -> TrueTypeFont { try TrueTypeFont(data: TestFonts.fixtureBytes(name)) }

    static func canvas(_ width: Int, _ height: Int) -> CGContext {
        let ctx = CGContext(width: width, height: height)!
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        return ctx
    }

    /// Draws `text` (one glyph per character) at (x, y) in `font`, in the fill colour `color`.
    static func draw(_ text: String, _ font: CTFont, at origin: CGPoint, in ctx: CGContext,
                     color: (CGFloat, CGFloat, CGFloat) = (0, 0, 0)) {
        ctx.setFillColor(red: color.0, green: color.1, blue: color.2, alpha: 1)
        let glyphs = font.glyphs(for: text)
        let positions = glyphs.indices.map { CGPoint(x: CGFloat($0) * font.size * 1.05, y: 0) }
        ctx.textPosition = origin
        font.draw(glyphs, at: positions, in: ctx)
    }

    static func pixel(_ ctx: CGContext, _ x: Int, _ y: Int) -> (Int, Int, Int, Int) {
        let image = ctx.makeImage()!
        let p = image.straightRGBA(x: x, y: y)
        return (Int(p.r), Int(p.g), Int(p.b), Int(p.a))
    }

    @Test func colrV0LayersUsePaletteAndTextColour() throws {
        let face = try ColorGlyphTests.face("color-colrv0.ttf")
        #expect(face.hasColorGlyphs && face.colorPaletteCount == 3 && face.colorPalette(0).count == 4)
        #expect(face.isColorGlyph(face.glyph(for: "A")) && !face.isColorGlyph(face.glyph(for: " ")))
        let ctx = ColorGlyphTests.canvas(220, 140)
        let font = CTFont(face: face, size: 40)
        // Row 1: default palette, black text colour; row 2: palette 1 in green; row 3: palette 2,
        // rotated and at half alpha (the layers do not show through each other).
        ColorGlyphTests.draw("AB", font, at: CGPoint(x: 6, y: 96), in: ctx)
        ColorGlyphTests.draw("AB", font.withColorPalette(1), at: CGPoint(x: 110, y: 96), in: ctx, color: (0.1, 0.6, 0.1))
        ctx.saveGState()
        ctx.translateBy(x: 40, y: 10)
        ctx.rotate(by: 0.2)
        ctx.setAlpha(0.5)
        ColorGlyphTests.draw("AB", CTFont(face: face, size: 40, colorPaletteIndex: 2), at: .zero, in: ctx, color: (0.8, 0, 0.8))
        ctx.restoreGState()
        // The corner of A's square is palette 0's red; the middle (the diamond) the text colour.
        let corner = ColorGlyphTests.pixel(ctx, 6 + 6, 140 - 96 - 28)
        #expect(corner.0 > 200 && corner.1 < 60 && corner.2 < 60, "\(corner)")
        Golden.check(ctx, "text", "color-colrv0")
        #expect(face.colorGlyphWarnings.isEmpty, "\(face.colorGlyphWarnings)")
    }

    @Test func colrV1PaintGraph() throws {
        let face = try ColorGlyphTests.face("color-colrv1.ttf")
        let ctx = ColorGlyphTests.canvas(360, 56)
        let font = CTFont(face: face, size: 40)
        ColorGlyphTests.draw("ABCDEFGH", font, at: CGPoint(x: 6, y: 14), in: ctx, color: (0.2, 0.2, 0.2))
        Golden.check(ctx, "text", "color-colrv1")
        #expect(face.colorGlyphWarnings.isEmpty, "\(face.colorGlyphWarnings)")
    }

    @Test func bitmapGlyphsPickTheNearestStrike() throws {
        let sbix = try ColorGlyphTests.face("color-sbix.ttf")
        let cbdt = try ColorGlyphTests.face("color-cbdt.ttf")
        #expect(sbix.isColorGlyph(sbix.glyph(for: "A")) && cbdt.isColorGlyph(cbdt.glyph(for: "A")))
        let ctx = ColorGlyphTests.canvas(300, 80)
        // 14 px: the 16 ppem checker strike; 48 px: the 64 ppem disc, and B, a 'dupe' of A.
        ColorGlyphTests.draw("A", CTFont(face: sbix, size: 14), at: CGPoint(x: 4, y: 20), in: ctx)
        ColorGlyphTests.draw("AB", CTFont(face: sbix, size: 48), at: CGPoint(x: 30, y: 20), in: ctx)
        ColorGlyphTests.draw("AA", CTFont(face: cbdt, size: 32), at: CGPoint(x: 140, y: 20), in: ctx)
        // Scaled up twice: the same strike, drawn larger.
        ctx.saveGState()
        ctx.scaleBy(x: 2, y: 2)
        ColorGlyphTests.draw("A", CTFont(face: cbdt, size: 16), at: CGPoint(x: 110, y: 8), in: ctx)
        ctx.restoreGState()
        Golden.check(ctx, "text", "color-bitmaps")
        #expect(sbix.colorGlyphWarnings.isEmpty && cbdt.colorGlyphWarnings.isEmpty, "\(sbix.colorGlyphWarnings) \(cbdt.colorGlyphWarnings)")
    }

    @Test func hostileColrIsDrawnPartially() throws {
        let face = try ColorGlyphTests.face("hostile-colr.ttf")
        let ctx = ColorGlyphTests.canvas(320, 50)
        ColorGlyphTests.draw("ABCDEFG", CTFont(face: face, size: 40), at: CGPoint(x: 4, y: 8), in: ctx)
        let warnings = face.colorGlyphWarnings.joined(separator: "\n")
        #expect(warnings.contains("cycle"), "\(warnings)")
        #expect(warnings.contains("PaintColrGlyph cycle"), "\(warnings)")
        #expect(warnings.contains("more than 4096 paints"), "\(warnings)")
        #expect(warnings.contains("deeper than 64"), "\(warnings)")
        #expect(warnings.contains("paint format 99"), "\(warnings)")
        // A's red square (layer 0) is drawn even though its layer 1 is A itself.
        let a = ColorGlyphTests.pixel(ctx, 4 + 20, 50 - 8 - 16)
        #expect(a.0 > 200 && a.1 < 60, "\(a)")

        let truncated = try ColorGlyphTests.face("hostile-colr-truncated.ttf")
        let ctx2 = ColorGlyphTests.canvas(120, 50)
        ColorGlyphTests.draw("ABC", CTFont(face: truncated, size: 30), at: CGPoint(x: 4, y: 8), in: ctx2)
        #expect(!truncated.colorGlyphWarnings.isEmpty)
    }

    @Test func hostileBitmapsAreRefusedWithAWarning() throws {
        let face = try ColorGlyphTests.face("hostile-bitmap.ttf")
        let ctx = ColorGlyphTests.canvas(200, 50)
        ColorGlyphTests.draw("ABCD", CTFont(face: face, size: 40), at: CGPoint(x: 4, y: 8), in: ctx)
        let warnings = face.colorGlyphWarnings.joined(separator: "\n")
        #expect(warnings.contains("60000×60000"), "\(warnings)")
        #expect(warnings.contains("not a PNG"), "\(warnings)")
        // D, a fine 1×1 red bitmap at 20 ppem (2 px at 40), is drawn.
        let d = ColorGlyphTests.pixel(ctx, 4 + 3 * 42 + 1, 50 - 8 - 1)
        #expect(d.0 > 200 && d.1 < 60, "\(d)")
    }

    @Test func everyTruncationOfTheColourFontsIsSafe() throws {
        // Cut each colour table short at many lengths: the face opens or is refused, and drawing
        // every glyph never crashes.
        for name in ["color-colrv0.ttf", "color-colrv1.ttf", "color-sbix.ttf", "color-cbdt.ttf"] {
            let bytes = try TestFonts.fixtureBytes(name)
            for cut in stride(from: 12, to: bytes.count, by: 131) {
                var data = bytes
                data.removeLast(bytes.count - cut)
                data += [UInt8](repeating: 0xFF, count: bytes.count - cut)
                guard let face = try? TrueTypeFont(data: data) else { continue }
                let ctx = ColorGlyphTests.canvas(80, 30)
                ColorGlyphTests.draw("ACF", CTFont(face: face, size: 9), at: CGPoint(x: 1, y: 5), in: ctx)
            }
        }
    }

    @Test func emojiInALabelIsDrawnInColour() throws {
        let emoji = FontSource.standard.fallbackFace(for: "\u{1F600}")
        guard let emoji else {
            Issue.record("no colour emoji font: apt-get install fonts-noto-color-emoji (test.sh installs it)")
            return
        }
        // Noto Color Emoji: CBDT bitmaps and no outlines; preferred over DejaVu Sans's
        // monochrome emoticons because U+1F600 is shown as emoji by default.
        #expect(emoji.hasColorGlyphs && emoji.outlineFormat == .bitmap && emoji.familyName == "Noto Color Emoji", "\(emoji)")
        let ctx = ColorGlyphTests.canvas(160, 40)
        ctx.setFillColor(gray: 0, alpha: 1)
        "Hi \u{1F600}\u{1F680}".draw(at: CGPoint(x: 4, y: 4), font: try CTFont.uiFont(size: 24), color: .black, in: ctx)
        // Some pixel is strongly coloured (the smiley is yellow), which black text never is.
        let image = ctx.makeImage()!
        var coloured = 0
        for y in 0..<40 {
            for x in 0..<160 {
                let p = image.straightRGBA(x: x, y: y)
                if Int(p.r) > 180, Int(p.g) > 120, Int(p.b) < 80 { coloured += 1 }
            }
        }
        #expect(coloured > 20, "\(coloured) yellow pixels")
    }

    /// A space after an emoji is drawn by the line's own font, not the emoji font (whose space
    /// is 1.25 em wide), as a browser takes the first font that has the character.
    @Test func aSpaceAfterAnEmojiGoesBackToTheLinesFont() throws {
        let font = try CTFont.uiFont(size: 24)
        func width(_ s: String) -> CGFloat { CTLine(string: s, font: font, fallback: .standard).width }
        let space = width("a b") - width("ab")
        #expect(space > 3 && space < 9, "Roboto's space \(space)")
        // The space after the emoji is Roboto's, not Noto Color Emoji's (30 points at this size).
        let afterEmoji = width("\u{1F600} b") - width("\u{1F600}b")
        #expect(abs(afterEmoji - space) < 0.01, "\(afterEmoji) against \(space)")
    }
}
