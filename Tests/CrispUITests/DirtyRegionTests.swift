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

    @Test func removeAllEmpties() {
        var r = DirtyRegion()
        r.add(CGRect(x: 0, y: 0, width: 10, height: 10), limit: limit)
        r.removeAll()
        #expect(r.isEmpty)
        #expect(r.boundingBox.isNull)
    }
}
