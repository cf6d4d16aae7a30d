import CHarfBuzz
import Foundation

// The shaping and bidi stack for layouts that place glyphs themselves (SVG text, which positions
// each character, spaces letters and puts glyphs on a path): the same HarfBuzz shaping (and its
// cache) and FriBidi levels that CTLine uses, with each glyph's cluster kept so that the caller
// can map glyphs back to the characters they came from.

/// One glyph of a shaped run.
public struct ShapedGlyph: Sendable {
    /// The glyph id in the font that shaped it.
    public var glyph: CGGlyph
    /// Index, into the scalars that were shaped, of the first scalar of the glyph's cluster (a
    /// ligature's glyph has its first character's index; the glyphs of one character share it).
    public var cluster: Int
    /// The pen's advance after the glyph, in points.
    public var advance: CGFloat
    /// The glyph's offset from its pen position, in points (y up).
    public var offset: CGPoint
}

/// The font metrics text layout places baselines and decorations with, in points (y up from
/// the alphabetic baseline).
public struct FontLineMetrics: Sendable {
    /// The ascender and descender (the descender below the baseline: negative).
    public var ascender: CGFloat, descender: CGFloat
    /// The x-height.
    public var xHeight: CGFloat
    /// The underline's top edge position and thickness (`post`; HarfBuzz's fallback without one).
    public var underlineOffset: CGFloat, underlineThickness: CGFloat
    /// The strikeout's position and thickness (`OS/2`).
    public var strikeoutOffset: CGFloat, strikeoutThickness: CGFloat
    /// Subscript and superscript baseline offsets (`OS/2`; the subscript's is positive downwards).
    public var subscriptOffset: CGFloat, superscriptOffset: CGFloat
    /// The hanging and ideographic baselines from the `BASE` table, when the font has them.
    public var hangingBaseline: CGFloat?, ideographicBaseline: CGFloat?
}

extension CTFont {
    /// `scalars` shaped by HarfBuzz as one run in `direction` (ligatures, contextual forms, marks,
    /// GPOS kerning), with CSS `font-feature-settings` syntax `features`. The glyphs are in
    /// visual order (an RTL run's first glyph is its last character's). Results are cached as
    /// CTLine's are. Characters the font lacks come back as glyph 0.
    public func shapedGlyphs(_ scalars: [Unicode.Scalar], features: String = "", direction: TextDirection) -> [ShapedGlyph] {
        guard !scalars.isEmpty else { return [] }
        let text = String(String.UnicodeScalarView(scalars))
        let run = Shaper.shape(text: text, scalars: { scalars }, face: face, features: features, direction: direction)
        let scale = self.scale
        var glyphs: [ShapedGlyph] = []
        glyphs.reserveCapacity(run.glyphs.count)
        for i in 0..<run.glyphs.count {
            glyphs.append(ShapedGlyph(glyph: run.glyphs[i], cluster: min(Int(run.clusters[i]), scalars.count - 1),
                                      advance: CGFloat(run.advances[i]) * scale,
                                      offset: CGPoint(x: CGFloat(run.offsets[i].x) * scale, y: CGFloat(run.offsets[i].y) * scale)))
        }
        return glyphs
    }

    /// `scalars` shaped by HarfBuzz top to bottom, as vertical text sets upright characters:
    /// the font's vertical alternates ('vert', 'vrt2': the ideographic comma and full stop in
    /// the column's top right corner, brackets turned), each `advance` the distance down the
    /// column (the font's `vmtx`, or the ascender to descender height without one), each
    /// `offset` (y up) from the pen, on the column's centre line at the top of the glyph's
    /// box, to the glyph's own origin (so a glyph is drawn at pen + offset, as horizontally).
    /// Cached as `shapedGlyphs` is.
    public func shapedGlyphsVertically(_ scalars: [Unicode.Scalar], features: String = "") -> [ShapedGlyph] {
        guard !scalars.isEmpty else { return [] }
        let text = String(String.UnicodeScalarView(scalars))
        let run = Shaper.shape(text: text, scalars: { scalars }, face: face, features: features, direction: nil, vertical: true)
        let scale = self.scale
        return (0..<run.glyphs.count).map { i in
            ShapedGlyph(glyph: run.glyphs[i], cluster: min(Int(run.clusters[i]), scalars.count - 1),
                        advance: CGFloat(run.advances[i]) * scale,
                        offset: CGPoint(x: CGFloat(run.offsets[i].x) * scale, y: CGFloat(run.offsets[i].y) * scale))
        }
    }

    /// Whether the font has a vertical form of `scalar` (its 'vert' or 'vrt2' feature gives
    /// another glyph top to bottom): what decides, for a character whose Vertical_Orientation
    /// is `transformedOrRotated` (brackets, dashes), between its upright vertical form and
    /// turning it.
    public func hasVerticalForm(_ scalar: Unicode.Scalar) -> Bool {
        let plain = face.glyph(for: scalar)
        guard plain != 0, let vertical = shapedGlyphsVertically([scalar]).first?.glyph else { return false }
        return vertical != plain
    }

    /// Whether `settings` (CSS `font-feature-settings` syntax) names at least one feature.
    public static func parsesFeatureSettings(_ settings: String) -> Bool { !Shaper.parseFeatures(settings).isEmpty }

    /// Whether HarfBuzz can read this font's face (else `shapedGlyphs` maps one glyph per
    /// character through `cmap`, without kerning).
    public var canBeShaped: Bool { face.harfBuzzFont != nil }

    /// The baseline and decoration metrics, from the font's tables through HarfBuzz (with
    /// HarfBuzz's fallbacks where a table lacks a value).
    public var lineMetrics: FontLineMetrics {
        let s = scale
        var m = FontLineMetrics(ascender: ascent, descender: -descent, xHeight: xHeight,
                                underlineOffset: -0.1 * size, underlineThickness: 0.05 * size,
                                strikeoutOffset: 0.3 * size, strikeoutThickness: 0.05 * size,
                                subscriptOffset: 0.2 * size, superscriptOffset: 0.34 * size)
        guard let hb = face.harfBuzzFont else { return m }
        func metric(_ tag: hb_ot_metrics_tag_t) -> CGFloat {
            var v: hb_position_t = 0
            hb_ot_metrics_get_position_with_fallback(hb.font, tag, &v)
            return CGFloat(v) * s
        }
        m.underlineOffset = metric(HB_OT_METRICS_TAG_UNDERLINE_OFFSET)
        m.underlineThickness = metric(HB_OT_METRICS_TAG_UNDERLINE_SIZE)
        m.strikeoutOffset = metric(HB_OT_METRICS_TAG_STRIKEOUT_OFFSET)
        m.strikeoutThickness = metric(HB_OT_METRICS_TAG_STRIKEOUT_SIZE)
        m.subscriptOffset = metric(HB_OT_METRICS_TAG_SUBSCRIPT_EM_Y_OFFSET)
        m.superscriptOffset = metric(HB_OT_METRICS_TAG_SUPERSCRIPT_EM_Y_OFFSET)
        func baseline(_ tag: hb_ot_layout_baseline_tag_t) -> CGFloat? {
            var v: hb_position_t = 0
            let found = hb_ot_layout_get_baseline(hb.font, tag, HB_DIRECTION_LTR, 0, 0, &v)
            return found != 0 ? CGFloat(v) * s : nil
        }
        m.hangingBaseline = baseline(HB_OT_LAYOUT_BASELINE_TAG_HANGING)
        m.ideographicBaseline = baseline(HB_OT_LAYOUT_BASELINE_TAG_IDEO_EMBOX_BOTTOM_OR_LEFT)
        return m
    }
}

/// The Unicode Bidirectional Algorithm (through FriBidi, as CTLine runs it) for layouts that
/// place runs themselves.
public enum BidiResolution {
    /// Each scalar's embedding level (even: left to right, odd: right to left) and whether it
    /// is an explicit control (an embedding, override or isolate: not drawn), for `scalars` as
    /// one paragraph in `direction` (nil: from its first strong character). Nil when everything
    /// is left to right at level 0 with no control.
    public static func levels(_ scalars: [Unicode.Scalar], direction: TextDirection?) -> (levels: [UInt8], isControl: [Bool])? {
        guard direction == .rightToLeft || scalars.contains(where: Bidi.mayNeedReordering) else { return nil }
        guard let l = Bidi.levels(scalars, direction: direction) else { return nil }
        return (l.levels, l.isControl)
    }

    /// The visual order of runs with these levels (rule L2): indices, left to right.
    public static func visualOrder(_ levels: [UInt8]) -> [Int] { Bidi.visualOrder(levels) }
}
