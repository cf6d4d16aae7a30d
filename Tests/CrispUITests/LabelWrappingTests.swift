import CrispGraphics
import CrispUI
import Foundation
import Testing

/// Multi-line labels: `numberOfLines`, `lineBreakMode`, sizing, right-to-left truncation.
@Suite struct LabelWrappingTests {
    let text = "Crisp draws every label with its own rasterizer, wrapping long text at the places Unicode allows."

    @Test func oneLineIsTodaysBehaviour() throws {
        let label = Label(text: text, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 120, height: 40))
        #expect(label.numberOfLines == 1 && label.lineBreakMode == .byTruncatingTail)
        #expect(label.fittedLayout() == nil)
        #expect(label.fittedLine().text.hasSuffix("…"))
        let font = try #require(label.font)
        #expect(label.sizeThatFits(CGSize(width: 120, height: 1000)).height == font.lineHeight.rounded(.up))
    }

    @Test func unlimitedLinesWrapToTheWidthAndSizeFollows() throws {
        let label = Label(text: text, fontSize: 14)
        label.numberOfLines = 0
        let font = try #require(label.font)
        let size = label.sizeThatFits(CGSize(width: 150, height: CGFloat.infinity))
        #expect(size.width <= 150)
        let lines = Int((size.height / font.lineHeight).rounded())
        #expect(lines >= 3, "\(size)")
        // Without a width the intrinsic size is one line; preferredMaxLayoutWidth wraps it.
        #expect(label.textSize.height == font.lineHeight.rounded(.up))
        label.preferredMaxLayoutWidth = 150
        #expect(label.textSize == size)
        label.frame = CGRect(origin: .zero, size: size)
        let layout = try #require(label.fittedLayout())
        #expect(layout.lines.count == lines && !layout.isTruncated)
        #expect(label.textRect.height == size.height)
    }

    @Test func aLineLimitCutsTheLastLine() throws {
        let label = Label(text: text, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 150, height: 200))
        label.numberOfLines = 2
        let layout = try #require(label.fittedLayout())
        #expect(layout.lines.count == 2 && layout.isTruncated)
        let ellipsis = try #require(label.font).face.glyph(for: "…")
        #expect(layout.lines[1].line.glyphs.last == ellipsis)
        let font = try #require(label.font)
        #expect(label.sizeThatFits(CGSize(width: 150, height: 1000)).height == (2 * font.lineHeight).rounded(.up))
        // The bounds' height limits the lines too.
        label.numberOfLines = 0
        label.frame = CGRect(x: 0, y: 0, width: 150, height: font.lineHeight * 1.5)
        #expect(label.fittedLayout()?.lines.count == 1)
        // Word wrapping drops what is left, without "…".
        label.lineBreakMode = .byWordWrapping
        #expect(label.fittedLayout()?.lines.last?.line.glyphs.last != ellipsis)
    }

    @Test func singleLineModes() throws {
        let frame = CGRect(x: 0, y: 0, width: 120, height: 20)
        let head = Label(text: text, fontSize: 14, frame: frame)
        head.lineBreakMode = .byTruncatingHead
        #expect(head.fittedLine().text.hasPrefix("…") && head.fittedLine().text.hasSuffix("allows."))
        let middle = Label(text: text, fontSize: 14, frame: frame)
        middle.lineBreakMode = .byTruncatingMiddle
        let m = middle.fittedLine().text
        #expect(m.hasPrefix("Crisp") && m.hasSuffix(".") && m.contains("…"))
        let clip = Label(text: text, fontSize: 14, frame: frame)
        clip.lineBreakMode = .byClipping
        #expect(clip.fittedLine().text == text)
    }

    @Test func rightToLeftLabelsCutAtTheLeftAndAlignNaturallyRight() throws {
        let arabic = "مرحبا بكم في تطبيق كريسب للرسوم والواجهات على لينكس"
        let label = Label(text: arabic, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 120, height: 20))
        label.alignment = .natural
        let line = label.fittedLine()
        #expect(line.text.hasSuffix("…"))
        let font = try #require(label.font)
        let drawn = CTLine(string: line.text, font: font, fallback: FontSource.drawingFallback)
        #expect(drawn.glyphs.first == font.face.glyph(for: "…"), "the ellipsis is at the left end")
        #expect(label.textRect.maxX == 120)
        let multi = Label(text: arabic, fontSize: 14, frame: CGRect(x: 0, y: 0, width: 120, height: 200))
        multi.numberOfLines = 0
        multi.alignment = .natural
        #expect(try #require(multi.fittedLayout()).lines.count > 1)
        #expect(multi.textRect.maxX == 120)
    }
}
