import Foundation

/// The flattening tolerance of `copy(strokingWithWidth:…)`, in output units.
let strokedPathTolerance: CGFloat = 0.01

extension CGPath {
    /// A path whose non-zero fill is the area this path's stroke would paint, as
    /// `CGPathCreateCopyByStrokingPath`.
    ///
    /// The stroke is computed in the path's own space and the outline is then mapped through
    /// `transform` (so a non-uniform transform stretches the pen). The result is made of
    /// closed subpaths of straight lines: curves, round joins and round caps are flattened so
    /// that the outline stays within 0.01 units of the ideal one in the transformed space. The
    /// outline may overlap itself; fill it with `.winding`.
    ///
    /// - Parameters:
    ///   - lineWidth: the pen's width; zero, negative or non-finite gives an empty path.
    ///   - lineCap: the shape of open ends; zero-length subpaths (a move and a close, or
    ///     lines of zero length) become a disc for `.round`, an axis-aligned square for
    ///     `.square`, and nothing for `.butt`. A lone move draws nothing.
    ///   - lineJoin: the shape of corners.
    ///   - miterLimit: the largest ratio of miter length to line width,
    ///     ```
    ///     miter length / lineWidth = 1 / sin(φ / 2)     (φ: the angle between the segments)
    ///     ```
    ///     beyond which a `.miter` join is drawn as `.bevel` (CoreGraphics' default is 10).
    ///   - transform: applied to the outline's points.
    /// - Returns: the outline. Subpaths with a non-finite point are left out.
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        let result = CGMutablePath()
        let scale = transform.maximumScale
        let tolerance = scale > 0 && scale.isFinite ? strokedPathTolerance / scale : strokedPathTolerance
        var sink = MutablePathSink(path: result, transform: .identity)
        let style = StrokeStyle(width: lineWidth, cap: lineCap, join: lineJoin, miterLimit: miterLimit)
        strokeOutline(self, style: style, tolerance: tolerance, transform: transform, into: &sink)
        return result
    }
}

/// Appends what it receives to a mutable path, mapping points through a transform.
struct MutablePathSink: PathFlatteningSink, PathElementSink {
    let path: CGMutablePath
    let transform: CGAffineTransform

    mutating func moveTo(_ p: CGPoint) { path.move(to: p, transform: transform) }
    mutating func lineTo(_ p: CGPoint) { path.addLine(to: p, transform: transform) }
    mutating func quadCurveTo(_ control: CGPoint, _ end: CGPoint) {
        path.addQuadCurve(to: end, control: control, transform: transform)
    }
    mutating func curveTo(_ control1: CGPoint, _ control2: CGPoint, _ end: CGPoint) {
        path.addCurve(to: end, control1: control1, control2: control2, transform: transform)
    }
    mutating func closeSubpath() { path.closeSubpath() }
    /// A zero-length dash becomes a move and a line to the same point.
    mutating func addZeroLengthDash(at p: CGPoint, direction: CGPoint) {
        path.move(to: p, transform: transform)
        path.addLine(to: p, transform: transform)
    }
}
