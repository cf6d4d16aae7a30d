// The linear gradient's shader. t = a·x + b·y + c is affine in device pixels, and so is the
// table position of a pixel, u = t·(size − 1) + ½, whose integer part is the entry. u is kept in
// 32.32 fixed point as exact integers, u(x, y) = u0 + ux·x + uy·y, rounded once per draw from
// the double-precision mapping. That buys three things:
//   - A pixel's colour depends on its own coordinates only, not on where its span starts: a row
//     shaded once serves every row of a horizontal gradient (`GradientRow`), and the span splits
//     that clip masks and the rasterizer make change no pixel.
//   - A step along the row is one 64-bit add and the entry a shift; the runs before the plain
//     lookups, the lookups themselves and the runs after them are found by two exact integer
//     divisions per span that reaches an end, not by testing pixels (a span whose two ends are
//     plain lookups is all plain lookups: no division).
//   - Precision: ux and uy are within 2⁻³³ of an entry of the exact slopes, so 2²⁰ pixels from
//     the origin u is within 2⁻¹² of an entry of the exact value — as close as the single
//     precision t it replaced (whose start sum alone rounds by about 2⁻¹³ of an entry near
//     t = 1, and which changed with the span's start). Entries differ by under a quarter of a
//     level, so the two pick different entries only where the exact u is within that of a
//     half, and then an entry whose colour rounds the same or one level apart.
// Fast paths by direction: a vertical gradient (a = 0) is one colour per row (`verticalRows`, blended
// by the compositor as a solid colour); a horizontal one (uy = 0) is shaded once per draw into
// a `GradientRow`, which spans blend straight from (no copy) or copy; any other direction is
// one lookup per pixel in a branch-free run. Gradients the fixed-point form cannot hold exactly
// (shorter than 4 pixels, or whose t at the origin exceeds ±256) take the general per-pixel
// rule in single precision, as every pixel once did.
// Not done: stepping the index in SIMD lanes four or eight pixels at a time — the lookup is a
// gather, one load per pixel on SSE2 whatever computes the index, and the scalar step is
// already one add and one shift (the plain run costs about 5 instructions a pixel by
// callgrind), so lanes would only move indices back out of vector registers; interpolating
// colours in 16-bit lanes instead of the table, which is exact only between two stops and
// costs a multiply per channel where the table costs one load.

/// The axial gradient paint: t is affine in device coordinates. A class, immutable: a span's
/// switch over `Paint` then takes a reference, not a copy of the fields through their value
/// witnesses.
final class LinearGradientPaint {
    let table: GradientTable
    /// t = a·x + b·y + c at a device pixel's centre, in single precision (the end treatment, the
    /// colour of a vertical gradient's rows, gradients outside the fixed-point range).
    let a: Float, b: Float, c: Float
    let extendBefore: Bool, extendAfter: Bool
    /// The table position in fixed point, when the gradient is within its range.
    let fixed: FixedPosition?
    /// A horizontal gradient's colours over the columns drawn, shaded once (see `withRow`).
    let row: GradientRow?
    /// Whether `shade` takes its fixed-point runs (in fixed point, varying along rows, with a
    /// run of plain lookups and a slope): decided once, not per span.
    private let stepsAlongRows: Bool

    /// The table position u = t·(size − 1) + ½ at pixel centres, `fractionBits` fixed point:
    /// u(x, y) = u0 + ux·x + uy·y, and the run of positions that are plain lookups.
    struct FixedPosition {
        let u0: Int64, ux: Int64, uy: Int64
        /// The plain lookups: lo ≤ u ≤ hi (see `init`).
        let lo: Int64, hi: Int64
    }

    static let fractionBits: Int64 = 32
    /// u for t = 0 and t = 1.
    static let start: Int64 = 1 << 31
    static let scale = Double(GradientTable.size - 1) * 4_294_967_296
    /// The largest u whose entry exists.
    static let top: Int64 = Int64(GradientTable.size) << fractionBits - 1
    /// Bounds that keep every sum in range: |ux|, |uy| ≤ 2⁴⁰, |u0| ≤ 2⁵², and spans within
    /// ±2²⁰ pixels of the origin.
    static let slopeLimit: Double = 1_099_511_627_776, offsetLimit: Double = 4_503_599_627_370_496
    static let coordinateLimit = 1 << 20

    /// A gradient with t = a·x + b·y + c at device pixel centres.
    init(table: GradientTable, a: Double, b: Double, c: Double, extendBefore: Bool, extendAfter: Bool) {
        self.table = table
        (self.a, self.b, self.c) = (Float(a), Float(b), Float(c))
        self.extendBefore = extendBefore
        self.extendAfter = extendAfter
        row = nil
        let s = LinearGradientPaint.scale
        let ux = a * s, uy = b * s, u0 = (0.5 * a + 0.5 * b + c) * s + Double(LinearGradientPaint.start)
        let limit = LinearGradientPaint.slopeLimit
        guard abs(ux) <= limit, abs(uy) <= limit, abs(u0) <= LinearGradientPaint.offsetLimit else {
            fixed = nil
            stepsAlongRows = false
            return
        }
        // Without extension, the pixels within half a pixel of an end (t·k < ½ or (1 − t)·k < ½,
        // k the gradient's length in pixels) are partly covered, so not plain.
        let k = 1 / (a * a + b * b).squareRoot()
        let lo = extendBefore ? 0 : max(LinearGradientPaint.start, Int64(((0.5 / k) * s).rounded(.up)) + LinearGradientPaint.start)
        let hi = extendAfter ? LinearGradientPaint.top
            : min(LinearGradientPaint.start + Int64(s), Int64(((1 - 0.5 / k) * s).rounded(.down)) + LinearGradientPaint.start)
        let position = FixedPosition(u0: Int64(u0.rounded()), ux: Int64(ux.rounded()), uy: Int64(uy.rounded()), lo: lo, hi: hi)
        fixed = position
        stepsAlongRows = self.a != 0 && position.lo <= position.hi && position.ux != 0
    }

    /// A gradient from single-precision coefficients.
    convenience init(table: GradientTable, a: Float, b: Float, c: Float, extendBefore: Bool, extendAfter: Bool) {
        self.init(table: table, a: Double(a), b: Double(b), c: Double(c), extendBefore: extendBefore, extendAfter: extendAfter)
    }

    /// `paint` keeping `row`.
    private init(_ paint: LinearGradientPaint, row: GradientRow) {
        table = paint.table
        (a, b, c) = (paint.a, paint.b, paint.c)
        (extendBefore, extendAfter) = (paint.extendBefore, paint.extendAfter)
        fixed = paint.fixed
        stepsAlongRows = paint.stepsAlongRows
        self.row = row
    }

    /// Opaque when every colour is and both ends extend (then no pixel is left unpainted or
    /// faded at an end).
    var isOpaque: Bool { table.isOpaque && extendBefore && extendAfter }

    /// Whether some pixel may be left unpainted (an end that does not extend).
    var mayLeaveUnpainted: Bool { !(extendBefore && extendAfter) }

    /// 1 / |∇t|: converts a difference in t into device pixels.
    var pixelsPerUnit: Float { 1 / (a * a + b * b).squareRoot() }

    /// This paint with its colours over columns `x..<x+count` shaded once, when every row has
    /// the same ones (a horizontal gradient in fixed point); else the paint itself.
    func withRow(x: Int, count: Int) -> LinearGradientPaint {
        guard let fixed, fixed.uy == 0, a != 0, count > 0, count <= LinearGradientPaint.coordinateLimit else { return self }
        let row = GradientRow(x: x, count: count)
        shade(x: x, y: 0, count: count, into: row.pixels)
        return LinearGradientPaint(self, row: row)
    }

    /// The shaded row for pixels `x..<x+count` when this paint keeps one that holds them.
    @inline(__always)
    func keptRow(x: Int, count: Int) -> UnsafePointer<UInt32>? {
        guard let row, x >= row.x, x + count <= row.x + row.count else { return nil }
        return UnsafePointer(row.pixels + (x - row.x))
    }

    /// The colours of pixels `x..<x+count` of row `y`: the kept row when it holds them, else
    /// shaded into `scratch`.
    @inline(__always)
    func sources(x: Int, y: Int, count: Int, scratch: UnsafeMutablePointer<UInt32>) -> UnsafePointer<UInt32> {
        if let kept = keptRow(x: x, count: count) { return kept }
        shade(x: x, y: y, count: count, into: scratch)
        return UnsafePointer(scratch)
    }

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        if let kept = keptRow(x: x, count: count) {
            out.update(from: kept, count: count)
            return
        }
        // |x|, |y| ≤ limit as one unsigned compare each (a span's first checks, paid by every span).
        let limit = LinearGradientPaint.coordinateLimit
        guard stepsAlongRows, UInt(bitPattern: x &+ limit) <= UInt(2 * limit), UInt(bitPattern: y &+ limit) <= UInt(2 * limit),
              count <= limit, let f = fixed else {
            shadeGenerally(x: x, y: y, count: count, into: out)
            return
        }
        let us = f.u0 &+ f.ux &* Int64(x) &+ f.uy &* Int64(y)
        // The plain run is pixels first..<end; those before it are below it (u < lo) when
        // `prefixIsBelow`, else above it (u > hi), in the order the slope gives. u is monotonic
        // along the span, so when both ends are plain every pixel is (the common case, a span
        // within the gradient's reach) and no division is needed.
        let first: Int, end: Int, prefixIsBelow: Bool
        let ue = us &+ f.ux &* Int64(count &- 1)
        if min(us, ue) >= f.lo && max(us, ue) <= f.hi {
            (first, end, prefixIsBelow) = (0, count, true)
        } else {
            let n = Int64(count)
            let below: Int64, above: Int64
            if f.ux > 0 {
                below = min(max(ceilDiv(f.lo &- us, f.ux), 0), n)
                above = n &- min(max(floorDiv(f.hi &- us, f.ux) &+ 1, 0), n)
            } else {
                below = n &- min(max(floorDiv(us &- f.lo, -f.ux) &+ 1, 0), n)
                above = min(max(ceilDiv(us &- f.hi, -f.ux), 0), n)
            }
            let (prefix, suffix) = f.ux > 0 ? (Int(below), Int(above)) : (Int(above), Int(below))
            (first, end, prefixIsBelow) = (prefix, max(count &- suffix, prefix), f.ux > 0)
        }
        fillEnd(below: prefixIsBelow, 0..<first, us: us, step: f.ux, into: out)
        let entries = table.entries
        var u = us &+ f.ux &* Int64(first)
        var i = first
        while i < end {
            out[i] = entries[Int(truncatingIfNeeded: u &>> LinearGradientPaint.fractionBits)]
            u &+= f.ux
            i &+= 1
        }
        fillEnd(below: !prefixIsBelow, end..<count, us: us, step: f.ux, into: out)
    }

    /// `shade` for what its fixed-point runs do not take: every pixel by the general rule, from
    /// the fixed-point position when in range, else in single precision.
    @inline(never)
    private func shadeGenerally(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let limit = LinearGradientPaint.coordinateLimit
        guard let f = fixed, a != 0, abs(x) <= limit, abs(y) <= limit, count <= limit else {
            shadePerPixel(x: x, y: y, count: count, into: out)
            return
        }
        let us = f.u0 &+ f.ux &* Int64(x) &+ f.uy &* Int64(y)
        for i in 0..<count { out[i] = color(at: us &+ f.ux &* Int64(i)) }
    }

    /// Pixels `range` beyond one end of the plain run (`below`: u < lo, else u > hi): the end
    /// colour when that end extends, else the general rule per pixel.
    @inline(__always)
    private func fillEnd(below: Bool, _ range: Range<Int>, us: Int64, step: Int64, into out: UnsafeMutablePointer<UInt32>) {
        guard !range.isEmpty else { return }
        if below ? extendBefore : extendAfter {
            (out + range.lowerBound).update(repeating: table.entries[below ? 0 : GradientTable.size - 1], count: range.count)
        } else {
            for i in range { out[i] = color(at: us &+ step &* Int64(i)) }
        }
    }

    /// The general rule at table position `u`: a lookup, faded within half a pixel of an end
    /// that does not extend (coverage of a half-plane at signed distance s is ½ + s), the end
    /// colour beyond an end that does, else unpainted. What `shade` gives every pixel of a
    /// gradient in the fixed-point range.
    func color(at u: Int64) -> UInt32 {
        let f = fixed!
        let t = Float(Double(u &- LinearGradientPaint.start) / LinearGradientPaint.scale)
        let k = pixelsPerUnit
        let entries = table.entries
        if u >= LinearGradientPaint.start && u <= LinearGradientPaint.start &+ Int64(LinearGradientPaint.scale) {
            var color = entries[Int(truncatingIfNeeded: u &>> LinearGradientPaint.fractionBits)]
            if !extendBefore, u < f.lo { color = Pixel.scale(color, by: LinearGradientPaint.fade(0.5 + t * k)) }
            if !extendAfter, u > f.hi { color = Pixel.scale(color, by: LinearGradientPaint.fade(0.5 + (1 - t) * k)) }
            return color
        }
        return beyondEnds(t: t, k: k)
    }

    /// The colour at `t` outside 0…1: the end colour when that end extends, faded within half a
    /// pixel of it otherwise, else unpainted.
    @inline(__always)
    private func beyondEnds(t: Float, k: Float) -> UInt32 {
        LinearGradientPaint.beyondEnds(t: t, entries: table.entries, k: k, extendBefore: extendBefore, extendAfter: extendAfter)
    }

    @inline(__always)
    private static func beyondEnds(t: Float, entries: UnsafeMutablePointer<UInt32>, k: Float,
                                   extendBefore: Bool, extendAfter: Bool) -> UInt32 {
        if t < 0 {
            let s = -t * k
            let first = entries[0]
            return extendBefore ? first : (s < 0.5 ? Pixel.scale(first, by: fade(0.5 - s)) : Pixel.unpainted)
        }
        let s = (t - 1) * k
        let last = entries[GradientTable.size - 1]
        return extendAfter ? last : (s < 0.5 ? Pixel.scale(last, by: fade(0.5 - s)) : Pixel.unpainted)
    }

    /// The general rule in single precision at `t` (gradients outside the fixed-point range,
    /// vertical rows): a lookup, faded within half a pixel of an end that does not extend.
    static func color(at t: Float, entries: UnsafeMutablePointer<UInt32>, k: Float,
                      extendBefore: Bool, extendAfter: Bool) -> UInt32 {
        guard t >= 0 && t <= 1 else {
            return beyondEnds(t: t, entries: entries, k: k, extendBefore: extendBefore, extendAfter: extendAfter)
        }
        var color = entries[Int(t * Float(GradientTable.size - 1) + 0.5)]
        if !extendBefore, t * k < 0.5 { color = Pixel.scale(color, by: fade(0.5 + t * k)) }
        if !extendAfter, (1 - t) * k < 0.5 { color = Pixel.scale(color, by: fade(0.5 + (1 - t) * k)) }
        return color
    }

    /// A coverage in 0…1 as a factor 0…255, clamped: a gradient whose unit is more than ~10¹⁹
    /// pixels long has an infinite `pixelsPerUnit` (its a² + b² underflows), and the coverage
    /// of a pixel at its start is then ∞ or NaN (0 · ∞), which `UInt32(_:)` traps on. NaN gives
    /// 0. Every coverage in 0…1 gives the factor it always gave.
    @inline(__always)
    private static func fade(_ coverage: Float) -> UInt32 {
        let v = coverage * 255 + 0.5
        return v >= 1 ? (v < 255 ? UInt32(v) : 255) : 0
    }

    /// Every pixel through the general rule in single precision (gradients outside the
    /// fixed-point range, vertical gradients).
    private func shadePerPixel(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let start = a * (Float(x) + 0.5) + b * (Float(y) + 0.5) + c
        let k = pixelsPerUnit
        for i in 0..<count {
            out[i] = LinearGradientPaint.color(at: start + a * Float(i), entries: table.entries, k: k,
                                               extendBefore: extendBefore, extendAfter: extendAfter)
        }
    }

    /// The colours of a vertical gradient's rows (`a == 0`), nil for any other direction.
    var verticalRows: VerticalGradientRows? {
        a == 0 ? VerticalGradientRows(entries: table.entries, b: b, c: c, pixelsPerUnit: pixelsPerUnit,
                                      extendBefore: extendBefore, extendAfter: extendAfter) : nil
    }
}

/// A vertical gradient's colour per row, in plain values (no references), so the compositor
/// keeps it and asks it per span without copying the paint (which cost a `memcpy` and a
/// retain and release per span).
struct VerticalGradientRows {
    let entries: UnsafeMutablePointer<UInt32>
    let b: Float, c: Float, pixelsPerUnit: Float
    let extendBefore: Bool, extendAfter: Bool

    /// What `LinearGradientPaint.shade` gives every pixel of row `y` (a·(x + ½) is ±0 there, so
    /// every pixel's t is the row's).
    @inline(__always)
    func color(y: Int) -> UInt32 {
        let t = b * (Float(y) + 0.5) + c
        let k = pixelsPerUnit
        if t >= 0 && t <= 1 && (extendBefore || t * k >= 0.5) && (extendAfter || (1 - t) * k >= 0.5) {
            return entries[Int(t * Float(GradientTable.size - 1) + 0.5)]
        }
        return LinearGradientPaint.color(at: t, entries: entries, k: k, extendBefore: extendBefore, extendAfter: extendAfter)
    }
}

/// A horizontal gradient's colours over the columns a draw covers, shaded once and shared by
/// its rows.
final class GradientRow {
    /// The first column and the number of columns.
    let x: Int, count: Int
    let pixels: UnsafeMutablePointer<UInt32>

    init(x: Int, count: Int) {
        self.x = x
        self.count = count
        pixels = .allocate(capacity: count)
    }

    deinit { pixels.deallocate() }
}

/// ⌊n / d⌋ for d > 0.
@inline(__always)
private func floorDiv(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    return n % d < 0 ? q &- 1 : q
}

/// ⌈n / d⌉ for d > 0.
@inline(__always)
private func ceilDiv(_ n: Int64, _ d: Int64) -> Int64 {
    let q = n / d
    return n % d > 0 ? q &+ 1 : q
}
