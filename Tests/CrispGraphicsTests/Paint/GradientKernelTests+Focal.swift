import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// The focal kernel (CCrispKernels/GradientAVX2.c, "The focal kernel": SVG's two-circle shape
// shaded in single precision, the table entry proven per step) against the Swift path, pixel
// for pixel, on random focal gradients: every scale from a hundredth of a pixel to a hundred
// pixels a user unit, skewed and rotated, the focal point anywhere from the centre to within
// a two-thousandth of the end circle's edge, spans of 1…300 pixels anywhere on and around a
// canvas. In `GradientKernelTests`, whose helpers force each path on the test's own thread.
extension GradientKernelTests {
    /// A random gradient of the focal shape: the start circle a point inside the end circle,
    /// padded both ways.
    static func randomFocal(_ rng: inout SplitMix64, table: GradientTable) -> RadialGradientPaint {
        func random(_ range: ClosedRange<Double>) -> Double { GradientTests.uniform(&rng, range) }
        let angle = random(-3.2...3.2), scale = pow(10, random(-2...2))
        let toUser = CGAffineTransform(a: scale * cos(angle), b: scale * sin(angle),
                                       c: scale * (-sin(angle) + random(-0.4...0.4)), d: scale * cos(angle) * random(0.5...2),
                                       tx: random(-300...300) * scale, ty: random(-300...300) * scale)
        let focus = CGPoint(x: random(-50...550), y: random(-50...550)).applying(toUser)
        let r1 = random(2...400) * scale
        // The focal point's distance from the end circle's centre, as a fraction of its radius:
        // anywhere the kernel takes, often near where it stops taking it (the bound loosest),
        // and near the edge, where it declines.
        let k = [random(0...0.8), random(0...0.8), random(0.8...0.9), random(0.99...0.9995)][Int(rng.next() % 4)]
        let e = random(-3.2...3.2)
        let dc = CGPoint(x: -k * r1 * cos(e), y: -k * r1 * sin(e))
        return RadialGradientPaint(table: table, toUser: toUser, c0: focus, r0: 0, dc: dc, dr: r1,
                                   extendBefore: true, extendAfter: true)
    }

    @Test func focalKernelMatchesTheSwiftPath() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: KernelDispatchTests.noAVX2))
            return
        }
        var rng = SplitMix64(seed: 0xF0CA1)
        let table = PaintGoldenTests.redToBlue.table(alpha: 0.85)
        var pixels = 0, mismatches = 0, focal = 0
        let gradients = 400
        for _ in 0..<gradients {
            let paint = Self.randomFocal(&rng, table: table)
            if paint.usesFocalKernel { focal += 1 }
            for _ in 0..<12 {
                let count = Int(rng.next() % 300) + 1
                let x = Int(rng.next() % 700) - 100 - count / 2, y = Int(rng.next() % 700) - 100
                let (swift, fused) = GradientKernelTests.shadedBothWays(.radialGradient(paint), x: x, y: y, count: count)
                pixels += count
                mismatches += zip(swift, fused).filter { $0 != $1 }.count
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(pixels) pixels differ between the focal kernel and the Swift path")
        // The kernel takes the focal points up to about 0.87 of the way to the edge (about two
        // in three here) and declines those nearer.
        #expect(focal > gradients * 5 / 8 && focal < gradients * 7 / 8, "\(focal) of \(gradients) gradients took the focal kernel")
    }
}
