import Foundation

// A line of text in one font, shaped by HarfBuzz (see Shaping.swift): canonical composition
// first (so "a" + U+0308 draws the precomposed "ä" where the font has it), control characters
// dropped and tabs drawn as spaces, then ligatures, contextual forms, marks and GPOS (or 'kern')
// kerning as the font defines them. Bidirectional text follows the Unicode Bidirectional
// Algorithm (Bidi.swift): runs of one level are shaped in their direction and laid out in visual
// order. No line breaking: a line is one line. With a fallback font source, runs are also cut
// where the face changes.

/// A stretch of a line's glyphs drawn in another font than the line's (per-glyph fallback).
public struct CTLineFontRun: Sendable {
    /// Indices into the line's `glyphs` and `positions`.
    public let range: Range<Int>
    /// The font those glyphs are drawn in.
    public let font: CTFont
}

/// One line of text in one font, laid out and ready to measure or draw, as CoreText's `CTLine`.
///
/// Coordinates are in text space: the pen starts at the origin on the baseline, x grows along
/// the line, y up.
public struct CTLine: Sendable {
    /// The font the line asked for (every glyph is drawn in it, except those of `fontRuns`).
    public let font: CTFont
    /// The glyphs, in order.
    public let glyphs: [CGGlyph]
    /// Each glyph's position: its pen position on the baseline plus its shaping offset (y up;
    /// non-zero for marks placed above or below their base).
    public let positions: [CGPoint]
    /// The typographic width: the pen's advance over the whole line, kerning included.
    public let width: CGFloat
    /// Glyphs taken from fallback fonts (empty unless the line was made with `fallback:`), in
    /// glyph order.
    public let fontRuns: [CTLineFontRun]
    /// The paragraph's direction: the one asked for, or else that of the first strong
    /// character (Hebrew, Arabic: right to left), left to right when there is none. A label
    /// with natural alignment lines up with the side it names.
    public let paragraphDirection: TextDirection

    /// Lays out `string` in `font`.
    ///
    /// Control characters take no space (a tab counts as a space); characters the font lacks
    /// draw as its .notdef glyph unless `fallback` is given: then each character `font` lacks is
    /// drawn in the first face `fallback` finds for it (its fallback families, then the system's
    /// fonts covering it, see `FontSource.fallbackFace`), and each stretch of characters in one
    /// face is shaped on its own.
    ///
    /// Mixed directions follow the Unicode Bidirectional Algorithm (through FriBidi): Hebrew and
    /// Arabic read right to left, Latin and numbers inside them left to right, brackets pair and
    /// mirror, and the explicit controls (U+202A–U+202E, U+2066–U+2069) embed, override and
    /// isolate without being drawn; `glyphs` and `positions` are in visual order, left to right.
    /// `direction` is the paragraph's direction; nil takes that of the first strong character.
    /// `kerning: false` leaves the font's kerning out; `features` are OpenType features in CSS
    /// `font-feature-settings` syntax (`"\"liga\" 0, \"tnum\""`).
    public init(string: String, font: CTFont, kerning: Bool = true, features: String = "",
                direction: TextDirection? = nil, fallback: FontSource? = nil) {
        let face = font.face
        let isPlainASCII = string.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        let text = isPlainASCII ? string : string.precomposedStringWithCanonicalMapping
        let allFeatures = kerning ? features : (features.isEmpty ? "\"kern\" 0" : features + ", \"kern\" 0")
        func drawnScalars() -> [Unicode.Scalar] {
            // Printable ASCII is already composed and has no controls.
            if isPlainASCII { return Array(text.unicodeScalars) }
            var scalars: [Unicode.Scalar] = []
            for scalar in text.unicodeScalars {
                if scalar == "\t" { scalars.append(" "); continue }
                if scalar.properties.generalCategory == .control || scalar == "\u{AD}" { continue }
                scalars.append(scalar)
            }
            return scalars
        }
        // Right-to-left text, bidi controls, a right-to-left paragraph or fallback faces: the
        // line is cut into runs of one level and one face, shaped each in its direction and
        // laid out in visual order (Bidi.swift). Otherwise one run in the font.
        let mayReorder = direction == .rightToLeft
            || (!isPlainASCII && text.unicodeScalars.contains(where: Bidi.mayNeedReordering))
        if mayReorder || (fallback != nil && !isPlainASCII && !CTLine.covers(text, face)) {
            // Such lines (bidi levels, fallback lookups, several runs) are kept whole: a label
            // redrawn every frame costs one lookup, as a one-run line does through the shaper.
            let key = LineKey(text: text, face: face.identifier, size: font.size, features: allFeatures,
                              direction: direction.map { $0.rawValue } ?? 255,
                              fallback: fallback.map { ObjectIdentifier($0) })
            if let hit = CTLine.lineCacheLock.withLock({ CTLine.lineCache[key] }) {
                self = hit.line
                return
            }
            let scalars = drawnScalars()
            let bidi = mayReorder ? Bidi.levels(scalars, direction: direction) : nil
            let segments = fallback.map { CTLine.fallbackSegments(scalars, face: face, source: $0) } ?? [(face, scalars)]
            if bidi != nil || segments.count > 1 || segments.first?.face !== face {
                self.init(font: font, segments: segments, bidi: bidi, features: allFeatures, direction: direction)
                let line = self
                CTLine.lineCacheLock.withLock {
                    if CTLine.lineCache.count >= 2048 { CTLine.lineCache.removeAll(keepingCapacity: true) }
                    CTLine.lineCache[key] = (line, fallback)
                }
                return
            }
        }
        let run = Shaper.shape(text: text, scalars: drawnScalars, face: face, features: allFeatures, direction: direction)
        var positions: [CGPoint] = []
        positions.reserveCapacity(run.glyphs.count)
        var pen = 0                       // font units, exact
        let scale = font.scale
        for i in 0..<run.glyphs.count {
            let o = run.offsets[i]
            positions.append(CGPoint(x: CGFloat(pen + Int(o.x)) * scale, y: CGFloat(o.y) * scale))
            pen += Int(run.advances[i])
        }
        self.init(font: font, glyphs: run.glyphs, positions: positions, width: CGFloat(pen) * scale, fontRuns: [],
                  paragraphDirection: direction ?? .leftToRight)
    }

    private init(font: CTFont, glyphs: [CGGlyph], positions: [CGPoint], width: CGFloat, fontRuns: [CTLineFontRun],
                 paragraphDirection: TextDirection) {
        self.font = font
        self.glyphs = glyphs
        self.positions = positions
        self.width = width
        self.fontRuns = fontRuns
        self.paragraphDirection = paragraphDirection
    }

    /// A line of several runs: `segments` (stretches of scalars in one face, in logical order)
    /// cut where the bidi level changes, bidi controls left out, each run shaped in its level's
    /// direction (or `direction` without bidi levels) and placed in visual order.
    private init(font: CTFont, segments: [(face: TrueTypeFont, scalars: [Unicode.Scalar])], bidi: Bidi.Levels?,
                 features: String, direction: TextDirection?) {
        var runs: [(face: TrueTypeFont, level: UInt8, scalars: [Unicode.Scalar])] = []
        var k = 0
        for segment in segments {
            var current: [Unicode.Scalar] = []
            var level: UInt8 = 0
            for s in segment.scalars {
                defer { k += 1 }
                guard let bidi else { current.append(s); continue }
                if bidi.isControl[k] { continue }
                if bidi.levels[k] != level, !current.isEmpty {
                    runs.append((segment.face, level, current))
                    current = []
                }
                level = bidi.levels[k]
                current.append(s)
            }
            if !current.isEmpty { runs.append((segment.face, level, current)) }
        }
        let order = bidi == nil ? Array(runs.indices) : Bidi.visualOrder(runs.map(\.level))
        var glyphs: [CGGlyph] = [], positions: [CGPoint] = [], fontRuns: [CTLineFontRun] = []
        var pen: CGFloat = 0
        for index in order {
            let segment = runs[index]
            let part = String(String.UnicodeScalarView(segment.scalars))
            let runDirection: TextDirection? = bidi == nil ? direction : (segment.level & 1 == 1 ? .rightToLeft : .leftToRight)
            let run = Shaper.shape(text: part, scalars: { segment.scalars }, face: segment.face,
                                   features: features, direction: runDirection)
            let segmentFont = segment.face === font.face ? font : CTFont(face: segment.face, size: font.size)
            let scale = segmentFont.scale
            let start = glyphs.count
            var units = 0
            for i in 0..<run.glyphs.count {
                let o = run.offsets[i]
                positions.append(CGPoint(x: pen + CGFloat(units + Int(o.x)) * scale, y: CGFloat(o.y) * scale))
                units += Int(run.advances[i])
            }
            glyphs += run.glyphs
            pen += CGFloat(units) * scale
            if segment.face !== font.face, glyphs.count > start {
                fontRuns.append(CTLineFontRun(range: start..<glyphs.count, font: segmentFont))
            }
        }
        self.init(font: font, glyphs: glyphs, positions: positions, width: pen, fontRuns: fontRuns,
                  paragraphDirection: bidi.map { $0.baseIsRightToLeft ? .rightToLeft : .leftToRight } ?? direction ?? .leftToRight)
    }

    private struct LineKey: Hashable {
        var text: String
        var face: Int
        var size: CGFloat
        var features: String
        var direction: UInt8
        var fallback: ObjectIdentifier?
    }
    private static let lineCacheLock = NSLock()
    // The entry holds the fallback source, so no other source can take its address while the
    // entry lives.
    nonisolated(unsafe) private static var lineCache: [LineKey: (line: CTLine, source: FontSource?)] = [:]
    static func removeCachedLines() { lineCacheLock.withLock { lineCache.removeAll() } }

    private struct CoverageKey: Hashable { var text: String; var face: Int }
    private static let coverageLock = NSLock()
    nonisolated(unsafe) private static var coverage: [CoverageKey: Bool] = [:]

    /// Whether `face` has a glyph for every character of `text` that `fallbackSegments` would
    /// look up (marks, formats, variation selectors and spaces stay with their neighbour),
    /// remembered per (text, face) in a bounded table: a label its font covers pays one lookup
    /// per frame for having a fallback source.
    static func covers(_ text: String, _ face: TrueTypeFont) -> Bool {
        let key = CoverageKey(text: text, face: face.identifier)
        if let hit = coverageLock.withLock({ coverage[key] }) { return hit }
        let covered = text.unicodeScalars.allSatisfy { s in
            if s.value < 0x80 { return s.value < 0x20 || s.value == 0x7F || face.glyph(for: s) != 0 }
            let category = s.properties.generalCategory
            return category == .nonspacingMark || category == .enclosingMark || category == .spacingMark
                || category == .format || category == .control || s.properties.isVariationSelector
                || face.glyph(for: s) != 0
        }
        coverageLock.withLock {
            if coverage.count >= 4096 { coverage.removeAll(keepingCapacity: true) }
            coverage[key] = covered
        }
        return covered
    }

    /// The scalars split into stretches drawn by one face each: `face` where it has the glyph,
    /// else the fallback face for the scalar; marks, joiners and variation selectors stay with
    /// the character before them, spaces with whichever face is current (but a colour font's).
    static func fallbackSegments(_ scalars: [Unicode.Scalar], face: TrueTypeFont,
                                 source: FontSource) -> [(face: TrueTypeFont, scalars: [Unicode.Scalar])] {
        var segments: [(face: TrueTypeFont, scalars: [Unicode.Scalar])] = []
        var found: [UInt32: TrueTypeFont] = [:]
        for s in scalars {
            var chosen = face
            let category = s.properties.generalCategory
            // A space after an emoji goes back to `face` (a colour font's space is as wide as its
            // emoji, 1.25 em in Noto Color Emoji; browsers take the first font with the character).
            let spaceStays = s == " " && !(segments.last?.face.hasColorGlyphs ?? false)
            let attaches = category == .nonspacingMark || category == .enclosingMark || category == .spacingMark
                || category == .format || s.properties.isVariationSelector || spaceStays
            if attaches, let last = segments.last {
                chosen = last.face
            } else if face.glyph(for: s) == 0 {
                if let f = found[s.value] {
                    chosen = f
                } else {
                    chosen = source.fallbackFace(for: s, weight: face.weight, italic: face.isItalic) ?? face
                    found[s.value] = chosen
                }
            }
            if let last = segments.last, last.face === chosen {
                segments[segments.count - 1].scalars.append(s)
            } else {
                segments.append((chosen, [s]))
            }
        }
        return segments
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
        for (i, (g, p)) in zip(glyphs, positions).enumerated() {
            let f = fontRuns.first { $0.range.contains(i) }?.font ?? font
            let r = f.boundingRect(for: g)
            if !r.isNull { bounds = bounds.union(r.offsetBy(dx: p.x, dy: p.y)) }
        }
        return bounds
    }

    /// Draws the line with the context's fill colour, its origin at the text position (text
    /// space is mapped to user space by the context's `textMatrix`). The text position does not
    /// move. As `CTLineDraw`.
    public func draw(in context: CGContext) {
        guard !fontRuns.isEmpty else {
            context.showGlyphs(glyphs, at: positions, font: font)
            return
        }
        var start = 0
        for run in fontRuns {
            if start < run.range.lowerBound {
                context.showGlyphs(Array(glyphs[start..<run.range.lowerBound]), at: Array(positions[start..<run.range.lowerBound]), font: font)
            }
            context.showGlyphs(Array(glyphs[run.range]), at: Array(positions[run.range]), font: run.font)
            start = run.range.upperBound
        }
        if start < glyphs.count {
            context.showGlyphs(Array(glyphs[start...]), at: Array(positions[start...]), font: font)
        }
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
