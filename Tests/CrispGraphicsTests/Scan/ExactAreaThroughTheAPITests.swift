import CrispGraphics
import Foundation
import Testing

/// Issue 32's bar through the public API only, as a user draws: circles, ellipses and rounded
/// rectangles of radius 2…500 pt at 1×, 2× and 3× (a scaled CTM, so up to 1,500 px), at random
/// sub-pixel positions from a seeded generator, filled, used as a clip, and stroked; and
/// round-capped and round-joined segments. Each is drawn in a 40×40 alpha-only context on a
/// random part of its edge, and every pixel must be within 2 levels of 255 of the exact covered
/// area (both images 8-bit, so that includes the reference's own rounding). Chords at the default
/// flatness miss by 55–66 levels here, so this fails if the default goes back to them.
///
/// References:
/// - fills and clips: the path's own curves (read back with `applyWithBlock`) as a polygon within
///   10⁻⁴ px, filled in device space (a polygon is drawn by its exact area). `addEllipse` makes
///   four cubics, as CoreGraphics does, which lie up to 2.7·10⁻⁴·r outside the true circle
///   (0.4 px at r = 1,500 px): the bar is the exact area of the path the user built;
/// - strokes of those shapes (at flatness 0.005 px: a stroked curve's sides are still offsets of
///   its flattened centre line, docs/curves.md): that polygon moved out and in by the half-width
///   (a ring, the pen at most 0.9 of the smallest radius of curvature so the inner side has no
///   swallowtail);
/// - caps and joins: the union of the segments' capsules, integrated by scanlines (256 a pixel,
///   each capsule's chord exact), since a polygon union would put two edges through the pixels
///   where the capsules' boundaries meet at a tangent, and an area-accumulating rasterizer adds
///   those (non-zero reads 2·f there).
@Suite struct ExactAreaThroughTheAPITests {
    static let size = 40

    static func context() -> CGContext {
        CGContext(data: nil, width: size, height: size, bitsPerComponent: 8, bytesPerRow: size,
                  space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue)!
    }

    static func alpha(_ ctx: CGContext) -> [UInt8] {
        let bytes = ctx.data!.assumingMemoryBound(to: UInt8.self)
        return (0..<(size * size)).map { bytes[($0 / size) * ctx.bytesPerRow + $0 % size] }
    }


    /// Points on the ellipse arc centred at `c` with radii `rx`, `ry` from angle `a0` to `a1`
    /// (radians, y down as the context's device space), every chord's sagitta under 10⁻⁴ px.
    static func arc(_ c: CGPoint, _ rx: CGFloat, _ ry: CGFloat, _ a0: CGFloat, _ a1: CGFloat) -> [CGPoint] {
        let r = max(rx, ry, 1e-9)
        let step = (8e-4 / r).squareRoot()
        let n = max(1, Int((abs(a1 - a0) / step).rounded(.up)))
        return (0...n).map { k in
            let a = a0 + (a1 - a0) * CGFloat(k) / CGFloat(n)
            return CGPoint(x: c.x + rx * cos(a), y: c.y + ry * sin(a))
        }
    }

    enum Shape: String, CaseIterable, Sendable { case circle, ellipse, roundedRect }

    /// A random shape of `kind` in user space (`scale` device px per unit) crossing the window,
    /// and the path's own outline as a polygon in device space.
    static func shape(_ kind: Shape, scale: CGFloat, _ rng: inout SplitMix64) -> (CGPath, [CGPoint]) {
        let r = 2 * pow(250, rng.nextUnit())  // user units
        let angle = 2 * CGFloat.pi * rng.nextUnit()
        let edge = CGPoint(x: CGFloat(size) * (1 + rng.nextUnit()) / 3 / scale, y: CGFloat(size) * (1 + rng.nextUnit()) / 3 / scale)
        let path = CGMutablePath()
        switch kind {
        case .circle, .ellipse:
            let ry = kind == .circle ? r : r * (0.3 + 0.6 * rng.nextUnit())
            let c = CGPoint(x: edge.x - r * cos(angle), y: edge.y - ry * sin(angle))
            path.addEllipse(in: CGRect(x: c.x - r, y: c.y - ry, width: 2 * r, height: 2 * ry))
        case .roundedRect:
            let w = r * (2.2 + 3 * rng.nextUnit()), h = r * (2.2 + 3 * rng.nextUnit())
            let c = CGPoint(x: edge.x - r * cos(angle), y: edge.y - r * sin(angle))
            let rect = CGRect(x: cos(angle) >= 0 ? c.x + r - w : c.x - r, y: sin(angle) >= 0 ? c.y + r - h : c.y - r,
                              width: w, height: h)
            path.addRoundedRect(in: rect, cornerWidth: r, cornerHeight: r)
        }
        return (path, polygon(of: path, scale: scale))
    }

    /// The path's one closed subpath as a polygon in device space (× `scale`), each cubic within
    /// 10⁻⁴ px (n steps with the second-difference bound ¾·|Δ²|/n² ≤ tol), the first point
    /// repeated at the end.
    static func polygon(of path: CGPath, scale: CGFloat) -> [CGPoint] {
        var points: [CGPoint] = []
        path.applyWithBlock { element in
            let e = element.pointee
            func device(_ p: CGPoint) -> CGPoint { CGPoint(x: p.x * scale, y: p.y * scale) }
            switch e.type {
            case .moveToPoint, .addLineToPoint:
                points.append(device(e.points[0]))
            case .addCurveToPoint:
                let p0 = points[points.count - 1], p1 = device(e.points[0]), p2 = device(e.points[1]), p3 = device(e.points[2])
                let m = max(hypot(p0.x - 2 * p1.x + p2.x, p0.y - 2 * p1.y + p2.y), hypot(p1.x - 2 * p2.x + p3.x, p1.y - 2 * p2.y + p3.y))
                let n = max(1, Int((0.75 * m / 1e-4).squareRoot().rounded(.up)))
                for k in 1...n {
                    let t = CGFloat(k) / CGFloat(n), u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    points.append(CGPoint(x: a * p0.x + b * p1.x + c * p2.x + d * p3.x, y: a * p0.y + b * p1.y + c * p2.y + d * p3.y))
                }
            case .addQuadCurveToPoint:
                Issue.record("no quadratics expected")
            case .closeSubpath:
                break
            @unknown default:
                break
            }
        }
        if let first = points.first, let last = points.last, hypot(first.x - last.x, first.y - last.y) > 1e-9 {
            points.append(first)
        }
        return points
    }

    /// Fills the device-space polygons, non-zero (the reference).
    static func reference(_ polygons: [[CGPoint]]) -> [UInt8] {
        let ctx = context()
        for polygon in polygons {
            ctx.move(to: polygon[0])
            for p in polygon.dropFirst() { ctx.addLine(to: p) }
            ctx.closePath()
        }
        ctx.setFillColor(gray: 0, alpha: 1)
        ctx.fillPath()
        return alpha(ctx)
    }

    static func compare(_ got: [UInt8], _ want: [UInt8], _ what: String, _ worst: inout (Int, String)) {
        for k in 0..<(size * size) {
            let e = abs(Int(got[k]) - Int(want[k]))
            if e > worst.0 { worst = (e, "\(what), pixel \(k % size),\(k / size): \(got[k]) for \(want[k])") }
        }
    }

    enum Use: String, CaseIterable, Sendable { case fill, clip, stroke }

    @Test(arguments: Use.allCases)
    func shapesWithinTwoLevels(_ use: Use) {
        var rng = SplitMix64(seed: [Use.fill: 3201, .clip: 3202, .stroke: 3205][use]!)
        var worst = (0, "")
        for kind in Shape.allCases {
            for i in 0..<30 {
                let scale = CGFloat(1 + i % 3)
                let penUnit = rng.nextUnit()
                let (path, polygon) = Self.shape(kind, scale: scale, &rng)
                let ctx = Self.context()
                ctx.scaleBy(x: scale, y: scale)
                ctx.setFillColor(gray: 0, alpha: 1)
                ctx.setStrokeColor(gray: 0, alpha: 1)
                ctx.addPath(path)
                var reference = [polygon]
                var detail = ""
                switch use {
                case .fill:
                    ctx.fillPath()
                case .clip:
                    ctx.clip()
                    ctx.fill(CGRect(x: -1, y: -1, width: CGFloat(Self.size) + 2, height: CGFloat(Self.size) + 2))
                case .stroke:
                    // A pen of half-width 0.25 px … 0.9 of the smallest radius of curvature (so
                    // the inner side is the inner offset curve, no swallowtail), at least 0.25 px.
                    let w = Self.penHalfWidth(penUnit, for: polygon)
                    ctx.setLineWidth(2 * w / scale)
                    // A stroked curve's sides are the offsets of its centre line flattened at
                    // the flatness (round caps and joins are exact arcs whatever it is): within
                    // 2 levels at 0.005 px, the rasterizer's own curve tolerance. At the default
                    // 0.2 px a side can sit 0.2 px (51 levels) inside; curves for the sides are next.
                    ctx.setFlatness(0.005)
                    ctx.strokePath()
                    reference = [Self.offset(polygon, by: w), Self.offset(polygon, by: -w).reversed()]
                    detail = String(format: " half-width %.3f px, smallest radius %.3f px, box %.3f x %.3f px", w, Self.smallestRadius(polygon), path.boundingBox.width * scale, path.boundingBox.height * scale)
                }
                Self.compare(Self.alpha(ctx), Self.reference(reference), "\(use) \(kind) #\(i) @\(Int(scale))x\(detail)", &worst)
            }
        }
        print("ExactAreaThroughTheAPITests \(use): worst \(worst.0) levels (\(worst.1))")
        #expect(worst.0 <= 2, "\(worst.1)")
    }

    /// A polygon's smallest radius of curvature at its vertices (three consecutive points'
    /// circumradius; straight runs count as infinite).
    static func smallestRadius(_ polygon: [CGPoint]) -> CGFloat {
        var smallest = CGFloat.infinity
        let n = polygon.count - 1  // the first point is repeated at the end for closed shapes
        for i in 0..<n {
            let a = polygon[(i + n - 1) % n], b = polygon[i], c = polygon[(i + 1) % n]
            let cross = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            guard abs(cross) > 1e-12 else { continue }
            let ab = hypot(b.x - a.x, b.y - a.y), bc = hypot(c.x - b.x, c.y - b.y), ca = hypot(a.x - c.x, a.y - c.y)
            smallest = min(smallest, ab * bc * ca / (2 * abs(cross)))
        }
        return smallest
    }

    /// A half-width in device px for the unit `u`: 0.25 px up to 0.9 of the smallest radius.
    static func penHalfWidth(_ u: CGFloat, for polygon: [CGPoint]) -> CGFloat {
        let most = max(0.3, 0.9 * smallestRadius(polygon))
        return 0.25 * pow(most / 0.25, u)
    }

    /// The closed polygon (first point repeated last, counter-clockwise in y-down device space as
    /// `arc` makes it) moved `d` px along its outward normals: each vertex along the bisector of
    /// its two edges' normals, by d / cos(half the turn).
    static func offset(_ polygon: [CGPoint], by d: CGFloat) -> [CGPoint] {
        let n = polygon.count - 1
        var out: [CGPoint] = []
        for i in 0...n {
            let a = polygon[(i % n + n - 1) % n], b = polygon[i % n], c = polygon[(i % n + 1) % n]
            func normal(_ p: CGPoint, _ q: CGPoint) -> CGPoint {
                let l = hypot(q.x - p.x, q.y - p.y)
                return l > 0 ? CGPoint(x: (q.y - p.y) / l, y: -(q.x - p.x) / l) : .zero
            }
            let n1 = normal(a, b), n2 = normal(b, c)
            var m = CGPoint(x: n1.x + n2.x, y: n1.y + n2.y)
            let dot = m.x * n1.x + m.y * n1.y
            m = dot > 1e-9 ? CGPoint(x: m.x / dot, y: m.y / dot) : n1
            out.append(CGPoint(x: b.x + d * m.x, y: b.y + d * m.y))
        }
        return out
    }

    /// The coverage of the union of the capsules (half-width `w`) around the polyline's segments
    /// (device space), by 256 scanlines a pixel row: on each, a capsule is one interval (its two
    /// end discs and its rectangle, a convex set), the union of the intervals is taken, and its
    /// length in each pixel is exact.
    static func capsuleUnion(_ points: [CGPoint], halfWidth w: CGFloat) -> [UInt8] {
        var area = [Double](repeating: 0, count: size * size)
        let lines = 256
        for row in 0..<size {
            for k in 0..<lines {
                let y = CGFloat(row) + (CGFloat(k) + 0.5) / CGFloat(lines)
                var spans: [(CGFloat, CGFloat)] = []
                for i in 1..<points.count {
                    let p = points[i - 1], q = points[i]
                    var lo = CGFloat.infinity, hi = -CGFloat.infinity
                    for c in [p, q] where abs(y - c.y) < w {
                        let h = (w * w - (y - c.y) * (y - c.y)).squareRoot()
                        lo = min(lo, c.x - h); hi = max(hi, c.x + h)
                    }
                    // The rectangle p ± n·w → q ± n·w: where the scanline crosses its sides.
                    let len = hypot(q.x - p.x, q.y - p.y)
                    let n = CGPoint(x: -(q.y - p.y) / len * w, y: (q.x - p.x) / len * w)
                    let corners = [CGPoint(x: p.x + n.x, y: p.y + n.y), CGPoint(x: q.x + n.x, y: q.y + n.y),
                                   CGPoint(x: q.x - n.x, y: q.y - n.y), CGPoint(x: p.x - n.x, y: p.y - n.y)]
                    for j in 0..<4 {
                        let a = corners[j], b = corners[(j + 1) % 4]
                        guard (a.y <= y) != (b.y <= y) else { continue }
                        let x = a.x + (y - a.y) / (b.y - a.y) * (b.x - a.x)
                        lo = min(lo, x); hi = max(hi, x)
                    }
                    if lo < hi { spans.append((lo, hi)) }
                }
                spans.sort { $0.0 < $1.0 }
                var merged: [(CGFloat, CGFloat)] = []
                for s in spans {
                    if let last = merged.last, s.0 <= last.1 { merged[merged.count - 1].1 = max(last.1, s.1) } else { merged.append(s) }
                }
                for (a, b) in merged {
                    let x0 = max(a, 0), x1 = min(b, CGFloat(size))
                    guard x0 < x1 else { continue }
                    var x = Int(x0.rounded(.down))
                    while CGFloat(x) < x1, x < size {
                        let covered = min(x1, CGFloat(x + 1)) - max(x0, CGFloat(x))
                        // Memory rows run from the top; device y runs up.
                        area[(size - 1 - row) * size + x] += Double(covered) / Double(lines)
                        x += 1
                    }
                }
            }
        }
        return area.map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    }

    /// A polyline whose stroke puts a random part of its round end cap (`isCap`, a segment, the
    /// edge point up to 80° off the direction of travel) or of its round join's outer arc (two
    /// segments turning 30–150°, the edge point around the bisector) on `edge`; any consistent
    /// units. `unit` draws the random numbers (0 ≤ u < 1), in an order the seeded tests keep.
    static func pen(isCap: Bool, halfWidth w: CGFloat, edge: CGPoint, heading: CGFloat, unit: () -> CGFloat) -> [CGPoint] {
        if isCap {
            let off = (unit() - 0.5) * 1.6 * CGFloat.pi / 2
            let end = CGPoint(x: edge.x - w * cos(heading + off), y: edge.y - w * sin(heading + off))
            let length = w * (0.5 + 3 * unit())
            return [CGPoint(x: end.x - length * cos(heading), y: end.y - length * sin(heading)), end]
        }
        let turn = (CGFloat.pi / 6 + unit() * 2 * CGFloat.pi / 3) * (unit() < 0.5 ? 1 : -1)
        let d1 = CGPoint(x: cos(heading), y: sin(heading)), d2 = CGPoint(x: cos(heading + turn), y: sin(heading + turn))
        let bisector = atan2(d1.y - d2.y, d1.x - d2.x) + (unit() - 0.5) * 0.8 * abs(turn)
        let vertex = CGPoint(x: edge.x - w * cos(bisector), y: edge.y - w * sin(bisector))
        let l1 = w * (1.5 + 3 * unit()), l2 = w * (1.5 + 3 * unit())
        return [CGPoint(x: vertex.x - l1 * d1.x, y: vertex.y - l1 * d1.y), vertex,
                CGPoint(x: vertex.x + l2 * d2.x, y: vertex.y + l2 * d2.y)]
    }

    enum Pen: String, CaseIterable, Sendable { case cap, join }

    /// Round caps (a segment's end) and round joins (the outer arc of a polyline's turn of
    /// 30–150°). Reference: the stroke as the union of the segments' capsules; a later segment's
    /// capsule starts straight across (its round start would be the earlier one's round end
    /// again, and coincident arcs add their areas in an area-accumulating rasterizer).
    @Test(arguments: Pen.allCases)
    func roundCapsAndJoinsWithinTwoLevels(_ pen: Pen) {
        var rng = SplitMix64(seed: pen == .cap ? 3203 : 3204)
        var worst = (0, "")
        for i in 0..<40 {
            let scale = CGFloat(1 + i % 3)
            let w = 2 * pow(250, rng.nextUnit())  // half-width, user units
            let edge = CGPoint(x: CGFloat(Self.size) * (1 + rng.nextUnit()) / 3 / scale,
                               y: CGFloat(Self.size) * (1 + rng.nextUnit()) / 3 / scale)
            let heading = 2 * CGFloat.pi * rng.nextUnit()
            let points = Self.pen(isCap: pen == .cap, halfWidth: w, edge: edge, heading: heading) { rng.nextUnit() }
            let ctx = Self.context()
            ctx.scaleBy(x: scale, y: scale)
            ctx.setStrokeColor(gray: 0, alpha: 1)
            ctx.setLineWidth(2 * w)
            ctx.setLineCap(.round)
            ctx.setLineJoin(.round)
            ctx.move(to: points[0])
            for p in points.dropFirst() { ctx.addLine(to: p) }
            ctx.strokePath()
            let device = points.map { CGPoint(x: $0.x * scale, y: $0.y * scale) }
            let want = Self.capsuleUnion(device, halfWidth: w * scale)
            Self.compare(Self.alpha(ctx), want, "\(pen) #\(i) w \(w) @\(Int(scale))x", &worst)
        }
        print("ExactAreaThroughTheAPITests \(pen): worst \(worst.0) levels (\(worst.1))")
        #expect(worst.0 <= 2, "\(worst.1)")
    }
}
