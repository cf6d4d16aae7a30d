import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Variable COLR v1 paints: the deltas of COLR's item variation store at the instance's
/// coordinates, through its DeltaSetIndexMap when it has one. The font
/// (`color-colrv1-variable.ttf`, `make_color_fixtures.py colrv1_variable`) has a 'wght' axis
/// 400…700 and one region peaking at 700: A's alpha goes 1 → 0.5, B moves 200 units right, C
/// turns 90°, D's gradient shortens and its second stop fades, E is D through the index map.
@Suite struct VariableColorGlyphTests {
    static let face = try! ColorGlyphTests.face("color-colrv1-variable.ttf")

    /// `character` at font size 100 (0.1 px a unit) with its origin at (10, 20) of a 140 × 110
    /// white canvas, at `weight` (nil: the default instance).
    static func image(_ character: String, weight: Double? = nil, face: TrueTypeFont = face) -> CGImage {
        let f = weight.map { face.instance(variations: [FontVariation(tag: "wght", value: $0)]) } ?? face
        let ctx = ColorGlyphTests.canvas(140, 110)
        ColorGlyphTests.draw(character, CTFont(face: f, size: 100), at: CGPoint(x: 10, y: 20), in: ctx)
        return ctx.makeImage()!
    }

    /// The box of pixels that are not white, in image rows (top-down).
    static func ink(_ image: CGImage) -> (minX: Int, maxX: Int, minY: Int, maxY: Int) {
        var box = (minX: Int.max, maxX: -1, minY: Int.max, maxY: -1)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let p = image.straightRGBA(x: x, y: y)
                guard p.r < 250 || p.g < 250 || p.b < 250 else { continue }
                box = (min(box.minX, x), max(box.maxX, x), min(box.minY, y), max(box.maxY, y))
            }
        }
        return box
    }

    @Test func solidAlphaFollowsTheWeight() {
        // Palette 0's red (0.9, 0.1, 0.1) over white: green 26 at alpha 1, 140 at 0.5.
        let greens = [nil, 550.0, 700.0].map { Int(VariableColorGlyphTests.image("A", weight: $0).straightRGBA(x: 60, y: 50).g) }
        #expect(abs(greens[0] - 26) <= 2 && abs(greens[1] - 83) <= 3 && abs(greens[2] - 140) <= 3, "\(greens)")
        #expect(Self.face.colorGlyphWarnings.isEmpty, "\(Self.face.colorGlyphWarnings)")
    }

    @Test func translateAndRotateFollowTheWeight() {
        let square = Self.ink(Self.image("B")), moved = Self.ink(Self.image("B", weight: 700))
        // 200 units (20 px) right; the glyph's ClipBox (x ≤ 1000 units: 110 px) cuts its right end.
        #expect(square.minX == 20 && moved.minX == 40 && moved.maxX == 109, "\(square) \(moved)")
        let halfway = Self.ink(Self.image("B", weight: 550))
        #expect(halfway.minX == 30, "half the delta halfway along the region: \(halfway)")
        // C's bar (800 × 200 units) turns a quarter about (500, 400): 200 × 800.
        let bar = Self.ink(Self.image("C")), turned = Self.ink(Self.image("C", weight: 700))
        #expect(bar.maxX - bar.minX > 70 && bar.maxY - bar.minY < 25, "\(bar)")
        #expect(turned.maxX - turned.minX < 25 && turned.maxY - turned.minY > 70, "\(turned)")
    }

    @Test func gradientsAndColorLinesVaryAndTheIndexMapIsRead() {
        let d400 = Self.image("D"), d700 = Self.image("D", weight: 700)
        #expect(d400.pixels != d700.pixels)
        // The second stop fades: the square's right end goes from palette 1's blue to half of it.
        let right400 = d400.straightRGBA(x: 95, y: 50), right700 = d700.straightRGBA(x: 95, y: 50)
        #expect(right400.r < 60 && right700.r > 100, "\(right400) \(right700)")
        // E asks for indices 100…; only through the DeltaSetIndexMap do they reach D's rows.
        for weight in [nil, 550.0, 700.0] {
            #expect(Self.image("E", weight: weight).pixels == Self.image("D", weight: weight).pixels, "at \(String(describing: weight))")
        }
    }

    @Test func theDefaultInstanceDrawsTheDefaultValues() {
        #expect(Self.face.instance(variations: [FontVariation(tag: "wght", value: 400)]) === Self.face)
        #expect(Self.image("B", weight: 400).pixels == Self.image("B").pixels)
    }

    /// A store offset past the table's end: the deltas are lost, with one warning; the glyphs
    /// still draw (at their default values).
    @Test func malformedVariationDataDrawsTheDefaults() throws {
        var bytes = try TestFonts.fixtureBytes("color-colrv1-variable.ttf")
        func u16(_ o: Int) -> Int { Int(bytes[o]) << 8 | Int(bytes[o + 1]) }
        func u32(_ o: Int) -> Int { u16(o) << 16 | u16(o + 2) }
        let colr = try #require((0..<u16(4)).map { 12 + 16 * $0 }.first { String(decoding: bytes[$0..<$0 + 4], as: UTF8.self) == "COLR" })
        let start = u32(colr + 8), length = u32(colr + 12)
        let bad = UInt32(length - 4)
        for k in 0..<4 { bytes[start + 30 + k] = UInt8(truncatingIfNeeded: bad >> (24 - 8 * UInt32(k))) }
        let face = try TrueTypeFont(data: bytes)
        let moved = Self.ink(Self.image("B", weight: 700, face: face))
        #expect(moved.minX == 20, "drawn where the default puts it: \(moved)")
        #expect(face.colorGlyphWarnings.contains { $0.contains("variation data") }, "\(face.colorGlyphWarnings)")
    }
}
