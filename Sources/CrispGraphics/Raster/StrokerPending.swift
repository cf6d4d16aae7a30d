import Foundation
// Placeholder until the stroker branch is merged (replaced by Raster/Stroker.swift).
struct StrokeStyle {
    var width: CGFloat
    var cap: CGLineCap
    var join: CGLineJoin
    var miterLimit: CGFloat
    var dashPhase: CGFloat
    var dashLengths: [CGFloat]
}
func strokeOutline<S: PathFlatteningSink>(_ path: CGPath, style: StrokeStyle, tolerance: CGFloat,
                                          transform: CGAffineTransform, into sink: inout S) {}
