import CrispGraphics
import CrispWidgets
import Foundation
import Testing

/// The least-squares line: slope, intercept and r² against values worked by hand.
@Suite struct LinearFitTests {
    @Test func pointsOnALineFitExactly() throws {
        let fit = try #require(LinearFit(points: [CGPoint(x: 1, y: 2), CGPoint(x: 2, y: 4), CGPoint(x: 3, y: 6)]))
        #expect(abs(fit.slope - 2) < 1e-12 && abs(fit.intercept) < 1e-12 && abs(fit.rSquared - 1) < 1e-12)
    }

    @Test func theTextbookExample() throws {
        // x̄ = 3, ȳ = 4, Sxx = 10, Sxy = 6, Syy = 6: slope 0.6, intercept 2.2, r² = 36/60 = 0.6.
        let points = zip([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]).map { CGPoint(x: $0, y: $1) }
        let fit = try #require(LinearFit(points: points))
        #expect(abs(fit.slope - 0.6) < 1e-12)
        #expect(abs(fit.intercept - 2.2) < 1e-12)
        #expect(abs(fit.rSquared - 0.6) < 1e-12)
        #expect(abs(fit.y(at: 10) - 8.2) < 1e-12)
    }

    @Test func farFromTheOriginKeepsItsDigits() throws {
        let points = zip([1, 2, 3, 4, 5], [2, 4, 5, 4, 5]).map { CGPoint(x: 1e6 + CGFloat($0), y: 1e6 + CGFloat($1)) }
        let fit = try #require(LinearFit(points: points))
        #expect(abs(fit.slope - 0.6) < 1e-9 && abs(fit.rSquared - 0.6) < 1e-9)
    }

    @Test func noLineWithoutTwoDistinctX() {
        #expect(LinearFit(points: []) == nil)
        #expect(LinearFit(points: [CGPoint(x: 1, y: 1)]) == nil)
        #expect(LinearFit(points: [CGPoint(x: 1, y: 1), CGPoint(x: 1, y: 3)]) == nil)
    }

    @Test func aHorizontalLineExplainsEverything() throws {
        let fit = try #require(LinearFit(points: [CGPoint(x: 0, y: 2), CGPoint(x: 4, y: 2)]))
        #expect(fit.slope == 0 && fit.intercept == 2 && fit.rSquared == 1)
    }
}
