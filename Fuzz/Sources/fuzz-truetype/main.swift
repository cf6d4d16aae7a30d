import CrispGraphics
import Foundation
import FuzzSupport

// TrueType: parse, then draw a short string with the font, upright (glyph cache) and rotated
// (outlines), at a size where hostile outlines would be expensive. FUZZ_TTF_ALL_GLYPHS=1 also
// reads every glyph's outline (thorough, but about 50 executions/s on a real font).
let everyGlyph = ProcessInfo.processInfo.environment["FUZZ_TTF_ALL_GLYPHS"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let face = try? TrueTypeFont(data: bytes) else { return 0 }
    if everyGlyph {
        for g in 0..<min(face.glyphCount, 1 << 16) { _ = try? face.path(for: CGGlyph(g)) }
    }
    guard let context = CGContext(width: 48, height: 48) else { return 0 }
    let font = CTFont(face: face, size: 20)
    let line = CTLine(string: "Ag\u{C4}fi\u{20AC}", font: font)
    context.textPosition = CGPoint(x: 2, y: 12)
    line.draw(in: context)
    context.rotate(by: 0.3)
    context.textPosition = CGPoint(x: 2, y: 30)
    line.draw(in: context)
    _ = line.typographicBounds
    return 0
}
