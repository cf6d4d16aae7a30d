import Foundation

// Pair kerning from 'GPOS': the lookups of the 'kern' feature, of type 2 (pair adjustment),
// possibly wrapped in type 9 (extension). A PairPos subtable is format 1 (explicit pairs: a
// coverage table for the first glyph, then per first glyph a sorted set of second glyphs) or
// format 2 (class pairs: two class definitions and a class1 × class2 matrix of values).
//
// Only the horizontal advance of the first glyph's value record is used — what pair kerning
// means in horizontal Latin text; placements and device tables are skipped. There is no
// shaping: script and language systems are not consulted (the 'kern' feature's lookups are
// taken from every feature record tagged 'kern'), and lookups apply to adjacent glyph pairs only.
//
// Subtables are located once when the font is opened; lookups read them in place with bounds
// checks, so a corrupt offset costs a kerning value, never a crash.

/// Pair kerning from a 'GPOS' table.
struct GPOSPairKerning: Sendable {
    /// One lookup: its PairPos subtables, tried in order.
    private var lookups: [[FontTable]] = []

    var isEmpty: Bool { lookups.isEmpty }

    /// Most lookups / subtables accepted (real fonts: a handful).
    static let maximumLookups = 64
    static let maximumSubtables = 256

    init(_ gpos: FontTable) throws(FontError) {
        let featureList = try gpos.tail(from: Int(try gpos.u16(6)))
        let lookupList = try gpos.tail(from: Int(try gpos.u16(8)))
        let featureCount = Int(try featureList.u16(0))
        try featureList.require(2, featureCount * 6)
        let lookupCount = Int(try lookupList.u16(0))
        try lookupList.require(2, lookupCount * 2)

        var indices: [Int] = []
        for i in 0..<featureCount {
            guard try featureList.u32(2 + i * 6) == 0x6B65_726E else { continue }   // 'kern'
            let feature = try featureList.tail(from: Int(try featureList.u16(2 + i * 6 + 4)))
            let n = Int(try feature.u16(2))
            for k in 0..<n {
                let index = Int(try feature.u16(4 + k * 2))
                guard index < lookupCount else { throw .invalidValue(table: "GPOS", field: "lookup index", value: index) }
                if !indices.contains(index) { indices.append(index) }
            }
        }
        guard indices.count <= GPOSPairKerning.maximumLookups else {
            throw .invalidValue(table: "GPOS", field: "kern lookup count", value: indices.count)
        }
        var subtableTotal = 0
        for index in indices.sorted() {
            let lookup = try lookupList.tail(from: Int(try lookupList.u16(2 + index * 2)))
            let type = try lookup.u16(0)
            let count = Int(try lookup.u16(4))
            subtableTotal += count
            guard subtableTotal <= GPOSPairKerning.maximumSubtables else {
                throw .invalidValue(table: "GPOS", field: "kern subtable count", value: subtableTotal)
            }
            var subtables: [FontTable] = []
            for s in 0..<count {
                var sub = try lookup.tail(from: Int(try lookup.u16(6 + s * 2)))
                var subType = type
                if type == 9 {
                    subType = try sub.u16(2)
                    sub = try sub.tail(from: Int(try sub.u32(4)))
                }
                guard subType == 2 else { continue }
                let format = try sub.u16(0)
                guard format == 1 || format == 2 else { continue }
                subtables.append(sub)
            }
            if !subtables.isEmpty { lookups.append(subtables) }
        }
    }

    /// The kerning between `first` and `second` in font units: the sum over the 'kern'
    /// lookups of the first subtable that applies to the pair.
    func kerning(_ first: UInt16, _ second: UInt16) -> Int {
        var total = 0
        for subtables in lookups {
            for sub in subtables {
                if let v = try? GPOSPairKerning.adjustment(sub, first, second) {
                    total += v
                    break
                }
            }
        }
        return total
    }

    /// The first glyph's x-advance adjustment from one PairPos subtable, or nil when the
    /// subtable does not apply to the pair.
    private static func adjustment(_ t: FontTable, _ first: UInt16, _ second: UInt16) throws(FontError) -> Int? {
        let format = try t.u16(0)
        let coverage = try t.tail(from: Int(try t.u16(2)))
        guard let coverageIndex = try coverageIndex(coverage, first) else { return nil }
        let format1 = try t.u16(4), format2 = try t.u16(6)
        let size1 = valueRecordSize(format1), size2 = valueRecordSize(format2)
        // XAdvance (bit 2) follows XPlacement and YPlacement when present.
        let advanceOffset: Int? = format1 & 0x4 == 0 ? nil : (format1 & 0x3).nonzeroBitCount * 2
        if format == 1 {
            let setCount = Int(try t.u16(8))
            guard coverageIndex < setCount else { return nil }
            let set = try t.tail(from: Int(try t.u16(10 + coverageIndex * 2)))
            let pairCount = Int(try set.u16(0))
            let record = 2 + size1 + size2
            var lo = 0, hi = pairCount
            while lo < hi {
                let mid = (lo + hi) / 2
                let glyph = try set.u16(2 + mid * record)
                if glyph < second { lo = mid + 1 } else if glyph > second { hi = mid } else {
                    guard let advanceOffset else { return 0 }
                    return Int(try set.i16(2 + mid * record + 2 + advanceOffset))
                }
            }
            return nil
        }
        let class1 = try classOf(try t.tail(from: Int(try t.u16(8))), first)
        let class2 = try classOf(try t.tail(from: Int(try t.u16(10))), second)
        let class1Count = Int(try t.u16(12)), class2Count = Int(try t.u16(14))
        guard class1 < class1Count, class2 < class2Count else { return nil }
        guard let advanceOffset else { return 0 }
        let record = (class1 * class2Count + class2) * (size1 + size2)
        return Int(try t.i16(16 + record + advanceOffset))
    }

    private static func valueRecordSize(_ format: UInt16) -> Int { (format & 0xFF).nonzeroBitCount * 2 }

    /// The glyph's index in a coverage table, nil if not covered.
    private static func coverageIndex(_ t: FontTable, _ glyph: UInt16) throws(FontError) -> Int? {
        let format = try t.u16(0)
        let count = Int(try t.u16(2))
        var lo = 0, hi = count
        switch format {
        case 1:
            while lo < hi {
                let mid = (lo + hi) / 2
                let g = try t.u16(4 + mid * 2)
                if g < glyph { lo = mid + 1 } else if g > glyph { hi = mid } else { return mid }
            }
        case 2:
            while lo < hi {
                let mid = (lo + hi) / 2
                let r = 4 + mid * 6
                let start = try t.u16(r), end = try t.u16(r + 2)
                if end < glyph { lo = mid + 1 } else if start > glyph { hi = mid } else {
                    return Int(try t.u16(r + 4)) + Int(glyph - start)
                }
            }
        default:
            break
        }
        return nil
    }

    /// The glyph's class in a class definition table (0 when not listed).
    private static func classOf(_ t: FontTable, _ glyph: UInt16) throws(FontError) -> Int {
        switch try t.u16(0) {
        case 1:
            let start = try t.u16(2), count = Int(try t.u16(4))
            guard glyph >= start, Int(glyph - start) < count else { return 0 }
            return Int(try t.u16(6 + Int(glyph - start) * 2))
        case 2:
            let count = Int(try t.u16(2))
            var lo = 0, hi = count
            while lo < hi {
                let mid = (lo + hi) / 2
                let r = 4 + mid * 6
                let start = try t.u16(r), end = try t.u16(r + 2)
                if end < glyph { lo = mid + 1 } else if start > glyph { hi = mid } else { return Int(try t.u16(r + 4)) }
            }
            return 0
        default:
            return 0
        }
    }
}
