import Foundation

// Packing circles of given sizes into a rectangle of any shape, so a bubble chart reflows for
// every screen, call bar and window size.
//
// Greedy placement, largest first: each circle goes to the free position, touching one or two
// circles already placed, that is nearest the middle by an elliptical measure stretched to the
// rectangle's shape — (x / width)² + (y / height)² — so the cluster grows as a blob of the
// rectangle's proportions rather than a disc. Candidates are the points touching two placed
// circles (the two intersections of their radius-grown circles) and, for the first few, twelve
// points around each one; a candidate is kept when it overlaps nothing. The cluster is then
// scaled uniformly to fill the rectangle and centred.
//
// Rejected: the front-chain packing of Wang et al. (as in d3's packSiblings), which is faster
// (linear in practice) but always grows a round cluster, wasting a tall phone screen's top and
// bottom; and a hexagonal grid, which wastes the room between unequal circles. With at most
// sixty circles the greedy search (about n³/2 pair candidates, pruned by distance) takes a few
// milliseconds and runs only when the screen changes shape.

/// Where circles go so they fill a rectangle without overlapping.
public enum BubblePacking {
    /// The packed circles: centres in the rectangle's coordinates and the factor their radii
    /// were scaled by.
    public struct Result: Equatable, Sendable {
        /// The centre of each circle, in the order of the radii given.
        public var centers: [CGPoint]
        /// Points per unit of the radii given: circle i's radius is `radii[i] · scale`.
        public var scale: CGFloat
    }

    /// Packs circles of `radii` (any unit; only their proportions count) into `rect`, keeping
    /// `gap` (in units of the radii) between neighbours and `margin` points inside the rectangle.
    /// Empty for no radii, and all centred with scale 0 when the rectangle has no room.
    public static func pack(radii: [CGFloat], in rect: CGRect, gap: CGFloat, margin: CGFloat) -> Result {
        guard !radii.isEmpty else { return Result(centers: [], scale: 0) }
        let width = max(rect.width - 2 * margin, 0), height = max(rect.height - 2 * margin, 0)
        guard width > 0, height > 0, radii.allSatisfy({ $0.isFinite && $0 > 0 }) else {
            return Result(centers: radii.map { _ in CGPoint(x: rect.midX, y: rect.midY) }, scale: 0)
        }
        let grown = radii.map { $0 + gap / 2 }
        let order = radii.indices.sorted { radii[$0] != radii[$1] ? radii[$0] > radii[$1] : $0 < $1 }
        var centers = [CGPoint](repeating: .zero, count: radii.count)
        var placed: [Int] = []
        func measure(_ p: CGPoint) -> CGFloat { (p.x / width) * (p.x / width) + (p.y / height) * (p.y / height) }
        func isFree(_ p: CGPoint, _ r: CGFloat) -> Bool {
            for j in placed {
                let dx = p.x - centers[j].x, dy = p.y - centers[j].y, d = r + grown[j] - 1e-9
                if dx * dx + dy * dy < d * d { return false }
            }
            return true
        }
        for i in order {
            let r = grown[i]
            guard !placed.isEmpty else {
                placed.append(i)
                continue
            }
            var best: (point: CGPoint, measure: CGFloat)?
            func consider(_ p: CGPoint) {
                let m = measure(p)
                if let b = best, m >= b.measure { return }
                if isFree(p, r) { best = (p, m) }
            }
            for (ai, a) in placed.enumerated() {
                for b in placed[(ai + 1)...] {
                    let ra = grown[a] + r, rb = grown[b] + r
                    let dx = centers[b].x - centers[a].x, dy = centers[b].y - centers[a].y
                    let d2 = dx * dx + dy * dy, d = d2.squareRoot()
                    guard d > 0, d <= ra + rb, d >= abs(ra - rb) else { continue }
                    // The two points at distance ra from a and rb from b.
                    let along = (d2 + ra * ra - rb * rb) / (2 * d)
                    let h = max(ra * ra - along * along, 0).squareRoot()
                    let mx = centers[a].x + dx * along / d, my = centers[a].y + dy * along / d
                    consider(CGPoint(x: mx - dy * h / d, y: my + dx * h / d))
                    consider(CGPoint(x: mx + dy * h / d, y: my - dx * h / d))
                }
            }
            if best == nil || placed.count < 3 {
                for a in placed {
                    for k in 0..<12 {
                        let angle = CGFloat(k) * .pi / 6
                        let reach = grown[a] + r
                        consider(CGPoint(x: centers[a].x + reach * cos(angle), y: centers[a].y + reach * sin(angle)))
                    }
                }
            }
            // Some twelve-point ring always has a free point; if not, beside everything.
            centers[i] = best?.point ?? CGPoint(x: placed.map { centers[$0].x + grown[$0] }.max()! + r, y: 0)
            placed.append(i)
        }
        // Scale the cluster (circles with half a gap around them) to fill the rectangle, centred.
        var box = CGRect.null
        for i in radii.indices {
            box = box.union(CGRect(x: centers[i].x - grown[i], y: centers[i].y - grown[i], width: 2 * grown[i], height: 2 * grown[i]))
        }
        let scale = min(width / box.width, height / box.height)
        let ox = rect.midX - box.midX * scale, oy = rect.midY - box.midY * scale
        return Result(centers: centers.map { CGPoint(x: ox + $0.x * scale, y: oy + $0.y * scale) }, scale: scale)
    }
}
