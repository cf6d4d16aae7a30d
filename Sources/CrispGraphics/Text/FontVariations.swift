import CHarfBuzz
import Foundation

// Outlines HarfBuzz draws, and variable fonts. Crisp reads TrueType 'glyf' outlines itself; for
// CFF and CFF2 charstrings, and for every instance of a variable font other than its default
// ('gvar' deltas, CFF2 blends, 'avar' maps, 'HVAR' advances), it asks HarfBuzz for the glyph's
// shape (hb_font_get_glyph_shape: move/line/quadratic/cubic/close callbacks in font units) and
// builds a CGPath from it, which Crisp's rasterizer fills like any other. HarfBuzz bounds its
// CFF interpreter (stack depth, subroutine nesting, operator counts), so hostile charstrings end
// in a partial or empty outline, never a hang.

/// The kind of outlines a face has.
public enum OutlineFormat: Sendable, Hashable {
    /// TrueType quadratic outlines ('glyf'), read by Crisp.
    case trueType
    /// PostScript (Type 2) charstrings ('CFF '), drawn through HarfBuzz.
    case cff
    /// CFF2 charstrings (variable PostScript outlines, 'CFF2'), drawn through HarfBuzz.
    case cff2
    /// No outlines: embedded colour bitmaps only ('CBDT'/'CBLC' or 'sbix'), as emoji fonts.
    case bitmap

    /// The table the outlines live in.
    public var tableTag: String {
        switch self {
        case .trueType: return "glyf"
        case .cff: return "CFF "
        case .cff2: return "CFF2"
        case .bitmap: return "CBDT"
        }
    }
}

/// One coordinate of a variable font's design space: an axis tag ("wght", "wdth", "opsz",
/// "slnt", "ital", or a font's own upper-case tag) and its value in the axis' units.
public struct FontVariation: Sendable, Hashable, CustomStringConvertible {
    public var tag: String
    public var value: Double

    public init(tag: String, value: Double) {
        self.tag = tag
        self.value = value
    }

    public var description: String { "\"\(tag)\" \(value)" }

    /// CSS `font-variation-settings`: `normal`, or a comma-separated list of a quoted
    /// four-character tag and a number (`"wght" 650, "wdth" 80`). Malformed items are left out.
    public static func parse(_ settings: String) -> [FontVariation] {
        var result: [FontVariation] = []
        for item in settings.split(separator: ",") {
            let parts = item.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
            guard parts.count == 2 else { continue }
            var tag = Substring(parts[0])
            guard tag.count == 6, let q = tag.first, q == "\"" || q == "'", tag.last == q else { continue }
            tag = tag.dropFirst().dropLast()
            guard tag.unicodeScalars.allSatisfy({ (0x20...0x7E).contains($0.value) }),
                  let value = Double(parts[1]), value.isFinite else { continue }
            result.removeAll { $0.tag == String(tag) }     // the last one for a tag wins, as in CSS
            result.append(FontVariation(tag: String(tag), value: value))
        }
        return result
    }

    var harfBuzzTag: UInt32 { tag.unicodeScalars.reduce(UInt32(0)) { $0 << 8 | ($1.value & 0xFF) } }
}

extension [FontVariation] {
    /// These coordinates with `other`'s replacing those of the same axes.
    func merged(with other: [FontVariation]) -> [FontVariation] {
        var result = filter { v in !other.contains { $0.tag == v.tag } }
        result += other
        return result
    }
}

/// An axis of a variable font ('fvar').
public struct FontVariationAxis: Sendable, Hashable {
    /// The axis tag ("wght").
    public let tag: String
    /// The axis' name from 'name' ("Weight"), or the tag.
    public let name: String
    public let minimum: Double
    public let defaultValue: Double
    public let maximum: Double
    /// Whether the font asks for the axis not to be offered in user interfaces.
    public let isHidden: Bool
}

/// A named instance of a variable font ('fvar'): "Bold", "Condensed Light".
public struct FontNamedInstance: Sendable, Hashable {
    /// The instance's subfamily name.
    public let name: String
    /// Its coordinates on every axis.
    public let coordinates: [FontVariation]
}

/// HarfBuzz's face (the font's tables) for one face of a file, shared by its instances.
final class HarfBuzzFace: @unchecked Sendable {
    let face: OpaquePointer
    let glyphCount: Int
    let axes: [FontVariationAxis]
    let namedInstances: [FontNamedInstance]

    init?(data: [UInt8], index: Int) {
        guard !data.isEmpty, data.count <= Int(UInt32.max), index >= 0 else { return nil }
        // HB_MEMORY_MODE_DUPLICATE: HarfBuzz keeps its own copy, so nothing here must outlive it.
        guard let blob = data.withUnsafeBufferPointer({ buffer -> OpaquePointer? in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                hb_blob_create($0, UInt32(buffer.count), HB_MEMORY_MODE_DUPLICATE, nil, nil)
            }
        }) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard let face = hb_face_create(blob, UInt32(index)) else { return nil }
        hb_face_make_immutable(face)
        self.face = face
        glyphCount = Int(hb_face_get_glyph_count(face))

        var axes: [FontVariationAxis] = []
        let axisCount = Int(hb_ot_var_get_axis_count(face))
        if axisCount > 0 {
            var infos = [hb_ot_var_axis_info_t](repeating: hb_ot_var_axis_info_t(), count: axisCount)
            var n = UInt32(axisCount)
            _ = hb_ot_var_get_axis_infos(face, 0, &n, &infos)
            for info in infos.prefix(Int(n)) {
                let tag = HarfBuzzFace.tagString(info.tag)
                axes.append(FontVariationAxis(tag: tag, name: HarfBuzzFace.name(face, info.name_id) ?? tag,
                                              minimum: Double(info.min_value), defaultValue: Double(info.default_value),
                                              maximum: Double(info.max_value),
                                              isHidden: info.flags.rawValue & HB_OT_VAR_AXIS_FLAG_HIDDEN.rawValue != 0))
            }
        }
        self.axes = axes
        var named: [FontNamedInstance] = []
        if !axes.isEmpty {
            let count = min(Int(hb_ot_var_get_named_instance_count(face)), 1024)
            for i in 0..<count {
                var coords = [Float](repeating: 0, count: axes.count)
                var n = UInt32(axes.count)
                _ = hb_ot_var_named_instance_get_design_coords(face, UInt32(i), &n, &coords)
                let name = HarfBuzzFace.name(face, hb_ot_var_named_instance_get_subfamily_name_id(face, UInt32(i))) ?? "Instance \(i)"
                named.append(FontNamedInstance(name: name, coordinates: zip(axes, coords.prefix(Int(n))).map {
                    FontVariation(tag: $0.tag, value: Double($1))
                }))
            }
        }
        namedInstances = named
    }

    deinit { hb_face_destroy(face) }

    static func tagString(_ t: UInt32) -> String {
        String(decoding: [UInt8(t >> 24), UInt8(t >> 16 & 0xFF), UInt8(t >> 8 & 0xFF), UInt8(t & 0xFF)], as: UTF8.self)
    }

    /// An entry of 'name' in English (or any language HarfBuzz picks), nil when absent.
    private static func name(_ face: OpaquePointer, _ id: hb_ot_name_id_t) -> String? {
        let english = hb_language_from_string("en", -1)
        var length: UInt32 = 256
        var buffer = [CChar](repeating: 0, count: 257)
        let total = hb_ot_name_get_utf8(face, id, english, &length, &buffer)
        guard total > 0 else { return nil }
        return String(cString: buffer)
    }
}

/// A face's HarfBuzz font at the face's variation coordinates, in font units (scale = units per
/// em). Immutable once made, so shared between threads.
final class HarfBuzzFont: @unchecked Sendable {
    let font: OpaquePointer
    /// Keeps the face alive as long as the font.
    private let face: HarfBuzzFace

    init?(_ typeface: TrueTypeFont) {
        guard let face = typeface.harfBuzzFace, let font = hb_font_create(face.face) else { return nil }
        self.face = face
        let upem = Int32(typeface.unitsPerEm)
        hb_font_set_scale(font, upem, upem)
        if !typeface.variations.isEmpty {
            let settings = typeface.variations.map { hb_variation_t(tag: $0.harfBuzzTag, value: Float($0.value)) }
            settings.withUnsafeBufferPointer { hb_font_set_variations(font, $0.baseAddress, UInt32($0.count)) }
        }
        hb_font_make_immutable(font)
        self.font = font
    }

    deinit { hb_font_destroy(font) }

    /// The 'MVAR' deltas of the line metrics at the font's coordinates, in font units.
    func metricDeltas() -> TrueTypeFont.MetricDeltas {
        func delta(_ tag: hb_ot_metrics_tag_t) -> Int {
            let d = hb_ot_metrics_get_variation(font, tag)
            return d.isFinite ? Int(max(min(d, 32_767), -32_768).rounded()) : 0
        }
        return TrueTypeFont.MetricDeltas(ascender: delta(HB_OT_METRICS_TAG_HORIZONTAL_ASCENDER),
                                         descender: delta(HB_OT_METRICS_TAG_HORIZONTAL_DESCENDER),
                                         lineGap: delta(HB_OT_METRICS_TAG_HORIZONTAL_LINE_GAP),
                                         capHeight: delta(HB_OT_METRICS_TAG_CAP_HEIGHT),
                                         xHeight: delta(HB_OT_METRICS_TAG_X_HEIGHT))
    }

    /// The horizontal advance of `glyph` in font units, variations applied.
    func advance(of glyph: CGGlyph) -> Int { Int(hb_font_get_glyph_h_advance(font, hb_codepoint_t(glyph))) }

    /// The outline of `glyph` in font units (y up), variations applied; empty when the glyph has
    /// none or its data is broken.
    func path(for glyph: CGGlyph) -> CGPath {
        let sink = OutlineSink()
        hb_font_get_glyph_shape(font, hb_codepoint_t(glyph), DrawFunctions.shared.funcs, Unmanaged.passUnretained(sink).toOpaque())
        if sink.isOpen { sink.path.closeSubpath() }
        return sink.path.copy() ?? CGMutablePath()
    }
}

/// Collects HarfBuzz's draw callbacks into a path. HarfBuzz closes each contour it opens; the
/// sink only guards against a contour left open by a broken glyph.
private final class OutlineSink {
    let path = CGMutablePath()
    var isOpen = false
    /// Callbacks past this many are ignored: a hostile charstring cannot grow the path unbounded.
    var budget = 200_000

    static func from(_ data: UnsafeMutableRawPointer?) -> OutlineSink? {
        guard let data else { return nil }
        let sink = Unmanaged<OutlineSink>.fromOpaque(data).takeUnretainedValue()
        guard sink.budget > 0 else { return nil }
        sink.budget -= 1
        return sink
    }
}

/// The draw callbacks, made once per process and immutable.
private final class DrawFunctions: @unchecked Sendable {
    static let shared = DrawFunctions()
    let funcs: OpaquePointer

    private init() {
        let f = hb_draw_funcs_create()!
        hb_draw_funcs_set_move_to_func(f, { _, data, _, x, y, _ in
            guard let s = OutlineSink.from(data) else { return }
            if s.isOpen { s.path.closeSubpath() }
            s.path.move(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
            s.isOpen = true
        }, nil, nil)
        hb_draw_funcs_set_line_to_func(f, { _, data, _, x, y, _ in
            guard let s = OutlineSink.from(data), s.isOpen else { return }
            s.path.addLine(to: CGPoint(x: CGFloat(x), y: CGFloat(y)))
        }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(f, { _, data, _, cx, cy, x, y, _ in
            guard let s = OutlineSink.from(data), s.isOpen else { return }
            s.path.addQuadCurve(to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control: CGPoint(x: CGFloat(cx), y: CGFloat(cy)))
        }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(f, { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
            guard let s = OutlineSink.from(data), s.isOpen else { return }
            s.path.addCurve(to: CGPoint(x: CGFloat(x), y: CGFloat(y)), control1: CGPoint(x: CGFloat(c1x), y: CGFloat(c1y)),
                            control2: CGPoint(x: CGFloat(c2x), y: CGFloat(c2y)))
        }, nil, nil)
        hb_draw_funcs_set_close_path_func(f, { _, data, _, _ in
            guard let s = OutlineSink.from(data), s.isOpen else { return }
            s.path.closeSubpath()
            s.isOpen = false
        }, nil, nil)
        hb_draw_funcs_make_immutable(f)
        funcs = f
    }
}

extension TrueTypeFont {
    /// The weights the face covers: its 'wght' axis' range on a variable font, else its weight.
    public var weightRange: ClosedRange<Int> {
        if variations.isEmpty, let axis = variationAxes.first(where: { $0.tag == "wght" }) {
            let lo = Int(axis.minimum.rounded()), hi = Int(axis.maximum.rounded())
            if lo <= hi { return lo...hi }
        }
        return weight...weight
    }

    /// This face at CSS `font-weight` `weight`: an instance at that weight (clamped to the
    /// axis) when the font has a 'wght' axis, else the face itself.
    public func instance(weight: Int) -> TrueTypeFont {
        guard variationAxes.contains(where: { $0.tag == "wght" }) else { return self }
        return instance(variations: [FontVariation(tag: "wght", value: Double(weight))])
    }
}
