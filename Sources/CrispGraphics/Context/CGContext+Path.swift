import Foundation

// The current path is kept in base space: each point is transformed by the CTM in force when it
// is added, exactly as CoreGraphics does, so changing the CTM afterwards does not move it.

extension CGContext {
    /// Discards the current path.
    public func beginPath() { currentPath.removeAll() }

    /// Starts a new subpath at `point`.
    public func move(to point: CGPoint) { currentPath.move(to: point, transform: gstate.ctm) }

    /// Adds a line from the current point to `point`.
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point, transform: gstate.ctm) }

    /// Moves to the first point and adds lines through the rest.
    public func addLines(between points: [CGPoint]) { currentPath.addLines(between: points, transform: gstate.ctm) }

    /// Adds a cubic Bézier curve from the current point.
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2, transform: gstate.ctm)
    }

    /// Adds a quadratic Bézier curve from the current point.
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control, transform: gstate.ctm)
    }

    /// Adds a circular arc; see `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:transform:)`.
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                           clockwise: clockwise, transform: gstate.ctm)
    }

    /// Adds an arc tangent to two lines; see `CGMutablePath.addArc(tangent1End:tangent2End:radius:transform:)`.
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: gstate.ctm)
    }

    /// Adds a rectangle as a closed subpath.
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect, transform: gstate.ctm) }

    /// Adds rectangles as closed subpaths.
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects, transform: gstate.ctm) }

    /// Adds an ellipse inscribed in `rect`.
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect, transform: gstate.ctm) }

    /// Adds a copy of `path`, transformed by the CTM.
    public func addPath(_ path: CGPath) { currentPath.addPath(path, transform: gstate.ctm) }

    /// Closes the current subpath.
    public func closePath() { currentPath.closeSubpath() }

    /// Whether the current path is empty.
    public var isPathEmpty: Bool { currentPath.isEmpty }

    /// The current point in user space (`.zero` for an empty path).
    public var currentPointOfPath: CGPoint {
        currentPath.isEmpty ? .zero : currentPath.currentPoint.applying(gstate.ctm.inverted())
    }

    /// The bounding box of the current path in user space, control points included;
    /// `CGRect.null` when the path is empty.
    public var boundingBoxOfPath: CGRect {
        currentPath.isEmpty ? .null : (userSpacePath.map { $0.boundingBox } ?? .null)
    }

    /// A copy of the current path in user space, or nil when it is empty.
    public var path: CGPath? {
        currentPath.isEmpty ? nil : userSpacePath
    }

    /// Whether `point` (user space) would be painted by drawing the current path in `mode`.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        guard let user = userSpacePath else { return false }
        switch mode {
        case .fill: return user.contains(point, using: .winding)
        case .eoFill: return user.contains(point, using: .evenOdd)
        case .stroke:
            return strokedOutline(of: user).contains(point, using: .winding)
        case .fillStroke:
            return user.contains(point, using: .winding) || strokedOutline(of: user).contains(point, using: .winding)
        case .eoFillStroke:
            return user.contains(point, using: .evenOdd) || strokedOutline(of: user).contains(point, using: .winding)
        }
    }

    /// Replaces the current path with the outline that stroking it would paint, using the
    /// current line attributes and CTM.
    public func replacePathWithStrokedPath() {
        guard let user = userSpacePath else { return }
        let outline = strokedOutline(of: user)
        currentPath.removeAll()
        currentPath.addPath(outline, transform: gstate.ctm)
    }

    /// The current path mapped back to user space through the inverse CTM; nil when the CTM is
    /// singular or the path empty.
    var userSpacePath: CGPath? {
        guard !currentPath.isEmpty, gstate.ctm.determinant != 0 else { return nil }
        var inverse = gstate.ctm.inverted()
        return currentPath.copy(using: &inverse)
    }
}
