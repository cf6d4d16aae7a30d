import Foundation
import Synchronization

/// A glyph index in a font, as CoreGraphics' `CGGlyph`.
public typealias CGGlyph = UInt16

/// An OpenType font face: TrueType ('glyf') outlines read by Crisp's own parser; CFF and CFF2
/// outlines, and the outlines and advances of variable-font instances, drawn through HarfBuzz's
/// glyph-shape API. Either way Crisp's rasterizer fills them. Faces of '.ttc' collections are
/// read by index.
///
/// Opening a font validates its table directory and the tables every drawing needs ('head',
/// 'maxp', 'hhea', 'hmtx', 'cmap', and 'loca' + 'glyf' or 'CFF '/'CFF2', or for a bitmap-only
/// colour font such as Noto Color Emoji 'CBLC' + 'CBDT' or 'sbix'); optional tables ('OS/2', 'name', 'GPOS',
/// 'kern', and the colour tables 'COLR', 'CPAL', 'CBLC'/'CBDT', 'sbix') are used when present and well-formed. Glyph outlines are read on first use and kept.
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
    /// Crisp's own 'glyf' reader; nil for CFF and CFF2 faces, whose outlines HarfBuzz draws.
    private let outlines: GlyphOutlineReader?
    private let gposKerning: GPOSPairKerning?
    private let kernTable: KernTable?
    /// The file's bytes (shared with the tables, not a copy): HarfBuzz shapes from them.
    let fileData: [UInt8]
    /// The face's index in its file (0 unless the file is a collection).
    public let faceIndex: Int
    /// The kind of outlines the face has.
    public let outlineFormat: OutlineFormat
    /// The design-space coordinates of this instance of a variable font, sorted by axis tag
    /// (empty: the font's default instance). Values are clamped to the axes' ranges.
    public let variations: [FontVariation]
    /// The face this one is an instance of (nil for a face read from a file).
    let base: TrueTypeFont?
    /// 'COLR'/'CPAL', 'CBLC'/'CBDT' and 'sbix' (nil when the face has none); instances use
    /// their base face's.
    let colorTables: ColorTables?
    /// Colour glyph caches (see ColorGlyphDrawing.swift), kept by the base face.
    let colorCacheLock = NSLock()
    var colorKinds: [CGGlyph: Bool] = [:]
    var colorGlyphs: [CGGlyph: ColorGlyph?] = [:]
    var colorImages: [ColorBitmapKey: CGImage?] = [:]
    var colorWarnings: [String] = []

    /// Outline paths already read (font units), with failures remembered too.
    private var pathCache: [CGGlyph: Result<CGPath, FontError>] = [:]
    private let pathCacheLock = NSLock()
    /// HarfBuzz's view of the face, made on first use (nil when HarfBuzz cannot read it).
    private var harfBuzzStorage: HarfBuzzFont??
    var harfBuzzFont: HarfBuzzFont? {
        pathCacheLock.withLock {
            if let made = harfBuzzStorage { return made }
            let made = HarfBuzzFont(self)
            harfBuzzStorage = .some(made)
            return made
        }
    }
    /// `metricDeltas` once known, under a lock of its own (it asks for `harfBuzzFont`).
    private var metricDeltaStorage: MetricDeltas?
    private let metricDeltaLock = NSLock()
    /// HarfBuzz's face (tables), shared by every instance of a variable font.
    private var harfBuzzFaceStorage: HarfBuzzFace??
    /// A lock of its own: `harfBuzzFont` builds the font under `pathCacheLock` and asks for the face.
    private let harfBuzzFaceLock = NSLock()
    var harfBuzzFace: HarfBuzzFace? {
        if let base { return base.harfBuzzFace }
        return harfBuzzFaceLock.withLock {
            if let made = harfBuzzFaceStorage { return made }
            let made = HarfBuzzFace(data: fileData, index: faceIndex)
            harfBuzzFaceStorage = .some(made)
            return made
        }
    }
    /// Instances made by `instance(variations:)`, so asking twice gives the same object (and
    /// the glyph and shaping caches keep their entries).
    private var instanceCache: [[FontVariation]: TrueTypeFont] = [:]
    private static let nextIdentifier = Atomic<Int>(1)
    /// A number no other font object in this process has (glyph caches key on it).
    let identifier: Int

    /// The number of faces in a font file's bytes: a collection's ('.ttc', 'ttcf') count, else 1.
    public static func faceCount(data: [UInt8]) throws(FontError) -> Int { try TableDirectory.faceCount(file: data) }

    /// Reads face `faceIndex` (0 unless the bytes are a collection) from the bytes of an
    /// OpenType file: TrueType ('glyf'), CFF or CFF2 outlines, or a '.ttc' collection.
    public init(data: [UInt8], faceIndex: Int = 0) throws(FontError) {
        let directory = try TableDirectory(file: data, faceIndex: faceIndex)
        let format: OutlineFormat
        if directory.contains("glyf") {
            format = .trueType
        } else if directory.contains("CFF2") {
            format = .cff2
        } else if directory.contains("CFF ") {
            format = .cff
        } else if directory.isCFFFlavoured {
            throw .missingTable("CFF ")
        } else if directory.contains("sbix") || (directory.contains("CBDT") && directory.contains("CBLC")) {
            format = .bitmap
        } else {
            throw .missingTable("glyf")
        }
        header = try FontHeader(head: try directory.requiredTable("head"), maxp: try directory.requiredTable("maxp"))
        horizontal = try HorizontalMetrics(hhea: try directory.requiredTable("hhea"), hmtx: try directory.requiredTable("hmtx"),
                                           glyphCount: header.glyphCount)
        characterMap = try CharacterMap(try directory.requiredTable("cmap"), glyphCount: header.glyphCount)
        if format == .trueType {
            outlines = try GlyphOutlineReader(loca: try directory.requiredTable("loca"), glyf: try directory.requiredTable("glyf"),
                                              hasLongOffsets: header.hasLongOffsets, glyphCount: header.glyphCount)
        } else if format == .bitmap {
            outlines = nil
        } else {
            // The CFF table must at least lie inside the file; HarfBuzz reads (and bounds) the rest.
            _ = try directory.requiredTable(format == .cff2 ? "CFF2" : "CFF ")
            outlines = nil
        }
        os2 = try directory.table("OS/2").map { t throws(FontError) in try OS2Metrics(t) }
        names = FontNames(try? directory.table("name"))
        let gpos = try directory.table("GPOS").map { t throws(FontError) in try GPOSPairKerning(t) }
        gposKerning = gpos?.isEmpty == false ? gpos : nil
        let kern = try directory.table("kern").map { t throws(FontError) in try KernTable(t) }
        kernTable = kern?.isEmpty == false ? kern : nil
        let color = ColorTables(directory: directory, glyphCount: header.glyphCount)
        colorTables = color.isEmpty && color.warnings.isEmpty ? nil : color
        colorWarnings = color.warnings
        fileData = data
        self.faceIndex = faceIndex
        outlineFormat = format
        variations = []
        base = nil
        identifier = TrueTypeFont.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
        if format == .cff || format == .cff2 {
            // CFF outlines are drawn by HarfBuzz: a face it cannot read is refused now, not
            // drawn blank later.
            guard let hb = harfBuzzFace, hb.glyphCount == header.glyphCount else {
                throw .invalidValue(table: format == .cff2 ? "CFF2" : "CFF ", field: "table (HarfBuzz cannot read it)", value: 0)
            }
        }
    }

    /// An instance of `base` at `variations` (already clamped and sorted).
    private init(instanceOf base: TrueTypeFont, variations: [FontVariation]) {
        header = base.header
        horizontal = base.horizontal
        os2 = base.os2
        names = base.names
        characterMap = base.characterMap
        outlines = base.outlines
        gposKerning = base.gposKerning
        kernTable = base.kernTable
        colorTables = base.colorTables
        fileData = base.fileData
        faceIndex = base.faceIndex
        outlineFormat = base.outlineFormat
        self.variations = variations
        self.base = base
        identifier = TrueTypeFont.nextIdentifier.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// This face at other coordinates of its variation axes (`fvar`), as CSS
    /// `font-variation-settings`: axes not named keep their default, values are clamped to the
    /// axes' ranges, tags the font has no axis for are ignored, and `avar` maps the values as
    /// the font defines. A face without axes returns itself; an instance answers for the face
    /// it came from. Asking for the same coordinates again returns the same object.
    public func instance(variations requested: [FontVariation]) -> TrueTypeFont {
        if let base { return base.instance(variations: variations.merged(with: requested)) }
        let axes = variationAxes
        guard !axes.isEmpty else { return self }
        var byTag: [String: Double] = [:]
        for v in requested {
            guard let axis = axes.first(where: { $0.tag == v.tag }), v.value.isFinite else { continue }
            byTag[v.tag] = min(max(v.value, axis.minimum), axis.maximum)
        }
        let coordinates = byTag.filter { tag, value in axes.first { $0.tag == tag }?.defaultValue != value }
            .map { FontVariation(tag: $0.key, value: $0.value) }.sorted { $0.tag < $1.tag }
        guard !coordinates.isEmpty else { return self }
        return harfBuzzFaceLock.withLock {
            if let made = instanceCache[coordinates] { return made }
            let made = TrueTypeFont(instanceOf: self, variations: coordinates)
            // A program sweeping an axis makes a new instance per value: keep the last few hundred.
            if instanceCache.count >= 256 { instanceCache.removeAll() }
            instanceCache[coordinates] = made
            return made
        }
    }

    /// This face at CSS `font-variation-settings` (`"wght" 650, "wdth" 80`; `normal` for the
    /// default). Malformed items are ignored, as CSS ignores a declaration's bad parts.
    public func instance(fontVariationSettings settings: String) -> TrueTypeFont {
        instance(variations: FontVariation.parse(settings))
    }

    /// The named instance (`fvar`) called `name` ("Bold", "Condensed Light"; case-insensitive),
    /// or nil when the font has none by that name.
    public func instance(named name: String) -> TrueTypeFont? {
        guard let named = (base ?? self).namedInstances.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) else {
            return nil
        }
        return (base ?? self).instance(variations: named.coordinates)
    }

    /// The variation axes ('fvar'): empty for a font that is not variable.
    public var variationAxes: [FontVariationAxis] { (base ?? self).harfBuzzFace?.axes ?? [] }

    /// The named instances ('fvar'): empty for a font that is not variable.
    public var namedInstances: [FontNamedInstance] { (base ?? self).harfBuzzFace?.namedInstances ?? [] }

    /// Whether the face's outlines, advances and shaping come from HarfBuzz (CFF, CFF2, or an
    /// instance of a variable font other than the default) rather than Crisp's 'glyf' reader.
    var drawsThroughHarfBuzz: Bool { outlines == nil || !variations.isEmpty }

    /// Reads a font file.
    ///
    /// - Throws: the file system's error when the file cannot be read, else a `FontError`.
    public convenience init(contentsOf url: URL, faceIndex: Int = 0) throws {
        let data = try Data(contentsOf: url)
        try self.init(data: [UInt8](data), faceIndex: faceIndex)
    }

    // MARK: Metrics (font units)

    /// Font units per em (16…16384; 1000 and 2048 are usual).
    public var unitsPerEm: Int { header.unitsPerEm }
    /// The number of glyphs, .notdef (glyph 0) included.
    public var glyphCount: Int { header.glyphCount }
    /// The union of all glyph bounding boxes ('head'), y up.
    public var boundingBox: CGRect { header.boundingBox }
    /// The 'hhea' ascender: the line's extent above the baseline. On an instance of a variable
    /// font, with the 'MVAR' delta of `hasc` added (as HarfBuzz applies it).
    public var ascender: Int { horizontal.ascender + metricDeltas.ascender }
    /// The 'hhea' descender: negative, below the baseline ('MVAR' `hdsc` on an instance).
    public var descender: Int { horizontal.descender + metricDeltas.descender }
    /// The 'hhea' line gap: extra space between lines ('MVAR' `hlgp` on an instance).
    public var lineGap: Int { horizontal.lineGap + metricDeltas.lineGap }
    /// The 'OS/2' typographic ascender, if the font has 'OS/2' ('MVAR' `hasc` on an instance).
    public var typographicAscender: Int? { os2.map { $0.typoAscender + metricDeltas.ascender } }
    /// The 'OS/2' typographic descender (negative), if the font has 'OS/2' ('MVAR' `hdsc`).
    public var typographicDescender: Int? { os2.map { $0.typoDescender + metricDeltas.descender } }
    /// The 'OS/2' typographic line gap, if the font has 'OS/2' ('MVAR' `hlgp`).
    public var typographicLineGap: Int? { os2.map { $0.typoLineGap + metricDeltas.lineGap } }
    /// The height of flat capitals: 'OS/2' `sCapHeight` ('MVAR' `cpht` on an instance), else
    /// the top of 'H'.
    public var capHeight: Int { os2?.capHeight.map { $0 + metricDeltas.capHeight } ?? measuredTop(of: "H") }
    /// The height of flat lower-case letters: 'OS/2' `sxHeight` ('MVAR' `xhgt`), else the top
    /// of 'x'.
    public var xHeight: Int { os2?.xHeight.map { $0 + metricDeltas.xHeight } ?? measuredTop(of: "x") }

    /// What 'MVAR' adds to the line metrics at this instance's coordinates, in font units
    /// (rounded); zero for a default instance and for a font without 'MVAR'.
    struct MetricDeltas: Equatable, Sendable {
        var ascender = 0, descender = 0, lineGap = 0, capHeight = 0, xHeight = 0
    }

    /// This instance's 'MVAR' deltas, asked of HarfBuzz once and kept.
    var metricDeltas: MetricDeltas {
        guard !variations.isEmpty else { return MetricDeltas() }
        if let known = metricDeltaLock.withLock({ metricDeltaStorage }) { return known }
        let deltas = harfBuzzFont?.metricDeltas() ?? MetricDeltas()
        metricDeltaLock.withLock { metricDeltaStorage = deltas }
        return deltas
    }

    /// The weight class, 100…900 (400 regular, 700 bold): 'OS/2' `usWeightClass`, else guessed
    /// from the style name.
    public var weight: Int {
        if let w = variations.first(where: { $0.tag == "wght" })?.value { return Int(w.rounded()) }
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
        let at = variations.isEmpty ? "" : ", " + variations.map { "\($0.tag) \($0.value)" }.joined(separator: " ")
        return "TrueTypeFont(\(fullName ?? "unnamed"), \(glyphCount) glyphs, \(unitsPerEm) units/em\(at))"
    }

    // MARK: Glyphs

    /// The glyph for a Unicode scalar; 0 (.notdef) when the font has none.
    public func glyph(for scalar: Unicode.Scalar) -> CGGlyph { characterMap.glyph(for: scalar) }

    /// The advance width of `glyph` in font units (0 for a glyph out of range).
    public func advanceWidth(of glyph: CGGlyph) -> Int {
        guard Int(glyph) < glyphCount else { return 0 }
        if !variations.isEmpty, let hb = harfBuzzFont { return hb.advance(of: glyph) }
        return horizontal.advance(of: Int(glyph))
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
            if let outlines, variations.isEmpty {
                result = .success(try outlines.outline(of: Int(glyph)).makePath())
            } else if outlineFormat == .bitmap {
                guard Int(glyph) < glyphCount else { throw .glyphOutOfRange(glyph: Int(glyph), glyphCount: glyphCount) }
                result = .success(CGMutablePath())
            } else {
                guard Int(glyph) < glyphCount else { throw .glyphOutOfRange(glyph: Int(glyph), glyphCount: glyphCount) }
                guard let hb = harfBuzzFont else {
                    throw .invalidValue(table: outlineFormat.tableTag, field: "table (HarfBuzz cannot read it)", value: 0)
                }
                result = .success(hb.path(for: glyph))
            }
        } catch {
            result = .failure(error)
        }
        pathCacheLock.withLock { pathCache[glyph] = result }
        return try result.get()
    }

    /// The number of points of `glyph`'s outline, composites expanded.
    /// Only 'glyf' fonts count points: CFF outlines throw `FontError.unsupportedOutlines`.
    public func pointCount(of glyph: CGGlyph) throws(FontError) -> Int {
        guard let outlines else { throw .unsupportedOutlines("point counts of \(outlineFormat.tableTag) outlines") }
        return try outlines.pointCount(of: Int(glyph))
    }

    /// The outline's control points and contours (for tests and tools; 'glyf' fonts only).
    @_spi(Testing) public func outline(of glyph: CGGlyph) throws(FontError) -> GlyphOutline {
        guard let outlines else { throw .unsupportedOutlines("control points of \(outlineFormat.tableTag) outlines") }
        return try outlines.outline(of: Int(glyph))
    }

    private func measuredTop(of character: Unicode.Scalar) -> Int {
        let g = glyph(for: character)
        guard g != 0, let p = try? path(for: g), !p.isEmpty else { return 0 }
        return Int(p.boundingBoxOfPath.maxY.rounded())
    }
}
