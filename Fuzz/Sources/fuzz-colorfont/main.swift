import CrispGraphics
import Foundation
import FuzzSupport

// Colour fonts: parse, then draw the first glyphs of the face (where the colour glyphs of the
// seeds are) through the colour path: 'COLR' v0 layers and v1 paint graphs with 'CPAL'
// palettes, 'CBLC'/'CBDT' and 'sbix' bitmaps. Drawn twice: upright at 20 px with palette 1,
// and rotated at 60 px (another bitmap strike, gradients under a rotation); a variable font a
// third time at its axes' maximum (variable COLR paints).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let face = try? TrueTypeFont(data: bytes) else { return 0 }
    let glyphs = (0..<min(face.glyphCount, 24)).map { CGGlyph($0) }
    _ = face.hasColorGlyphs
    _ = face.colorPalette(face.colorPaletteCount - 1)
    guard let context = CGContext(width: 64, height: 64) else { return 0 }
    let positions = glyphs.indices.map { CGPoint(x: CGFloat($0 % 6) * 10, y: CGFloat($0 / 6) * 14) }
    context.textPosition = CGPoint(x: 2, y: 4)
    CTFont(face: face, size: 20, colorPaletteIndex: 1).draw(glyphs, at: positions, in: context)
    context.rotate(by: 0.4)
    context.setAlpha(0.7)
    context.textPosition = CGPoint(x: 8, y: -10)
    CTFont(face: face, size: 60).draw(Array(glyphs.prefix(8)), at: Array(positions.prefix(8)), in: context)
    // A variable font again at the far end of each axis: COLR's variable paints through its
    // item variation store and delta-set index map.
    let axes = face.variationAxes
    if !axes.isEmpty {
        let far = face.instance(variations: axes.map { FontVariation(tag: $0.tag, value: $0.maximum) })
        context.textPosition = CGPoint(x: 2, y: 30)
        CTFont(face: far, size: 20).draw(Array(glyphs.prefix(8)), at: Array(positions.prefix(8)), in: context)
        _ = far.colorGlyphWarnings
    }
    _ = face.colorGlyphWarnings
    return 0
}
