import Foundation

// Ordinary least squares for y = slope·x + intercept, in one pass of sums over centred data:
//
//     x̄ = Σx/n, ȳ = Σy/n
//     Sxx = Σ(x − x̄)², Sxy = Σ(x − x̄)(y − ȳ), Syy = Σ(y − ȳ)²
//     slope = Sxy / Sxx, intercept = ȳ − slope·x̄, r² = Sxy² / (Sxx·Syy)
//
// Centring first (two passes) rather than the one-pass Σxy − n·x̄ȳ form, which loses digits to
// cancellation when the data sit far from the origin.

/// The least-squares regression line through a set of points, with its coefficient of
/// determination.
public struct LinearFit: Equatable, Sendable {
    /// The line's slope (y units per x unit).
    public var slope: Double
    /// Where the line crosses x = 0.
    public var intercept: Double
    /// The coefficient of determination, from 0 (no linear relation) to 1 (all points on the line).
    public var rSquared: Double

    /// Creates a fit with the given coefficients.
    public init(slope: Double, intercept: Double, rSquared: Double) {
        self.slope = slope
        self.intercept = intercept
        self.rSquared = rSquared
    }

    /// The least-squares fit of `points`; nil with fewer than two points or when all x are equal
    /// (no line). When all y are equal the line is horizontal and r² is 1 (it explains them all).
    public init?(points: [CGPoint]) {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let meanX = points.reduce(0) { $0 + Double($1.x) } / n
        let meanY = points.reduce(0) { $0 + Double($1.y) } / n
        var sxx = 0.0, sxy = 0.0, syy = 0.0
        for p in points {
            let dx = Double(p.x) - meanX, dy = Double(p.y) - meanY
            sxx += dx * dx
            sxy += dx * dy
            syy += dy * dy
        }
        guard sxx > 0 else { return nil }
        slope = sxy / sxx
        intercept = meanY - slope * meanX
        rSquared = syy > 0 ? sxy * sxy / (sxx * syy) : 1
    }

    /// The line's y at `x`.
    public func y(at x: Double) -> Double { slope * x + intercept }
}
