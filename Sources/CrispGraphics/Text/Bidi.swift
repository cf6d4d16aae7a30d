import CFribidi

// Bidirectional text: the Unicode Bidirectional Algorithm (UAX #9) through GNU FriBidi, which
// resolves each character's embedding level (rules P2–I2, brackets included, and L1's reset of
// separators and trailing white space). Crisp then does L2 itself over runs, not characters:
// a line is cut into runs of one level (and one face), each run is shaped by HarfBuzz in its
// own direction (HarfBuzz returns an RTL run's glyphs in visual order and mirrors brackets), and
// the runs are put in visual order by reversing, from the highest level down to the lowest odd
// one, every stretch of runs at that level or higher.
//
// Most lines have no right-to-left character at all: `mayNeedReordering` is a scan for the
// code-point blocks that hold every R/AL/AN character and explicit bidi control, so such lines
// (and every ASCII line) never reach FriBidi.

enum Bidi {
    /// Whether `scalar` may be right to left or a bidi control: Hebrew through the Arabic
    /// extended blocks, the bidi marks and controls, the Hebrew/Arabic presentation forms and
    /// the right-to-left astral blocks. A superset: FriBidi decides.
    @inline(__always)
    static func mayNeedReordering(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x0590 { return false }
        return v <= 0x08FF || (0x200E...0x200F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }

    /// The resolved levels of a one-line paragraph.
    struct Levels {
        /// One level per scalar (even: left to right, odd: right to left).
        var levels: [UInt8]
        /// Scalars that are explicit embeddings, overrides or isolates (removed by rule X9:
        /// not drawn).
        var isControl: [Bool]
        /// The paragraph's resolved direction.
        var baseIsRightToLeft: Bool
    }

    /// FriBidi's levels for `scalars` as one paragraph. `direction` nil: the paragraph takes the
    /// direction of its first strong character (P2, P3), left to right if none. Nil when every
    /// level is 0 and nothing is a control (the line is drawn in logical order as one run), or
    /// when FriBidi fails.
    static func levels(_ scalars: [Unicode.Scalar], direction: TextDirection?) -> Levels? {
        let n = scalars.count
        guard n > 0, n < Int(Int32.max) else { return nil }
        let codes = scalars.map { $0.value }
        var types = [FriBidiCharType](repeating: FRIBIDI_TYPE_LTR, count: n)
        codes.withUnsafeBufferPointer { fribidi_get_bidi_types($0.baseAddress, FriBidiStrIndex(n), &types) }
        let special = crisp_fribidi_mask_rtl | crisp_fribidi_mask_explicit_or_isolate
        if direction != .rightToLeft, !types.contains(where: { $0.rawValue & special != 0 }) { return nil }
        var brackets = [FriBidiBracketType](repeating: 0, count: n)
        codes.withUnsafeBufferPointer { fribidi_get_bracket_types($0.baseAddress, FriBidiStrIndex(n), types, &brackets) }
        var base: FriBidiParType = switch direction {
        case .leftToRight: FRIBIDI_PAR_LTR
        case .rightToLeft: FRIBIDI_PAR_RTL
        case nil: FRIBIDI_PAR_ON
        }
        var levels = [FriBidiLevel](repeating: 0, count: n)
        let maxLevel = fribidi_get_par_embedding_levels_ex(types, brackets, FriBidiStrIndex(n), &base, &levels)
        guard maxLevel > 0 else { return nil }
        let isControl = types.map { $0.rawValue & crisp_fribidi_mask_explicit_or_isolate != 0 }
        let baseRTL = base.rawValue & crisp_fribidi_mask_rtl != 0
        if !baseRTL, maxLevel == 1, !isControl.contains(true) { return nil }
        return Levels(levels: levels.map { UInt8(clamping: Int($0)) }, isControl: isControl, baseIsRightToLeft: baseRTL)
    }

    /// The visual order of runs with these levels (rule L2): indices into `levels`, left to right.
    static func visualOrder(_ levels: [UInt8]) -> [Int] {
        var order = Array(levels.indices)
        guard let highest = levels.max(), let lowestOdd = levels.filter({ $0 & 1 == 1 }).min() else { return order }
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < order.count {
                guard levels[order[i]] >= level else { i += 1; continue }
                var j = i
                while j < order.count, levels[order[j]] >= level { j += 1 }
                order[i..<j].reverse()
                i = j
            }
            if level == 0 { break }
            level -= 1
        }
        return order
    }
}
