import Foundation

/// The kind of a path element, as `CGPathElementType`.
public enum CGPathElementType: Int32, Sendable {
    /// Starts a new subpath at `points[0]`.
    case moveToPoint = 0
    /// A straight line to `points[0]`.
    case addLineToPoint = 1
    /// A quadratic Bézier curve with control point `points[0]` to `points[1]`.
    case addQuadCurveToPoint = 2
    /// A cubic Bézier curve with control points `points[0]`, `points[1]` to `points[2]`.
    case addCurveToPoint = 3
    /// Closes the current subpath with a straight line back to its start.
    case closeSubpath = 4

    /// How many points an element of this kind carries.
    public var pointCount: Int {
        switch self {
        case .moveToPoint, .addLineToPoint: return 1
        case .addQuadCurveToPoint: return 2
        case .addCurveToPoint: return 3
        case .closeSubpath: return 0
        }
    }
}

/// One element of a path, as handed to `CGPath.applyWithBlock(_:)`.
public struct CGPathElement {
    /// What the element does.
    public var type: CGPathElementType
    /// The element's points (see `CGPathElementType` for how many and their meaning).
    public var points: UnsafeMutablePointer<CGPoint>
}

/// How a path's interior is decided when filling or clipping.
public enum CGPathFillRule: Int, Sendable {
    /// Non-zero winding number: a point is inside if paths wind around it a non-zero number of times.
    case winding = 0
    /// Even-odd: a point is inside if a ray from it crosses the path an odd number of times.
    case evenOdd = 1
}

/// The shape drawn at the open ends of a stroked subpath.
public enum CGLineCap: Int32, Sendable, CaseIterable {
    /// The stroke ends exactly at the end point.
    case butt = 0
    /// A half-disc of diameter line width is added at each end.
    case round = 1
    /// A half-square of side line width is added at each end.
    case square = 2
}

/// The shape drawn where two stroked segments meet.
public enum CGLineJoin: Int32, Sendable, CaseIterable {
    /// The outer edges are extended to meet, unless the miter limit is exceeded (then bevel).
    case miter = 0
    /// A circular arc of diameter line width joins the outer edges.
    case round = 1
    /// The outer corners are joined by a straight line.
    case bevel = 2
}

/// An immutable graphics path: subpaths of lines and quadratic and cubic Bézier curves.
///
/// As in CoreGraphics, `CGPath` is a reference type that cannot change once made, and
/// `CGMutablePath` is its mutable subclass. `copy()` of a `CGPath` is free; `mutableCopy()`
/// gives an independent `CGMutablePath`. Two paths are `==` when their elements are equal.
///
/// Elements are stored as a verb list and a point list; a new subpath starts with a move.
/// Like CoreGraphics, a line or curve added when there is no current point is ignored, and
/// drawing after `closeSubpath()` starts a new subpath at the closed subpath's start.
public class CGPath: Equatable, Hashable, CustomStringConvertible {
    // Appended to once per element; never accessed re-entrantly, so no dynamic exclusivity checks.
    @exclusivity(unchecked) var verbs: [CGPathElementType]
    @exclusivity(unchecked) var points: [CGPoint]
    /// Index in `points` of the current subpath's first point, or -1 when there is no subpath.
    var subpathStartIndex: Int
    /// Whether the last verb was `closeSubpath`.
    var isSubpathClosed: Bool

    init(verbs: [CGPathElementType], points: [CGPoint], subpathStartIndex: Int, isSubpathClosed: Bool) {
        self.verbs = verbs
        self.points = points
        self.subpathStartIndex = subpathStartIndex
        self.isSubpathClosed = isSubpathClosed
    }

    /// Creates an empty path.
    convenience init() { self.init(verbs: [], points: [], subpathStartIndex: -1, isSubpathClosed: false) }

    /// Creates a path that is a rectangle, optionally transformed.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let p = CGMutablePath()
        p.addRect(rect, transform: transform?.pointee ?? .identity)
        self.init(copying: p)
    }

    /// Creates a path that is an ellipse inscribed in `rect`, optionally transformed.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>? = nil) {
        let p = CGMutablePath()
        p.addEllipse(in: rect, transform: transform?.pointee ?? .identity)
        self.init(copying: p)
    }

    /// Creates a rounded-rectangle path, optionally transformed.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>? = nil) {
        let p = CGMutablePath()
        p.addRoundedRect(in: rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                         transform: transform?.pointee ?? .identity)
        self.init(copying: p)
    }

    init(copying other: CGPath) {
        verbs = other.verbs
        points = other.points
        subpathStartIndex = other.subpathStartIndex
        isSubpathClosed = other.isSubpathClosed
    }

    /// An immutable copy. For an immutable path this is the path itself.
    public func copy() -> CGPath? { type(of: self) == CGPath.self ? self : CGPath(copying: self) }

    /// An immutable copy of the path with every point transformed by `transform`.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let t = transform?.pointee else { return copy() }
        let p = CGPath(copying: self)
        for i in p.points.indices { p.points[i] = p.points[i].applying(t) }
        return p
    }

    /// A mutable copy.
    public func mutableCopy() -> CGMutablePath? { CGMutablePath(copying: self) }

    /// A mutable copy with every point transformed by `transform`.
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        let p = CGMutablePath(copying: self)
        if let t = transform?.pointee {
            for i in p.points.indices { p.points[i] = p.points[i].applying(t) }
        }
        return p
    }

    /// Whether the path has no elements.
    public var isEmpty: Bool { verbs.isEmpty }

    /// The current point: the last point of the path, or the start of a just-closed subpath.
    /// `.zero` for an empty path, as in CoreGraphics.
    public var currentPoint: CGPoint {
        if isSubpathClosed, subpathStartIndex >= 0 { return points[subpathStartIndex] }
        return points.last ?? .zero
    }

    /// Whether the path is a single closed or open rectangle made by `addRect`-style elements.
    /// When it is, `rect` receives the rectangle and `isRect` returns true.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        guard let r = axisAlignedRect() else { return false }
        rect?.pointee = r
        return true
    }

    /// The rectangle this path is, if it is exactly one axis-aligned rectangle
    /// (move + 3 or 4 lines, optionally closed).
    func axisAlignedRect() -> CGRect? {
        let n = verbs.count
        guard n >= 4, n <= 6, verbs[0] == .moveToPoint else { return nil }
        var corners = 1
        for i in 1..<n {
            switch verbs[i] {
            case .addLineToPoint: corners += 1
            case .closeSubpath where i == n - 1: break
            default: return nil
            }
        }
        var pts = Array(points.prefix(corners))
        if pts.count == 5 {
            guard pts[4] == pts[0] else { return nil }
            pts.removeLast()
        }
        guard pts.count == 4 else { return nil }
        let horizontalFirst = pts[0].y == pts[1].y && pts[1].x == pts[2].x && pts[2].y == pts[3].y && pts[3].x == pts[0].x
        let verticalFirst = pts[0].x == pts[1].x && pts[1].y == pts[2].y && pts[2].x == pts[3].x && pts[3].y == pts[0].y
        guard horizontalFirst || verticalFirst else { return nil }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    /// Calls `block` once per element, in order, as `CGPathApplyWithBlock` does.
    ///
    /// The element's point pointer is valid only during the call.
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        var scratch = [CGPoint](repeating: .zero, count: 3)
        var pointIndex = 0
        scratch.withUnsafeMutableBufferPointer { buf in
            for verb in verbs {
                let n = verb.pointCount
                for k in 0..<n { buf[k] = points[pointIndex + k] }
                pointIndex += n
                var element = CGPathElement(type: verb, points: buf.baseAddress!)
                withUnsafePointer(to: &element) { block($0) }
            }
        }
    }

    /// The path's elements as Swift values (a Crisp convenience; CoreGraphics offers only
    /// `applyWithBlock`).
    public var elements: [Element] {
        var result: [Element] = []
        result.reserveCapacity(verbs.count)
        var i = 0
        for verb in verbs {
            switch verb {
            case .moveToPoint: result.append(.moveTo(points[i]))
            case .addLineToPoint: result.append(.lineTo(points[i]))
            case .addQuadCurveToPoint: result.append(.quadCurveTo(points[i + 1], control: points[i]))
            case .addCurveToPoint:
                result.append(.curveTo(points[i + 2], control1: points[i], control2: points[i + 1]))
            case .closeSubpath: result.append(.closeSubpath)
            }
            i += verb.pointCount
        }
        return result
    }

    /// A path element as a Swift value.
    public enum Element: Equatable, Sendable {
        /// Starts a new subpath at the point.
        case moveTo(CGPoint)
        /// A straight line to the point.
        case lineTo(CGPoint)
        /// A quadratic curve to the first point, with the given control point.
        case quadCurveTo(CGPoint, control: CGPoint)
        /// A cubic curve to the first point, with the given control points.
        case curveTo(CGPoint, control1: CGPoint, control2: CGPoint)
        /// A straight line back to the subpath's first point, closing it.
        case closeSubpath
    }

    public static func == (lhs: CGPath, rhs: CGPath) -> Bool {
        lhs === rhs || (lhs.verbs == rhs.verbs && lhs.points == rhs.points)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(verbs.count)
        for p in points.prefix(16) { hasher.combine(p.x); hasher.combine(p.y) }
    }

    public var description: String { "CGPath(\(elements))" }
}

/// A mutable graphics path.
///
/// Every `add…` method takes an optional `transform` applied to the added points, as in
/// Apple's Swift overlay.
public final class CGMutablePath: CGPath {
    /// Creates an empty mutable path.
    public init() { super.init(verbs: [], points: [], subpathStartIndex: -1, isSubpathClosed: false) }

    override init(copying other: CGPath) { super.init(copying: other) }

    /// Starts a new subpath at `point`.
    ///
    /// A move that directly follows another move replaces it, as in CoreGraphics.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        let p = point.applying(transform)
        if verbs.last == .moveToPoint {
            points[points.count - 1] = p
        } else {
            verbs.append(.moveToPoint)
            points.append(p)
        }
        subpathStartIndex = points.count - 1
        isSubpathClosed = false
    }

    /// Makes sure a drawing element can be appended: false when there is no current point;
    /// after a close, re-opens a subpath at the closed subpath's start.
    private func prepareToDraw() -> Bool {
        guard subpathStartIndex >= 0 else { return false }
        if isSubpathClosed {
            let start = points[subpathStartIndex]
            verbs.append(.moveToPoint)
            points.append(start)
            subpathStartIndex = points.count - 1
            isSubpathClosed = false
        }
        return true
    }

    /// Adds a straight line from the current point to `point`. Ignored without a current point.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        guard prepareToDraw() else { return }
        verbs.append(.addLineToPoint)
        points.append(point.applying(transform))
    }

    /// Moves to the first point and adds lines through the rest.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        move(to: first, transform: transform)
        for p in points.dropFirst() { addLine(to: p, transform: transform) }
    }

    /// Adds a quadratic Bézier curve from the current point to `end`.
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        guard prepareToDraw() else { return }
        verbs.append(.addQuadCurveToPoint)
        points.append(control.applying(transform))
        points.append(end.applying(transform))
    }

    /// Adds a cubic Bézier curve from the current point to `end`.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        guard prepareToDraw() else { return }
        verbs.append(.addCurveToPoint)
        points.append(control1.applying(transform))
        points.append(control2.applying(transform))
        points.append(end.applying(transform))
    }

    /// Closes the current subpath (a line back to its start is implied). Ignored when there is
    /// no open subpath.
    public func closeSubpath() {
        guard subpathStartIndex >= 0, !isSubpathClosed else { return }
        verbs.append(.closeSubpath)
        isSubpathClosed = true
    }

    /// Adds a closed rectangle: a move to `(minX, minY)` and lines through `(maxX, minY)`,
    /// `(maxX, maxY)`, `(minX, maxY)`, as CoreGraphics does.
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        move(to: CGPoint(x: r.minX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.minY), transform: transform)
        addLine(to: CGPoint(x: r.maxX, y: r.maxY), transform: transform)
        addLine(to: CGPoint(x: r.minX, y: r.maxY), transform: transform)
        closeSubpath()
    }

    /// Adds each rectangle as its own closed subpath.
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// Adds a closed ellipse inscribed in `rect`, as four cubic curves starting at
    /// `(maxX, midY)` and running counter-clockwise in y-up space, as CoreGraphics does.
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let rx = r.width / 2, ry = r.height / 2, cx = r.midX, cy = r.midY
        let k = CGPath.quarterArcHandle
        let ox = rx * k, oy = ry * k
        move(to: CGPoint(x: cx + rx, y: cy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy + ry), control1: CGPoint(x: cx + rx, y: cy + oy),
                 control2: CGPoint(x: cx + ox, y: cy + ry), transform: transform)
        addCurve(to: CGPoint(x: cx - rx, y: cy), control1: CGPoint(x: cx - ox, y: cy + ry),
                 control2: CGPoint(x: cx - rx, y: cy + oy), transform: transform)
        addCurve(to: CGPoint(x: cx, y: cy - ry), control1: CGPoint(x: cx - rx, y: cy - oy),
                 control2: CGPoint(x: cx - ox, y: cy - ry), transform: transform)
        addCurve(to: CGPoint(x: cx + rx, y: cy), control1: CGPoint(x: cx + ox, y: cy - ry),
                 control2: CGPoint(x: cx + rx, y: cy - oy), transform: transform)
        closeSubpath()
    }

    /// Adds a closed rounded rectangle.
    ///
    /// Each corner is a quarter ellipse of radii `cornerWidth` × `cornerHeight`. CoreGraphics
    /// traps when a corner is larger than half the rectangle; Crisp clamps it instead, and a
    /// zero or negative corner gives a plain rectangle.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        let r = rect.standardized
        let cw = min(max(cornerWidth, 0), r.width / 2), ch = min(max(cornerHeight, 0), r.height / 2)
        guard cw > 0, ch > 0 else { addRect(r, transform: transform); return }
        let k = CGPath.quarterArcHandle
        let ox = cw * (1 - k), oy = ch * (1 - k)
        let (x0, x1, y0, y1) = (r.minX, r.maxX, r.minY, r.maxY)
        move(to: CGPoint(x: x0 + cw, y: y0), transform: transform)
        addLine(to: CGPoint(x: x1 - cw, y: y0), transform: transform)
        addCurve(to: CGPoint(x: x1, y: y0 + ch), control1: CGPoint(x: x1 - ox, y: y0),
                 control2: CGPoint(x: x1, y: y0 + oy), transform: transform)
        addLine(to: CGPoint(x: x1, y: y1 - ch), transform: transform)
        addCurve(to: CGPoint(x: x1 - cw, y: y1), control1: CGPoint(x: x1, y: y1 - oy),
                 control2: CGPoint(x: x1 - ox, y: y1), transform: transform)
        addLine(to: CGPoint(x: x0 + cw, y: y1), transform: transform)
        addCurve(to: CGPoint(x: x0, y: y1 - ch), control1: CGPoint(x: x0 + ox, y: y1),
                 control2: CGPoint(x: x0, y: y1 - oy), transform: transform)
        addLine(to: CGPoint(x: x0, y: y0 + ch), transform: transform)
        addCurve(to: CGPoint(x: x0 + cw, y: y0), control1: CGPoint(x: x0, y: y0 + oy),
                 control2: CGPoint(x: x0 + ox, y: y0), transform: transform)
        closeSubpath()
    }

    /// Appends all of `path`'s elements, transformed.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        guard !path.verbs.isEmpty else { return }
        let base = points.count
        verbs.append(contentsOf: path.verbs)
        if transform.isIdentity {
            points.append(contentsOf: path.points)
        } else {
            points.append(contentsOf: path.points.lazy.map { $0.applying(transform) })
        }
        if path.subpathStartIndex >= 0 {
            subpathStartIndex = base + path.subpathStartIndex
            isSubpathClosed = path.isSubpathClosed
        }
    }

    /// Removes every element.
    func removeAll() {
        verbs.removeAll(keepingCapacity: true)
        points.removeAll(keepingCapacity: true)
        subpathStartIndex = -1
        isSubpathClosed = false
    }
}
