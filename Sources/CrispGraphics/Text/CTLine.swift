import Foundation

// A line of text in one font, shaped by HarfBuzz (see Shaping.swift): canonical composition
// first (so "a" + U+0308 draws the precomposed "ä" where the font has it), control characters
// dropped and tabs drawn as spaces, then ligatures, contextual forms, marks and GPOS (or 'kern')
// kerning as the font defines them. No bidi reordering or line breaking: a line is one run in
// one direction (guessed from its script unless given).

/// One line of text in one font, laid out and ready to measure or draw, as CoreText's `CTLine`.
///
/// Coordinates are in text space: the pen starts at the origin on the baseline, x grows along
/// the line, y up.
public struct CTLine: Sendable {
    /// The font every glyph is drawn in.
    public let font: CTFont
    /// The glyphs, in order.
    public let glyphs: [CGGlyph]
    /// Each glyph's position: its pen position on the baseline plus its shaping offset (y up;
    /// non-zero for marks placed above or below their base).
    public let positions: [CGPoint]
    /// The typographic width: the pen's advance over the whole line, kerning included.
    public let width: CGFloat

    /// Lays out `string` in `font`.
    ///
    /// Control characters take no space (a tab counts as a space); characters the font lacks
    /// draw as its .notdef glyph. `kerning: false` leaves the font's kerning out; `features` are
    /// OpenType features in CSS `font-feature-settings` syntax (`"\"liga\" 0, \"tnum\""`);
    /// `direction` nil guesses it from the text's script.
    public init(string: String, font: CTFont, kerning: Bool = true, features: String = "",
                direction: TextDirection? = nil) {
        self.font = font
        let face = font.face
        let isPlainASCII = string.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let text = isPlainASCII ? string : string.precomposedStringWithCanonicalMapping
        let allFeatures = kerning ? features : (features.isEmpty ? "\"kern\" 0" : features + ", \"kern\" 0")
        let run = Shaper.shape(text: text, scalars: {
            // Printable ASCII is already composed and has no controls.
            if isPlainASCII { return Array(text.unicodeScalars) }
            var scalars: [Unicode.Scalar] = []
            for scalar in text.unicodeScalars {
                if scalar == "\t" { scalars.append(" "); continue }
                if scalar.properties.generalCategory == .control || scalar == "\u{AD}" { continue }
                scalars.append(scalar)
            }
            return scalars
        }, face: face, features: allFeatures, direction: direction)
        var positions: [CGPoint] = []
        positions.reserveCapacity(run.glyphs.count)
        var pen = 0                       // font units, exact
        let scale = font.scale
        for i in 0..<run.glyphs.count {
            let o = run.offsets[i]
            positions.append(CGPoint(x: CGFloat(pen + Int(o.x)) * scale, y: CGFloat(o.y) * scale))
            pen += Int(run.advances[i])
        }
        self.glyphs = run.glyphs
        self.positions = positions
        self.width = CGFloat(pen) * scale
    }

    /// The font's ascent (the line's extent above the baseline).
    public var ascent: CGFloat { font.ascent }
    /// The font's descent (below the baseline, positive).
    public var descent: CGFloat { font.descent }
    /// The font's leading.
    public var leading: CGFloat { font.leading }

    /// The line's typographic box in text space: x from 0 to `width`, y from `-descent` to
    /// `ascent`.
    public var typographicBounds: CGRect { CGRect(x: 0, y: -descent, width: width, height: ascent + descent) }

    /// The union of the glyphs' ink in text space (tight outline bounds); `.null` when nothing
    /// is inked (an empty or all-space line).
    public var imageBounds: CGRect {
        var bounds = CGRect.null
        for (g, p) in zip(glyphs, positions) {
            let r = font.boundingRect(for: g)
            if !r.isNull { bounds = bounds.union(r.offsetBy(dx: p.x, dy: p.y)) }
        }
        return bounds
    }

    /// Draws the line with the context's fill colour, its origin at the text position (text
    /// space is mapped to user space by the context's `textMatrix`). The text position does not
    /// move. As `CTLineDraw`.
    public func draw(in context: CGContext) {
        context.showGlyphs(glyphs, at: positions, font: font)
    }
}

/// Draws `line` into `context` at the text position; see `CTLine.draw(in:)`.
public func CTLineDraw(_ line: CTLine, _ context: CGContext) { line.draw(in: context) }

/// The line's typographic width, and its ascent, descent and leading through the pointers, as
/// CoreText's `CTLineGetTypographicBounds`.
@discardableResult
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                      _ descent: UnsafeMutablePointer<CGFloat>?,
                                      _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = line.ascent
    descent?.pointee = line.descent
    leading?.pointee = line.leading
    return Double(line.width)
}
