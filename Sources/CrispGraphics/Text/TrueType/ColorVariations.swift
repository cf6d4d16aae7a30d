import Foundation

// COLR v1's variations: the "Var" paints and colour lines name their variable fields by
// `varIndexBase + field`; a DeltaSetIndexMap (when the table has one) maps such an index to an
// (outer, inner) pair, else the pair is the index's high and low 16 bits; the item variation
// store's row for the pair holds a delta per region, and a region's scalar at the instance's
// normalized coordinates weights it (OpenType's "Item variation stores" and "Variation data"
// chapters). Deltas are in the field's own units (font units, F2Dot14 or 16.16).
//
// Malformed data yields no delta (the default value is drawn) and sets `isMalformed`, which
// the reader turns into one warning; the work per lookup is bounded by the row's region count
// (at most 65 535), region scalars are computed once per instance and glyph.

/// COLR's variation data at one instance.
final class ColorVariationInstance {
    private let colr: FontTable
    private let store: Int
    private let indexMap: Int
    private let coordinates: [Double]
    private var regionScalars: [Int: Double] = [:]
    /// Whether a lookup met malformed data (its delta was taken as 0).
    private(set) var isMalformed = false

    /// The store at absolute offset `store` in COLR and the map at `indexMap` (0: none), at
    /// normalized `coordinates` (one per 'fvar' axis, -1…1).
    init(colr: FontTable, store: Int, indexMap: Int, coordinates: [Double]) {
        self.colr = colr
        self.store = store
        self.indexMap = indexMap
        self.coordinates = coordinates
    }

    /// The delta of variable field `field` of a paint whose varIndexBase is `base` (0 when
    /// the base is 0xFFFFFFFF, "no variation").
    func delta(base: UInt32, field: Int) -> Double {
        guard base != 0xFFFF_FFFF else { return 0 }
        let (index, overflow) = base.addingReportingOverflow(UInt32(field))
        guard !overflow, index != 0xFFFF_FFFF else { return 0 }
        do throws(FontError) {
            let (outer, inner) = try indexMap != 0 ? mapped(index) : (Int(index >> 16), Int(index & 0xFFFF))
            return try rowDelta(outer: outer, inner: inner)
        } catch {
            isMalformed = true
            return 0
        }
    }

    private func mapped(_ index: UInt32) throws(FontError) -> (Int, Int) {
        let format = try colr.u8(indexMap), entryFormat = try colr.u8(indexMap + 1)
        guard format <= 1 else { throw .invalidValue(table: "COLR", field: "DeltaSetIndexMap format", value: Int(format)) }
        let count = format == 0 ? Int(try colr.u16(indexMap + 2)) : Int(try colr.u32(indexMap + 2))
        let data = indexMap + (format == 0 ? 4 : 6)
        guard count > 0 else { throw .invalidValue(table: "COLR", field: "DeltaSetIndexMap mapCount", value: 0) }
        let size = Int(entryFormat >> 4 & 3) + 1, innerBits = Int(entryFormat & 0x0F) + 1
        let i = min(Int(index), count - 1)
        var entry = 0
        for k in 0..<size { entry = entry << 8 | Int(try colr.u8(data + i * size + k)) }
        return (entry >> innerBits, entry & (1 << innerBits - 1))
    }

    private func rowDelta(outer: Int, inner: Int) throws(FontError) -> Double {
        let format = try colr.u16(store)
        guard format == 1 else { throw .invalidValue(table: "COLR", field: "ItemVariationStore format", value: Int(format)) }
        let dataCount = Int(try colr.u16(store + 6))
        guard outer < dataCount else { throw .invalidValue(table: "COLR", field: "ItemVariationData index", value: outer) }
        let data = store + Int(try colr.u32(store + 8 + 4 * outer))
        let itemCount = Int(try colr.u16(data)), wordField = Int(try colr.u16(data + 2))
        let regionCount = Int(try colr.u16(data + 4))
        let long = wordField & 0x8000 != 0, words = wordField & 0x7FFF
        guard words <= regionCount else { throw .invalidValue(table: "COLR", field: "wordDeltaCount", value: words) }
        guard inner < itemCount else { throw .invalidValue(table: "COLR", field: "delta set index", value: inner) }
        let rowSize = long ? 4 * words + 2 * (regionCount - words) : 2 * words + (regionCount - words)
        let row = data + 6 + 2 * regionCount + inner * rowSize
        try colr.require(row, rowSize)
        var sum = 0.0, o = row
        for r in 0..<regionCount {
            let d: Int
            if r < words {
                d = long ? Int(Int32(bitPattern: try colr.u32(o))) : Int(try colr.i16(o))
                o += long ? 4 : 2
            } else {
                d = long ? Int(try colr.i16(o)) : Int(try colr.i8(o))
                o += long ? 2 : 1
            }
            guard d != 0 else { continue }
            sum += Double(d) * (try scalar(region: Int(try colr.u16(data + 6 + 2 * r))))
        }
        return sum
    }

    /// The region's scalar at the coordinates (OpenType's algorithm, axis by axis).
    private func scalar(region: Int) throws(FontError) -> Double {
        if let known = regionScalars[region] { return known }
        let list = store + Int(try colr.u32(store + 2))
        let axes = Int(try colr.u16(list)), count = Int(try colr.u16(list + 2))
        guard region < count else { throw .invalidValue(table: "COLR", field: "region index", value: region) }
        let r = list + 4 + region * axes * 6
        try colr.require(r, axes * 6)
        var s = 1.0
        for a in 0..<axes {
            let start = try colr.f2dot14(r + 6 * a), peak = try colr.f2dot14(r + 6 * a + 2), end = try colr.f2dot14(r + 6 * a + 4)
            if start > peak || peak > end || (start < 0 && end > 0 && peak != 0) || peak == 0 { continue }
            let c = a < coordinates.count ? coordinates[a] : 0
            if c < start || c > end { s = 0; break }
            if c == peak { continue }
            s *= c < peak ? (c - start) / (peak - start) : (end - c) / (end - peak)
        }
        regionScalars[region] = s
        return s
    }
}
