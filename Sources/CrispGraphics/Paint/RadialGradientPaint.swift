// The radial gradient's shader. A pixel p takes the largest t whose circle, centre c0 + t·dc and
// radius r0 + t·dr ≥ 0, passes through it: the larger root of a·t² − 2b·t + c = 0 with
// a = |dc|² − dr², b = (p − c0)·dc + r0·dr, c = |p − c0|² − r0², that is t = (b ± √(b² − a·c)) / a.
// Two shapes are common and have their own loops:
//   - Concentric circles (dc = 0, the glows, dials and spots of UI): t = (|p − c0| − r0) / dr,
//     in single precision, four pixels a step, with the offsets stepped from a fixed column so a
//     pixel's colour does not depend on where its span starts (`shadeConcentric`).
//   - Two circles (SVG's focal points): the quadratic in double precision, four pixels a step
//     (`shadeTwoCircles`). Single precision misses the exact table entry near the focal point,
//     where b² and a·c nearly cancel, so the square root stays a `sqrtpd`.
// Both loops first decide, for four pixels at once, whether the plain rule serves all of them:
// the root exists and is finite, its radius is not negative, and t lies where the table reaches
// (anywhere, when both ends extend — the padded gradients SVG and UIKit draw). Then the table
// position t·(size − 1) + ½ is clamped and truncated in the vector registers (exactly, by the
// 2²³ bias, see `lookUp`) and each pixel is one load: the same entries as the per-pixel rule,
// which chose between the roots, compared t against both ends and converted it to an index one
// pixel at a time (20–35 instructions a pixel for that part alone, by callgrind). The rare group that fails the test — a pixel
// outside the painted cone, a radius just below 0 by rounding, a non-finite root — takes the
// per-pixel rule (`color(x:y:)`, `concentricColor`), so every pixel is exactly what that rule
// gives (`GradientTests.radialSpansMatchThePerPixelRule`). The one to three pixels after the
// last group of a two-circle span take the same test and lookup one lane at a time, the
// per-pixel rule only where it fails: most spans of a clipped shape's edges are that short,
// and `rootColor` (both roots, `pick`, `accept`) cost about 80 instructions a pixel there
// (callgrind, `gradients`: two-circle shading 1.69 → 1.64 M a render).
// Of the two roots only the larger is computed: for a < 0 (the start circle inside the end
// circle, every SVG radial gradient) it is (b − √…) / a, for a > 0 (b + √…) / a — one
// division where max((b + s) / a, (b − s) / a) took two, with the same result bit for bit
// (rounding is monotonic, so the order of b − s and b + s survives the division).
// Measured and not kept: t as (b ± s) · (1 / a) instead of a division (`crisp bench paint`'s
// two-circle gradient 142 Mpx/s either way: the loop is not bound by `divpd`); the last,
// partial group of a span shaded in the vector loop with its missing lanes masked, or as an
// overlapping group (callgrind: more instructions on the `gradients` scene, not fewer).
// Where the CPU has AVX2 both loops have twins in C (CCrispKernels/GradientAVX2.c, driven by
// `runKernel` and `GradientKernel`) that take eight pixels a step, four doubles a register for
// the quadratic, gather the eight entries, and under source-over blend them in the same step
// (`blendOver`, which the compositor calls before shading into its scratch row): the same
// pixels, bit for bit (`GradientKernelTests`); `gradients` 1.02 → 0.93 ms a render (docs/performance.md,
// "After branch `gradfuse`"). A step with a pixel the plain rule does not serve is left to the loops
// here.
// Rejected unbuilt: a forward-differenced discriminant (b² − a·c is quadratic in x, so two adds
// a pixel) with an integer square root — the differences accumulate rounding from the span's
// start, so pixels would depend on span splits (the clip-mask and path-coverage paths split
// differently); single precision throughout (loses the exact entry near the focal point).
// What single precision can do is find the entry and prove it: SVG's two-circle gradients
// (a focal point inside the end circle, padded both ways: every pixel has its root) go, with
// AVX2, through the focal kernel (`focalKernel`, GradientAVX2.c), which computes t in single
// precision eight lanes a register, bounds its distance from the double-precision t above,
// and takes a step's entries only where both ends of that interval give the same entry; other
// steps (about 4 in 100 in the `gradients` scene) take the two-circle kernel's double
// precision. The same pixels, bit for bit (`GradientKernelTests+Focal`), without the two
// `vsqrtpd` and two `vdivpd` a step: `gradients` 0.658 → 0.612 ms a render, with the prefetch
// of the compositor's next row (docs/performance.md, "After branch `grad4`").

import CCrispKernels
import Foundation

/// The two-circle radial gradient paint: circles interpolate from (c0, r0) at t = 0 to
/// (c1, r1) at t = 1; a pixel takes the largest t whose circle passes through it with a radius
/// of at least 0, within the extension allowed (PDF type 3 shading, also the canvas model).
/// A class, immutable, for the reason `LinearGradientPaint` gives.
final class RadialGradientPaint {
    let table: GradientTable
    /// Raster pixel → gradient (user) space.
    let toUser: CGAffineTransform
    let c0: CGPoint, r0: CGFloat
    let dc: CGPoint, dr: CGFloat
    let extendBefore: Bool, extendAfter: Bool
    /// The device column nearest the centre of concentric circles: their offsets are stepped
    /// from it (see `shadeConcentric`).
    let anchorX: Int
    /// The quadratic's a = |dc|² − dr².
    let a: CGFloat
    /// Whether every pixel has a colour: both ends extend, and the circles are concentric or
    /// the start circle is a point inside the end circle (a < 0, r0 = 0), so that each pixel
    /// lies on exactly one circle of radius ≥ 0. The per-pixel rule then never leaves a pixel
    /// unpainted (see `color(x:y:)`), and the compositor skips its scan for unpainted runs.
    let paintsEverywhere: Bool
    /// Which loop shades a span.
    private let shape: Shape
    /// The AVX2 kernels' parameters that no span changes (GradientAVX2.c); `runKernel` fills in
    /// the row's and the column's.
    private let concentricKernel: crisp_concentric
    private let twoCirclesKernel: crisp_two_circles
    /// SVG's focal shape (a point inside the end circle, padded both ways): the single-precision
    /// kernel's parameters (GradientAVX2.c, "The focal kernel"), allocated once so that a span
    /// passes a pointer and copies no parameter block; nil for any other shape.
    private let focalKernel: UnsafeMutablePointer<crisp_focal>?

    /// The gradient's shape, as the shading loops tell them apart.
    private enum Shape {
        /// dc = 0 with a finite 1 / dr: `shadeConcentric`.
        case concentric
        /// a = 0 (one circle touches the other's edge from inside): `shadePerPixel`.
        case touching
        /// Any other: `shadeTwoCircles`.
        case twoCircles
    }

    init(table: GradientTable, toUser: CGAffineTransform, c0: CGPoint, r0: CGFloat, dc: CGPoint, dr: CGFloat,
         extendBefore: Bool, extendAfter: Bool) {
        self.table = table
        self.toUser = toUser
        (self.c0, self.r0, self.dc, self.dr) = (c0, r0, dc, dr)
        self.extendBefore = extendBefore
        self.extendAfter = extendAfter
        a = dc.x * dc.x + dc.y * dc.y - dr * dr
        paintsEverywhere = extendBefore && extendAfter && ((dc == .zero && (1 / Float(dr)).isFinite) || (a <= -1e-9 && r0 == 0))
        let centre = c0.applying(toUser.inverted()).x
        anchorX = centre.isFinite && abs(centre) < 16_777_216 ? Int(centre.rounded(.down)) : 0
        shape = dc == .zero && (1 / Float(dr)).isFinite ? .concentric : (abs(a) < 1e-9 ? .touching : .twoCircles)
        let top = RadialGradientPaint.top
        concentricKernel = crisp_concentric(entries: table.entries, top: top, ux0: 0, uy0: 0, step_x: Float(toUser.a),
                                            step_y: Float(toUser.b), start: Float(r0), per_radius: 1 / Float(dr), first: 0)
        twoCirclesKernel = crisp_two_circles(entries: table.entries, top: top, ta: Double(toUser.a), tb: Double(toUser.b),
                                             cpy: 0, dpy: 0, tx: Double(toUser.tx), ty: Double(toUser.ty),
                                             cx0: Double(c0.x), cy0: Double(c0.y), dcx: Double(dc.x), dcy: Double(dc.y),
                                             r0dr: Double(r0 * dr), r0r0: Double(r0 * r0), a: Double(a), sign: a < 0 ? -1 : 1,
                                             r0: Double(r0), dr: Double(dr), x: 0,
                                             check_start: extendBefore ? 0 : 1, check_end: extendAfter ? 0 : 1)
        focalKernel = shape == .twoCircles && r0 == 0 && extendBefore && extendAfter
            ? RadialGradientPaint.focal(twoCirclesKernel) : nil
    }

    deinit { focalKernel?.deallocate() }

    /// Whether spans go through the focal kernel where the CPU has AVX2.
    var usesFocalKernel: Bool { focalKernel != nil }

    /// The focal kernel's parameters for the two-circle kernel's `exact`, or nil when the
    /// gradient is not of the focal shape (dr > 0, a < 0), or its bound is too loose to pay
    /// (`relative` above 2⁻¹⁶, the focal point beyond about 0.87 of the way to the edge: then
    /// most steps would be in doubt, each costing both kernels), or its values are too large or
    /// small for single precision. The bound (GradientAVX2.c): t moves by at most
    /// L = 1/(dr′ − |dc|) per unit of user offset, dr′ = √(|dc|² − a) the end radius of the a
    /// the exact path uses; in single precision from an offset, every rounding moves t by at
    /// most 2⁻²¹·t together, b's (of either sign) by 2⁻²⁰·(dr′ + |dc|)·|dc|/|a|·t, c's by
    /// 2⁻²³·(dr′ + |dc|)/√|a|·t; the exact path's own by 2⁻⁴⁸·M·t, M = (dr′ + |dc|)·(2|dc| +
    /// √|a|)/|a| (|q| ≤ t·(dr′ + |dc|) turns each bound in |q| into one in t). Twice their sum is
    /// `relative`.
    private static func focal(_ exact: crisp_two_circles) -> UnsafeMutablePointer<crisp_focal>? {
        let absA = -exact.a, dc = (exact.dcx * exact.dcx + exact.dcy * exact.dcy).squareRoot()
        let dr = (dc * dc + absA).squareRoot(), root = absA.squareRoot()
        // Offsets within 2²⁴ (`focal_begin`) keep every value of the single-precision path
        // within 2⁻¹⁰⁰…2¹⁰⁰.
        guard exact.dr > 0, (0x1p-30...0x1p48).contains(absA), (0x1p-15...0x1p24).contains(dr), dc <= 0x1p24,
              abs(exact.ta) <= 0x1p24, abs(exact.tb) <= 0x1p24 else { return nil }
        let lipschitz = 1 / (dr - dc), m = (dr + dc) * (2 * dc + root) / absA
        let relative = 2 * (0x1p-21 + 0x1p-20 * (dr + dc) * dc / absA + 0x1p-23 * (dr + dc) / root + 0x1p-48 * m + 0x1p-50)
        guard lipschitz.isFinite, lipschitz > 0, lipschitz <= 0x1p20, relative <= 0x1p-16 else { return nil }
        let block = UnsafeMutablePointer<crisp_focal>.allocate(capacity: 1)
        block.initialize(to: crisp_focal(exact: exact, dcx: Float(exact.dcx), dcy: Float(exact.dcy), abs_a: Float(absA),
                                         inv_a: Float(1 / absA), step_x: Float(exact.ta), step_y: Float(exact.tb),
                                         relative: Float(relative), lipschitz: lipschitz))
        return block
    }

    /// The largest table position, as the lookups clamp to it.
    private static let top = Float(GradientTable.size - 1)

    func shade(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch shape {
        case .concentric:
            if !runKernel(x: x, y: y, count: count, into: out, .store, scratch: out) {
                shadeConcentric(x: x, y: y, count: count, into: out)
            }
        case .touching: shadePerPixel(x: x, y: y, count: count, into: out)
        case .twoCircles:
            if !runKernel(x: x, y: y, count: count, into: out, .store, scratch: out) {
                shadeTwoCircles(x: x, y: y, count: count, into: out)
            }
        }
    }

    /// Source-over of the span's colours onto `row` in one pass by the AVX2 kernels
    /// (`GradientKernel`); false, having done nothing, when they do not serve the span.
    @inline(__always)
    func blendOver(x: Int, y: Int, count: Int, into row: UnsafeMutablePointer<UInt32>,
                   _ operation: GradientKernel.Operation, scratch: UnsafeMutablePointer<UInt32>) -> Bool {
        runKernel(x: x, y: y, count: count, into: row, operation, scratch: scratch)
    }

    /// The span through the AVX2 kernel of its shape (GradientAVX2.c), the steps it leaves
    /// through the Swift loops; false, having done nothing, when there is no kernel for it: no
    /// AVX2, circles touching (a = 0), concentric circles that do not extend both ways, or
    /// columns too far out for the kernels' 32-bit (concentric: 24-bit) pixel offsets.
    private func runKernel(x: Int, y: Int, count: Int, into row: UnsafeMutablePointer<UInt32>,
                           _ operation: GradientKernel.Operation, scratch: UnsafeMutablePointer<UInt32>) -> Bool {
        guard KernelDispatch.usesAVX2(count), count < 1 << 22 else { return false }
        switch shape {
        case .concentric:
            let first = x &- anchorX
            guard extendBefore && extendAfter, abs(first) < 1 << 22 else { return false }
            let p = toUser.apply(CGFloat(anchorX) + 0.5, CGFloat(y) + 0.5)
            var g = concentricKernel
            (g.ux0, g.uy0) = (Float(p.x - c0.x), Float(p.y - c0.y))
            GradientKernel.run(operation, row: row, count: count, scratch: scratch, kernel: { start in
                g.first = Int32(first &+ start)
                let (op, coverage, coverages) = operation.arguments(from: start)
                return crisp_concentric_avx2(row + start, count &- start, &g, op, coverage, coverages)
            }, shade: { start, n, out in
                shadeConcentric(x: x &+ start, y: y, count: n, into: out)
            })
            return true
        case .twoCircles:
            guard abs(x) < 1 << 22 else { return false }
            let py = CGFloat(y) + 0.5
            if let focal = focalKernel {
                let cpy = Double(toUser.c * py), dpy = Double(toUser.d * py)
                GradientKernel.run(operation, row: row, count: count, scratch: scratch, kernel: { start in
                    let (op, coverage, coverages) = operation.arguments(from: start)
                    return crisp_focal_avx2(row + start, count &- start, focal, Int32(x &+ start), cpy, dpy, op, coverage, coverages)
                }, shade: { start, n, out in
                    shadeTwoCircles(x: x &+ start, y: y, count: n, into: out)
                })
                return true
            }
            var g = twoCirclesKernel
            (g.cpy, g.dpy) = (Double(toUser.c * py), Double(toUser.d * py))
            GradientKernel.run(operation, row: row, count: count, scratch: scratch, kernel: { start in
                g.x = Int32(x &+ start)
                let (op, coverage, coverages) = operation.arguments(from: start)
                return crisp_two_circles_avx2(row + start, count &- start, &g, op, coverage, coverages)
            }, shade: { start, n, out in
                shadeTwoCircles(x: x &+ start, y: y, count: n, into: out)
            })
            return true
        case .touching: return false
        }
    }

    /// Every pixel through the per-pixel rule (a = 0: one circle touches the other's edge from
    /// inside). Out of line, so that `shade` and `Paint.shade` stay frameless tail calls.
    @inline(never)
    private func shadePerPixel(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        for i in 0..<count { out[i] = color(x: x &+ i, y: y) }
    }

    /// The per-pixel rule for pixel (x, y) of a gradient that is not concentric: what
    /// `shadeTwoCircles` gives every pixel. Where the gradient paints everywhere, a pixel
    /// without an acceptable root — only by underflow within 10⁻¹⁵⁰ of the focal point, where
    /// t is 0, or overflow at a distance beyond 10¹⁵⁰, where t is past the end — takes the
    /// start colour or the end colour.
    func color(x: Int, y: Int) -> UInt32 {
        let color = rootColor(x: x, y: y)
        guard color == Pixel.unpainted, paintsEverywhere else { return color }
        let p = toUser.apply(CGFloat(x) + 0.5, CGFloat(y) + 0.5)
        let px = p.x - c0.x, py = p.y - c0.y
        return (px * px + py * py).isFinite ? table.entries[0] : table.entries[GradientTable.size - 1]
    }

    /// The colour of the acceptable root at pixel (x, y), or `Pixel.unpainted`.
    private func rootColor(x: Int, y: Int) -> UInt32 {
        let p = toUser.apply(CGFloat(x) + 0.5, CGFloat(y) + 0.5)
        let px = p.x - c0.x, py = p.y - c0.y
        let b = px * dc.x + py * dc.y + r0 * dr
        let c = px * px + py * py - r0 * r0
        if abs(a) < 1e-9 { return b != 0 ? pick(c / (2 * b), nil) : Pixel.unpainted }
        let disc = b * b - a * c
        guard disc >= 0 else { return Pixel.unpainted }
        let s = disc.squareRoot()
        let t1 = (b + s) / a, t2 = (b - s) / a
        return pick(max(t1, t2), min(t1, t2))
    }

    /// Two circles, four pixels a step: the same operations in the same order as `color(x:y:)`,
    /// lane by lane (so the same roots, bit for bit), with the square root and the division in
    /// `sqrtpd` and `divpd`; a group the plain rule serves is clamped, truncated and looked up
    /// (see the essay above), any other group goes pixel by pixel.
    private func shadeTwoCircles(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let py = CGFloat(y) + 0.5
        let cpy = Double(toUser.c * py), dpy = Double(toUser.d * py)
        let (ta, tb, tx, ty) = (Double(toUser.a), Double(toUser.b), Double(toUser.tx), Double(toUser.ty))
        let (cx0, cy0, dcx, dcy, da) = (Double(c0.x), Double(c0.y), Double(dc.x), Double(dc.y), Double(a))
        let (vr0, vdr) = (Double(r0), Double(dr))
        let (vr0dr, vr0r0) = (Double(r0 * dr), Double(r0 * r0))
        // The larger root takes −√ when a < 0 (b + (−s) is b − s exactly).
        let sign: Double = a < 0 ? -1 : 1
        let (checkStart, checkEnd) = (!extendBefore, !extendAfter)
        let entries = table.entries
        let top = SIMD4<Float>(repeating: RadialGradientPaint.top)
        var i = 0
        while i &+ 4 <= count {
            let base = Double(x &+ i) + 0.5
            let xs = SIMD4<Double>(base, base + 1, base + 2, base + 3)
            let ux = ta * xs + cpy + tx - cx0, uy = tb * xs + dpy + ty - cy0
            let b = ux * dcx + uy * dcy + vr0dr
            let c = ux * ux + uy * uy - vr0r0
            let disc = b * b - da * c
            let t = (b + sign * disc.squareRoot()) / da
            // disc ≥ 0 and a radius ≥ 0 (both false for NaN), t finite (t − t is NaN otherwise).
            let radius = vr0 + t * vdr
            var plain = disc .>= 0
            plain .&= radius .>= 0
            plain .&= t - t .== 0
            if checkStart { plain .&= t .>= 0 }
            if checkEnd { plain .&= t .<= 1 }
            if all(plain) {
                let u = SIMD4<Float>(Float(t[0]), Float(t[1]), Float(t[2]), Float(t[3])) * top + 0.5
                RadialGradientPaint.lookUp(u, entries: entries, into: out + i)
            } else {
                for k in i..<i &+ 4 { out[k] = color(x: x &+ k, y: y) }
            }
            i &+= 4
        }
        // The last one to three pixels: the same operations one lane at a time, the per-pixel
        // rule only where the plain one does not serve.
        let topValue = RadialGradientPaint.top
        while i < count {
            let xs = Double(x &+ i) + 0.5
            let ux = ta * xs + cpy + tx - cx0, uy = tb * xs + dpy + ty - cy0
            let b = ux * dcx + uy * dcy + vr0dr
            let c = ux * ux + uy * uy - vr0r0
            let disc = b * b - da * c
            let t = (b + sign * disc.squareRoot()) / da
            if disc >= 0 && vr0 + t * vdr >= 0 && t - t == 0 && (!checkStart || t >= 0) && (!checkEnd || t <= 1) {
                let u = Float(t) * topValue + 0.5
                out[i] = entries[Int(u < 0 ? 0 : (u > topValue ? topValue : u))]
            } else {
                out[i] = color(x: x &+ i, y: y)
            }
            i &+= 1
        }
    }

    /// Concentric circles: the quadratic's acceptable root is t = (|p − c| − r0) / dr — the
    /// circle of radius |p − c| — so a pixel costs a distance, in single precision four pixels
    /// a step: the user-space offset of column X is the row's offset at the anchor column (the
    /// one nearest the centre, taken through the transform in Double) plus (X − anchor) steps,
    /// so a pixel's colour does not depend on where its span starts; `sqrtps` takes four roots
    /// at once. Single precision keeps t within a few units in the last place of Float (offsets
    /// below 2¹⁶ points), so a pixel's table entry is the exact one's or its neighbour (entries
    /// differ by under a quarter of a level). When both ends extend, every finite t is a
    /// clamped lookup, done for four pixels in the vector registers; otherwise, and for a group
    /// with a NaN, each pixel goes through `concentricColor`.
    private func shadeConcentric(x: Int, y: Int, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        let p = toUser.apply(CGFloat(anchorX) + 0.5, CGFloat(y) + 0.5)
        let ux0 = Float(p.x - c0.x), uy0 = Float(p.y - c0.y)
        let stepX = Float(toUser.a), stepY = Float(toUser.b)
        let start = Float(r0), perRadius = 1 / Float(dr)
        let first = Float(x &- anchorX)
        let lanes = SIMD4<Float>(0, 1, 2, 3) + first
        let padded = extendBefore && extendAfter
        let entries = table.entries
        let top = SIMD4<Float>(repeating: RadialGradientPaint.top)
        var i = 0
        while i &+ 4 <= count {
            let k = lanes + Float(i)
            let ux = ux0 + stepX * k, uy = uy0 + stepY * k
            let t = ((ux * ux + uy * uy).squareRoot() - start) * perRadius
            let u = t * top + 0.5
            if padded && all(u - u .== 0) {
                RadialGradientPaint.lookUp(u, entries: entries, into: out + i)
            } else {
                out[i] = concentricColor(t[0])
                out[i &+ 1] = concentricColor(t[1])
                out[i &+ 2] = concentricColor(t[2])
                out[i &+ 3] = concentricColor(t[3])
            }
            i &+= 4
        }
        while i < count {
            let k = first + Float(i)
            let ux = ux0 + stepX * k, uy = uy0 + stepY * k
            out[i] = concentricColor(((ux * ux + uy * uy).squareRoot() - start) * perRadius)
            i &+= 1
        }
    }

    /// Four table positions (finite) clamped to the table and truncated, looked up into `out`.
    /// The truncation is exact without `cvttss2si` and its range checks, as in
    /// `NonZeroRule.alphas`: v + 2²³ rounds to 2²³ + round(v), whose bits less those of 2²³ are
    /// round(v); one less where round(v) > v. (The generic `SIMD4<Int32>(_:rounding:)` converts
    /// through a call per lane, 40 instructions a pixel by callgrind, and `pointwiseMin` and
    /// `pointwiseMax` are not inlined.)
    @inline(__always)
    private static func lookUp(_ u: SIMD4<Float>, entries: UnsafeMutablePointer<UInt32>, into out: UnsafeMutablePointer<UInt32>) {
        let top = RadialGradientPaint.top
        let low = u.replacing(with: 0, where: u .< 0)
        let v = low.replacing(with: top, where: low .> top)
        let shifted = v + 8_388_608
        let rounded = shifted - 8_388_608
        var index = unsafeBitCast(shifted, to: SIMD4<Int32>.self) &- 0x4B00_0000
        index = index.replacing(with: index &- 1, where: rounded .> v)
        out[0] = entries[Int(index[0])]
        out[1] = entries[Int(index[1])]
        out[2] = entries[Int(index[2])]
        out[3] = entries[Int(index[3])]
    }

    /// The colour at `t` on concentric circles, as `accept` gives it (the radius there, |p − c|,
    /// is never negative); a t that is not finite is not painted, except where the gradient
    /// paints everywhere: then −∞ takes the start colour and +∞ or NaN the end colour.
    @inline(__always)
    func concentricColor(_ t: Float) -> UInt32 {
        if t >= 0 && t <= 1 { return table.entries[Int(t * RadialGradientPaint.top + 0.5)] }
        guard t.isFinite else {
            guard paintsEverywhere else { return Pixel.unpainted }
            return table.entries[t == -.infinity ? 0 : GradientTable.size - 1]
        }
        if t < 0 { return extendBefore ? table.entries[0] : Pixel.unpainted }
        return extendAfter ? table.entries[GradientTable.size - 1] : Pixel.unpainted
    }

    /// The colour of the first acceptable root (the larger one first).
    @inline(__always)
    private func pick(_ high: CGFloat, _ low: CGFloat?) -> UInt32 {
        if let c = accept(high) { return c }
        if let low, let c = accept(low) { return c }
        return Pixel.unpainted
    }

    @inline(__always)
    private func accept(_ t: CGFloat) -> UInt32? {
        guard t.isFinite, r0 + t * dr >= 0 else { return nil }
        if t < 0 { return extendBefore ? table.entries[0] : nil }
        if t > 1 { return extendAfter ? table.entries[GradientTable.size - 1] : nil }
        return table.lookup(Float(t))
    }
}
