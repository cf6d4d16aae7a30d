// PNG's five scanline filters (PNG spec §9), shared by the encoder and the decoder.
//
// A filter replaces each byte x of a scanline by a difference against its neighbours:
//
//     a = byte one pixel to the left, b = byte above, c = byte above-left (0 outside the image)
//     None:    x            Sub:   x − a           Up:    x − b
//     Average: x − ⌊(a + b) / 2⌋                  Paeth: x − paeth(a, b, c)
//
// all modulo 256, where "one pixel" is the filter's byte distance: the bytes per complete pixel,
// at least 1 for bit depths below 8. The encoder picks a filter per row with the heuristic
// the PNG spec and libpng recommend: try all five and keep the one whose output, read as
// signed bytes, has the smallest sum of absolute values (small deltas compress well). The
// rejected alternative, brute-force compressing every candidate row, costs a deflate per
// filter per row for a gain of a few percent.
//
// The loops run on raw pointers with wrapping arithmetic; the previous row is always a real
// row (all zeros above the first row), so there is no branch on "first row" inside them.

/// A PNG scanline filter type (the byte that starts every scanline).
enum PNGFilter: UInt8, CaseIterable {
    case none = 0, sub, up, average, paeth

    /// The Paeth predictor: whichever of `a`, `b`, `c` is closest to `a + b − c`
    /// (ties prefer `a`, then `b`).
    @inline(__always)
    static func paethPredictor(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int(a), ib = Int(b), ic = Int(c)
        let pa = abs(ib - ic), pb = abs(ia - ic), pc = abs(ia + ib - 2 * ic)
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    /// Reverses this filter in place on `count` bytes of `row`, given the unfiltered `prior` row.
    ///
    /// - Parameter distance: bytes per complete pixel, at least 1.
    func unfilter(_ row: UnsafeMutablePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, distance: Int) {
        let lead = min(distance, count)
        switch self {
        case .none:
            break
        case .sub:
            var i = distance
            while i < count { row[i] = row[i] &+ row[i - distance]; i += 1 }
        case .up:
            for i in 0..<count { row[i] = row[i] &+ prior[i] }
        case .average:
            for i in 0..<lead { row[i] = row[i] &+ prior[i] >> 1 }
            var i = distance
            while i < count {
                row[i] = row[i] &+ UInt8((UInt16(row[i - distance]) + UInt16(prior[i])) >> 1)
                i += 1
            }
        case .paeth:
            for i in 0..<lead { row[i] = row[i] &+ prior[i] }
            var i = distance
            while i < count {
                row[i] = row[i] &+ Self.paethPredictor(row[i - distance], prior[i], prior[i - distance])
                i += 1
            }
        }
    }

    /// Writes this filter applied to `row` (with `prior` above it) into `output`, and returns
    /// the sum of the output bytes' magnitudes read as signed bytes — the selection heuristic.
    ///
    /// - Parameter distance: bytes per complete pixel, at least 1.
    func filter(_ row: UnsafePointer<UInt8>, prior: UnsafePointer<UInt8>, count: Int, distance: Int,
                into output: UnsafeMutablePointer<UInt8>) -> Int {
        let lead = min(distance, count)
        switch self {
        case .none:
            for i in 0..<count { output[i] = row[i] }
        case .sub:
            for i in 0..<lead { output[i] = row[i] }
            var i = distance
            while i < count { output[i] = row[i] &- row[i - distance]; i += 1 }
        case .up:
            for i in 0..<count { output[i] = row[i] &- prior[i] }
        case .average:
            for i in 0..<lead { output[i] = row[i] &- prior[i] >> 1 }
            var i = distance
            while i < count {
                output[i] = row[i] &- UInt8((UInt16(row[i - distance]) + UInt16(prior[i])) >> 1)
                i += 1
            }
        case .paeth:
            for i in 0..<lead { output[i] = row[i] &- prior[i] }
            var i = distance
            while i < count {
                output[i] = row[i] &- Self.paethPredictor(row[i - distance], prior[i], prior[i - distance])
                i += 1
            }
        }
        var sum = 0
        for i in 0..<count { sum &+= Int(Int8(bitPattern: output[i]).magnitude) }
        return sum
    }
}
