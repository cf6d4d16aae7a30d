import Foundation
import Testing
@testable import CrispGraphics

@Suite struct CGAffineTransformTests {
    @Test func concatenationAppliesLeftFirst() {
        let t = CGAffineTransform(translationX: 10, y: 0).concatenating(CGAffineTransform(scaleX: 2, y: 3))
        #expect(CGPoint(x: 1, y: 1).applying(t) == CGPoint(x: 22, y: 3))
    }
}
