import CHarfBuzz
import Foundation

// Shaping with HarfBuzz: a run of Unicode scalars in one face becomes glyph ids with advances and
// offsets (ligatures, contextual forms, mark positioning, GPOS kerning), which Crisp then draws
// with its own glyph rasterizer by id. HarfBuzz reads the face's OpenType tables from a copy of
// the file's bytes; its scale is the face's units per em, so every number it returns is in font
// units and CTLine scales them like the advances it used before.
//
// Labels are laid out again on every frame, so results are cached per (text, face, features,
// direction). The cache is a plain bounded dictionary emptied when full: a frame's labels are a
// few hundred strings at most, and refilling costs one shaping each.

/// The glyphs of a shaped run, in visual order, in font units.
struct ShapedRun: Sendable {
    var glyphs: [CGGlyph] = []
    /// Pen advance after each glyph.
    var advances: [Int32] = []
    /// Each glyph's offset from its pen position (y up).
    var offsets: [(x: Int32, y: Int32)] = []
    /// Index of the first scalar of the cluster each glyph belongs to.
    var clusters: [UInt32] = []
    /// The sum of the advances.
    var width: Int = 0
}

/// The writing direction a run is shaped in.
public enum TextDirection: UInt8, Sendable {
    /// Left to right (Latin, Greek, Cyrillic…).
    case leftToRight
    /// Right to left (Hebrew, Arabic…).
    case rightToLeft
}

enum Shaper {
    private static let cacheLock = NSLock()
    nonisolated(unsafe) private static var cache: [Key: ShapedRun] = [:]
    static let cacheLimit = 4096

    struct Key: Hashable {
        var text: String
        var face: Int
        var features: String
        var direction: UInt8
    }

    /// The run's text shaped in `face` with CSS `font-feature-settings`
    /// syntax `features` ("\"liga\" 0, \"kern\" off"). `direction` nil: guessed from the text.
    /// `vertical`: shaped top to bottom (`direction` is then ignored): the font's vertical
    /// alternates ('vert'), advances down the column and offsets from each glyph's vertical
    /// origin (see `CTFont.shapedGlyphsVertically`).
    /// `scalars` is called only when `text` is not in the cache (a label redrawn every frame
    /// costs one lookup).
    static func shape(text: String, scalars: () -> [Unicode.Scalar], face: TrueTypeFont, features: String,
                      direction: TextDirection?, vertical: Bool = false) -> ShapedRun {
        let key = Key(text: text, face: face.identifier, features: features,
                      direction: vertical ? 254 : direction.map { $0.rawValue } ?? 255)
        if let hit = cacheLock.withLock({ cache[key] }) { return hit }
        let run = shapeUncached(scalars(), face: face, features: features, direction: direction, vertical: vertical)
        cacheLock.withLock {
            if cache.count >= cacheLimit { cache.removeAll(keepingCapacity: true) }
            cache[key] = run
        }
        return run
    }

    static func removeAll() { cacheLock.withLock { cache.removeAll() } }
    static var cachedCount: Int { cacheLock.withLock { cache.count } }

    private static func shapeUncached(_ scalars: [Unicode.Scalar], face: TrueTypeFont, features: String,
                                      direction: TextDirection?, vertical: Bool) -> ShapedRun {
        var run = ShapedRun()
        guard !scalars.isEmpty else { return run }
        guard let hb = face.harfBuzzFont, let buffer = hb_buffer_create() else {
            return unshaped(scalars, face: face, vertical: vertical)
        }
        defer { hb_buffer_destroy(buffer) }
        let codes = scalars.map { $0.value }
        codes.withUnsafeBufferPointer { hb_buffer_add_utf32(buffer, $0.baseAddress, Int32($0.count), 0, Int32($0.count)) }
        if vertical {
            hb_buffer_set_direction(buffer, HB_DIRECTION_TTB)
        } else if let direction {
            hb_buffer_set_direction(buffer, direction == .rightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
        }
        hb_buffer_guess_segment_properties(buffer)
        let parsed = parseFeatures(features)
        parsed.withUnsafeBufferPointer { hb_shape(hb.font, buffer, $0.baseAddress, UInt32($0.count)) }
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count),
              let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return unshaped(scalars, face: face, vertical: vertical) }
        let n = Int(count)
        run.glyphs.reserveCapacity(n)
        run.advances.reserveCapacity(n)
        run.offsets.reserveCapacity(n)
        run.clusters.reserveCapacity(n)
        for i in 0..<n {
            let id = infos[i].codepoint
            run.glyphs.append(id < UInt32(face.glyphCount) ? CGGlyph(id) : 0)
            // Top to bottom, HarfBuzz's advances are negative y (y up): kept as distances down.
            let advance = vertical ? -positions[i].y_advance : positions[i].x_advance
            run.advances.append(advance)
            run.offsets.append((positions[i].x_offset, positions[i].y_offset))
            run.clusters.append(infos[i].cluster)
            run.width += Int(advance)
        }
        return run
    }

    /// One glyph per scalar with its advance: what is drawn if HarfBuzz cannot read the face.
    /// Top to bottom, each glyph takes the line's height and is centred on the column, its
    /// ascender at the pen (HarfBuzz's own fallback for a font without vertical metrics).
    private static func unshaped(_ scalars: [Unicode.Scalar], face: TrueTypeFont, vertical: Bool = false) -> ShapedRun {
        var run = ShapedRun()
        for (i, s) in scalars.enumerated() {
            let g = face.glyph(for: s)
            run.glyphs.append(g)
            let width = face.advanceWidth(of: g)
            let advance = vertical ? face.ascender - face.descender : width
            run.advances.append(Int32(clamping: advance))
            run.offsets.append(vertical ? (Int32(clamping: -width / 2), Int32(clamping: -face.ascender)) : (0, 0))
            run.clusters.append(UInt32(i))
            run.width += advance
        }
        return run
    }

    /// CSS `font-feature-settings` (`normal`, or a comma-separated list of `"tag"` with an
    /// optional integer, `on` or `off`) as HarfBuzz features; malformed items are ignored, as CSS
    /// ignores the declaration's bad parts.
    static func parseFeatures(_ settings: String) -> [hb_feature_t] {
        var features: [hb_feature_t] = []
        for item in settings.split(separator: ",") {
            let parts = item.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = parts.first, parts.count <= 2 else { continue }
            var tag = Substring(first)
            if tag.count == 6, let q = tag.first, q == "\"" || q == "'", tag.last == q { tag = tag.dropFirst().dropLast() }
            guard tag.count == 4, tag.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }) else { continue }
            var value: UInt32 = 1
            if parts.count == 2 {
                switch parts[1] {
                case "on": value = 1
                case "off": value = 0
                default:
                    guard let v = UInt32(parts[1]) else { continue }
                    value = v
                }
            }
            let t = tag.unicodeScalars.reduce(UInt32(0)) { $0 << 8 | $1.value }
            features.append(hb_feature_t(tag: t, value: value, start: 0, end: UInt32.max))
        }
        return features
    }
}
