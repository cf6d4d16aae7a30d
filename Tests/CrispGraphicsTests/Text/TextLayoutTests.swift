import Foundation
import Testing
@_spi(Testing) import CrispGraphics

@Suite struct TextLayoutTests {
    @Test func fontMetricsAtASize() throws {
        let font = try CTFont.uiFont(size: 20.48)      // 0.01 user units per font unit
        #expect(abs(font.ascent - 19) < 1e-9)
        #expect(abs(font.descent - 5) < 1e-9)
        #expect(font.leading == 0)
        #expect(abs(font.capHeight - 14.56) < 1e-9)
        #expect(abs(font.xHeight - 10.82) < 1e-9)
        #expect(abs(font.lineHeight - 24) < 1e-9)
        #expect(font.unitsPerEm == 2048)
        #expect(font.familyName == "Roboto" && font.styleName == "Regular")
        #expect(try CTFont.uiFont(.emphasizedSystem, size: 10).fullName == "Roboto Bold")
        #expect(CTFontCreateUIFontForLanguage(.system, 0, nil)?.size == 12)
    }

    @Test func advancesAndKerning() throws {
        let font = try CTFont.uiFont(size: 20.48)
        let line = CTLine(string: "AVo", font: font)
        #expect(line.glyphs == [34, 55, 80])
        // A + kern(A,V) then V (+ kern(V,o) = 0 in Roboto? read the font) then o.
        let kernVo = font.face.kerning(between: 55, and: 80)
        #expect(abs(line.positions[1].x - CGFloat(1336 - 87) / 100) < 1e-9)
        #expect(abs(line.positions[2].x - CGFloat(1336 - 87 + 1304 + kernVo) / 100) < 1e-9)
        let unkerned = CTLine(string: "AVo", font: font, kerning: false)
        #expect(abs(unkerned.width - line.width - CGFloat(87 - kernVo) / 100) < 1e-9)
        var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 1
        let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
        #expect(width == Double(line.width) && ascent == 19 && descent == 5 && leading == 0)
        #expect(line.typographicBounds == CGRect(x: 0, y: -5, width: line.width, height: 24))
    }

    @Test func inkBounds() throws {
        let font = try CTFont.uiFont(size: 20.48)
        let line = CTLine(string: "o", font: font)
        let ink = line.imageBounds
        #expect(abs(ink.minX - 0.92) < 1e-6 && abs(ink.maxX - 10.77) < 1e-6)
        #expect(abs(ink.minY + 0.2) < 1e-6 && abs(ink.maxY - 11.02) < 1e-6)
        #expect(CTLine(string: "   ", font: font).imageBounds.isNull)
        #expect(CTLine(string: "", font: font).width == 0)
        // "g" descends below the baseline, "Ä" rises above the cap height.
        let tall = CTLine(string: "Äg", font: font).imageBounds
        #expect(tall.minY < -3 && tall.maxY > font.capHeight + 2)
    }

    @Test func normalizationControlsAndTabs() throws {
        let font = try CTFont.uiFont(size: 12)
        #expect(CTLine(string: "a\u{308}", font: font).glyphs == [197])          // composed to ä
        #expect(CTLine(string: "a\nb\u{AD}", font: font).glyphs == CTLine(string: "ab", font: font).glyphs)
        #expect(CTLine(string: "\t", font: font).glyphs == [1])
        #expect(CTLine(string: "Ā", font: font).glyphs == [0])                    // .notdef
    }

    @Test func uikitStyleMeasuringRoundsUp() throws {
        let font = try CTFont.uiFont(size: 17)
        let size = "signal quality".size(withFont: font)
        #expect(size.width == CTLine(string: "signal quality", font: font).width.rounded(.up))
        #expect(size.height == 20)    // 2400/2048 × 17 = 19.92…
    }

    @Test func textMatrixIsNotGraphicsState() {
        let ctx = CGContext(width: 10, height: 10)!
        ctx.saveGState()
        ctx.textMatrix = CGAffineTransform(scaleX: 2, y: 3)
        ctx.textPosition = CGPoint(x: 4, y: 5)
        ctx.restoreGState()
        #expect(ctx.textMatrix == CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 4, ty: 5))
        ctx.setTextPosition(x: 1, y: 2)
        #expect(ctx.textPosition == CGPoint(x: 1, y: 2))
    }

    @Test func stringDrawingRestoresTheContext() throws {
        let ctx = CGContext.flipped(width: 60, height: 30)
        let matrix = CGAffineTransform(a: 1, b: 0, c: 0.5, d: 1, tx: 3, ty: 4)
        ctx.textMatrix = matrix
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        "Hi".draw(at: CGPoint(x: 2, y: 2), font: try CTFont.uiFont(size: 12), color: CGColor(gray: 0, alpha: 1), in: ctx)
        #expect(ctx.textMatrix == matrix)
        ctx.fill(CGRect(x: 50, y: 0, width: 10, height: 10))
        #expect(ctx.pixelAt(55, 5) == 0xFF00_FF00)
        // Flipped: the box hangs below the point, so ink is in the top rows.
        let ys = (0..<30).filter { y in (0..<40).contains { ctx.alphaAt($0, y) > 0 } }
        #expect(ys.min()! >= 2 && ys.max()! <= 2 + 15)
    }

    /// A cached glyph at a whole-pixel position covers exactly what filling its outline covers.
    @Test func cachedGlyphsMatchFilledOutlines() throws {
        let font = try CTFont.uiFont(size: 17)
        let line = CTLine(string: "Größe", font: font, kerning: false)
        let a = CGContext(width: 64, height: 24)!, b = CGContext(width: 64, height: 24)!
        a.glyphCache = GlyphCache(byteBudget: 1 << 20)
        b.setFlatness(GlyphCache.flatness)
        var x: CGFloat = 3
        for g in line.glyphs {
            a.textPosition = CGPoint(x: x, y: 6)
            a.showGlyphs([g], at: [.zero], font: font)
            if let p = font.path(for: g, transform: CGAffineTransform(translationX: x, y: 6)) {
                b.addPath(p)
                b.fillPath()
            }
            x += 12
        }
        let worst = zip(a.alphas, b.alphas).map { abs($0 - $1) }.max()!
        #expect(worst <= 1, "float rounding may move a pixel's coverage by one step")
        #expect(a.coveredArea > 40)
    }

    /// Rotated text goes through outlines and covers about as much as upright text.
    @Test func rotatedTextCoversLikeUprightText() throws {
        let font = try CTFont.uiFont(size: 17)
        let line = CTLine(string: "Straße", font: font)
        let upright = CGContext(width: 80, height: 80)!
        upright.textPosition = CGPoint(x: 10, y: 30)
        line.draw(in: upright)
        let turned = CGContext(width: 80, height: 80)!
        turned.translateBy(x: 40, y: 10)
        turned.rotate(by: 1)
        turned.textPosition = .zero
        line.draw(in: turned)
        #expect(abs(upright.coveredArea - turned.coveredArea) < upright.coveredArea * 0.03)
    }
}
