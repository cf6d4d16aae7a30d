import CCrispKernels
import Foundation

// Stage 1 of the rasterizer: segments → edges.
//
// Contract: `addLine(a, b)` takes a segment in raster coordinates (absolute device pixels, y
// down), any values (NaN and ±∞ included). It appends at most a few `Edge`s (24.8 fixed point,
// y0 < y1, direction ±1) and widens the outline's bounds (`minX`…`maxY`); it never fails and
// allocates only to grow the edge buffer. A segment that cannot reach a pixel of the clip box
// (wholly above, below or right of it, or horizontal) adds nothing; one wholly left of it is
// moved onto the box's left side; one reaching beyond ±2²¹ px is first clipped to that box.
// Everything else is kept whole: the sweep (Rasterizer+Accumulate.swift) clips exactly.

extension Rasterizer {
    // MARK: Building edges

    /// Adds a segment in raster coordinates (absolute pixels, y down). Segments that cannot
    /// reach a pixel of the clip box (wholly above, below or right of it) are dropped, and one
    /// wholly left of it is moved onto its left side (where it changes the winding of every
    /// pixel to its right exactly as before); the rest are kept whole, in fixed point: the sweep
    /// clips them exactly, row by row and column by column.
    func addLine(_ a: CGPoint, _ b: CGPoint) {
        segmentsOffered &+= 1
        guard a.y != b.y, !clipIsEmpty else { return }
        // The ordered copy of the segment is inlined twice rather than swapped in place: the
        // swap compiled to a vector blend of both points.
        if a.y > b.y { addDownward(b.x, b.y, a.x, a.y, -1) } else { addDownward(a.x, a.y, b.x, b.y, 1) }
    }

    /// `addLine` for a segment with y0 < y1 (or a NaN).
    @inline(__always)
    func addDownward(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        if y1 <= clipTop || y0 >= clipBottom { return }
        if x0 >= clipRight && x1 >= clipRight { return }
        let limit = Rasterizer.fixedLimit
        guard abs(x0) < limit, abs(x1) < limit, abs(y0) < limit, abs(y1) < limit else {
            addExtremeLine(x0, y0, x1, y1, direction)
            return
        }
        if x0 <= clipLeft && x1 <= clipLeft {
            appendEdge(clipLeft, y0, clipLeft, y1, direction)
        } else {
            appendEdge(x0, y0, x1, y1, direction)
        }
    }

    /// Adds a segment (`y0 < y1`, or a NaN) that reaches beyond ±2²¹ px: clipped to that box by
    /// the segment's parameter t, in forms that cannot overflow (halved differences, and
    /// `a·(1 − t) + b·t`). Left of the box only the winding counts (projected onto its left
    /// side), right of it nothing shows. The box is the same for every clip.
    func addExtremeLine(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        /// Where along the segment (0…1) the coordinate going from `p` to `q` reaches `v`.
        func parameter(_ v: CGFloat, _ p: CGFloat, _ q: CGFloat) -> CGFloat {
            min(max((v * 0.5 - p * 0.5) / (q * 0.5 - p * 0.5), 0), 1)
        }
        func mix(_ a: CGFloat, _ b: CGFloat, _ t: CGFloat) -> CGFloat { a * (1 - t) + b * t }
        let high = Rasterizer.fixedLimit.nextDown, low = -high
        // Vertically into the box: the y range is then moderate.
        let t0 = y0 < low ? parameter(low, y0, y1) : 0
        let t1 = y1 > high ? parameter(high, y0, y1) : 1
        var (ax, ay) = (mix(x0, x1, t0), y0 < low ? low : y0)
        var (bx, by) = (mix(x0, x1, t1), y1 > high ? high : y1)
        guard ay < by, ax.isFinite, bx.isFinite else { return }
        if ax <= low && bx <= low { addDownward(low, ay, low, by, direction); return }
        if ax >= high && bx >= high { return }
        if (ax < low) != (bx < low) {
            let y = mix(ay, by, parameter(low, ax, bx))
            if ax < low { addDownward(low, ay, low, y, direction); (ax, ay) = (low, y) } else {
                addDownward(low, y, low, by, direction); (bx, by) = (low, y)
            }
        }
        if (ax > high) != (bx > high) {
            let y = mix(ay, by, parameter(high, ax, bx))
            if ax > high { (ax, ay) = (high, y) } else { (bx, by) = (high, y) }
        }
        guard ay < by else { return }
        addDownward(min(max(ax, low), high), ay, min(max(bx, low), high), by, direction)
    }

    /// A coordinate (within ±2²¹ px) in 24.8 fixed point, rounded to nearest (ties to even):
    /// adding 1.5·2⁵² leaves v·256 rounded to an integer in the low bits of the sum, so no
    /// conversion instruction (and none of its range checks) is needed.
    @inline(__always)
    static func fixed(_ v: CGFloat) -> Int32 {
        Int32(truncatingIfNeeded: (v * 256 + 6_755_399_441_055_744).bitPattern)
    }

    func appendEdge(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat, _ direction: Int32) {
        let fy0 = Rasterizer.fixed(y0), fy1 = Rasterizer.fixed(y1)
        // A piece less than 1/512 px high covers nothing at this precision.
        guard fy0 < fy1 else { return }
        let fx0 = Rasterizer.fixed(x0), fx1 = Rasterizer.fixed(x1)
        if edgeCount == edgeCapacity { growEdges() }
        (edges + edgeCount).initialize(to: Edge(x0: fx0, y0: fy0, x1: fx1, y1: fy1, direction: direction))
        edgeCount &+= 1
        minY = min(minY, fy0)
        maxY = max(maxY, fy1)
        minX = min(minX, min(fx0, fx1))
        maxX = max(maxX, max(fx0, fx1))
    }

    func growEdges() {
        let grown = UnsafeMutablePointer<Edge>.allocate(capacity: edgeCapacity * 2)
        grown.moveInitialize(from: edges, count: edgeCount)
        edges.deallocate()
        edges = grown
        edgeCapacity *= 2
    }
}
