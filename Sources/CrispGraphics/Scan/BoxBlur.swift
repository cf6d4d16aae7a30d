import Foundation

// Gaussian blur of an 8-bit mask by three successive box blurs in each direction, which
// approximates a Gaussian of standard deviation σ within a few percent (central limit). The box
// size follows the SVG filter specification (feGaussianBlur):
//     d = ⌊σ · 3·√(2π)/4 + 0.5⌋
// odd d: three centred boxes of size d; even d: two boxes of size d offset half a pixel left and
// right, then one centred box of size d + 1. Each pass is a running sum, so the cost per pixel
// does not depend on σ. Rejected: a true Gaussian kernel (cost grows with σ) and recursive IIR
// Gaussians (more arithmetic per pixel, and ringing in 8 bits).
//
// Horizontal passes run along each row through zero-padded line buffers (no bounds tests in the
// loop). Vertical passes keep one running sum per column and advance every column a row at a
// time: each step reads and writes whole contiguous rows, which vectorizes, where walking one
// column at a time would stride through memory (rejected: copying each column out and back).
// Every pass rounds its mean to 8 bits exactly as a plain division would (see `Divider`).

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
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: w * h)
        defer { scratch.deallocate() }
        // Horizontal passes, row by row, from `mask` into `scratch`.
        blurRows(mask.data, into: scratch, width: w, height: h, passes: passes)
        // Vertical passes, a whole row of columns at a time, ping-ponging between the two
        // buffers so the last pass lands back in `mask`.
        let sums = UnsafeMutablePointer<UInt32>.allocate(capacity: w)
        let zero = UnsafeMutablePointer<UInt8>.allocate(capacity: w)
        defer { sums.deallocate(); zero.deallocate() }
        zero.initialize(repeating: 0, count: w)
        var (source, target) = (scratch, mask.data)
        for p in passes {
            blurColumns(source, into: target, width: w, height: h, pass: p, sums: sums, zero: zero)
            swap(&source, &target)
        }
        if source != mask.data { mask.data.update(from: source, count: w * h) }
    }

    /// A window sum's mean in fixed point: for n = left + right + 1,
    ///
    ///     mean = (sum · inv + 2²³) >> 24,   inv = ⌊2²⁴ / n⌋ + 1
    ///
    /// which is round(sum / n) for boxes narrower than 195 and, for wider ones, sometimes one
    /// above it (the shadow goldens encode exactly this rounding). For every sum a window can
    /// hold (≤ 255·n) the product stays below 255·2²⁴ + 255·n + 2²³ < 2³² when n ≤ 32 768, so
    /// 32-bit arithmetic gives the same result as 64-bit, and 32-bit lanes vectorize.
    struct Divider {
        let inv: UInt32
        init(_ pass: Pass) {
            let n = UInt32(pass.left + pass.right + 1)
            precondition(n <= 32_768, "box too wide for 32-bit window sums")
            inv = (UInt32(1) << 24) / n + 1
        }
        @inline(__always)
        func mean(_ sum: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (sum &* inv &+ (1 << 23)) >> 24) }
    }

    /// The horizontal passes over every row of `source`, results in `target` (`width × height`
    /// bytes each). Each row goes through zero-padded line buffers, so the window's running sum
    /// needs no bounds tests.
    private static func blurRows(_ source: UnsafeMutablePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                                 width w: Int, height h: Int, passes: [Pass]) {
        let pad = passes.reduce(0) { max($0, $1.left, $1.right + 1) }
        let lineLength = pad + w + pad
        let lines = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * lineLength)
        defer { lines.deallocate() }
        lines.initialize(repeating: 0, count: 2 * lineLength)
        var a = lines + pad, b = lines + lineLength + pad
        for y in 0..<h {
            a.update(from: source + y * w, count: w)
            for (k, p) in passes.enumerated() {
                let out = k == passes.count - 1 ? target + y * w : b
                boxLine(a, into: out, count: w, pass: p)
                swap(&a, &b)
            }
        }
    }

    /// One box pass along a line: out[i] = mean(values[i − left … i + right]). `values` must be
    /// readable, and zero, for `left` entries before and `right + 1` after its `count`.
    @inline(__always)
    private static func boxLine(_ values: UnsafeMutablePointer<UInt8>, into out: UnsafeMutablePointer<UInt8>,
                                count: Int, pass: Pass) {
        let divider = Divider(pass)
        var sum: UInt32 = 0
        // Prime the window for index 0: values −left … right (the ones before 0 are zero).
        for i in 0...pass.right { sum &+= UInt32(values[i]) }
        let entering = values + pass.right + 1, leaving = values - pass.left
        for i in 0..<count {
            out[i] = divider.mean(sum)
            sum = sum &+ UInt32(entering[i]) &- UInt32(leaving[i])
        }
    }

    /// One vertical box pass over whole rows: every column's window sum lives in `sums`, and
    /// each output row is computed across all columns at once (contiguous, vectorizable), in
    /// place of copying columns out and back.
    private static func blurColumns(_ source: UnsafeMutablePointer<UInt8>, into target: UnsafeMutablePointer<UInt8>,
                                    width w: Int, height h: Int, pass: Pass,
                                    sums: UnsafeMutablePointer<UInt32>, zero: UnsafeMutablePointer<UInt8>) {
        let divider = Divider(pass)
        sums.initialize(repeating: 0, count: w)
        for y in 0...min(pass.right, h - 1) {
            let row = source + y * w
            for x in 0..<w { sums[x] &+= UInt32(row[x]) }
        }
        for y in 0..<h {
            let out = target + y * w
            let entering = y + pass.right + 1 < h ? source + (y + pass.right + 1) * w : zero
            let leaving = y - pass.left >= 0 ? source + (y - pass.left) * w : zero
            for x in 0..<w {
                let s = sums[x]
                out[x] = divider.mean(s)
                sums[x] = s &+ UInt32(entering[x]) &- UInt32(leaving[x])
            }
        }
    }
}
