import CrispGraphics
import Foundation

/// A path measured by arc length, for `textPath`: points and directions at a distance along it.
/// Curves are flattened into 32 chords each; a moveto jumps without adding length, as SVG says.
struct SVGTextPath {
    private var points: [CGPoint] = []
    /// The distance along the path at each point.
    private var distances: [CGFloat] = []
    /// Whether each point starts a subpath (the chord into it is a jump, not measured).
    private var jumps: [Bool] = []
    /// The start offset (`startOffset`), in user units.
    var startOffset: CGFloat = 0

    var length: CGFloat { distances.last ?? 0 }

    init(_ path: CGPath, reversed: Bool) {
        var polyline: [(CGPoint, Bool)] = []
        var current = CGPoint.zero, start = CGPoint.zero
        func add(_ p: CGPoint, jump: Bool) { polyline.append((p, jump)); current = p }
        for element in path.elements {
            switch element {
            case .moveTo(let p):
                add(p, jump: true)
                start = p
            case .lineTo(let p):
                add(p, jump: false)
            case .quadCurveTo(let p, let c):
                let p0 = current
                for k in 1...32 {
                    let t = CGFloat(k) / 32, u = 1 - t
                    add(CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y), jump: false)
                }
            case .curveTo(let p, let c1, let c2):
                let p0 = current
                for k in 1...32 {
                    let t = CGFloat(k) / 32, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    add(CGPoint(x: a * p0.x + b * c1.x + c * c2.x + d * p.x, y: a * p0.y + b * c1.y + c * c2.y + d * p.y), jump: false)
                }
            case .closeSubpath:
                add(start, jump: false)
            }
        }
        if reversed {
            // side="right": the same chords walked from the end; a jump now ends a subpath.
            var flipped: [(CGPoint, Bool)] = []
            for k in stride(from: polyline.count - 1, through: 0, by: -1) {
                flipped.append((polyline[k].0, k == polyline.count - 1 || polyline[k + 1].1))
            }
            polyline = flipped
        }
        var total: CGFloat = 0
        for (k, (p, jump)) in polyline.enumerated() {
            if k > 0 && !jump {
                let q = polyline[k - 1].0
                let step = ((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)).squareRoot()
                if step.isFinite { total += step }
            }
            points.append(p)
            distances.append(total)
            jumps.append(jump || k == 0)
        }
    }

    /// The point at distance `d` along the path and the direction there (radians), or nil
    /// off the path (before its start, past its end).
    func place(at d: CGFloat) -> (point: CGPoint, angle: CGFloat)? {
        guard d >= 0, d <= length, points.count > 1, d.isFinite else { return nil }
        // The first chord that reaches d (binary search on the distances).
        var lo = 1, hi = points.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if distances[mid] < d { lo = mid + 1 } else { hi = mid }
        }
        var k = lo
        // Skip jumps and chords without length.
        while k < points.count - 1, jumps[k] || distances[k] == distances[k - 1] { k += 1 }
        while k > 1, jumps[k] || distances[k] == distances[k - 1] { k -= 1 }
        guard !jumps[k], distances[k] > distances[k - 1] else { return nil }
        let a = points[k - 1], b = points[k]
        let t = min(max((d - distances[k - 1]) / (distances[k] - distances[k - 1]), 0), 1)
        return (CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), atan2(b.y - a.y, b.x - a.x))
    }
}
