import Foundation

// Colour glyph tables, read by Crisp's own code: 'CPAL' (palettes), 'COLR' version 0 (layers of
// glyph outlines, each in one palette colour) and version 1 (a graph of paints: layers, solid
// colours, linear/radial/sweep gradients, glyph clips, transforms and composites), and the two
// embedded-bitmap formats colour emoji fonts use, 'CBLC'+'CBDT' (Google) and 'sbix' (Apple).
//
// Hostile input is bounded: a COLR v1 paint graph is expanded into a tree with a depth limit
// (`ColorTables.maximumDepth`), a node budget per glyph (`ColorTables.maximumNodes`), and cycle
// detection on the current path (a paint that contains itself, directly or through
// PaintColrGlyph). A subtree that breaks a rule is dropped and the rest drawn; the reason is
// kept as a warning. Bitmaps are refused before decoding when their PNG header claims more
// than `ColorTables.maximumBitmapSide` pixels a side.
//
// Variable paints (the odd "Var" formats, VarColorLine) take the deltas of COLR's item
// variation store at the instance's coordinates (`ColorVariationInstance`); at the default
// instance, or without a store, they draw their default values.

/// One colour of a palette: straight (not premultiplied) sRGB bytes.
struct PaletteColor: Hashable, Sendable {
    var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
}

/// The 'CPAL' table: palettes of colours that 'COLR' refers to by index.
struct ColorPalettes: Sendable {
    let palettes: [[PaletteColor]]

    init(_ t: FontTable) throws(FontError) {
        let entries = Int(try t.u16(2)), count = Int(try t.u16(4)), records = Int(try t.u16(6))
        let recordsOffset = Int(try t.u32(8))
        try t.require(recordsOffset, records * 4)
        var palettes: [[PaletteColor]] = []
        palettes.reserveCapacity(count)
        for p in 0..<count {
            let first = Int(try t.u16(12 + 2 * p))
            guard first + entries <= records else {
                throw .invalidValue(table: "CPAL", field: "colorRecordIndex", value: first)
            }
            var colors: [PaletteColor] = []
            colors.reserveCapacity(entries)
            for e in 0..<entries {
                let o = recordsOffset + (first + e) * 4
                colors.append(PaletteColor(red: try t.u8(o + 2), green: try t.u8(o + 1), blue: try t.u8(o), alpha: try t.u8(o + 3)))
            }
            palettes.append(colors)
        }
        self.palettes = palettes
    }
}

/// How a colour line continues beyond its first and last stops.
enum ColorExtend: UInt8, Sendable { case pad = 0, `repeat` = 1, reflect = 2 }

/// A colour stop: `offset` along the gradient, a palette index (0xFFFF: the text colour) and an
/// alpha multiplier.
struct ColorStop: Sendable {
    var offset: Double
    var paletteIndex: UInt16
    var alpha: Double
}

/// A gradient's stops, sorted by offset, and its extend mode.
struct ColorLine: Sendable {
    var extend: ColorExtend
    var stops: [ColorStop]
}

/// A node of a COLR glyph's paint tree (font units, y up), as drawn.
indirect enum ColorPaint: Sendable {
    /// Paints drawn in order, each over the ones before.
    case layers([ColorPaint])
    /// A palette colour (0xFFFF: the text colour) times `alpha`, filling the current clip.
    case solid(paletteIndex: UInt16, alpha: Double)
    /// A linear gradient: the colour line runs from `p0` to `p1`, rotated so its lines of
    /// equal colour are parallel to `p0`→`p2`.
    case linear(ColorLine, p0: CGPoint, p1: CGPoint, p2: CGPoint)
    /// A two-circle radial gradient.
    case radial(ColorLine, c0: CGPoint, r0: Double, c1: CGPoint, r1: Double)
    /// A sweep (conic) gradient; angles in degrees, counter-clockwise from +x.
    case sweep(ColorLine, center: CGPoint, startAngle: Double, endAngle: Double)
    /// `paint` clipped to the outline of `glyph`.
    case glyph(CGGlyph, ColorPaint)
    /// `paint` drawn in a space transformed by `transform`.
    case transform(CGAffineTransform, ColorPaint)
    /// `source` composited onto `backdrop` with `mode`; nil mode: COLR's "destination" (only the
    /// backdrop shows).
    case composite(source: ColorPaint, mode: CGBlendMode?, backdrop: ColorPaint)
}

/// What a COLR glyph draws, with the problems met while reading it.
struct ColorGlyph: Sendable {
    let paint: ColorPaint
    /// The glyph's clip box from the COLR v1 ClipList (font units), if it has one.
    let clipBox: CGRect?
    /// Why parts of the glyph were dropped (empty when the whole glyph was read).
    let warnings: [String]
}

/// An embedded bitmap (PNG) for a glyph at one strike.
struct ColorBitmap: Sendable {
    /// The PNG file's bytes.
    let png: ArraySlice<UInt8>
    /// The strike's pixels per em: the bitmap is drawn scaled by `fontSize / ppem`.
    let ppem: Int
    /// The bitmap's left edge right of the glyph origin, in strike pixels.
    let left: Int
    /// The bitmap's bottom edge above the baseline, in strike pixels (negative: below), or nil
    /// when it is placed by `top` (CBDT metrics give the top).
    let bottom: Int?
    /// The bitmap's top edge above the baseline in strike pixels (CBDT).
    let top: Int
    /// The bitmap's size in strike pixels as the font's metrics claim it (0 when unknown).
    let width: Int, height: Int
}

/// The colour tables of a face.
struct ColorTables: Sendable {
    /// Deepest paint nesting followed (PaintColrGlyph counts as a level).
    static let maximumDepth = 64
    /// Most paint nodes read for one glyph (layers of COLR v0 included).
    static let maximumNodes = 4096
    /// Largest bitmap side, in pixels, decoded for a glyph.
    static let maximumBitmapSide = 1024

    let palettes: ColorPalettes?
    private let colr: FontTable?
    private let colrVersion: Int
    private let baseGlyphCount: Int, baseGlyphOffset: Int, layerOffset: Int, layerCount: Int
    private let baseGlyphList: Int, layerList: Int, clipList: Int
    /// COLR v1's DeltaSetIndexMap and ItemVariationStore (absolute offsets; 0: none).
    private let varIndexMap: Int, varStore: Int
    private let cblc: FontTable?, cbdt: FontTable?
    private let sbix: FontTable?
    private let glyphCount: Int
    /// Problems met reading the tables' headers (the table is then ignored).
    let warnings: [String]

    /// Whether any table gives colour glyphs.
    var isEmpty: Bool { colr == nil && cblc == nil && sbix == nil }

    init(directory: TableDirectory, glyphCount: Int) {
        self.glyphCount = glyphCount
        var warnings: [String] = []
        func read<T>(_ tag: String, _ make: (FontTable) throws(FontError) -> T) -> T? {
            do throws(FontError) {
                guard let t = try directory.table(tag) else { return nil }
                return try make(t)
            } catch {
                warnings.append("'\(tag)' ignored: \(error)")
                return nil
            }
        }
        palettes = read("CPAL") { t throws(FontError) in try ColorPalettes(t) }
        struct COLRHeader { var t: FontTable; var version, count, base, layers, layerCount, baseList, layerList, clipList, varIndexMap, varStore: Int }
        let header = read("COLR") { t throws(FontError) -> COLRHeader in
            let version = Int(try t.u16(0))
            guard version <= 1 else { throw .invalidValue(table: "COLR", field: "version", value: version) }
            let count = Int(try t.u16(2)), base = Int(try t.u32(4)), layers = Int(try t.u32(8)), layerCount = Int(try t.u16(12))
            if count > 0 { try t.require(base, count * 6) }
            if layerCount > 0 { try t.require(layers, layerCount * 4) }
            var h = COLRHeader(t: t, version: version, count: count, base: base, layers: layers, layerCount: layerCount,
                               baseList: 0, layerList: 0, clipList: 0, varIndexMap: 0, varStore: 0)
            if version == 1 {
                h.baseList = Int(try t.u32(14)); h.layerList = Int(try t.u32(18)); h.clipList = Int(try t.u32(22))
                if h.baseList != 0 { try t.require(h.baseList, 4) }
                if h.layerList != 0 { try t.require(h.layerList, 4) }
                if h.clipList != 0 { try t.require(h.clipList, 5) }
                // The variation offsets (a table of the first COLR v1 drafts may end before them;
                // what they point at is checked as it is read, and bad data there only loses
                // the deltas).
                if t.length >= 34 { h.varIndexMap = Int(try t.u32(26)); h.varStore = Int(try t.u32(30)) }
            }
            return h
        }
        if let header, palettes != nil {
            colr = header.t
            colrVersion = header.version
            baseGlyphCount = header.count; baseGlyphOffset = header.base
            layerOffset = header.layers; layerCount = header.layerCount
            baseGlyphList = header.baseList; layerList = header.layerList; clipList = header.clipList
            varIndexMap = header.varIndexMap; varStore = header.varStore
        } else {
            if header != nil { warnings.append("'COLR' ignored: the font has no usable 'CPAL' palettes") }
            colr = nil; colrVersion = 0; baseGlyphCount = 0; baseGlyphOffset = 0; layerOffset = 0; layerCount = 0
            baseGlyphList = 0; layerList = 0; clipList = 0; varIndexMap = 0; varStore = 0
        }
        let cblc = read("CBLC") { t throws(FontError) -> FontTable in
            let major = Int(try t.u16(0))
            guard major == 2 || major == 3 else { throw .invalidValue(table: "CBLC", field: "majorVersion", value: major) }
            try t.require(8, Int(try t.u32(4)) * 48)
            return t
        }
        let cbdt = read("CBDT") { t throws(FontError) in t }
        if let cblc, let cbdt { self.cblc = cblc; self.cbdt = cbdt } else { self.cblc = nil; self.cbdt = nil }
        sbix = read("sbix") { t throws(FontError) -> FontTable in
            try t.require(8, Int(try t.u32(4)) * 4)
            return t
        }
        self.warnings = warnings
    }

    // MARK: COLR

    /// Whether `glyph` has a COLR v1 paint or COLR v0 layers.
    func hasColorLayers(_ glyph: CGGlyph) -> Bool {
        guard colr != nil else { return false }
        return (try? v1Paint(glyph)) != nil || (try? v0Record(glyph)) != nil
    }

    /// Whether COLR has variation data (its paints then depend on the instance).
    var isVariable: Bool { varStore != 0 }

    /// The paint tree of `glyph` (v1 first, else v0 layers) at the normalized variation
    /// `coordinates` (empty: the default instance); nil when COLR has none for it.
    func colorGlyph(_ glyph: CGGlyph, coordinates: [Double] = []) -> ColorGlyph? {
        guard let colr else { return nil }
        var reader = PaintReader(colr: colr, tables: self)
        if varStore != 0, coordinates.contains(where: { $0 != 0 }) {
            reader.variation = ColorVariationInstance(colr: colr, store: varStore, indexMap: varIndexMap, coordinates: coordinates)
        }
        do throws(FontError) {
            if let offset = try v1Paint(glyph) {
                reader.glyphStack = [glyph]
                let paint = reader.paint(at: offset, depth: 0) ?? .layers([])
                if reader.variation?.isMalformed == true {
                    reader.warn("COLR variation data of glyph \(glyph) is malformed: some paints drawn at their default values")
                }
                return ColorGlyph(paint: paint, clipBox: try? clipBox(glyph), warnings: reader.warnings)
            }
            guard let (first, count) = try v0Record(glyph) else { return nil }
            var layers: [ColorPaint] = []
            for i in 0..<min(count, ColorTables.maximumNodes) {
                guard first + i < layerCount else {
                    reader.warnings.append("COLR layers of glyph \(glyph) run past the layer records")
                    break
                }
                let o = layerOffset + (first + i) * 4
                layers.append(.glyph(try colr.u16(o), .solid(paletteIndex: try colr.u16(o + 2), alpha: 1)))
            }
            if count > ColorTables.maximumNodes { reader.warnings.append("COLR glyph \(glyph): only the first \(ColorTables.maximumNodes) of \(count) layers drawn") }
            return ColorGlyph(paint: .layers(layers), clipBox: nil, warnings: reader.warnings)
        } catch {
            return ColorGlyph(paint: .layers([]), clipBox: nil, warnings: ["COLR glyph \(glyph) not drawn: \(error)"])
        }
    }

    private func v0Record(_ glyph: CGGlyph) throws(FontError) -> (Int, Int)? {
        guard let colr, baseGlyphCount > 0 else { return nil }
        var lo = 0, hi = baseGlyphCount - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let o = baseGlyphOffset + mid * 6
            let g = try colr.u16(o)
            if g == glyph { return (Int(try colr.u16(o + 2)), Int(try colr.u16(o + 4))) }
            if g < glyph { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    /// The absolute offset (in COLR) of `glyph`'s v1 root paint.
    fileprivate func v1Paint(_ glyph: CGGlyph) throws(FontError) -> Int? {
        guard let colr, colrVersion == 1, baseGlyphList != 0 else { return nil }
        let count = Int(try colr.u32(baseGlyphList))
        try colr.require(baseGlyphList + 4, count * 6)
        var lo = 0, hi = count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let o = baseGlyphList + 4 + mid * 6
            let g = try colr.u16(o)
            if g == glyph { return baseGlyphList + Int(try colr.u32(o + 2)) }
            if g < glyph { lo = mid + 1 } else { hi = mid - 1 }
        }
        return nil
    }

    /// The absolute offset of layer `index` of the v1 LayerList.
    fileprivate func layerPaint(_ index: Int) throws(FontError) -> Int {
        guard let colr, layerList != 0 else { throw .invalidValue(table: "COLR", field: "layerList offset", value: 0) }
        let count = Int(try colr.u32(layerList))
        guard index < count else { throw .invalidValue(table: "COLR", field: "layer index", value: index) }
        return layerList + Int(try colr.u32(layerList + 4 + index * 4))
    }

    private func clipBox(_ glyph: CGGlyph) throws(FontError) -> CGRect? {
        guard let colr, clipList != 0 else { return nil }
        let count = Int(try colr.u32(clipList + 1))
        try colr.require(clipList + 5, count * 7)
        var lo = 0, hi = count - 1
        while lo <= hi {
            let mid = (lo + hi) / 2
            let o = clipList + 5 + mid * 7
            let start = try colr.u16(o), end = try colr.u16(o + 2)
            if glyph < start { hi = mid - 1; continue }
            if glyph > end { lo = mid + 1; continue }
            let box = clipList + (Int(try colr.u8(o + 4)) << 16 | Int(try colr.u16(o + 5)))
            let format = try colr.u8(box)
            guard format == 1 || format == 2 else { return nil }
            let x0 = Double(try colr.i16(box + 1)), y0 = Double(try colr.i16(box + 3))
            let x1 = Double(try colr.i16(box + 5)), y1 = Double(try colr.i16(box + 7))
            guard x1 >= x0, y1 >= y0 else { return nil }
            return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        return nil
    }

    // MARK: Bitmaps

    /// Whether the face has embedded bitmaps at all.
    var hasBitmaps: Bool { cblc != nil || sbix != nil }

    /// The bitmap of `glyph` from the strike nearest `ppem` (the smallest strike at least as
    /// large, else the largest); nil when the face has none for the glyph.
    func bitmap(_ glyph: CGGlyph, ppem: Double) throws(FontError) -> ColorBitmap? {
        if let sbix, let b = try sbixBitmap(sbix, glyph, ppem) { return b }
        if let cblc, let cbdt { return try cbdtBitmap(cblc, cbdt, glyph, ppem) }
        return nil
    }

    /// Picks, among `sizes` (index, ppem), the strike nearest `ppem`.
    private static func nearest(_ sizes: [(Int, Int)], _ ppem: Double) -> [Int] {
        let larger = sizes.filter { Double($0.1) >= ppem }.sorted { $0.1 < $1.1 }
        let smaller = sizes.filter { Double($0.1) < ppem }.sorted { $0.1 > $1.1 }
        return (larger + smaller).map(\.0)
    }

    private func sbixBitmap(_ t: FontTable, _ glyph: CGGlyph, _ ppem: Double) throws(FontError) -> ColorBitmap? {
        let count = Int(try t.u32(4))
        guard Int(glyph) < glyphCount else { return nil }
        var sizes: [(Int, Int)] = []
        for i in 0..<min(count, 256) {
            let strike = Int(try t.u32(8 + 4 * i))
            sizes.append((strike, Int(try t.u16(strike))))
        }
        for strike in ColorTables.nearest(sizes, ppem) {
            let strikePPEM = Int(try t.u16(strike))
            var g = Int(glyph)
            // 'dupe' points at another glyph's data: followed a few times, never in a circle.
            for _ in 0..<4 {
                let start = Int(try t.u32(strike + 4 + 4 * g)), end = Int(try t.u32(strike + 8 + 4 * g))
                guard end > start + 8 else { break }
                let data = strike + start
                try t.require(data, end - start)
                let type = TableDirectory.tagString(try t.u32(data + 4))
                if type == "dupe" {
                    g = Int(try t.u16(data + 8))
                    guard g < glyphCount else { break }
                    continue
                }
                guard type == "png " else { break }
                let png = t.file[(t.start + data + 8)..<(t.start + strike + end)]
                return ColorBitmap(png: png, ppem: strikePPEM, left: Int(try t.i16(data)), bottom: Int(try t.i16(data + 2)),
                                   top: 0, width: 0, height: 0)
            }
        }
        return nil
    }

    private func cbdtBitmap(_ cblc: FontTable, _ cbdt: FontTable, _ glyph: CGGlyph, _ ppem: Double) throws(FontError) -> ColorBitmap? {
        let count = min(Int(try cblc.u32(4)), 256)
        var sizes: [(Int, Int)] = []
        for i in 0..<count {
            let s = 8 + 48 * i
            let start = try cblc.u16(s + 40), end = try cblc.u16(s + 42)
            guard glyph >= start, glyph <= end else { continue }
            sizes.append((s, Int(try cblc.u8(s + 45))))
        }
        for s in ColorTables.nearest(sizes, ppem) {
            let strikePPEM = Int(try cblc.u8(s + 45))
            let array = Int(try cblc.u32(s)), subtables = min(Int(try cblc.u32(s + 8)), 65_536)
            for k in 0..<subtables {
                let e = array + 8 * k
                let first = try cblc.u16(e), last = try cblc.u16(e + 2)
                guard glyph >= first, glyph <= last else { continue }
                let sub = array + Int(try cblc.u32(e + 4))
                let indexFormat = try cblc.u16(sub), imageFormat = try cblc.u16(sub + 2)
                let imageData = Int(try cblc.u32(sub + 4))
                let i = Int(glyph - first)
                var offset = 0, length = 0
                var big: Int?   // where big metrics for all glyphs of the subtable are (formats 2, 5)
                switch indexFormat {
                case 1:
                    let a = Int(try cblc.u32(sub + 8 + 4 * i)), b = Int(try cblc.u32(sub + 12 + 4 * i))
                    offset = imageData + a; length = b - a
                case 3:
                    let a = Int(try cblc.u16(sub + 8 + 2 * i)), b = Int(try cblc.u16(sub + 10 + 2 * i))
                    offset = imageData + a; length = b - a
                case 2:
                    let size = Int(try cblc.u32(sub + 8))
                    offset = imageData + i * size; length = size; big = sub + 12
                case 4:
                    let n = min(Int(try cblc.u32(sub + 8)), 65_536)
                    var found = false
                    for j in 0..<n where try cblc.u16(sub + 12 + 4 * j) == glyph {
                        let a = Int(try cblc.u16(sub + 14 + 4 * j)), b = Int(try cblc.u16(sub + 18 + 4 * j))
                        offset = imageData + a; length = b - a; found = true
                        break
                    }
                    guard found else { continue }
                case 5:
                    let size = Int(try cblc.u32(sub + 8))
                    let n = min(Int(try cblc.u32(sub + 20)), 65_536)
                    var found = false
                    for j in 0..<n where try cblc.u16(sub + 24 + 2 * j) == glyph {
                        offset = imageData + j * size; length = size; found = true
                        break
                    }
                    guard found else { continue }
                    big = sub + 12
                default:
                    throw .invalidValue(table: "CBLC", field: "indexFormat", value: Int(indexFormat))
                }
                guard length > 0 else { return nil }
                try cbdt.require(offset, length)
                let height: Int, width: Int, bearingX: Int, bearingY: Int, dataStart: Int
                switch imageFormat {
                case 17:
                    height = Int(try cbdt.u8(offset)); width = Int(try cbdt.u8(offset + 1))
                    bearingX = Int(try cbdt.i8(offset + 2)); bearingY = Int(try cbdt.i8(offset + 3))
                    dataStart = offset + 5
                case 18:
                    height = Int(try cbdt.u8(offset)); width = Int(try cbdt.u8(offset + 1))
                    bearingX = Int(try cbdt.i8(offset + 2)); bearingY = Int(try cbdt.i8(offset + 3))
                    dataStart = offset + 8
                case 19:
                    guard let big else { throw .invalidValue(table: "CBLC", field: "imageFormat 19 with indexFormat", value: Int(indexFormat)) }
                    height = Int(try cblc.u8(big)); width = Int(try cblc.u8(big + 1))
                    bearingX = Int(try cblc.i8(big + 2)); bearingY = Int(try cblc.i8(big + 3))
                    dataStart = offset
                default:
                    throw .invalidValue(table: "CBDT", field: "imageFormat", value: Int(imageFormat))
                }
                let dataLength = Int(try cbdt.u32(dataStart))
                guard dataLength <= offset + length - dataStart - 4 else {
                    throw .truncated(table: "CBDT", offset: dataStart + 4, length: dataLength, tableLength: offset + length - dataStart - 4)
                }
                let png = cbdt.file[(cbdt.start + dataStart + 4)..<(cbdt.start + dataStart + 4 + dataLength)]
                return ColorBitmap(png: png, ppem: strikePPEM, left: bearingX, bottom: nil, top: bearingY, width: width, height: height)
            }
        }
        return nil
    }
}

/// Expands a COLR v1 paint graph into a `ColorPaint` tree, within the limits of `ColorTables`.
private struct PaintReader {
    let colr: FontTable
    let tables: ColorTables
    var warnings: [String] = []
    var nodes = 0
    /// Offsets of the paints on the current path (cycle detection).
    var path: [Int] = []
    /// Glyphs entered through PaintColrGlyph on the current path.
    var glyphStack: [CGGlyph] = []
    /// The instance's variation deltas (nil at the default instance).
    var variation: ColorVariationInstance?

    init(colr: FontTable, tables: ColorTables) {
        self.colr = colr
        self.tables = tables
    }

    mutating func warn(_ s: String) {
        if warnings.count < 8 { warnings.append(s) }
    }

    /// The paint at absolute offset `at`; nil (and a warning) when it breaks a rule or is
    /// malformed: the caller draws the rest.
    mutating func paint(at offset: Int, depth: Int) -> ColorPaint? {
        guard depth < ColorTables.maximumDepth else {
            warn("COLR paint at offset \(offset) nests deeper than \(ColorTables.maximumDepth) levels: dropped")
            return nil
        }
        guard nodes < ColorTables.maximumNodes else {
            if nodes == ColorTables.maximumNodes { warn("COLR glyph has more than \(ColorTables.maximumNodes) paints: the rest dropped") }
            nodes += 1
            return nil
        }
        guard !path.contains(offset) else {
            warn("COLR paint at offset \(offset) contains itself (a cycle): dropped")
            return nil
        }
        nodes += 1
        path.append(offset)
        defer { path.removeLast() }
        do throws(FontError) {
            return try read(offset, depth)
        } catch {
            warn("COLR paint at offset \(offset) dropped: \(error)")
            return nil
        }
    }

    private func offset24(_ o: Int) throws(FontError) -> Int {
        Int(try colr.u8(o)) << 16 | Int(try colr.u16(o + 1))
    }

    private func fixed(_ o: Int) throws(FontError) -> Double { Double(Int32(bitPattern: try colr.u32(o))) / 65536 }

    private func point(_ o: Int) throws(FontError) -> CGPoint {
        CGPoint(x: Double(try colr.i16(o)), y: Double(try colr.i16(o + 2)))
    }

    /// The delta of field `field` of a variable paint whose varIndexBase is at `base`.
    private func delta(_ base: Int, _ field: Int) throws(FontError) -> Double {
        guard let variation else { return 0 }
        return variation.delta(base: try colr.u32(base), field: field)
    }

    private func colorLine(_ o: Int, variable: Bool) throws(FontError) -> ColorLine {
        let extendValue = try colr.u8(o)
        let count = Int(try colr.u16(o + 1))
        let stride = variable ? 10 : 6
        try colr.require(o + 3, count * stride)
        var stops: [ColorStop] = []
        stops.reserveCapacity(count)
        for i in 0..<count {
            let s = o + 3 + i * stride
            // VarColorStop: stopOffset and alpha vary (fields 0 and 1 of its varIndexBase).
            let dOffset = variable ? try delta(s + 6, 0) / 16384 : 0, dAlpha = variable ? try delta(s + 6, 1) / 16384 : 0
            stops.append(ColorStop(offset: try colr.f2dot14(s) + dOffset, paletteIndex: try colr.u16(s + 2),
                                   alpha: try colr.f2dot14(s + 4) + dAlpha))
        }
        // Stable sort by offset, as the spec asks.
        let sorted = stops.enumerated().sorted { $0.element.offset != $1.element.offset ? $0.element.offset < $1.element.offset : $0.offset < $1.offset }
        return ColorLine(extend: ColorExtend(rawValue: extendValue) ?? .pad, stops: sorted.map(\.element))
    }

    private mutating func child(_ base: Int, _ field: Int, _ depth: Int) throws(FontError) -> ColorPaint {
        let o = try offset24(base + field)
        guard o != 0 else { throw .invalidValue(table: "COLR", field: "null paint offset", value: 0) }
        return paint(at: base + o, depth: depth + 1) ?? .layers([])
    }

    private static func around(_ center: CGPoint, _ t: CGAffineTransform) -> CGAffineTransform {
        CGAffineTransform(translationX: -center.x, y: -center.y).concatenating(t)
            .concatenating(CGAffineTransform(translationX: center.x, y: center.y))
    }

    private mutating func read(_ p: Int, _ depth: Int) throws(FontError) -> ColorPaint {
        let format = Int(try colr.u8(p))
        // The variable formats (odd, 3…31, except 11) lay out the default values as the static
        // format before them; their deltas are not applied.
        let isVariable = format >= 3 && format <= 31 && format % 2 == 1 && format != 11
        let base = isVariable ? format - 1 : format
        /// A variable paint's field `field` delta, its varIndexBase at `p + at` (0 for a static paint).
        func v(_ at: Int, _ field: Int, _ unit: Double = 1) throws(FontError) -> Double {
            isVariable ? try delta(p + at, field) / unit : 0
        }
        func point(_ o: Int, _ at: Int, _ field: Int) throws(FontError) -> CGPoint {
            let q = try self.point(o)
            return CGPoint(x: q.x + (try v(at, field)), y: q.y + (try v(at, field + 1)))
        }
        let f2 = 16384.0
        switch base {
        case 1:
            let count = Int(try colr.u8(p + 1)), first = Int(try colr.u32(p + 2))
            var layers: [ColorPaint] = []
            for i in 0..<count {
                guard nodes < ColorTables.maximumNodes else {
                    warn("COLR glyph has more than \(ColorTables.maximumNodes) paints: the rest dropped")
                    break
                }
                if let l = paint(at: try tables.layerPaint(first + i), depth: depth + 1) { layers.append(l) }
            }
            return .layers(layers)
        case 2:
            return .solid(paletteIndex: try colr.u16(p + 1), alpha: try colr.f2dot14(p + 3) + (try v(5, 0, f2)))
        case 4:
            let line = try colorLine(p + (try offset24(p + 1)), variable: isVariable)
            return .linear(line, p0: try point(p + 4, 16, 0), p1: try point(p + 8, 16, 2), p2: try point(p + 12, 16, 4))
        case 6:
            let line = try colorLine(p + (try offset24(p + 1)), variable: isVariable)
            return .radial(line, c0: try point(p + 4, 16, 0), r0: max(Double(try colr.u16(p + 8)) + (try v(16, 2)), 0),
                           c1: try point(p + 10, 16, 3), r1: max(Double(try colr.u16(p + 14)) + (try v(16, 5)), 0))
        case 8:
            let line = try colorLine(p + (try offset24(p + 1)), variable: isVariable)
            // Sweep angles are biased by 1.0 (so +360° can be written): degrees = (value + 1) × 180.
            return .sweep(line, center: try point(p + 4, 12, 0), startAngle: (try colr.f2dot14(p + 8) + (try v(12, 2, f2)) + 1) * 180,
                          endAngle: (try colr.f2dot14(p + 10) + (try v(12, 3, f2)) + 1) * 180)
        case 10:
            let glyph = try colr.u16(p + 4)
            return .glyph(glyph, try child(p, 1, depth))
        case 11:
            let glyph = try colr.u16(p + 1)
            guard !glyphStack.contains(glyph) else {
                throw .invalidValue(table: "COLR", field: "PaintColrGlyph cycle through glyph", value: Int(glyph))
            }
            guard let root = try tables.v1Paint(glyph) else { return .layers([]) }
            glyphStack.append(glyph)
            defer { glyphStack.removeLast() }
            return paint(at: root, depth: depth + 1) ?? .layers([])
        case 12:
            // VarAffine2x3: the six 16.16 values vary, its varIndexBase after them.
            let m = p + (try offset24(p + 4))
            func value(_ k: Int) throws(FontError) -> Double {
                try fixed(m + 4 * k) + (isVariable ? try delta(m + 24, k) / 65536 : 0)
            }
            let t = CGAffineTransform(a: try value(0), b: try value(1), c: try value(2), d: try value(3), tx: try value(4), ty: try value(5))
            return .transform(t, try child(p, 1, depth))
        case 14:
            return .transform(CGAffineTransform(translationX: Double(try colr.i16(p + 4)) + (try v(8, 0)),
                                                y: Double(try colr.i16(p + 6)) + (try v(8, 1))),
                              try child(p, 1, depth))
        case 16:
            return .transform(CGAffineTransform(scaleX: try colr.f2dot14(p + 4) + (try v(8, 0, f2)),
                                                y: try colr.f2dot14(p + 6) + (try v(8, 1, f2))), try child(p, 1, depth))
        case 18:
            let t = CGAffineTransform(scaleX: try colr.f2dot14(p + 4) + (try v(12, 0, f2)), y: try colr.f2dot14(p + 6) + (try v(12, 1, f2)))
            return .transform(PaintReader.around(try point(p + 8, 12, 2), t), try child(p, 1, depth))
        case 20:
            let s = try colr.f2dot14(p + 4) + (try v(6, 0, f2))
            return .transform(CGAffineTransform(scaleX: s, y: s), try child(p, 1, depth))
        case 22:
            let s = try colr.f2dot14(p + 4) + (try v(10, 0, f2))
            return .transform(PaintReader.around(try point(p + 6, 10, 1), CGAffineTransform(scaleX: s, y: s)), try child(p, 1, depth))
        case 24:
            let a = (try colr.f2dot14(p + 4) + (try v(6, 0, f2))) * .pi
            return .transform(CGAffineTransform(rotationAngle: a), try child(p, 1, depth))
        case 26:
            let a = (try colr.f2dot14(p + 4) + (try v(10, 0, f2))) * .pi
            return .transform(PaintReader.around(try point(p + 6, 10, 1), CGAffineTransform(rotationAngle: a)), try child(p, 1, depth))
        case 28, 30:
            let at = base == 30 ? 12 : 8
            let x = (try colr.f2dot14(p + 4) + (try v(at, 0, f2))) * .pi, y = (try colr.f2dot14(p + 6) + (try v(at, 1, f2))) * .pi
            var t = CGAffineTransform(a: 1, b: tan(y), c: tan(-x), d: 1, tx: 0, ty: 0)
            guard t.a.isFinite, t.b.isFinite, t.c.isFinite else { throw .invalidValue(table: "COLR", field: "skew angle", value: 90) }
            if base == 30 { t = PaintReader.around(try point(p + 8, 12, 2), t) }
            return .transform(t, try child(p, 1, depth))
        case 32:
            let source = try child(p, 1, depth)
            let modeValue = Int(try colr.u8(p + 4))
            let backdrop = try child(p, 5, depth)
            let modes: [CGBlendMode?] = [.clear, .copy, nil, .normal, .destinationOver, .sourceIn, .destinationIn, .sourceOut,
                                         .destinationOut, .sourceAtop, .destinationAtop, .xor, .plusLighter, .screen, .overlay,
                                         .darken, .lighten, .colorDodge, .colorBurn, .hardLight, .softLight, .difference,
                                         .exclusion, .multiply, .hue, .saturation, .color, .luminosity]
            guard modeValue < modes.count else { throw .invalidValue(table: "COLR", field: "compositeMode", value: modeValue) }
            return .composite(source: source, mode: modes[modeValue], backdrop: backdrop)
        default:
            throw .invalidValue(table: "COLR", field: "paint format", value: format)
        }
    }
}
