import Foundation
import Testing
@testable import CrispGraphics

/// Round shapes against their exact covered area (issue 32): circles, ellipses and rounded
/// rectangles of radius 2…500 user units at random sub-pixel positions under 1×, 2× and 3×
/// scales, filled, used as clips, and stroked (round caps, round joins; rings and rounded
/// rectangle outlines are measured by the sweep only, see docs/curves.md). At flatness 0.01 px
/// every edge pixel is within 2 levels of 255 of the exact area, with no bias.
///
/// Two references. Fills and clips are held to the path's own curves: every curve as chords
/// within 10⁻⁴ px, rasterized exactly as a polygon (a 4-cubic circle is itself up to 2.7·10⁻⁴·r
/// off the true circle, 0.4 px at r = 1,500 px: that is the path's geometry, not its drawing).
/// Round caps and joins, which the stroker makes from true circles, are held to the analytic
/// area: a pixel's area inside a disc is ∫ of the clamped chord length over the pixel's columns,
/// in closed form (F(x) = (x·√(r²−x²) + r²·asin(x/r))/2); an axis-aligned ellipse is a disc
/// stretched in y; a rounded rectangle is a cross of two rectangles plus four quarter discs; a
/// stroke is the outer shape less the inner one. Shapes come from a seeded generator, each drawn
/// in a 40×40 window placed on a random part of its edge. With plain chords (all inside a convex
/// curve) every edge pixel is short, so the signed mean fails if flattening goes back to them.
@Suite struct ExactAreaCurveTests {
    static let size = 40

    // MARK: The exact area

    /// ∫ √(r² − x²) dx.
    static func F(_ x: Double, _ r: Double) -> Double {
        let c = min(max(x, -r), r)
        return (c * (r * r - c * c).squareRoot() + r * r * asin(c / r)) / 2
    }

    /// ∫ over [a, b] of clamp(y, −h(x), h(x)) dx, h(x) = √(r² − x²) on [−r, r] (zero outside).
    static func clampedIntegral(_ y: Double, _ a: Double, _ b: Double, _ r: Double) -> Double {
        let lo = max(a, -r), hi = min(b, r)
        guard hi > lo else { return 0 }
        if abs(y) >= r { return (y > 0 ? 1 : -1) * (F(hi, r) - F(lo, r)) }
        let xs = (r * r - y * y).squareRoot()
        // Where |x| < xs, h > |y| and the clamp is y; elsewhere it is ±h.
        let midLo = max(lo, -xs), midHi = min(hi, xs)
        var total = 0.0
        if midHi > midLo { total += y * (midHi - midLo) }
        let sign: Double = y > 0 ? 1 : -1
        if min(hi, -xs) > lo { total += sign * (F(min(hi, -xs), r) - F(lo, r)) }
        if hi > max(lo, xs) { total += sign * (F(hi, r) - F(max(lo, xs), r)) }
        return total
    }

    /// Area of the disc (cx, cy, r) inside the rectangle [x0, x1] × [y0, y1].
    static func discArea(_ cx: Double, _ cy: Double, _ r: Double, _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Double {
        guard x1 > x0, y1 > y0, r > 0 else { return 0 }
        return clampedIntegral(y1 - cy, x0 - cx, x1 - cx, r) - clampedIntegral(y0 - cy, x0 - cx, x1 - cx, r)
    }

    static func rectArea(_ a: (Double, Double, Double, Double), _ x0: Double, _ x1: Double, _ y0: Double, _ y1: Double) -> Double {
        max(0, min(a.2, x1) - max(a.0, x0)) * max(0, min(a.3, y1) - max(a.1, y0))
    }

    /// A device-space shape whose area inside any pixel is known exactly.
    enum Shape {
        case ellipse(cx: Double, cy: Double, rx: Double, ry: Double)
        /// [x0, x1] × [y0, y1] with circular corners of radius rho (0: sharp).
        case roundedRect(x0: Double, y0: Double, x1: Double, y1: Double, rho: Double)
        indirect case difference(Shape, Shape)

        func area(_ px: Int, _ py: Int) -> Double {
            let x0 = Double(px), x1 = x0 + 1, y0 = Double(py), y1 = y0 + 1
            switch self {
            case let .ellipse(cx, cy, rx, ry):
                // y′ = y·rx/ry maps the ellipse onto a disc of radius rx; areas scale by ry/rx.
                let k = rx / ry
                return discArea(cx, cy * k, rx, x0, x1, y0 * k, y1 * k) / k
            case let .roundedRect(rx0, ry0, rx1, ry1, rho):
                let across = (rx0, ry0 + rho, rx1, ry1 - rho), down = (rx0 + rho, ry0, rx1 - rho, ry1)
                let middle = (rx0 + rho, ry0 + rho, rx1 - rho, ry1 - rho)
                var a = rectArea(across, x0, x1, y0, y1) + rectArea(down, x0, x1, y0, y1) - rectArea(middle, x0, x1, y0, y1)
                guard rho > 0 else { return a }
                for (cx, cy, bx0, bx1, by0, by1) in [
                    (rx0 + rho, ry0 + rho, rx0, rx0 + rho, ry0, ry0 + rho), (rx1 - rho, ry0 + rho, rx1 - rho, rx1, ry0, ry0 + rho),
                    (rx0 + rho, ry1 - rho, rx0, rx0 + rho, ry1 - rho, ry1), (rx1 - rho, ry1 - rho, rx1 - rho, rx1, ry1 - rho, ry1),
                ] {
                    a += discArea(cx, cy, rho, max(x0, bx0), min(x1, bx1), max(y0, by0), min(y1, by1))
                }
                return a
            case let .difference(outer, inner):
                return outer.area(px, py) - inner.area(px, py)
            }
        }
    }

    // MARK: Rendering

    /// Coverage (alpha, 0…255) of what `draw` paints in white, under a CTM that maps user
    /// space to raster pixels (y down) by `scale` and `offset`.
    static func render(scale: CGFloat, offset: CGPoint, flatness: CGFloat?, _ draw: (CGContext) -> Void) -> [UInt8] {
        let ctx = CGContext(width: size, height: size)!
        ctx.concatenate(CGAffineTransform(a: scale, b: 0, c: 0, d: -scale, tx: offset.x, ty: CGFloat(size) - offset.y))
        if let flatness { ctx.setFlatness(flatness) }
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.setStrokeColor(gray: 1, alpha: 1)
        draw(ctx)
        return ctx.makeImage()!.pixels.map { UInt8($0 >> 24) }
    }

    struct Worst: CustomStringConvertible {
        var error = 0.0, pixels = 0, sum = 0.0, signedSum = 0.0
        var name = "", at = (0, 0), got = 0, want = 0.0
        var description: String {
            String(format: "worst %.2f levels (%@, pixel %d,%d: %d for %.2f), mean %.3f, signed mean %.3f over %d edge pixels",
                   error, name, at.0, at.1, got, want, sum / Double(max(pixels, 1)), signedMean, pixels)
        }
        var signedMean: Double { signedSum / Double(max(pixels, 1)) }
        mutating func add(_ got: [UInt8], _ shape: Shape, _ name: String, reference: [UInt8]? = nil) {
            for py in 0..<size {
                for px in 0..<size {
                    let want = reference.map { Double($0[py * size + px]) } ?? 255 * shape.area(px, py)
                    let g = Int(got[py * size + px])
                    guard (0.001..<254.999).contains(want) || (1...254).contains(g) else { continue }
                    let e = abs(Double(g) - want)
                    pixels += 1; sum += e; signedSum += Double(g) - want
                    if e > error { error = e; self.name = name; at = (px, py); self.got = g; self.want = want }
                }
            }
        }
    }

    enum Kind: String, CaseIterable, Sendable {
        case circleFill, ellipseFill, roundedRectFill, ringStroke, roundedRectStroke, roundCaps, roundJoins
        case circleClip, ellipseClip, roundedRectClip
    }

    /// Draws `count` random shapes of `kind` and measures them against the exact area.
    static func measure(_ kind: Kind, count: Int, seed: UInt64, flatness: CGFloat? = nil) -> (path: Worst, circle: Worst) {
        var rng = SplitMix64(seed: seed)
        var worst = Worst(), geometric = Worst()
        for i in 0..<count {
            let scale = CGFloat(1 + i % 3)
            // Radius 2…500 user units, log-uniform, so small ones are as common as large ones.
            func radius() -> CGFloat { 2 * pow(250, rng.nextUnit()) }
            let r = radius()
            // A random point of the edge lands in the window's middle third.
            let angle = 2 * CGFloat.pi * rng.nextUnit()
            let edge = CGPoint(x: CGFloat(size) * (1 + rng.nextUnit()) / 3, y: CGFloat(size) * (1 + rng.nextUnit()) / 3)
            let dr = r * scale  // device radius
            let center = CGPoint(x: edge.x - dr * cos(angle), y: edge.y - dr * sin(angle))
            let name = "\(kind.rawValue) #\(i) r \(String(format: "%.2f", r)) ×\(Int(scale))"
            // Everything is placed in device space; user space is device / scale.
            let user = { (p: CGPoint) in CGPoint(x: p.x / scale, y: p.y / scale) }
            let c = user(center)
            var shape: Shape
            var got: [UInt8]
            var reference: [UInt8]? = nil
            switch kind {
            case .circleFill, .circleClip:
                shape = .ellipse(cx: center.x, cy: center.y, rx: dr, ry: dr)
                let path = CGPath(ellipseIn: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), transform: nil)
                got = draw(path, clip: kind == .circleClip, scale: scale, flatness: flatness)
                reference = fineReference(path, clip: kind == .circleClip, scale: scale)
            case .ellipseFill, .ellipseClip:
                let ry = radius()
                let dry = ry * scale
                let cy = edge.y - dry * sin(angle)
                shape = .ellipse(cx: center.x, cy: cy, rx: dr, ry: dry)
                let path = CGPath(ellipseIn: CGRect(x: c.x - r, y: cy / scale - ry, width: 2 * r, height: 2 * ry), transform: nil)
                got = draw(path, clip: kind == .ellipseClip, scale: scale, flatness: flatness)
                reference = fineReference(path, clip: kind == .ellipseClip, scale: scale)
            case .roundedRectFill, .roundedRectClip:
                // A corner's arc crosses the window: the corner's centre is `center`.
                let w = 2 * r + radius(), h = 2 * r + radius()
                let x0 = center.x - dr, y0 = center.y - dr
                shape = .roundedRect(x0: x0, y0: y0, x1: x0 + w * scale, y1: y0 + h * scale, rho: dr)
                let path = CGPath(roundedRect: CGRect(x: x0 / scale, y: y0 / scale, width: w, height: h),
                                  cornerWidth: r, cornerHeight: r, transform: nil)
                got = draw(path, clip: kind == .roundedRectClip, scale: scale, flatness: flatness)
                reference = fineReference(path, clip: kind == .roundedRectClip, scale: scale)
            case .ringStroke:
                let w = min(r, 1 + 20 * rng.nextUnit())
                shape = .difference(.ellipse(cx: center.x, cy: center.y, rx: dr + w * scale / 2, ry: dr + w * scale / 2),
                                    .ellipse(cx: center.x, cy: center.y, rx: dr - w * scale / 2, ry: dr - w * scale / 2))
                got = render(scale: scale, offset: .zero, flatness: flatness) { ctx in
                    ctx.setLineWidth(w)
                    ctx.strokeEllipse(in: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
                }
            case .roundedRectStroke:
                let w = min(2 * r, 1 + 20 * rng.nextUnit())
                let side = 2 * r + radius()
                let x0 = center.x - dr, y0 = center.y - dr, x1 = x0 + side * scale, y1 = y0 + side * scale
                let hw = w * scale / 2
                shape = .difference(.roundedRect(x0: x0 - hw, y0: y0 - hw, x1: x1 + hw, y1: y1 + hw, rho: dr + hw),
                                    .roundedRect(x0: x0 + hw, y0: y0 + hw, x1: x1 - hw, y1: y1 - hw, rho: dr - hw))
                got = render(scale: scale, offset: .zero, flatness: flatness) { ctx in
                    ctx.setLineWidth(w)
                    ctx.addPath(CGPath(roundedRect: CGRect(x: x0 / scale, y: y0 / scale, width: side, height: side),
                                       cornerWidth: r, cornerHeight: r, transform: nil))
                    ctx.strokePath()
                }
            case .roundCaps:
                // A horizontal segment whose round cap is centred at `center`, width 2r.
                let length = radius()
                let hw = dr
                shape = .roundedRect(x0: center.x - hw, y0: center.y - hw, x1: center.x + length * scale + hw,
                                     y1: center.y + hw, rho: hw)
                got = render(scale: scale, offset: .zero, flatness: flatness) { ctx in
                    ctx.setLineWidth(2 * r)
                    ctx.setLineCap(.round)
                    ctx.strokeLineSegments(between: [c, CGPoint(x: c.x + length, y: c.y)])
                }
            case .roundJoins:
                // A rectangle with a corner at `center`, stroked 2r wide with round joins.
                let side = radius() + 2 * r
                let hw = dr
                let x1 = center.x + side * scale, y1 = center.y + side * scale
                shape = .difference(.roundedRect(x0: center.x - hw, y0: center.y - hw, x1: x1 + hw, y1: y1 + hw, rho: hw),
                                    .roundedRect(x0: center.x + hw, y0: center.y + hw, x1: x1 - hw, y1: y1 - hw, rho: 0))
                got = render(scale: scale, offset: .zero, flatness: flatness) { ctx in
                    ctx.setLineWidth(2 * r)
                    ctx.setLineJoin(.round)
                    ctx.addLines(between: [c, CGPoint(x: c.x + side, y: c.y), CGPoint(x: c.x + side, y: c.y + side),
                                           CGPoint(x: c.x, y: c.y + side)])
                    ctx.closePath()
                    ctx.strokePath()
                }
            }
            worst.add(got, shape, name, reference: reference)
            geometric.add(got, shape, name)
        }
        return (worst, geometric)
    }

    /// `path` with every curve replaced by chords within 10⁻⁴ device px of it (2,048 per curve
    /// at most: within 2·10⁻⁴ px for a 1,500 px quarter circle), rasterized exactly as a polygon.
    static func fineReference(_ path: CGPath, clip: Bool, scale: CGFloat) -> [UInt8] {
        let fine = CGMutablePath()
        for line in path.polylines(tolerance: 1e-4 / scale) {
            fine.addLines(between: line.points)
            if line.isClosed { fine.closeSubpath() }
        }
        return draw(fine, clip: clip, scale: scale, flatness: nil).map { $0 }
    }

    /// Fills `path` (user space), or clips to it and fills the window.
    static func draw(_ path: CGPath, clip: Bool, scale: CGFloat, flatness: CGFloat?) -> [UInt8] {
        render(scale: scale, offset: .zero, flatness: flatness) { ctx in
            ctx.addPath(path)
            if clip {
                ctx.clip()
                ctx.fill(CGRect(x: -1, y: -1, width: CGFloat(size) / scale + 2, height: CGFloat(size) / scale + 2))
            } else {
                ctx.fillPath()
            }
        }
    }

    /// The flatness at which area-keeping chords hold 2 levels (docs/curves.md: 9 levels at
    /// CrispSVG's 0.05 px, 31 at the default 0.2 px).
    static let exactFlatness: CGFloat = 0.01

    /// Fills and clips, against the path's own curves; round caps and joins, against true circles.
    static let heldKinds: [Kind] = [.circleFill, .ellipseFill, .roundedRectFill, .circleClip, .ellipseClip, .roundedRectClip,
                                    .roundCaps, .roundJoins]

    @Test(arguments: heldKinds)
    func edgePixelsAreWithinTwoLevelsOfTheExactArea(_ kind: Kind) {
        let measured = Self.measure(kind, count: 90, seed: 0xC0FFEE ^ UInt64(Kind.allCases.firstIndex(of: kind)!),
                                    flatness: Self.exactFlatness)
        let worst = [.roundCaps, .roundJoins].contains(kind) ? measured.circle : measured.path
        #expect(worst.pixels > 1500, "\(kind): too few edge pixels measured (\(worst))")
        #expect(worst.error <= 2, "\(kind): \(worst)")
        // Chords inside the curve would leave every edge pixel short: a bias, not noise.
        #expect(abs(worst.signedMean) <= 0.25, "\(kind): \(worst)")
    }

    /// The reference itself: a disc's pixels sum to πr², and a pixel matches 1024×1024 sampling.
    @Test func theAnalyticAreaIsExact() {
        let disc = Shape.ellipse(cx: 20.3, cy: 19.6, rx: 13.7, ry: 13.7)
        var total = 0.0
        for py in 0..<Self.size { for px in 0..<Self.size { total += disc.area(px, py) } }
        #expect(abs(total - Double.pi * 13.7 * 13.7) < 1e-9)
        let rr = Shape.roundedRect(x0: 3.2, y0: 4.7, x1: 31.1, y1: 27.9, rho: 6.3)
        total = 0
        for py in 0..<Self.size { for px in 0..<Self.size { total += rr.area(px, py) } }
        #expect(abs(total - (27.9 * 23.2 - (4 - Double.pi) * 6.3 * 6.3)) < 1e-9)
        for (px, py) in [(9, 8), (7, 12), (25, 30)] {
            var hits = 0
            let n = 1024
            for sy in 0..<n {
                for sx in 0..<n {
                    let x = Double(px) + (Double(sx) + 0.5) / Double(n) - 20.3, y = Double(py) + (Double(sy) + 0.5) / Double(n) - 19.6
                    if x * x + y * y <= 13.7 * 13.7 { hits += 1 }
                }
            }
            #expect(abs(Double(hits) / Double(n * n) - disc.area(px, py)) < 2e-4, "pixel \(px),\(py)")
        }
    }

    /// Figures for docs/curves.md: the worst edge pixel per kind at several flatness values
    /// (`CRISP_CURVE_SWEEP=1`; prints only).
    @Test func flatnessSweep() {
        guard ProcessInfo.processInfo.environment["CRISP_CURVE_SWEEP"] == "1" else { return }
        for kind in Kind.allCases {
            for f in (ProcessInfo.processInfo.environment["CRISP_CURVE_FLATNESS"] ?? "0.2,0.1,0.05,0.03,0.02,0.01")
                .split(separator: ",").map({ CGFloat(Double($0)!) }) {
                let w = Self.measure(kind, count: 60, seed: 0xC0FFEE ^ UInt64(Kind.allCases.firstIndex(of: kind)!), flatness: f)
                print("SWEEP \(kind.rawValue) flatness \(f): against the path \(w.path); against the true shape \(w.circle)")
            }
        }
    }
}

