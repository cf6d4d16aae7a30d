import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Bidirectional lines (the Unicode Bidirectional Algorithm through FriBidi, runs shaped by
/// HarfBuzz in their direction and put in visual order). DejaVu Sans (fonts-dejavu-core, which
/// ./test.sh installs) has Latin, digits, Hebrew and Arabic, so a line is one face and the
/// expected visual order can be spelled in that face's glyph ids.
@Suite struct BidiTests {
    static func dejaVu(size: CGFloat = 20) -> CTFont? {
        guard let face = FontSource.systemFaces(family: "DejaVu Sans", weight: 400, italic: false, scalar: nil).first else {
            Issue.record("DejaVu Sans is missing: apt-get install fonts-dejavu-core (test.sh installs it)")
            return nil
        }
        return CTFont(face: face, size: size)
    }

    /// The font's nominal glyphs for `visual`, a string spelled in visual order (left to right).
    static func glyphs(_ visual: String, _ font: CTFont) -> [CGGlyph] {
        visual.unicodeScalars.map { font.face.glyph(for: $0) }
    }

    static func increasing(_ line: CTLine) -> Bool {
        zip(line.positions, line.positions.dropFirst()).allSatisfy { $0.x <= $1.x }
    }

    @Test func visualOrderReversesFromTheHighestLevel() {
        #expect(Bidi.visualOrder([0, 1, 2, 2, 1, 0]) == [0, 4, 2, 3, 1, 5])
        #expect(Bidi.visualOrder([1, 1, 1]) == [2, 1, 0])
        #expect(Bidi.visualOrder([1, 2, 1]) == [2, 1, 0])
        #expect(Bidi.visualOrder([0, 0, 2]) == [0, 1, 2])
        #expect(Bidi.visualOrder([]) == [])
    }

    @Test func hebrewAndNumbersInALeftToRightLine() throws {
        let font = try #require(BidiTests.dejaVu())
        let line = CTLine(string: "abc אבג 123", font: font)
        #expect(line.paragraphDirection == .leftToRight)
        // The number follows the Hebrew word (a European number after right-to-left text takes
        // its side), so it stands left of it; the digits themselves read left to right.
        #expect(line.glyphs == BidiTests.glyphs("abc 123 גבא", font))
        #expect(BidiTests.increasing(line) && line.fontRuns.isEmpty)
        // Kept whole: the same line again, from the line cache or after emptying it, is the same.
        let again = CTLine(string: "abc אבג 123", font: font)
        CTFont.purgeShapingCache()
        let fresh = CTLine(string: "abc אבג 123", font: font)
        #expect(again.glyphs == line.glyphs && again.positions == line.positions)
        #expect(fresh.glyphs == line.glyphs && fresh.positions == line.positions)
        #expect(CTLine(string: "abc אבג 123", font: font.withSize(40)).width > line.width * 1.9)
        // The width is the logical line's: reordering moves glyphs, it adds none.
        #expect(abs(line.width - CTLine(string: "abc 123 גבא", font: font, direction: .leftToRight).width) < 0.5)
    }

    @Test func aHebrewFirstLineIsRightToLeft() throws {
        let font = try #require(BidiTests.dejaVu())
        let line = CTLine(string: "שלום world!", font: font)
        #expect(line.paragraphDirection == .rightToLeft)
        // The Latin word keeps its order inside; the trailing "!" takes the paragraph's side
        // (the left end, where a right-to-left sentence ends).
        #expect(line.glyphs == BidiTests.glyphs("!world םולש", font))
        // Asked for left to right, the same text starts with the Hebrew word at the left.
        let ltr = CTLine(string: "שלום world!", font: font, direction: .leftToRight)
        #expect(ltr.paragraphDirection == .leftToRight)
        #expect(ltr.glyphs == BidiTests.glyphs("םולש world!", font))
    }

    @Test func bracketsPairAndMirror() throws {
        let font = try #require(BidiTests.dejaVu())
        // Logical "אב (ג)": in the right-to-left run the opening bracket, drawn at the right of
        // the Hebrew letter, is mirrored to ")" and the closing one to "(".
        let line = CTLine(string: "אב (ג)", font: font)
        #expect(line.glyphs == BidiTests.glyphs("(ג) בא", font))
        // A bracket pair around Latin inside Hebrew (rule N0) takes the Hebrew side.
        let mixed = CTLine(string: "אב (abc)", font: font)
        #expect(mixed.glyphs == BidiTests.glyphs("(abc) בא", font))
    }

    @Test func arabicJoinsAndItsNumbersReadLeftToRight() throws {
        let font = try #require(BidiTests.dejaVu())
        let line = CTLine(string: "سلام 2024", font: font)
        #expect(line.paragraphDirection == .rightToLeft)
        // Digits after Arabic letters are Arabic numbers: left to right, left of the word.
        #expect(Array(line.glyphs.prefix(5)) == BidiTests.glyphs("2024 ", font))
        let word = Array(line.glyphs.dropFirst(5))
        #expect(word.count >= 3 && !word.contains(0))   // lam + alef may ligate
        // Joined forms (not the isolated letters), drawn right to left: the first letter, seen,
        // is the rightmost glyph, in its initial form (not the isolated one).
        let isolated = BidiTests.glyphs("سلام", font)
        #expect(!Set(word).isSubset(of: Set(isolated)))
        #expect(word.last != isolated.first)
        #expect(BidiTests.increasing(line))
    }

    @Test func explicitControlsAreAppliedAndNotDrawn() throws {
        let font = try CTFont.uiFont(size: 12)
        let plain = CTLine(string: "abc", font: font)
        // RIGHT-TO-LEFT OVERRIDE … POP DIRECTIONAL FORMATTING: the letters are drawn reversed.
        let overridden = CTLine(string: "\u{202E}abc\u{202C}", font: font)
        #expect(overridden.glyphs == plain.glyphs.reversed())
        #expect(abs(overridden.width - plain.width) < 1e-9)
        // A right-to-left isolate around Latin in a Latin line keeps the Latin order.
        let isolated = CTLine(string: "x \u{2067}abc\u{2069} y", font: font)
        #expect(isolated.glyphs == CTLine(string: "x abc y", font: font).glyphs)
        // Latin in a right-to-left paragraph keeps its order too.
        let rtl = CTLine(string: "abc", font: font, direction: .rightToLeft)
        #expect(rtl.glyphs == plain.glyphs && rtl.paragraphDirection == .rightToLeft)
        let multi = CTLine(string: "ab cd", font: font, direction: .rightToLeft)
        #expect(multi.glyphs == CTLine(string: "ab cd", font: font).glyphs)
    }

    @Test func leftToRightTextTakesTheOneRunPath() throws {
        let font = try CTFont.uiFont(size: 12)
        for text in ["Grüße", "naïve café", "Ελληνικά", "abc"] {
            #expect(!text.unicodeScalars.contains(where: Bidi.mayNeedReordering))
            let line = CTLine(string: text, font: font)
            #expect(line.paragraphDirection == .leftToRight && line.fontRuns.isEmpty)
        }
        // A scalar in the candidate blocks that FriBidi finds left to right (U+0900, Devanagari)
        // gives no levels: one run.
        #expect(Bidi.levels(["\u{0905}", "a"], direction: nil) == nil)
        #expect(Bidi.levels(["\u{05D0}"], direction: nil)?.levels == [1])
        #expect(Bidi.levels([], direction: .rightToLeft) == nil)
    }

    @Test func fallbackRunsAreReorderedToo() throws {
        guard FontFallbackTests.dejaVuInstalled() else { return }
        let font = try CTFont.uiFont(size: 20)
        // Roboto has no Hebrew: the Hebrew word comes from DejaVu Sans, reversed, right of "42".
        let line = CTLine(string: "Hello שלום 42", font: font, fallback: .standard)
        let run = try #require(line.fontRuns.first)
        #expect(line.fontRuns.count == 1 && run.range == 8..<13)
        #expect(Array(line.glyphs[6..<8]) == CTLine(string: "42", font: font).glyphs)
        let dejaVu = run.font
        #expect(Array(line.glyphs[run.range]) == BidiTests.glyphs(" םולש", dejaVu))
        #expect(BidiTests.increasing(line))
        // Drawn, the ink of the Hebrew word is right of the number's.
        let ctx = CGContext(width: 200, height: 36)!
        ctx.textPosition = CGPoint(x: 4, y: 10)
        line.draw(in: ctx)
        // CRISP_BIDI_PNG=path writes the line for a look.
        if let path = ProcessInfo.processInfo.environment["CRISP_BIDI_PNG"] { try ctx.makeImage()!.writePNG(to: path) }
        let hebrewStart = Int(line.positions[run.range.lowerBound + 1].x) + 4
        let ink = (hebrewStart..<200).reduce(0) { sum, x in sum + (0..<36).reduce(0) { $0 + ctx.alphaAt(x, $1) } }
        #expect(ink > 255 * 30, "ink of the Hebrew word: \(ink)")
    }
}
