import Foundation
import Testing
@_spi(Testing) import CrispGraphics

@Suite struct GlyphCacheTests {
    static let paragraph = """
        Zum Gespräch zurückkehren. ¿Volver a la llamada? Touch to return to call. \
        Signal quality over time: the quick brown fox jumps over the lazy dog.
        """

    /// Draws the paragraph in lines of about 40 characters at whole-pixel starts.
    static func drawParagraph(_ ctx: CGContext, _ font: CTFont) {
        var y: CGFloat = 180
        var rest = Substring(paragraph)
        while !rest.isEmpty {
            let piece = rest.prefix(40)
            rest = rest.dropFirst(piece.count)
            ctx.textPosition = CGPoint(x: 4, y: y)
            CTLine(string: String(piece), font: font).draw(in: ctx)
            y -= 20
        }
    }

    @Test func aParagraphRasterizesEachGlyphPhaseOnce() throws {
        let ctx = CGContext(width: 320, height: 200)!
        let cache = GlyphCache(byteBudget: 1 << 20)
        ctx.glyphCache = cache
        let font = try CTFont.uiFont(size: 15)
        GlyphCacheTests.drawParagraph(ctx, font)
        let first = cache.statistics
        #expect(first.misses == cache.usage.entries)
        let distinct = Set(CTLine(string: GlyphCacheTests.paragraph, font: font).glyphs).count
        #expect(first.misses <= distinct * GlyphCache.phases, "at most one bitmap per glyph and x phase")
        #expect(first.hits > 0, "repeated letters come from the cache")
        GlyphCacheTests.drawParagraph(ctx, font)
        let second = cache.statistics
        #expect(second.misses == first.misses, "nothing is rasterized again")
        #expect(second.hits - first.hits == first.hits + first.misses)
    }

    @Test func cacheStaysWithinItsBudget() throws {
        let ctx = CGContext(width: 320, height: 200)!
        let cache = GlyphCache(byteBudget: 6000)
        ctx.glyphCache = cache
        for size: CGFloat in [11, 15, 23, 31] {
            GlyphCacheTests.drawParagraph(ctx, try CTFont.uiFont(size: size))
        }
        #expect(cache.usage.bytes <= 6000)
        #expect(cache.usage.entries > 0)
        // Eviction does not change what is drawn.
        let small = CGContext(width: 320, height: 200)!
        small.glyphCache = GlyphCache(byteBudget: 1500)
        let large = CGContext(width: 320, height: 200)!
        large.glyphCache = GlyphCache(byteBudget: 1 << 22)
        let font = try CTFont.uiFont(size: 15)
        GlyphCacheTests.drawParagraph(small, font)
        GlyphCacheTests.drawParagraph(large, font)
        #expect(small.snapshot == large.snapshot)
    }

    @Test func differentSizesAndPhasesAreDifferentEntries() throws {
        let cache = GlyphCache(byteBudget: 1 << 20)
        let ctx = CGContext(width: 100, height: 40)!
        ctx.glyphCache = cache
        let font = try CTFont.uiFont(size: 12)
        for x in [2.0, 2.25, 2.5, 2.75, 3.0, 3.1] as [CGFloat] {
            ctx.textPosition = CGPoint(x: x, y: 10)
            ctx.showGlyphs([34], at: [.zero], font: font)
        }
        #expect(cache.usage.entries == 4)      // 3.0 and 3.1 share phase 0
        ctx.textPosition = CGPoint(x: 2, y: 10)
        ctx.showGlyphs([34], at: [.zero], font: font.withSize(13))
        #expect(cache.usage.entries == 5)
    }
}
