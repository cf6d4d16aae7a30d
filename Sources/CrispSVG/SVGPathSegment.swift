import CrispGraphics
import Foundation

// Where markers go on a path and which way they point (SVG 2 §9.5.2 "path directionality" and
// §11.6.2 "marker positions").
//
// The vertices are the start of each subpath and the end of each segment (a closepath's end is
// its subpath's start); marker-start goes on the first vertex of the path, marker-end on the
// last, marker-mid on every other. A segment's direction at its start is towards the first of
// its control points and end that differs from its start point; at its end, from the last point
// before the end that differs from it. A zero-length segment has the direction of the segment
// before it in the subpath (at its end), else of the next one with a length (at its start), else
// points along +x. At a vertex between two segments a marker points along the bisector of the
// incoming and outgoing directions; at the start of a closed subpath the incoming segment is the
// closepath, and at the end of a closed subpath the outgoing segment is the subpath's first; an
// open subpath's first and last vertices use their single segment.
//
// An SVG arc is one segment although it is drawn as several curves: the path parser reports
// commands, not the curves it made of them (`SVGPathParser.segmentsUpToError`).

/// One command of a path, for placing markers.
struct SVGPathSegment {
    enum Kind { case move, draw, close }
    var kind: Kind
    var start: CGPoint
    var end: CGPoint
    /// The curve's control points (none for a line).
    var controls: [CGPoint] = []

    /// The direction at the start; nil for a segment without length.
    var startDirection: CGPoint? {
        for p in controls + [end] where p != start { return CGPoint(x: p.x - start.x, y: p.y - start.y) }
        return nil
    }

    /// The direction at the end; nil for a segment without length.
    var endDirection: CGPoint? {
        for p in ([start] + controls).reversed() where p != end { return CGPoint(x: end.x - p.x, y: end.y - p.y) }
        return nil
    }

    /// A marker position: the vertex and the marker's angle in degrees.
    struct Vertex {
        var point: CGPoint
        var angle: CGFloat
    }

    /// The marker vertices of `segments` in order.
    static func vertices(_ segments: [SVGPathSegment]) -> [Vertex] {
        // Subpaths: a move and the drawn segments after it.
        var subpaths: [[SVGPathSegment]] = []
        for s in segments {
            if s.kind == .move || subpaths.isEmpty { subpaths.append([]) }
            subpaths[subpaths.count - 1].append(s)
        }
        var result: [Vertex] = []
        for subpath in subpaths {
            let drawn = subpath.filter { $0.kind != .move }
            let startPoint = subpath[0].start
            guard !drawn.isEmpty else {
                // A lone moveto: one vertex pointing along +x.
                result.append(Vertex(point: startPoint, angle: 0))
                continue
            }
            // Directions with zero-length segments filled in from their neighbours.
            var starts = drawn.map(\.startDirection), ends = drawn.map(\.endDirection)
            for k in drawn.indices where starts[k] == nil {
                let before = drawn[..<k].lastIndex { $0.endDirection != nil }.flatMap { ends[$0] }
                let after = drawn[(k + 1)...].firstIndex { $0.startDirection != nil }.flatMap { starts[$0] }
                starts[k] = before ?? after ?? CGPoint(x: 1, y: 0)
                ends[k] = starts[k]
            }
            let closed = drawn.last!.kind == .close
            func angle(_ d: CGPoint?) -> CGFloat { d.map { atan2($0.y, $0.x) * 180 / .pi } ?? 0 }
            func bisector(_ incoming: CGPoint?, _ outgoing: CGPoint?) -> CGFloat {
                let a = angle(incoming), b = angle(outgoing)
                var d = b - a
                while d > 180 { d -= 360 }
                while d <= -180 { d += 360 }
                return a + d / 2
            }
            result.append(Vertex(point: startPoint, angle: closed ? bisector(ends.last!, starts[0]) : angle(starts[0])))
            for k in drawn.indices {
                let outgoing: CGPoint? = k + 1 < drawn.count ? starts[k + 1] : (closed ? starts[0] : nil)
                let a = outgoing.map { bisector(ends[k], $0) } ?? angle(ends[k])
                result.append(Vertex(point: drawn[k].end, angle: a))
            }
        }
        return result
    }
}
