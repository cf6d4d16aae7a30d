import Foundation

// A line of text laid out the simple way: one glyph per Unicode scalar (after canonical
// composition, so "a" + U+0308 draws the precomposed "ä"), advanced by the face's advance widths
// plus pair kerning. No shaping, bidi or line breaking — what UI labels in Latin scripts need.

/// One line of text in one font, laid out and ready to measure or draw, as CoreText's `CTLine`.
///
/// Coordinates are in text space: the pen starts at the origin on the baseline, x grows along
/// the line, y up.
public struct CTLine: Sendable {
    /// The font every glyph is drawn in.
    public let font: CTFont
    /// The glyphs, in order.
    public let glyphs: [CGGlyph]
    /// Each glyph's pen position on the baseline (y is 0).
    public let positions: [CGPoint]
    /// The typographic width: the pen's advance over the whole line, kerning included.
    public let width: CGFloat

    /// Lays out `string` in `font`.
    ///
    /// Control characters take no space (a tab counts as a space); characters the font lacks
    /// draw as its .notdef glyph. `kerning: false` leaves the pair adjustments out.
    public init(string: String, font: CTFont, kerning: Bool = true) {
        self.font = font
        let face = font.face
        let space = face.glyph(for: " ")
        var glyphs: [CGGlyph] = []
        for scalar in string.precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar == "\t" { glyphs.append(space); continue }
            if scalar.properties.generalCategory == .control || scalar == "\u{AD}" { continue }
            glyphs.append(face.glyph(for: scalar))
        }
        var positions: [CGPoint] = []
        positions.reserveCapacity(glyphs.count)
        var pen = 0                       // font units, exact
        for (i, g) in glyphs.enumerated() {
            if kerning, i > 0 { pen += face.kerning(between: glyphs[i - 1], and: g) }
            positions.append(CGPoint(x: CGFloat(pen) * font.scale, y: 0))
            pen += face.advanceWidth(of: g)
        }
        self.glyphs = glyphs
        self.positions = positions
        self.width = CGFloat(pen) * font.scale
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
