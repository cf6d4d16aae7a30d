import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// Gradient tables and the linear gradient's span loop.
@Suite struct GradientTests {
    /// The linear gradient's pixel rule, one pixel at a time: the general rule at the pixel's
    /// fixed-point table position, or in single precision outside the fixed-point range.
    static func referenceShade(_ p: LinearGradientPaint, x: Int, y: Int, count: Int) -> [UInt32] {
        (0..<count).map { i in
            if let f = p.fixed, p.a != 0 {
                return p.color(at: f.u0 + f.ux * Int64(x + i) + f.uy * Int64(y))
            }
            let t = p.a * (Float(x) + 0.5) + p.b * (Float(y) + 0.5) + p.c + p.a * Float(i)
            let k = p.pixelsPerUnit
            let first = p.table.entries[0], last = p.table.entries[GradientTable.size - 1]
            if t >= 0 && t <= 1 {
                var color = p.table.lookup(t)
                if !p.extendBefore, t * k < 0.5 { color = Pixel.scale(color, by: UInt32((0.5 + t * k) * 255 + 0.5)) }
                if !p.extendAfter, (1 - t) * k < 0.5 { color = Pixel.scale(color, by: UInt32((0.5 + (1 - t) * k) * 255 + 0.5)) }
                return color
            } else if t < 0 {
                let s = -t * k
                return p.extendBefore ? first : (s < 0.5 ? Pixel.scale(first, by: UInt32((0.5 - s) * 255 + 0.5)) : Pixel.unpainted)
            } else {
                let s = (t - 1) * k
                return p.extendAfter ? last : (s < 0.5 ? Pixel.scale(last, by: UInt32((0.5 - s) * 255 + 0.5)) : Pixel.unpainted)
            }
        }
    }

    /// A value in `range` from `rng`, in steps of a millionth of its width.
    static func uniform<T: BinaryFloatingPoint>(_ rng: inout SplitMix64, _ range: ClosedRange<T>) -> T {
        T(rng.next() % 1_000_000) / 1_000_000 * (range.upperBound - range.lowerBound) + range.lowerBound
    }

    /// A random radial gradient under a random rotation, scale and skew: `shape` 0 concentric,
    /// 1 with the focal point inside the end circle (a < 0), 2 outside it (a > 0); the start
    /// circle a point when `pointStart`.
    static func randomRadial(_ rng: inout SplitMix64, table: GradientTable, shape: Int, pointStart: Bool,
                             extendBefore: Bool, extendAfter: Bool) -> RadialGradientPaint {
        func random(_ range: ClosedRange<Double>) -> Double { uniform(&rng, range) }
        let angle = random(-3.2...3.2), scale = pow(10, random(-0.7...0.7))
        let toUser = CGAffineTransform(a: scale * cos(angle), b: scale * sin(angle), c: -scale * sin(angle) + random(-0.3...0.3),
                                       d: scale * cos(angle), tx: random(-50...50), ty: random(-50...50))
        let c0 = CGPoint(x: random(-20...120), y: random(-20...120))
        let r1 = random(1...150), r0 = pointStart ? 0 : random(0...r1)
        let dc: CGPoint
        switch shape {
        case 0: dc = .zero
        case 1: let d = random(0...0.99) * (r1 - r0), e = random(-3.2...3.2); dc = CGPoint(x: d * cos(e), y: d * sin(e))
        default: let d = random(1.01...4) * abs(r1 - r0) + 1, e = random(-3.2...3.2); dc = CGPoint(x: d * cos(e), y: d * sin(e))
        }
        return RadialGradientPaint(table: table, toUser: toUser, c0: c0, r0: r0, dc: dc, dr: r1 - r0,
                                   extendBefore: extendBefore, extendAfter: extendAfter)
    }

    /// A span shaded whole, and shaded in two pieces cut at `cut`.
    static func shadedWholeAndCut(x: Int, y: Int, count: Int, cut: Int,
                                  _ shade: (Int, Int, Int, UnsafeMutablePointer<UInt32>) -> Void) -> (whole: [UInt32], pieces: [UInt32]) {
        var whole = [UInt32](repeating: 0, count: count), pieces = whole
        whole.withUnsafeMutableBufferPointer { shade(x, y, count, $0.baseAddress!) }
        pieces.withUnsafeMutableBufferPointer {
            shade(x, y, cut, $0.baseAddress!)
            shade(x + cut, y, count - cut, $0.baseAddress! + cut)
        }
        return (whole, pieces)
    }

    /// The span loop splits off the runs before and after the plain table lookups by division;
    /// every pixel must still be exactly what the per-pixel rule gives, whatever the direction,
    /// slope and extension — and the same whether a span is shaded whole or in two pieces.
    @Test(arguments: [false, true], [false, true])
    func linearSpansMatchThePerPixelRule(extendBefore: Bool, extendAfter: Bool) {
        var rng = SplitMix64(seed: 5)
        func random(_ range: ClosedRange<Float>) -> Float { Self.uniform(&rng, range) }
        let table = PaintGoldenTests.redToBlue.table(alpha: 0.9)
        var fixedTrials = 0
        for trial in 0..<400 {
            // Gradient lengths from a fraction of a pixel to thousands; some vertical (a = 0),
            // some horizontal (b = 0).
            let length = Float(pow(10, Double(random(-0.5...3.5)))), angle = Double(random(-3.2...3.2))
            let a = trial % 10 == 0 ? 0 : Float(cos(angle)) / length, b = trial % 10 == 1 ? 0 : Float(sin(angle)) / length
            let paint = LinearGradientPaint(table: table, a: a, b: b, c: random(-2...2),
                                            extendBefore: extendBefore, extendAfter: extendAfter)
            if paint.fixed != nil { fixedTrials += 1 }
            let x = Int(rng.next() % 400) - 200, y = Int(rng.next() % 400) - 200, count = Int(rng.next() % 700) + 1
            let cut = Int(rng.next() % UInt64(count + 1))
            let (out, pieces) = Self.shadedWholeAndCut(x: x, y: y, count: count, cut: cut, paint.shade)
            #expect(out == Self.referenceShade(paint, x: x, y: y, count: count), "trial \(trial)")
            #expect(pieces == out, "trial \(trial) cut at \(cut)")
            // A horizontal gradient's kept row serves any span within it, in any row.
            let kept = paint.withRow(x: x - 3, count: count + 7)
            if paint.fixed != nil && b == 0 && a != 0 { #expect(kept.row != nil) }
            var served = [UInt32](repeating: 0, count: count)
            served.withUnsafeMutableBufferPointer { kept.shade(x: x, y: y + 17, count: count, into: $0.baseAddress!) }
            #expect(served == (b == 0 ? out : Self.referenceShade(paint, x: x, y: y + 17, count: count)), "trial \(trial) kept row")
        }
        #expect(fixedTrials > 200)
    }

    /// Gradients of extreme length or position draw without trapping, and every pixel stays a
    /// valid premultiplied colour. (Found by the drawing fuzzer: a linear gradient more than
    /// ~10¹⁹ px long that does not extend has an infinite `pixelsPerUnit`, and the coverage of
    /// the pixels at its start became ∞ or NaN, which the conversion to a factor trapped on.)
    @Test func extremeGradientsDrawWithoutTrapping() throws {
        let gradient = try #require(CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(),
                                               colors: [CGColor(red: 1, green: 0, blue: 0, alpha: 1),
                                                        CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)],
                                               locations: [0, 1]))
        let extremes: [CGFloat] = [0, 1e-30, 1e-10, 1, 1e10, 1e19, 1e20, 1e25, 1e30, 1e38, 1e39, 1e300,
                                   -1e20, -1e30, -1e300]
        var painted = 0
        for options in [CGGradientDrawingOptions(), .drawsBeforeStartLocation, .drawsAfterEndLocation,
                        [.drawsBeforeStartLocation, .drawsAfterEndLocation]] {
            for far in extremes {
                for near in [CGFloat(0), 0.5, 4, -3] {
                    let context = try #require(CGContext(width: 8, height: 8))
                    context.drawLinearGradient(gradient, start: CGPoint(x: near, y: near), end: CGPoint(x: far, y: near / 2),
                                               options: options)
                    context.drawLinearGradient(gradient, start: CGPoint(x: near, y: far), end: CGPoint(x: near, y: near),
                                               options: options)
                    context.drawRadialGradient(gradient, startCenter: CGPoint(x: near, y: near), startRadius: abs(near),
                                               endCenter: CGPoint(x: far, y: near), endRadius: abs(far), options: options)
                    context.drawRadialGradient(gradient, startCenter: CGPoint(x: far, y: far), startRadius: 0,
                                               endCenter: CGPoint(x: 4, y: 4), endRadius: 3, options: options)
                    let image = try #require(context.makeImage())
                    for y in 0..<8 {
                        for x in 0..<8 {
                            let p = image.pixel(x: x, y: y)
                            let a = p >> 24
                            #expect((p >> 16) & 0xFF <= a && (p >> 8) & 0xFF <= a && p & 0xFF <= a,
                                    "far \(far), near \(near): pixel \(String(p, radix: 16)) is not premultiplied")
                            if a != 0 { painted += 1 }
                        }
                    }
                }
            }
        }
        #expect(painted > 0)
    }

    /// The fixed-point table position picks the entry the exact (double-precision) position
    /// picks, except where the exact position is within 2⁻¹² of an entry of a half — and, near
    /// halves included, misses it no more often than the single-precision t it replaced.
    @Test func fixedPointPositionsPickTheExactEntry() {
        var rng = SplitMix64(seed: 11)
        func random(_ range: ClosedRange<Double>) -> Double { Self.uniform(&rng, range) }
        let table = PaintGoldenTests.redToBlue.table(alpha: 1)
        var checked = 0, ties = 0, fixedMisses = 0, floatMisses = 0
        for _ in 0..<200 {
            // Gradients of 10 to 5000 pixels, around the middle of a 4096-pixel canvas.
            let length = pow(10, random(1...3.7)), angle = random(-3.2...3.2)
            let a = cos(angle) / length, b = sin(angle) / length, c = random(0...1) - 2048 * (a + b)
            let paint = LinearGradientPaint(table: table, a: a, b: b, c: c, extendBefore: true, extendAfter: true)
            guard let f = paint.fixed else { continue }
            for _ in 0..<200 {
                let x = Int(rng.next() % 4096), y = Int(rng.next() % 4096)
                let exact = (a * (Double(x) + 0.5) + b * (Double(y) + 0.5) + c) * Double(GradientTable.size - 1) + 0.5
                guard exact >= 0, exact < Double(GradientTable.size) else { continue }
                let u = f.u0 + f.ux * Int64(x) + f.uy * Int64(y)
                if Int(u >> 32) != Int(exact.rounded(.down)) { fixedMisses += 1 }
                // The single-precision rule: t from the span's start (here the row's first pixel).
                let (fa, fb, fc) = (Float(a), Float(b), Float(c))
                let t = fa * 0.5 + fb * (Float(y) + 0.5) + fc + fa * Float(x)
                if Int(t * Float(GradientTable.size - 1) + 0.5) != Int(exact.rounded(.down)) { floatMisses += 1 }
                if abs(exact - exact.rounded(.down) - 0.5) < 1.0 / 4096 || exact - exact.rounded(.down) < 1.0 / 4096 {
                    ties += 1
                    continue
                }
                #expect(Int(u >> 32) == Int(exact.rounded(.down)), "a \(a) b \(b) c \(c) at \(x), \(y)")
                checked += 1
            }
        }
        #expect(checked > 4000 && ties < checked / 100, "\(checked) checked, \(ties) near a half")
        #expect(fixedMisses <= floatMisses, "fixed point missed \(fixedMisses), single precision \(floatMisses)")
    }

    /// The radial gradient's pixel rule, one pixel at a time: for concentric circles t from
    /// the offset stepped off the anchor column in single precision, else the larger acceptable
    /// root of the quadratic in double precision (the smaller one when the larger is not).
    static func referenceShade(_ p: RadialGradientPaint, x: Int, y: Int, count: Int) -> [UInt32] {
        let entries = p.table.entries, last = GradientTable.size - 1
        func accept(_ t: CGFloat) -> UInt32? {
            guard t.isFinite, p.r0 + t * p.dr >= 0 else { return nil }
            if t < 0 { return p.extendBefore ? entries[0] : nil }
            if t > 1 { return p.extendAfter ? entries[last] : nil }
            return entries[Int(Float(t) * Float(last) + 0.5)]
        }
        return (0..<count).map { i in
            if p.dc == .zero, (1 / Float(p.dr)).isFinite {
                let o = p.toUser.apply(CGFloat(p.anchorX) + 0.5, CGFloat(y) + 0.5)
                let k = Float(x + i - p.anchorX)
                let ux = Float(o.x - p.c0.x) + Float(p.toUser.a) * k, uy = Float(o.y - p.c0.y) + Float(p.toUser.b) * k
                let t = ((ux * ux + uy * uy).squareRoot() - Float(p.r0)) * (1 / Float(p.dr))
                if !t.isFinite && p.paintsEverywhere { return entries[t == -.infinity ? 0 : last] }
                return accept(CGFloat(t)).map { t >= 0 && t <= 1 ? entries[Int(t * Float(last) + 0.5)] : $0 } ?? Pixel.unpainted
            }
            let q = p.toUser.apply(CGFloat(x + i) + 0.5, CGFloat(y) + 0.5)
            let px = q.x - p.c0.x, py = q.y - p.c0.y
            let b = px * p.dc.x + py * p.dc.y + p.r0 * p.dr
            let c = px * px + py * py - p.r0 * p.r0
            let a = p.dc.x * p.dc.x + p.dc.y * p.dc.y - p.dr * p.dr
            // Where the gradient paints everywhere, no root only by underflow (t is 0) or overflow.
            let none = p.paintsEverywhere ? entries[(px * px + py * py).isFinite ? 0 : last] : Pixel.unpainted
            if abs(a) < 1e-9 { return b != 0 ? accept(c / (2 * b)) ?? none : none }
            let disc = b * b - a * c
            guard disc >= 0 else { return none }
            let t1 = (b + disc.squareRoot()) / a, t2 = (b - disc.squareRoot()) / a
            return accept(max(t1, t2)) ?? accept(min(t1, t2)) ?? none
        }
    }

    /// The radial loops decide four pixels at a time whether the plain clamped lookup serves
    /// them; every pixel must still be exactly what the per-pixel rule gives — concentric or
    /// not, focal point inside or outside the end circle, any extension — and the same whether
    /// a span is shaded whole or in two pieces.
    @Test(arguments: [false, true], [false, true])
    func radialSpansMatchThePerPixelRule(extendBefore: Bool, extendAfter: Bool) {
        var rng = SplitMix64(seed: 23)
        let table = PaintGoldenTests.redToBlue.table(alpha: 0.8)
        var painted = 0, total = 0, everywhere = 0, everywhereUnpainted = 0
        for trial in 0..<300 {
            let paint = Self.randomRadial(&rng, table: table, shape: trial % 3, pointStart: trial % 2 == 0,
                                          extendBefore: extendBefore, extendAfter: extendAfter)
            let x = Int(rng.next() % 300) - 100, y = Int(rng.next() % 300) - 100, count = Int(rng.next() % 300) + 1
            let cut = Int(rng.next() % UInt64(count + 1))
            let (out, pieces) = Self.shadedWholeAndCut(x: x, y: y, count: count, cut: cut, paint.shade)
            #expect(out == Self.referenceShade(paint, x: x, y: y, count: count), "trial \(trial)")
            #expect(pieces == out, "trial \(trial) cut at \(cut)")
            painted += out.filter { $0 != Pixel.unpainted }.count
            total += count
            if paint.paintsEverywhere {
                everywhere += 1
                everywhereUnpainted += out.filter { $0 == Pixel.unpainted }.count
            }
        }
        // Both the plain lookups and the unpainted rest are exercised; a gradient that paints
        // everywhere leaves nothing unpainted.
        #expect(painted > total / 20 && (extendBefore || painted < total), "\(painted) of \(total) painted")
        #expect((extendBefore && extendAfter ? everywhere > 50 : everywhere == 0) && everywhereUnpainted == 0, "\(everywhereUnpainted) unpainted of \(everywhere) trials painting everywhere")
    }

    /// A gradient is immutable, so its table is sampled once per alpha and shared by draws.
    @Test func tablesAreSampledOncePerAlpha() {
        let g = CGGradient(colorsSpace: nil, colors: [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 0.5)], locations: nil)!
        let opaque = g.table(alpha: 1)
        #expect(g.table(alpha: 1) === opaque)
        let half = g.table(alpha: 0.5)
        #expect(half !== opaque && g.table(alpha: 0.5) === half)
        let fresh = GradientTable(g, alpha: 0.5)
        #expect((0..<GradientTable.size).allSatisfy { half.entries[$0] == fresh.entries[$0] })
        // Many alphas: the cache stays small and still answers correctly.
        for i in 0..<20 { _ = g.table(alpha: CGFloat(i) / 20) }
        #expect(g.table(alpha: 0.5).entries[GradientTable.size - 1] == fresh.entries[GradientTable.size - 1])
    }
}
