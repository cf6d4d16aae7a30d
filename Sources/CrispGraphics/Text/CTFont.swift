import Foundation

/// The kinds of user-interface font, as CoreText's `CTFontUIFontType` (the two Crisp bundles).
public enum CTFontUIFontType: Sendable {
    /// The regular UI face (Roboto Regular).
    case system
    /// The bold UI face (Roboto Bold).
    case emphasizedSystem
}

/// A font face at a size, as CoreText's `CTFont`.
///
/// Metrics are in user-space units at `size` (points in a view, pixels in a plain bitmap
/// context): a font unit measures `size / unitsPerEm`. `ascent`, `descent` and `leading` come
/// from the 'hhea' table, as CoreText's do; `descent` is positive.
public final class CTFont: Sendable, CustomStringConvertible {
    /// The face's outlines and metrics.
    public let face: TrueTypeFont
    /// The em size in user units.
    public let size: CGFloat
    /// Which 'CPAL' palette colour glyphs ('COLR') are drawn with; 0, the font's default, when
    /// the face has no palette of that index. See `TrueTypeFont.colorPalette(_:)`.
    public let colorPaletteIndex: Int

    /// A font of `face` at `size` user units per em.
    ///
    /// - Precondition: `size` is finite and not negative. 0 means 12, as in CoreText.
    public init(face: TrueTypeFont, size: CGFloat) {
        precondition(size.isFinite && size >= 0, "font size must be finite and not negative, got \(size)")
        self.face = face
        self.size = size == 0 ? 12 : size
        colorPaletteIndex = 0
    }

    /// A font of `face` at `size` whose colour glyphs use palette `colorPaletteIndex` (as
    /// CSS `font-palette` or CoreText's `kCTFontPaletteAttribute`).
    public convenience init(face: TrueTypeFont, size: CGFloat, colorPaletteIndex: Int) {
        self.init(face: face, size: size, palette: colorPaletteIndex)
    }

    private init(face: TrueTypeFont, size: CGFloat, palette: Int) {
        precondition(size.isFinite && size >= 0, "font size must be finite and not negative, got \(size)")
        self.face = face
        self.size = size == 0 ? 12 : size
        colorPaletteIndex = max(0, palette)
    }

    /// The same face and size with colour glyphs in palette `index`.
    public func withColorPalette(_ index: Int) -> CTFont { CTFont(face: face, size: size, palette: index) }

    /// The bundled UI font of `type` at `size`.
    ///
    /// - Throws: `CrispResources.NotFound` when the font files cannot be found, or a
    ///   `FontError` when they cannot be read.
    public static func uiFont(_ type: CTFontUIFontType = .system, size: CGFloat) throws -> CTFont {
        CTFont(face: try bundledFace(type), size: size)
    }

    /// The bundled face for `type`, read once per process.
    public static func bundledFace(_ type: CTFontUIFontType) throws -> TrueTypeFont {
        switch type {
        case .system: return try regularFace.get()
        case .emphasizedSystem: return try boldFace.get()
        }
    }

    /// The fonts bundled for a script Roboto lacks, read once per process: Noto Sans Arabic,
    /// regular and bold, subset to the basic Arabic block (Resources/Fonts/README.md). Files that
    /// cannot be read are left out; `FontSource` offers the rest as the app's own fonts.
    static let bundledScriptFaces: [TrueTypeFont] = ["Fonts/NotoSansArabic-Regular.ttf", "Fonts/NotoSansArabic-Bold.ttf"].compactMap {
        try? TrueTypeFont(contentsOf: CrispResources.url(for: $0))
    }

    private static let regularFace = Result { try TrueTypeFont(contentsOf: CrispResources.url(for: "Fonts/Roboto-Regular.ttf")) }
    private static let boldFace = Result { try TrueTypeFont(contentsOf: CrispResources.url(for: "Fonts/Roboto-Bold.ttf")) }

    /// Forgets every rasterized glyph kept for reuse (all faces, all sizes), so the next text
    /// drawn rasterizes its glyphs again. For benchmarks and memory pressure; drawing never
    /// needs it.
    public static func purgeGlyphCache() { GlyphCache.shared.removeAll() }

    /// Forgets every shaped line kept for reuse, so the next line laid out is shaped again by
    /// HarfBuzz. For benchmarks; layout never needs it.
    public static func purgeShapingCache() {
        Shaper.removeAll()
        CTLine.removeCachedLines()
    }

    /// The same face at another size.
    public func withSize(_ size: CGFloat) -> CTFont { CTFont(face: face, size: size, palette: colorPaletteIndex) }

    /// User units per font unit: `size / unitsPerEm`.
    public var scale: CGFloat { size / CGFloat(face.unitsPerEm) }

    // MARK: Metrics (user units)

    /// Font units per em.
    public var unitsPerEm: Int { face.unitsPerEm }
    /// Extent of the line above the baseline.
    public var ascent: CGFloat { CGFloat(face.ascender) * scale }
    /// Extent of the line below the baseline (positive).
    public var descent: CGFloat { CGFloat(-face.descender) * scale }
    /// Extra space between lines (the 'hhea' line gap).
    public var leading: CGFloat { CGFloat(face.lineGap) * scale }
    /// `ascent + descent + leading`: the distance from one baseline to the next.
    public var lineHeight: CGFloat { ascent + descent + leading }
    /// The height of flat capital letters.
    public var capHeight: CGFloat { CGFloat(face.capHeight) * scale }
    /// The height of flat lower-case letters.
    public var xHeight: CGFloat { CGFloat(face.xHeight) * scale }
    /// The union of all glyph bounds (y up from the baseline).
    public var boundingBox: CGRect { face.boundingBox.applying(CGAffineTransform(scaleX: scale, y: scale)) }

    /// The family name ("Roboto").
    public var familyName: String { face.familyName ?? "" }
    /// The style within the family ("Regular", "Bold").
    public var styleName: String { face.styleName ?? "" }
    /// The full name ("Roboto Bold").
    public var fullName: String { face.fullName ?? "" }
    /// The PostScript name ("Roboto-Bold").
    public var postScriptName: String { face.postScriptName ?? "" }

    public var description: String { "CTFont(\(fullName), \(size))" }

    // MARK: Glyphs

    /// The glyph for each Unicode scalar of `string` (0, .notdef, where the face has none),
    /// without normalization or shaping.
    public func glyphs(for string: String) -> [CGGlyph] { string.unicodeScalars.map { face.glyph(for: $0) } }

    /// The advance width of `glyph`.
    public func advance(for glyph: CGGlyph) -> CGFloat { CGFloat(face.advanceWidth(of: glyph)) * scale }

    /// The pair kerning between adjacent glyphs (negative brings them closer).
    public func kerning(between left: CGGlyph, and right: CGGlyph) -> CGFloat {
        CGFloat(face.kerning(between: left, and: right)) * scale
    }

    /// The outline of `glyph` at this size (y up, origin at the pen position), transformed by
    /// `transform`; nil when the glyph's data is malformed. As `CTFontCreatePathForGlyph`.
    public func path(for glyph: CGGlyph, transform: CGAffineTransform = .identity) -> CGPath? {
        guard let outline = try? face.path(for: glyph) else { return nil }
        var t = CGAffineTransform(scaleX: scale, y: scale).concatenating(transform)
        return outline.copy(using: &t)
    }

    /// The tight bounds of `glyph`'s ink (y up from the baseline); `.null` for a glyph without ink.
    public func boundingRect(for glyph: CGGlyph) -> CGRect {
        guard let outline = try? face.path(for: glyph), !outline.isEmpty else { return .null }
        return outline.boundingBoxOfPath.applying(CGAffineTransform(scaleX: scale, y: scale))
    }
}

/// The bundled UI font of `uiType` at `size`, or nil when it cannot be loaded, as CoreText's
/// `CTFontCreateUIFontForLanguage`. The language is ignored (one face covers Crisp's languages).
public func CTFontCreateUIFontForLanguage(_ uiType: CTFontUIFontType, _ size: CGFloat, _ language: String?) -> CTFont? {
    try? CTFont.uiFont(uiType, size: size)
}
