import Foundation
import Testing
import CrispGraphics
import CrispTestSupport

/// Line breaking (UAX #14 through ICU) and multi-line layout through the public API.
@Suite struct LineBreakingTests {
    let paragraph = "The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor jugs! Sphinx of black quartz, judge my vow."

    /// Unicode's own conformance file, as Debian's unicode-data installs it.
    @Test func unicodeLineBreakTestFile() throws {
        let path = "/usr/share/unicode/auxiliary/LineBreakTest.txt"
        guard let data = FileManager.default.contents(atPath: path), let file = String(data: data, encoding: .utf8) else {
            Issue.record("\(path) is missing: install Debian's unicode-data (apt-get install unicode-data)")
            return
        }
        let font = try CTFont.uiFont(size: 12)
        var cases = 0, passed = 0
        var firstFailures: [String] = []
        for raw in file.split(separator: "\n") {
            let line = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
            guard line.hasPrefix("×") || line.hasPrefix("÷") else { continue }
            var scalars: [Unicode.Scalar] = []
            var expected: [Int] = []        // UTF-16 offsets where a break is allowed
            var offset = 0
            var valid = true
            for token in line.split(whereSeparator: { $0 == " " || $0 == "\t" }) {
                if token == "÷" { if offset > 0 { expected.append(offset) } } else if token == "×" {
                } else if let v = UInt32(token, radix: 16), let s = Unicode.Scalar(v) {
                    scalars.append(s)
                    offset += s.utf16.count
                } else {
                    valid = false
                }
            }
            guard valid else { continue }
            cases += 1
            let text = String(String.UnicodeScalarView(scalars))
            let found = CTTypesetter(string: text, font: font, fallback: nil).lineBreakOpportunities.map(\.offset)
            if found == expected { passed += 1 } else if firstFailures.count < 5 { firstFailures.append(String(line)) }
        }
        #expect(cases > 7000, "LineBreakTest.txt has \(cases) cases")
        // ICU 72 passes 7632 of the 7654 cases of LineBreakTest-15.0.0 (its default rules tailor
        // a few numeric and emoji cases); anything much lower is a broken build.
        let rate = Double(passed) / Double(max(cases, 1))
        #expect(rate >= 0.995, "passed \(passed) of \(cases); first failures: \(firstFailures)")
    }

    @Test func breakOpportunities() throws {
        let font = try CTFont.uiFont(size: 12)
        func breaks(_ s: String) -> [Int] { CTTypesetter(string: s, font: font).lineBreakOpportunities.map(\.offset) }
        #expect(breaks("") == [])
        #expect(breaks("one two  three") == [4, 9, 14])              // after the spaces
        #expect(breaks("well-known") == [5, 10])                     // after a hyphen
        #expect(breaks("(3.14) 12,5%") == [7, 12])                   // not inside numbers or before ")"
        #expect(breaks("a\u{00A0}b c") == [4, 5])                    // not at a no-break space
        #expect(breaks("日本語") == [1, 2, 3])                         // between ideographs
        let hard = CTTypesetter(string: "a\nb", font: font).lineBreakOpportunities
        #expect(hard.map(\.offset) == [2, 3] && hard[0].isMandatory && !hard[1].isMandatory)
        #expect(TextLibraries.icuUnicodeVersion.hasPrefix("1"))
    }

    @Test func wrappingKeepsEveryLineInsideTheWidth() throws {
        let font = try CTFont.uiFont(size: 17)
        let typesetter = CTTypesetter(string: paragraph, font: font)
        for width in [60.0, 120, 200, 333] {
            let layout = typesetter.layout(width: CGFloat(width))
            #expect(layout.lines.count > 1)
            for entry in layout.lines { #expect(entry.line.width <= CGFloat(width) + 1e-6, "width \(width)") }
            // The lines cover the text, in order, with nothing lost.
            #expect(layout.lines.first?.range.lowerBound == 0 && layout.lines.last?.range.upperBound == paragraph.utf16.count)
            for (a, b) in zip(layout.lines, layout.lines.dropFirst()) { #expect(a.range.upperBound == b.range.lowerBound) }
            #expect(!layout.isTruncated)
        }
        // Wide enough for the whole text: one line, as wide as the text on one line.
        let one = typesetter.layout(width: 10_000)
        #expect(one.lines.count == 1 && abs(one.lines[0].line.width - CTLine(string: paragraph, font: font).width) < 1e-6)
        // A line breaks as late as it can: the next word would not have fitted.
        let layout = typesetter.layout(width: 200)
        let first = layout.lines[0].range
        let nextBreak = try #require(typesetter.lineBreakOpportunities.first { $0.offset > first.upperBound }).offset
        let withNextWord = String(decoding: Array(paragraph.utf16)[0..<nextBreak], as: UTF16.self)
        #expect(CTLine(string: withNextWord.trimmingCharacters(in: .whitespaces), font: font).width > 200)
        #expect(typesetter.suggestLineBreak(startingAt: 0, width: 200) == first.count)
        #expect(CTTypesetterSuggestLineBreak(typesetter, first.upperBound, 200) == layout.lines[1].range.count)
    }

    @Test func trailingSpacesHangAndLongWordsBreakBetweenCharacters() throws {
        let font = try CTFont.uiFont(size: 17)
        let word = CTLine(string: "aaa", font: font).width
        // The spaces after "aaa" do not count towards the width nor push it to the next line.
        let spaced = CTTypesetter(string: "aaa      bbb", font: font).layout(width: word + 1)
        #expect(spaced.lines.count == 2)
        #expect(abs(spaced.lines[0].line.width - word) < 1e-6)
        #expect(spaced.lines[0].range == 0..<9)
        // A word wider than the line: broken between characters, no hyphen, nothing lost.
        let long = "Supercalifragilisticexpialidocious"
        let narrow = CTTypesetter(string: long, font: font).layout(width: 50)
        #expect(narrow.lines.count > 3)
        for entry in narrow.lines { #expect(entry.line.width <= 50 && entry.line.width > 0) }
        #expect(narrow.lines.map(\.range.count).reduce(0, +) == long.utf16.count)
        // Narrower than one character: still one character per line.
        let tiny = CTTypesetter(string: "abc", font: font).layout(width: 1)
        #expect(tiny.lines.count == 3)
        // Character wrapping fills each line.
        let chars = CTTypesetter(string: "aaa bbbbbb", font: font).layout(width: CTLine(string: "aaa bb", font: font).width + 0.5,
                                                                      lineBreakMode: .byCharWrapping)
        #expect(chars.lines.count == 2 && chars.lines[0].range == 0..<6)
    }

    @Test func mandatoryBreaksAndLineLimits() throws {
        let font = try CTFont.uiFont(size: 17)
        let hard = CTTypesetter(string: "one\ntwo\n\nfour", font: font).layout(width: CGFloat.infinity)
        #expect(hard.lines.count == 4 && hard.lines[2].line.glyphs.isEmpty)
        #expect(hard.size.height == (4 * font.lineHeight).rounded(.up))
        let typesetter = CTTypesetter(string: paragraph, font: font)
        let two = typesetter.layout(width: 150, maximumNumberOfLines: 2, lineBreakMode: .byTruncatingTail)
        #expect(two.lines.count == 2 && two.isTruncated && two.lines[1].isTruncated)
        let ellipsis = CTLine(string: "…", font: font).glyphs
        #expect(Array(two.lines[1].line.glyphs.suffix(ellipsis.count)) == ellipsis)
        #expect(two.lines[1].line.width <= 150)
        let clipped = typesetter.layout(width: 150, maximumNumberOfLines: 2, lineBreakMode: .byWordWrapping)
        #expect(clipped.lines.count == 2 && clipped.isTruncated && !clipped.lines[1].isTruncated)
    }

    @Test func rightToLeftParagraphsTruncateAtTheirEndOnTheLeft() throws {
        let font = try CTFont.uiFont(size: 17)
        let arabic = "مرحبا بكم في تطبيق كريسب للرسوم والواجهات على لينكس"
        let typesetter = CTTypesetter(string: arabic, font: font)
        let wrapped = typesetter.layout(width: 120)
        #expect(wrapped.lines.count > 1)
        for entry in wrapped.lines {
            #expect(entry.direction == .rightToLeft && entry.line.paragraphDirection == .rightToLeft)
            #expect(entry.line.width <= 120)
        }
        let cut = typesetter.layout(width: 120, maximumNumberOfLines: 1, lineBreakMode: .byTruncatingTail)
        let ellipsis = CTLine(string: "…", font: font).glyphs
        #expect(cut.lines.count == 1 && cut.lines[0].isTruncated)
        // The logical end of a right-to-left line is its left end: "…" is drawn first.
        #expect(Array(cut.lines[0].line.glyphs.prefix(ellipsis.count)) == ellipsis)
        // Latin in a right-to-left paragraph keeps the paragraph's direction on every line.
        let mixed = CTTypesetter(string: "مرحبا Crisp مرحبا Crisp مرحبا", font: font).layout(width: 70)
        #expect(mixed.lines.allSatisfy { $0.direction == .rightToLeft })
    }

    @Test func boundingRectAndDrawingInARect() throws {
        let font = try CTFont.uiFont(size: 17)
        let one = paragraph.boundingRect(with: CGSize(width: 10_000, height: 10_000), font: font)
        #expect(one.height == font.lineHeight)
        let wrapped = paragraph.boundingRect(with: CGSize(width: 150, height: CGFloat.infinity), font: font)
        #expect(wrapped.width <= 150 && wrapped.height > 3 * font.lineHeight)
        // The height limits the lines; the last visible one is cut on request.
        let limited = paragraph.layout(with: CGSize(width: 150, height: 2.5 * font.lineHeight),
                                       options: [.usesLineFragmentOrigin, .truncatesLastVisibleLine], font: font)
        #expect(limited.lines.count == 2 && limited.lines[1].isTruncated)
        // Without .usesLineFragmentOrigin: one line.
        #expect(paragraph.boundingRect(with: CGSize(width: 150, height: 500), options: [], font: font).height == font.lineHeight)
        let context = try #require(CGContext(width: 160, height: 120))
        context.translateBy(x: 0, y: 120)
        context.scaleBy(x: 1, y: -1)
        let drawn = paragraph.draw(with: CGRect(x: 5, y: 5, width: 150, height: 110), font: font, color: .black, in: context)
        #expect(drawn.lines.count == Int((110 / font.lineHeight).rounded(.down)))
        let image = try #require(context.makeImage())
        #expect(image.pixels.filter { $0 != 0 }.count > 500)
    }

    /// An English and an Arabic paragraph wrapped in columns 180 wide, natural alignment (the
    /// Arabic lines flush right), the last visible Arabic line cut with "…" on its left.
    @Test func wrappedParagraphsGolden() throws {
        let match = FontSource.standard.match(families: ["DejaVu Sans"])
        guard match.warning == nil else {
            Issue.record("DejaVu Sans is missing: apt-get install fonts-dejavu-core")
            return
        }
        let ctx = CGContext.flipped(width: 400, height: 150)
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 400, height: 150))
        let left = CGRect(x: 8, y: 8, width: 180, height: 134), right = CGRect(x: 212, y: 8, width: 180, height: 82)
        ctx.setStrokeColor(red: 0.6, green: 0.7, blue: 0.9, alpha: 1)
        ctx.setLineWidth(1)
        ctx.stroke(left.insetBy(dx: -0.5, dy: -0.5))
        ctx.stroke(right.insetBy(dx: -0.5, dy: -0.5))
        paragraph.draw(with: left, font: try CTFont.uiFont(size: 14), color: .black, in: ctx)
        let arabic = "مرحبا بكم في كريسب: مكتبة رسوم وواجهات تعمل على لينكس، ترسم النص العربي من اليمين إلى اليسار وتقسم الأسطر حسب قواعد يونيكود، ثم تختصر السطر الأخير عند الحاجة."
        arabic.draw(with: right, options: [.usesLineFragmentOrigin, .truncatesLastVisibleLine],
                    font: CTFont(face: match.face, size: 14), color: .black, in: ctx)
        Golden.check(ctx, "text", "wrapped-paragraphs")
    }
}
