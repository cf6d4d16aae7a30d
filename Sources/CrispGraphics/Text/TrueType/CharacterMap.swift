import Foundation

// The 'cmap' table maps Unicode scalars to glyph indices. Of its many subtable formats, two cover
// every modern font: format 4 (segments of the Basic Multilingual Plane, with a delta or an
// index array per segment) and format 12 (sequential groups over all of Unicode). Both are
// looked up in place by binary search, so opening a font costs nothing per character, and every
// read is bounds-checked: a lying segment or group count is caught when the table is opened, a
// lying range offset gives glyph 0 (.notdef).

/// A font's Unicode character map (format 12 preferred, else format 4).
struct CharacterMap: Sendable {
    private enum Subtable: Sendable {
        case segmented(FontTable, segmentCount: Int)      // format 4
        case groups(FontTable, groupCount: Int)           // format 12
    }

    private let subtable: Subtable
    private let glyphCount: Int

    init(_ cmap: FontTable, glyphCount: Int) throws(FontError) {
        self.glyphCount = glyphCount
        let count = Int(try cmap.u16(2))
        try cmap.require(4, count * 8)
        // Unicode subtables, best first: full repertoire (3,10)/(0,4…6), then BMP (3,1)/(0,0…3).
        var best: (rank: Int, subtable: Subtable)?
        for i in 0..<count {
            let platform = try cmap.u16(4 + i * 8), encoding = try cmap.u16(6 + i * 8)
            let offset = Int(try cmap.u32(8 + i * 8))
            let isFull = (platform == 3 && encoding == 10) || (platform == 0 && (4...6).contains(encoding))
            let isBMP = (platform == 3 && encoding == 1) || (platform == 0 && encoding <= 3)
            guard isFull || isBMP else { continue }
            let data = try cmap.tail(from: offset)
            let format = try data.u16(0)
            let rank: Int
            let sub: Subtable
            switch format {
            case 12:
                let groups = Int(try data.u32(12))
                try data.require(16, groups * 12)
                rank = isFull ? 4 : 3
                sub = .groups(data, groupCount: groups)
            case 4:
                let segments = Int(try data.u16(6)) / 2
                guard segments > 0 else { throw .invalidValue(table: "cmap", field: "format 4 segCountX2", value: 0) }
                try data.require(16, segments * 8)
                rank = isFull ? 2 : 1
                sub = .segmented(data, segmentCount: segments)
            default:
                continue
            }
            if rank > (best?.rank ?? 0) { best = (rank, sub) }
        }
        guard let best else { throw .invalidValue(table: "cmap", field: "Unicode subtables of format 4 or 12", value: 0) }
        subtable = best.subtable
    }

    /// The glyph for `scalar`, 0 (.notdef) when the font has none.
    func glyph(for scalar: Unicode.Scalar) -> UInt16 {
        let g = (try? lookup(scalar.value)) ?? 0
        return Int(g) < glyphCount ? g : 0
    }

    private func lookup(_ c: UInt32) throws(FontError) -> UInt16 {
        switch subtable {
        case .groups(let t, let n):
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                let g = 16 + mid * 12
                let start = try t.u32(g), end = try t.u32(g + 4)
                if c < start { hi = mid } else if c > end { lo = mid + 1 } else {
                    let glyph = UInt64(try t.u32(g + 8)) + UInt64(c - start)
                    return glyph <= 0xFFFF ? UInt16(glyph) : 0
                }
            }
            return 0
        case .segmented(let t, let n):
            guard c <= 0xFFFF else { return 0 }
            // First segment whose end code is >= c.
            var lo = 0, hi = n
            while lo < hi {
                let mid = (lo + hi) / 2
                if UInt32(try t.u16(14 + mid * 2)) < c { lo = mid + 1 } else { hi = mid }
            }
            guard lo < n else { return 0 }
            let start = UInt32(try t.u16(16 + n * 2 + lo * 2))
            guard start <= c else { return 0 }
            let delta = try t.u16(16 + n * 4 + lo * 2)
            let rangeOffsetPosition = 16 + n * 6 + lo * 2
            let rangeOffset = Int(try t.u16(rangeOffsetPosition))
            if rangeOffset == 0 { return UInt16(truncatingIfNeeded: c) &+ delta }
            // idRangeOffset counts bytes from its own position to the glyph index array entry.
            let g = try t.u16(rangeOffsetPosition + rangeOffset + Int(c - start) * 2)
            return g == 0 ? 0 : g &+ delta
        }
    }
}
