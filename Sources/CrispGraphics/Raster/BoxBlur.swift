import Foundation

// Gaussian blur of an 8-bit mask by three successive box blurs in each direction, which
// approximates a Gaussian of standard deviation σ within a few percent (central limit). The box
// size follows the SVG filter specification (feGaussianBlur):
//     d = ⌊σ · 3·√(2π)/4 + 0.5⌋
// odd d: three centred boxes of size d; even d: two boxes of size d offset half a pixel left and
// right, then one centred box of size d + 1. Each pass is a running sum, so the cost per pixel
// does not depend on σ. Rejected: a true Gaussian kernel (cost grows with σ) and recursive IIR
// Gaussians (more arithmetic per pixel, and ringing in 8 bits).

enum BoxBlur {
    /// The largest σ honoured (device pixels); larger blurs are clamped. At this size the
    /// shadow is already spread over thousands of pixels.
    static let maximumSigma: CGFloat = 512

    /// One pass: the window covers `x − left … x + right`.
    struct Pass: Equatable { var left: Int, right: Int }

    /// The three passes for σ (none below about σ = 0.22, where d = 0).
    static func passes(sigma: CGFloat) -> [Pass] {
        guard sigma.isFinite, sigma > 0 else { return [] }
        let s = min(sigma, maximumSigma)
        let d = Int((s * 3 * (2 * CGFloat.pi).squareRoot() / 4 + 0.5).rounded(.down))
        guard d > 0 else { return [] }
        if d % 2 == 1 {
            let r = (d - 1) / 2
            return Array(repeating: Pass(left: r, right: r), count: 3)
        }
        return [Pass(left: d / 2, right: d / 2 - 1), Pass(left: d / 2 - 1, right: d / 2), Pass(left: d / 2, right: d / 2)]
    }

    /// How far, in pixels, the passes spread coverage in either direction.
    static func reach(sigma: CGFloat) -> Int {
        passes(sigma: sigma).reduce(0) { $0 + max($1.left, $1.right) }
    }

    /// Blurs `mask` in place (zero outside its bounds).
    static func blur(_ mask: ClipMask, sigma: CGFloat) {
        let passes = passes(sigma: sigma)
        guard !passes.isEmpty else { return }
        let w = mask.bounds.width, h = mask.bounds.height
        guard w > 0, h > 0 else { return }
        let line = UnsafeMutablePointer<UInt8>.allocate(capacity: max(w, h))
        defer { line.deallocate() }
        // Horizontal passes, row by row.
        for y in 0..<h {
            let row = mask.data + y * w
            for p in passes { boxLine(row, stride: 1, count: w, pass: p, scratch: line) }
        }
        // Vertical passes, column by column through a contiguous copy of the column.
        let column = UnsafeMutablePointer<UInt8>.allocate(capacity: h)
        defer { column.deallocate() }
        for x in 0..<w {
            for y in 0..<h { column[y] = mask.data[y * w + x] }
            for p in passes { boxLine(column, stride: 1, count: h, pass: p, scratch: line) }
            for y in 0..<h { mask.data[y * w + x] = column[y] }
        }
    }

    /// One box pass over `count` values: out[i] = mean(in[i − left … i + right]), zero outside.
    @inline(__always)
    private static func boxLine(_ values: UnsafeMutablePointer<UInt8>, stride: Int, count: Int, pass: Pass,
                                scratch: UnsafeMutablePointer<UInt8>) {
        let n = UInt32(pass.left + pass.right + 1)
        // Fixed-point reciprocal: (sum · inv + half) >> 24 == round(sum / n) for sums below 2^16·n.
        let inv = (UInt32(1) << 24) / n + 1
        scratch.update(from: values, count: count)
        var sum: UInt32 = 0
        // Prime the window for index 0: values 0 … right.
        for i in 0...min(pass.right, count - 1) { sum &+= UInt32(scratch[i]) }
        for i in 0..<count {
            values[i] = UInt8(truncatingIfNeeded: (UInt64(sum) * UInt64(inv) + (1 << 23)) >> 24)
            let entering = i + pass.right + 1, leaving = i - pass.left
            if entering < count { sum &+= UInt32(scratch[entering]) }
            if leaving >= 0 { sum &-= UInt32(scratch[leaving]) }
        }
    }
}
