import CrispGraphics
import CrispSVG
import Foundation
import Testing

// `mask`: luminance and alpha, maskUnits and maskContentUnits, the whole masked group (not each
// shape), and broken references.

@Suite("SVG masks")
struct SVGMaskTests {
    func render(_ body: String) throws -> (SVGDocument, CGImage) {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">\##(body)</svg>"##)
        return (doc, try #require(doc.makeImage()))
    }

    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    @Test func luminanceScalesAlpha() throws {
        // Grey #808080 has luminance 128/255: the blue rect shows at half alpha; black hides it.
        let (doc, image) = try render(##"<mask id="m"><rect width="10" height="20" fill="#808080"/><rect x="10" width="10" height="20" fill="#fff"/></mask><rect width="20" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        #expect(rgba(image, 5, 10) == [0, 0, 255, 128])
        #expect(rgba(image, 15, 10) == [0, 0, 255, 255])
    }

    @Test func colouredContentUsesLuminanceCoefficients() throws {
        // Pure green: 0.7154 × 255 = 182.
        let (_, image) = try render(##"<mask id="m"><rect width="20" height="20" fill="#0f0"/></mask><rect width="20" height="20" fill="#000" mask="url(#m)"/>"##)
        #expect(rgba(image, 10, 10) == [0, 0, 0, 182])
    }

    @Test func alphaMasksIgnoreColour() throws {
        let (_, image) = try render(##"<mask id="m" style="mask-type: alpha"><rect width="20" height="20" fill="#000" fill-opacity="0.5"/></mask><rect width="20" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(rgba(image, 10, 10) == [0, 0, 255, 128])
    }

    @Test func theGroupIsMaskedAsAWhole() throws {
        // Two overlapping opaque rects under a half mask: the lower one must not show through.
        let (_, image) = try render(##"<mask id="m"><rect width="20" height="20" fill="#808080"/></mask><g mask="url(#m)"><rect width="20" height="20" fill="#f00"/><rect width="20" height="20" fill="#00f"/></g>"##)
        #expect(rgba(image, 10, 10) == [0, 0, 255, 128])
    }

    @Test func unitsAndRegion() throws {
        // objectBoundingBox content (left half of the box white), region the box itself.
        let (_, image) = try render(##"<mask id="m" maskContentUnits="objectBoundingBox" x="0" y="0" width="1" height="1"><rect width="0.5" height="1" fill="#fff"/></mask><rect x="4" y="4" width="12" height="12" fill="#00f" mask="url(#m)"/>"##)
        #expect(rgba(image, 6, 10) == [0, 0, 255, 255])
        #expect(rgba(image, 13, 10)[3] == 0)
        // userSpaceOnUse region cuts white content off outside it.
        let (_, cut) = try render(##"<mask id="m" maskUnits="userSpaceOnUse" x="0" y="0" width="10" height="20"><rect width="20" height="20" fill="#fff"/></mask><rect width="20" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(rgba(cut, 5, 10) == [0, 0, 255, 255])
        #expect(rgba(cut, 15, 10)[3] == 0)
    }

    @Test func brokenReferencesAreAbsent() throws {
        let (doc, image) = try render(##"<mask id="m"><rect width="20" height="20" fill="#fff" mask="url(#m)"/></mask><rect width="20" height="20" fill="#00f" mask="url(#m)"/><rect width="5" height="5" fill="#0f0" mask="url(#nope)"/>"##)
        #expect(doc.warnings.map(\.message).contains(##"reference to "m" leads back to itself"##))
        #expect(doc.warnings.map(\.message).contains(##"no element has id "nope""##))
        #expect(rgba(image, 10, 10) == [0, 0, 255, 255])
        #expect(rgba(image, 2, 2) == [0, 255, 0, 255])
    }
}
