import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Thousands of mutated font files (fixed seed): each either fails to open with a `FontError` or
/// opens and then survives every query and a drawing — no crash, no hang, no runaway allocation.
/// Termination is guaranteed by construction (bounded loops, composite depth and size budgets),
/// so there is no timing assertion here.
@Suite struct FontFuzzTests {
    enum Mutation: CaseIterable {
        case truncate, flipBits, randomBytes, offsetLie, tableRecordLie, locaLie, glyphHeaderLie
    }

    static func mutate(_ base: [UInt8], _ kind: Mutation, _ rng: inout SplitMix64) -> [UInt8] {
        var p = FontPatcher(bytes: base)
        let n = base.count
        switch kind {
        case .truncate:
            return Array(base.prefix(Int.random(in: 0..<n, using: &rng)))
        case .flipBits:
            for _ in 0..<Int.random(in: 1...8, using: &rng) {
                p.bytes[Int.random(in: 0..<n, using: &rng)] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
            }
        case .randomBytes:
            let start = Int.random(in: 0..<n, using: &rng)
            for i in start..<min(n, start + Int.random(in: 1...16, using: &rng)) { p.bytes[i] = UInt8.random(in: 0...255, using: &rng) }
        case .offsetLie:
            // A big or boundary value written over a 16/32-bit field somewhere in a table.
            let values = [0, 1, 0x7FFF, 0x8000, 0xFFFF, n, n - 1, Int.random(in: 0...0xFFFF, using: &rng)]
            let at = Int.random(in: 12..<(n - 4), using: &rng) & ~1
            if Bool.random(using: &rng) { p.setU16(at, values.randomElement(using: &rng)! & 0xFFFF) }
            else { p.setU32(at, [0xFFFF_FFFF, 0x7FFF_FFFF, n, n + 1].randomElement(using: &rng)!) }
        case .tableRecordLie:
            let count = p.u16(4)
            let r = 12 + Int.random(in: 0..<count, using: &rng) * 16
            let field = r + [8, 12].randomElement(using: &rng)!
            p.setU32(field, [0, n, n - 2, 0xFFFF_FFFF, p.u32(field) + Int.random(in: 1...64, using: &rng)].randomElement(using: &rng)!)
        case .locaLie:
            let loca = p.tableOffset("loca")
            let g = Int.random(in: 0...220, using: &rng)
            p.setU16(loca + g * 2, [0, 0xFFFF, p.u16(loca + g * 2) + 1, Int.random(in: 0...0xFFFF, using: &rng)].randomElement(using: &rng)!)
        case .glyphHeaderLie:
            let g = Int.random(in: 0..<220, using: &rng)
            let at = p.glyphOffset(g) + [0, 10, 12, 14, 16].randomElement(using: &rng)!
            guard at + 2 <= n else { break }
            p.setU16(at, [0xFFFF, 0x7FFF, 0x8000, 0, 1, Int.random(in: 0...0xFFFF, using: &rng)].randomElement(using: &rng)!)
        }
        return p.bytes
    }

    /// Uses everything a font offers; any failure must be a `FontError`.
    static func exercise(_ font: TrueTypeFont, _ rng: inout SplitMix64, context: CGContext) {
        _ = (font.capHeight, font.xHeight, font.familyName, font.kerningSource)
        let glyphs = (0..<24).map { _ in CGGlyph.random(in: 0...CGGlyph(min(font.glyphCount + 2, 0xFFFF)), using: &rng) }
            + [0, 171, 197, 34]
        for g in glyphs {
            _ = font.advanceWidth(of: g)
            _ = try? font.path(for: g)
            _ = font.kerning(between: g, and: glyphs[Int(g) % glyphs.count])
        }
        for c in "AVTo äöüß ñ¡¿€\u{1D400}".unicodeScalars { _ = font.glyph(for: c) }
        let ctFont = CTFont(face: font, size: 17)
        let line = CTLine(string: "Äpfel ¡Año! Straße", font: ctFont)
        _ = line.imageBounds
        context.textPosition = CGPoint(x: 2, y: 8)
        line.draw(in: context)
    }

    @Test(arguments: ["Roboto-Regular.ttf", "kern-cmap12.ttf"])
    func mutatedFontsParseOrFailCleanly(_ name: String) throws {
        let base = name.hasPrefix("Roboto") ? try TestFonts.bytes(name) : try TestFonts.fixtureBytes(name)
        var rng = SplitMix64(seed: name.hasPrefix("Roboto") ? 0xF0_17 : 0xC0_DE)
        let context = CGContext(width: 64, height: 24)!
        var opened = 0, rejected = 0
        for i in 0..<1500 {
            let kind = Mutation.allCases[i % Mutation.allCases.count]
            let bytes = FontFuzzTests.mutate(base, kind, &rng)
            do throws(FontError) {
                let font = try TrueTypeFont(data: bytes)
                opened += 1
                FontFuzzTests.exercise(font, &rng, context: context)
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        // Both outcomes occur: the mutations are neither all harmless nor all fatal.
        #expect(opened > 100 && rejected > 100, "opened \(opened), rejected \(rejected)")
    }
}
