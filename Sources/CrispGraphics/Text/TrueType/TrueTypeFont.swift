import Foundation
import Synchronization

/// A glyph index in a font, as CoreGraphics' `CGGlyph`.
public typealias CGGlyph = UInt16

/// A TrueType font file (outlines in 'glyf'), read by Crisp's own parser.
///
/// Opening a font validates its table directory and the tables every drawing needs ('head',
/// 'maxp', 'hhea', 'hmtx', 'cmap', 'loca', 'glyf'); optional tables ('OS/2', 'name', 'GPOS',
/// 'kern') are used when present and well-formed. Glyph outlines are read on first use and kept.
/// Any malformed input ends in a `FontError`, never a crash or a hang.
///
/// All metrics are in font units (`unitsPerEm` to the em, y up from the baseline). `CTFont`
/// puts a face at a size. Instances are immutable apart from an internal, locked outline cache,
/// and may be shared between threads.
public final class TrueTypeFont: @unchecked Sendable, CustomStringConvertible {
    /// Where pair kerning comes from.
    public enum KerningSource: Sendable {
        /// 'GPOS' lookups of the 'kern' feature.
        case gpos
        /// A legacy 'kern' table (format 0).
        case kern
        /// The font has no usable kerning.
        case none
    }

    private let header: FontHeader
    private let horizontal: HorizontalMetrics
    private let os2: OS2Metrics?
    private let names: FontNames
    private let characterMap: CharacterMap
    private let outlines: GlyphOutlineReader
    private let gposKerning: GPOSPairKerning?
    private let kernTable: KernTable?
    /// The file's bytes (shared with the tables, not a copy): HarfBuzz shapes from them.
    let fileData: [UInt8]

    /// Outline paths already read (font units), with failures remembered too.
    private var pathCache: [CGGlyph: Result<CGPath, FontError>] = [:]
    private let pathCacheLock = NSLock()
    /// HarfBuzz's view of the face, made on first shaping (nil when HarfBuzz cannot read it).
    private var harfBuzzStorage: HarfBuzzFont??
    var harfBuzzFont: HarfBuzzFont? {
        pathCacheLock.withLock {
            if let made = harfBuzzStorage { return made }
            let made = HarfBuzzFont(self)
            harfBuzzStorage = .some(made)
            return made
        }
    }
    private static let nextIdentifier = Atomic<Int>(1)
    /// A number no other font object in this process has (glyph caches key on it).
    let identifier: Int

    /// Reads a font from the bytes of a TrueType file.
    public init(data: [UInt8]) throws(FontError) {
        let directory = try TableDirectory(file: data)
        if directory.contains("CFF ") || directory.contains("CFF2") {
            if !directory.contains("glyf") { throw .unsupportedOutlines("CFF") }
        }
        header = try FontHeader(head: try directory.requiredTable("head"), maxp: try directory.requiredTable("maxp"))
        horizontal = try HorizontalMetrics(hhea: try directory.requiredTable("hhea"), hmtx: try directory.requiredTable("hmtx"),
                                           glyphCount: header.glyphCount)
        characterMap = try CharacterMap(try directory.requiredTable("cmap"), glyphCount: header.glyphCount)
        outlines = try GlyphOutlineReader(loca: try directory.requiredTable("loca"), glyf: try directory.requiredTable("glyf"),
                                          hasLongOffsets: header.hasLongOffsets, glyphCount: header.glyphCount)
        os2 = try directory.table("OS/2").map { t throws(FontError) in try OS2Metrics(t) }
        names = FontNames(try? directory.table("name"))
        let gpos = try directory.table("GPOS").map { t throws(FontError) in try GPOSPairKerning(t) }
        gposKerning = gpos?.isEmpty == false ? gpos : nil
        let kern = try directory.table("kern").map { t throws(FontError) in try KernTable(t) }
        kernTable = kern?.isEmpty == false ? kern : nil
        fileData = data
        identifier = TrueTypeFont.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// Reads a font file.
    ///
    /// - Throws: the file system's error when the file cannot be read, else a `FontError`.
    public convenience init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        try self.init(data: [UInt8](data))
    }

    // MARK: Metrics (font units)

    /// Font units per em (16…16384; 1000 and 2048 are usual).
    public var unitsPerEm: Int { header.unitsPerEm }
    /// The number of glyphs, .notdef (glyph 0) included.
    public var glyphCount: Int { header.glyphCount }
    /// The union of all glyph bounding boxes ('head'), y up.
    public var boundingBox: CGRect { header.boundingBox }
    /// The 'hhea' ascender: the line's extent above the baseline.
    public var ascender: Int { horizontal.ascender }
    /// The 'hhea' descender: negative, below the baseline.
    public var descender: Int { horizontal.descender }
    /// The 'hhea' line gap: extra space between lines.
    public var lineGap: Int { horizontal.lineGap }
    /// The 'OS/2' typographic ascender, if the font has 'OS/2'.
    public var typographicAscender: Int? { os2?.typoAscender }
    /// The 'OS/2' typographic descender (negative), if the font has 'OS/2'.
    public var typographicDescender: Int? { os2?.typoDescender }
    /// The 'OS/2' typographic line gap, if the font has 'OS/2'.
    public var typographicLineGap: Int? { os2?.typoLineGap }
    /// The height of flat capitals: 'OS/2' `sCapHeight`, else the top of 'H'.
    public var capHeight: Int { os2?.capHeight ?? measuredTop(of: "H") }
    /// The height of flat lower-case letters: 'OS/2' `sxHeight`, else the top of 'x'.
    public var xHeight: Int { os2?.xHeight ?? measuredTop(of: "x") }

    /// The weight class, 100…900 (400 regular, 700 bold): 'OS/2' `usWeightClass`, else guessed
    /// from the style name.
    public var weight: Int {
        if let w = os2?.weightClass, (1...1000).contains(w) { return w }
        let style = (styleName ?? "").lowercased()
        return style.contains("bold") ? 700 : style.contains("light") ? 300 : 400
    }
    /// Whether the face is italic or oblique ('OS/2' `fsSelection`, else the style name).
    public var isItalic: Bool {
        if let os2 { return os2.isItalic }
        let style = (styleName ?? "").lowercased()
        return style.contains("italic") || style.contains("oblique")
    }

    /// The family name ("Roboto"), from 'name'.
    public var familyName: String? { names.family }
    /// The style within the family ("Bold"), from 'name'.
    public var styleName: String? { names.subfamily }
    /// The full name ("Roboto Bold"), from 'name'.
    public var fullName: String? { names.full }
    /// The PostScript name ("Roboto-Bold"), from 'name'.
    public var postScriptName: String? { names.postScript }

    /// Which table pair kerning is read from: 'GPOS' when it has a 'kern' feature, else 'kern'.
    public var kerningSource: KerningSource { gposKerning != nil ? .gpos : kernTable != nil ? .kern : .none }

    public var description: String {
        "TrueTypeFont(\(fullName ?? "unnamed"), \(glyphCount) glyphs, \(unitsPerEm) units/em)"
    }

    // MARK: Glyphs

    /// The glyph for a Unicode scalar; 0 (.notdef) when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> CGGlyph { characterMap.glyph(for: scalar) }

    /// The advance width of `glyph` in font units (0 for a glyph out of range).
    public func advanceWidth(of glyph: CGGlyph) -> Int {
        Int(glyph) < glyphCount ? horizontal.advance(of: Int(glyph)) : 0
    }

    /// The pair kerning between two adjacent glyphs in font units; negative moves `right`
    /// closer to `left`.
    public func kerning(between left: CGGlyph, and right: CGGlyph) -> Int {
        if let gposKerning { return gposKerning.kerning(left, right) }
        return kernTable?.kerning(left, right) ?? 0
    }

    /// The outline of `glyph` in font units (y up, origin on the baseline at the pen position),
    /// composites expanded. Empty for glyphs without an outline (the space).
    ///
    /// - Throws: `FontError` when the glyph's data is malformed or `glyph` is out of range.
    public func path(for glyph: CGGlyph) throws(FontError) -> CGPath {
        if let cached = pathCacheLock.withLock({ pathCache[glyph] }) { return try cached.get() }
        let result: Result<CGPath, FontError>
        do throws(FontError) {
            result = .success(try outlines.outline(of: Int(glyph)).makePath())
        } catch {
            result = .failure(error)
        }
        pathCacheLock.withLock { pathCache[glyph] = result }
        return try result.get()
    }

    /// The number of points of `glyph`'s outline, composites expanded.
    public func pointCount(of glyph: CGGlyph) throws(FontError) -> Int { try outlines.pointCount(of: Int(glyph)) }

    /// The outline's control points and contours (for tests and tools).
    @_spi(Testing) public func outline(of glyph: CGGlyph) throws(FontError) -> GlyphOutline { try outlines.outline(of: Int(glyph)) }

    private func measuredTop(of character: Unicode.Scalar) -> Int {
        let g = glyph(for: character)
        guard g != 0, let p = try? path(for: g), !p.isEmpty else { return 0 }
        return Int(p.boundingBoxOfPath.maxY.rounded())
    }
}
