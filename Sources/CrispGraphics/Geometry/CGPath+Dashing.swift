import Foundation

extension CGPath {
    /// The path cut into dashes, as `CGPathCreateCopyByDashingPath`.
    ///
    /// Lengths are measured along the path in its own space; the dashes are then mapped
    /// through `transform`. Lines stay lines and curves stay curves (split at the parameter
    /// where a dash starts or ends; arc lengths are measured to 0.01 units).
    ///
    /// - Parameters:
    ///   - phase: how far into the pattern the path starts; it wraps around the pattern, and a
    ///     negative phase counts back from its end.
    ///   - lengths: alternating "on" and "off" lengths, repeated along each subpath. An odd
    ///     count is used twice over, so on and off swap on the second pass (as in SVG and
    ///     PostScript). A zero "on" length gives a zero-length dash (a move and a line to the
    ///     same point), which a round or square cap turns into a dot.
    ///   - transform: applied to the dashes' points.
    /// - Returns: the dashed path. When `lengths` is empty, has a negative or non-finite
    ///   length or sums to zero, or `phase` is not finite, there is nothing to dash and the
    ///   path is returned undashed (transformed). So is a path that would produce more than a
    ///   million dashes (a bound on time and memory, as in Skia).
    ///
    /// The pattern also runs along the segment that closes a closed subpath, and it restarts
    /// at every subpath. In a closed subpath, a dash that runs through the start point is one
    /// piece (as in Skia and resvg); a closed subpath covered by a single dash stays closed.
    public func copy(dashingWithPhase phase: CGFloat, lengths: [CGFloat],
                     transform: CGAffineTransform = .identity) -> CGPath {
        let result = CGMutablePath()
        var sink = MutablePathSink(path: result, transform: transform)
        let dashes = DashPattern(phase: phase, lengths: lengths).flatMap {
            $0.estimatedDashCount(of: self) <= CGFloat(maximumDashCount) ? $0 : nil
        }
        var dasher = dashes.map { Dasher(pattern: $0, tolerance: strokedPathTolerance) }
        let verbs = self.verbs, points = self.points
        var subpaths = SubpathIterator(verbs: verbs)
        while let sub = subpaths.next() {
            guard areStrokable(points[sub.points], transform: .identity) else { continue }
            if dasher != nil {
                dasher!.dashSubpath(verbs: verbs[sub.verbs], points: points[sub.points], into: &sink)
            } else {
                feedSubpath(verbs: verbs[sub.verbs], points: points[sub.points], into: &sink)
            }
        }
        return result
    }
}
