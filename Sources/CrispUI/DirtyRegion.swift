import Foundation

// The area to repaint in the next frame, as a short list of pixel-aligned rectangles.
//
// Why a short list and not a true region (a y-x banded set of spans, as X11 and pixman keep):
// a frame's invalidations are few (a clock label, a moved marker, a resized view), and each
// rectangle costs one clipped traversal of the view tree and one present request, so what
// matters is keeping the count low without repainting much more than asked. Each new rectangle
// merges with an existing one when their bounding box is not much larger than the two areas
// together (the "waste" rule of damage trackers such as Weston's and Chromium's); when the list
// is full, the pair whose merge wastes least is merged. Rectangles snap outwards to whole pixels
// first, so an anti-aliased edge is always repainted whole.
//
// The areas the rule compares are what was asked for, not the boxes: a rectangle made by
// merging remembers the area of the rectangles it holds. Comparing boxes let merges cascade —
// each merged box, counted as wanted, made the next merge look cheap — so the dozen themed
// controls of a theme fade, scattered over a retina iPad, merged into one box of the whole
// screen, 2.3 times the area they asked for (overlaps counted twice).

/// A set of rectangles, in pixels, that need repainting; overlapping or nearby rectangles are
/// merged so a frame repaints few, compact areas.
public struct DirtyRegion: Equatable, Sendable {
    /// The rectangles, pixel-aligned, in the order they were first added.
    public private(set) var rects: [CGRect] = []
    /// For each rectangle, the area of the rectangles it was merged from (at most its own).
    private var wantedAreas: [CGFloat] = []

    /// The largest number of rectangles kept; beyond it the cheapest pair is merged.
    public var maximumCount: Int

    /// Merging two rectangles is accepted when the merged box's area is at most this factor
    /// times the sum of their areas (so two adjacent rects always merge, two far-apart ones not).
    public static let mergeWasteFactor: CGFloat = 1.5

    /// An empty region that keeps at most `maximumCount` rectangles (at least 1).
    public init(maximumCount: Int = 8) {
        precondition(maximumCount >= 1, "a dirty region keeps at least one rectangle")
        self.maximumCount = maximumCount
    }

    /// Whether nothing is dirty.
    public var isEmpty: Bool { rects.isEmpty }

    /// The bounding box of all rectangles (`.null` when empty).
    public var boundingBox: CGRect { rects.reduce(CGRect.null) { $0.union($1) } }

    /// Adds `rect` (pixels), snapped outwards to whole pixels and clipped to `limit`.
    public mutating func add(_ rect: CGRect, limit: CGRect) {
        guard rect.minX.isFinite, rect.minY.isFinite, rect.maxX.isFinite, rect.maxY.isFinite else { return }
        let s = rect.standardized
        let x0 = s.minX.rounded(.down), y0 = s.minY.rounded(.down)
        let r = CGRect(x: x0, y: y0, width: s.maxX.rounded(.up) - x0, height: s.maxY.rounded(.up) - y0).intersection(limit)
        guard !r.isNull, r.width > 0, r.height > 0 else { return }
        var pending = r, wanted = Self.area(r)
        // Merge with whatever it overlaps or cheaply joins, repeatedly (a merge can make the box
        // reach further rectangles).
        var merged = true
        while merged {
            merged = false
            for i in rects.indices where Self.shouldMerge(rects[i], wantedAreas[i], pending, wanted) {
                let union = pending.union(rects[i])
                wanted = min(wanted + wantedAreas[i], Self.area(union))
                pending = union
                rects.remove(at: i)
                wantedAreas.remove(at: i)
                merged = true
                break
            }
        }
        rects.append(pending)
        wantedAreas.append(wanted)
        while rects.count > maximumCount { mergeCheapestPair() }
    }

    /// Forgets every rectangle.
    public mutating func removeAll() {
        rects.removeAll(keepingCapacity: true)
        wantedAreas.removeAll(keepingCapacity: true)
    }

    static func area(_ r: CGRect) -> CGFloat { r.width * r.height }

    /// Whether boxes `a` and `b`, holding `wantedA` and `wantedB` of asked-for area, merge.
    static func shouldMerge(_ a: CGRect, _ wantedA: CGFloat, _ b: CGRect, _ wantedB: CGFloat) -> Bool {
        if a.contains(b) || b.contains(a) { return true }
        return area(a.union(b)) <= mergeWasteFactor * (wantedA + wantedB)
    }

    private mutating func mergeCheapestPair() {
        var best = (i: 0, j: 1, waste: CGFloat.infinity)
        for i in rects.indices {
            for j in rects.indices where j > i {
                let waste = Self.area(rects[i].union(rects[j])) - wantedAreas[i] - wantedAreas[j]
                if waste < best.waste { best = (i, j, waste) }
            }
        }
        let u = rects[best.i].union(rects[best.j])
        wantedAreas[best.i] = min(wantedAreas[best.i] + wantedAreas[best.j], Self.area(u))
        rects.remove(at: best.j)
        wantedAreas.remove(at: best.j)
        rects[best.i] = u
    }
}
