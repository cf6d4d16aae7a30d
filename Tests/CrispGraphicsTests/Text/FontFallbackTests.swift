import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Per-glyph fallback inside a line: characters the line's font lacks are drawn in the first
/// face the font source finds for them (DejaVu Sans, from fonts-dejavu-core, which ./test.sh
/// installs, covers Hebrew and Arabic; the bundled Roboto subset covers neither).
@Suite struct FontFallbackTests {
    static func dejaVuInstalled() -> Bool {
        let ok = FontSource.systemFaces(family: "DejaVu Sans", weight: 400, italic: false, scalar: nil).isEmpty == false
        if !ok { Issue.record("DejaVu Sans is missing: apt-get install fonts-dejavu-core (test.sh installs it)") }
        return ok
    }

    @Test func missingCharactersComeFromTheFallbackFamilies() throws {
        guard FontFallbackTests.dejaVuInstalled() else { return }
        let font = try CTFont.uiFont(size: 20)
        let text = "Hello שלום 42"
        let plain = CTLine(string: text, font: font)
        #expect(plain.glyphs.contains(0) && plain.fontRuns.isEmpty)
        let line = CTLine(string: text, font: font, fallback: .standard)
        #expect(!line.glyphs.contains(0))
        #expect(line.fontRuns.count == 1)
        let run = try #require(line.fontRuns.first)
        #expect(run.font.familyName == "DejaVu Sans" && run.font.size == 20)
        // "Hello " in Roboto, the four Hebrew letters (and the space after them) in DejaVu, then "42".
        #expect(Array(line.glyphs[0..<5]) == Array(plain.glyphs[0..<5]))
        #expect(run.range.count == 5)
        #expect(line.width > plain.width)
        // An ASCII line, or one the font covers, takes the one-font path.
        #expect(CTLine(string: "Grüße", font: font, fallback: .standard).fontRuns.isEmpty)
        // A source with no fallback families and no system fonts leaves .notdef.
        var settings = FontSettings()
        settings.usesSystemFonts = false
        settings.fallbackFamilies = []
        #expect(CTLine(string: text, font: font, fallback: FontSource(settings: settings)).glyphs == plain.glyphs)
    }

    @Test func arabicIsShapedInItsFallbackFace() throws {
        // The bundled Noto Sans Arabic comes first among the fallback families, so Arabic draws
        // the same whether or not the system has DejaVu Sans.
        let font = try CTFont.uiFont(.emphasizedSystem, size: 24)
        let line = CTLine(string: "Crisp سلام", font: font, fallback: .standard)
        let run = try #require(line.fontRuns.first)
        #expect(run.font.fullName == "Noto Sans Arabic Bold")
        // Joined (contextual) forms, not the isolated letters' glyphs: HarfBuzz shaped the stretch.
        let isolated = Set("سلام".unicodeScalars.map { run.font.face.glyph(for: $0) })
        let drawn = Array(line.glyphs[run.range])
        #expect(!drawn.contains(0) && !Set(drawn).isSubset(of: isolated))
        let ctx = CGContext(width: 160, height: 40)!
        ctx.textPosition = CGPoint(x: 4, y: 10)
        line.draw(in: ctx)
        // CRISP_FALLBACK_PNG=path writes the line for a look.
        if let path = ProcessInfo.processInfo.environment["CRISP_FALLBACK_PNG"] { try ctx.makeImage()!.writePNG(to: path) }
        // Ink across the Arabic stretch's box, which lies right of the Latin word.
        let box = CTLine(string: "Crisp ", font: font).width + 4
        let right = (Int(box) + 2..<160).reduce(0) { sum, x in sum + (0..<40).reduce(0) { $0 + ctx.alphaAt(x, $1) } }
        #expect(right > 255 * 40, "ink right of the Latin word: \(right)")
        #expect(!line.imageBounds.isNull && line.imageBounds.maxX > box + 20)
    }

    /// `String.draw` and `size(withFont:)` (and so `Label`) take missing characters from
    /// `FontSource.drawingFallback`, `.standard` by default.
    @Test func stringDrawingFallsBackByDefault() throws {
        guard FontFallbackTests.dejaVuInstalled() else { return }
        #expect(FontSource.drawingFallback === FontSource.standard)
        let font = try CTFont.uiFont(size: 20)
        let text = "Call שלום"
        let line = CTLine(string: text, font: font, fallback: .standard)
        #expect(text.size(withFont: font).width == line.width.rounded(.up))
        #expect(text.size(withFont: font).width != CTLine(string: text, font: font).width.rounded(.up))
        let ctx = CGContext(width: 160, height: 40)!
        text.draw(at: CGPoint(x: 2, y: 4), font: font, color: CGColor(gray: 0, alpha: 1), in: ctx)
        let box = CTLine(string: "Call ", font: font).width + 4
        let right = (Int(box)..<160).reduce(0) { sum, x in sum + (0..<40).reduce(0) { $0 + ctx.alphaAt(x, $1) } }
        #expect(right > 255 * 30, "ink of the Hebrew word: \(right)")
        // Coverage is worked out once per (text, face); fallback faces once per character.
        #expect(CTLine.covers("Grüße", font.face) && CTLine.covers("Grüße\u{301}", font.face))
        #expect(!CTLine.covers(text, font.face))
        let first = FontSource.standard.fallbackFace(for: "ש")
        #expect(first != nil && first === FontSource.standard.fallbackFace(for: "ש"))
    }
}
