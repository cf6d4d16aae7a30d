import CrispUI
import Foundation
import Testing

@Suite struct DirtyRegionTests {
    let limit = CGRect(x: 0, y: 0, width: 1000, height: 1000)

    @Test func snapsOutwardToWholePixels() {
        var r = DirtyRegion()
        r.add(CGRect(x: 10.2, y: 5.5, width: 3.1, height: 0.2), limit: limit)
        #expect(r.rects == [CGRect(x: 10, y: 5, width: 4, height: 1)])
    }

    @Test func clipsToTheLimitAndIgnoresEmptyAndNonFinite() {
        var r = DirtyRegion()
        r.add(CGRect(x: -50, y: 990, width: 100, height: 100), limit: limit)
        r.add(CGRect(x: 5, y: 5, width: 0, height: 10), limit: limit)
        r.add(CGRect(x: 2000, y: 5, width: 10, height: 10), limit: limit)
        r.add(CGRect(x: CGFloat.nan, y: 5, width: 10, height: 10), limit: limit)
        #expect(r.rects == [CGRect(x: 0, y: 990, width: 50, height: 10)])
    }

    @Test func adjacentAndOverlappingRectanglesMerge() {
        var r = DirtyRegion()
        r.add(CGRect(x: 0, y: 0, width: 10, height: 10), limit: limit)
        r.add(CGRect(x: 10, y: 0, width: 10, height: 10), limit: limit)
        r.add(CGRect(x: 5, y: 5, width: 10, height: 10), limit: limit)
        #expect(r.rects == [CGRect(x: 0, y: 0, width: 20, height: 15)])
    }

    @Test func containedRectangleIsAbsorbed() {
        var r = DirtyRegion()
        r.add(CGRect(x: 0, y: 0, width: 100, height: 100), limit: limit)
        r.add(CGRect(x: 10, y: 10, width: 5, height: 5), limit: limit)
        #expect(r.rects == [CGRect(x: 0, y: 0, width: 100, height: 100)])
    }

    @Test func farApartRectanglesStaySeparate() {
        var r = DirtyRegion()
        let clock = CGRect(x: 140, y: 2, width: 40, height: 16)
        let marker = CGRect(x: 300, y: 400, width: 10, height: 300)
        r.add(clock, limit: limit)
        r.add(marker, limit: limit)
        #expect(r.rects == [clock, marker])
    }

    @Test func aMergeThatReachesAThirdRectangleTakesItToo() {
        var r = DirtyRegion()
        r.add(CGRect(x: 0, y: 0, width: 10, height: 10), limit: limit)
        r.add(CGRect(x: 100, y: 0, width: 10, height: 10), limit: limit)
        r.add(CGRect(x: 0, y: 0, width: 110, height: 10), limit: limit)
        #expect(r.rects == [CGRect(x: 0, y: 0, width: 110, height: 10)])
    }

    @Test func beyondTheMaximumCountTheCheapestPairMerges() {
        var r = DirtyRegion(maximumCount: 3)
        for i in 0..<4 { r.add(CGRect(x: CGFloat(i) * 100, y: 0, width: 10, height: 10), limit: limit) }
        #expect(r.rects.count == 3)
        // Every original rectangle is still covered.
        for i in 0..<4 {
            let original = CGRect(x: CGFloat(i) * 100, y: 0, width: 10, height: 10)
            #expect(r.rects.contains { $0.contains(original) })
        }
    }

    /// The regression: the dozen controls a theme fade repaints on the retina iPad controls
    /// screen (points × 2) merged, each merged box counted as wanted, into one box of the whole
    /// screen below the status bar — 2.3 times the area they asked for (overlaps counted twice).
    @Test func mergedBoxesDoNotMakeFurtherMergesLookCheap() {
        let big = CGRect(x: 0, y: 0, width: 1536, height: 2048)
        let fade: [CGRect] = [
            CGRect(x: 24, y: 100, width: 720, height: 80), CGRect(x: 104, y: 108, width: 64, height: 64),
            CGRect(x: 433, y: 116, width: 97, height: 48), CGRect(x: 536, y: 116, width: 96, height: 48),
            CGRect(x: 24, y: 256, width: 360, height: 380), CGRect(x: 86, y: 393, width: 65, height: 65),
            CGRect(x: 241, y: 401, width: 97, height: 49), CGRect(x: 42, y: 586, width: 274, height: 32),
            CGRect(x: 557, y: 409, width: 38, height: 85), CGRect(x: 152, y: 732, width: 128, height: 128),
            CGRect(x: 296, y: 724, width: 144, height: 144), CGRect(x: 221, y: 1010, width: 106, height: 12),
            CGRect(x: 0, y: 975, width: 768, height: 49),
        ].map { CGRect(x: $0.minX * 2, y: $0.minY * 2, width: $0.width * 2, height: $0.height * 2) }
        var r = DirtyRegion()
        for rect in fade { r.add(rect, limit: big) }
        for rect in fade { #expect(r.rects.contains { $0.contains(rect) }) }
        let repainted = r.rects.reduce(0) { $0 + $1.width * $1.height }
        let covered = fade.reduce(CGFloat(0)) { $0 + $1.width * $1.height }  // overlaps counted twice: generous
        #expect(repainted <= 1.5 * covered)
        #expect(r.rects.count > 1)
    }

    @Test func removeAllEmpties() {
        var r = DirtyRegion()
        r.add(CGRect(x: 0, y: 0, width: 10, height: 10), limit: limit)
        r.removeAll()
        #expect(r.isEmpty)
        #expect(r.boundingBox.isNull)
    }
}
