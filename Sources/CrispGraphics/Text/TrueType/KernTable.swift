import Foundation

// The legacy 'kern' table, format 0: sorted (left, right, value) pairs, searched in place.
// Both headers exist in the wild: Microsoft's (16-bit version 0, 16-bit subtable count) and
// Apple's (32-bit version 0x00010000, 32-bit count). Only horizontal, non-cross-stream,
// non-minimum subtables of format 0 are used; their values add up (an "override" subtable
// replaces what came before, as the spec says).

/// Pair kerning from a 'kern' table.
struct KernTable: Sendable {
    private struct Subtable: Sendable {
        var pairs: FontTable
        var pairCount: Int
        var isOverride: Bool
    }

    private var subtables: [Subtable] = []

    var isEmpty: Bool { subtables.isEmpty }

    init(_ t: FontTable) throws(FontError) {
        let isApple = try t.u16(0) == 1
        let count = isApple ? Int(try t.u32(4)) : Int(try t.u16(2))
        var p = isApple ? 8 : 4
        // A subtable header is at least 6 bytes; more subtables than that cannot fit.
        guard count <= t.length / 6 else { throw .invalidValue(table: "kern", field: "nTables", value: count) }
        for _ in 0..<count {
            let length: Int, format: UInt16, usable: Bool, isOverride: Bool, header: Int
            if isApple {
                length = Int(try t.u32(p))
                let coverage = try t.u16(p + 4)
                format = coverage & 0xFF
                usable = coverage & 0xE000 == 0             // not vertical, cross-stream or variation
                isOverride = false
                header = 8
            } else {
                length = Int(try t.u16(p + 2))
                let coverage = try t.u16(p + 4)
                format = coverage >> 8
                usable = coverage & 0x1 != 0 && coverage & 0x6 == 0   // horizontal, not minimum/cross-stream
                isOverride = coverage & 0x8 != 0
                header = 6
            }
            if format == 0 && usable {
                let pairCount = Int(try t.u16(p + header))
                // The 16-bit length overflows for big subtables; trust the pair count, bounded by the table.
                let pairs = try t.slice(p + header + 8, pairCount * 6)
                subtables.append(Subtable(pairs: pairs, pairCount: pairCount, isOverride: isOverride))
                p += max(length, header + 8 + pairCount * 6)
            } else {
                guard length > 0 else { break }
                p += length
            }
        }
    }

    /// The kerning between `left` and `right` in font units (negative brings them closer).
    func kerning(_ left: UInt16, _ right: UInt16) -> Int {
        var total = 0
        let key = UInt32(left) << 16 | UInt32(right)
        for s in subtables {
            var lo = 0, hi = s.pairCount
            var value = 0
            while lo < hi {
                let mid = (lo + hi) / 2
                guard let k = try? s.pairs.u32(mid * 6) else { break }
                if k < key { lo = mid + 1 } else if k > key { hi = mid } else {
                    value = Int((try? s.pairs.i16(mid * 6 + 4)) ?? 0)
                    break
                }
            }
            total = s.isOverride ? value : total + value
        }
        return total
    }
}
