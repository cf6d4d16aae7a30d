import CrispGraphics
import CrispSVG
import Foundation
import Testing

// Issue 31: `use` inside `clipPath` (and the use's own clip-path), a mask on a `<mask>`,
// `vector-effect="non-scaling-stroke"`, and remote image URLs (never downloaded: a warning).

@Suite("SVG use in clipPath, masks on masks, non-scaling strokes")
struct SVGClipMaskEffectTests {
    func render(_ body: String, width: Int = 40, height: Int = 20, scale: CGFloat = 1) throws -> (SVGDocument, CGImage) {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="\##(width)" height="\##(height)">\##(body)</svg>"##)
        return (doc, try #require(doc.makeImage(scale: scale)))
    }

    func alpha(_ image: CGImage, _ x: Int, _ y: Int) -> Int { Int(image.straightRGBA(x: x, y: y).a) }

    // MARK: use inside clipPath

    @Test func useInsideClipPathClipsToItsTarget() throws {
        // x/y and the use's transform place the referenced rect; xlink:href works too.
        let (doc, image) = try render(##"<defs><rect id="r" width="10" height="10"/></defs><clipPath id="c"><use href="#r" x="10"/><use xlink:href="#r" transform="translate(20 10)"/></clipPath><rect width="40" height="20" fill="#00f" clip-path="url(#c)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        #expect(alpha(image, 5, 5) == 0)
        #expect(alpha(image, 15, 5) == 255)
        #expect(alpha(image, 15, 15) == 0)
        #expect(alpha(image, 25, 15) == 255)
        #expect(alpha(image, 25, 5) == 0)
    }

    @Test func theUsesClipRuleCascadesIntoItsTarget() throws {
        // A square with a same-direction inner square: a hole only under evenodd, set on the use.
        let frame = ##"<defs><path id="p" d="M0 0H20V20H0Z M5 5H15V15H5Z"/></defs>"##
        let (_, nonzero) = try render(frame + ##"<clipPath id="c"><use href="#p"/></clipPath><rect width="20" height="20" clip-path="url(#c)"/>"##)
        #expect(alpha(nonzero, 10, 10) == 255)
        let (_, evenodd) = try render(frame + ##"<clipPath id="c"><use href="#p" clip-rule="evenodd"/></clipPath><rect width="20" height="20" clip-path="url(#c)"/>"##)
        #expect(alpha(evenodd, 10, 10) == 0)
        #expect(alpha(evenodd, 2, 10) == 255)
    }

    @Test func theUsesOwnClipPathIsInItsTranslatedSpace() throws {
        // The use's clip-path (the left 5 units) is in the space after translate(x, y), as SVG 2
        // appends the translation to the use's transform: it keeps x 10–15, not 0–5.
        let (_, image) = try render(##"<defs><rect id="r" width="10" height="10"/></defs><clipPath id="left"><rect width="5" height="20"/></clipPath><clipPath id="c"><use href="#r" x="10" clip-path="url(#left)"/></clipPath><rect width="40" height="20" fill="#00f" clip-path="url(#c)"/>"##)
        #expect(alpha(image, 12, 5) == 255)
        #expect(alpha(image, 17, 5) == 0)
    }

    @Test func aUsedElementsClipPathAndMaskAreInItsTranslatedSpaceToo() throws {
        // Outside clip paths as well: the clip-path on a use with x="10" moves with it.
        let (_, image) = try render(##"<defs><rect id="r" width="10" height="10" fill="#00f"/></defs><clipPath id="left"><rect width="5" height="20"/></clipPath><use href="#r" x="10" clip-path="url(#left)"/>"##)
        #expect(alpha(image, 12, 5) == 255)
        #expect(alpha(image, 17, 5) == 0)
        #expect(alpha(image, 2, 5) == 0)
    }

    @Test func useOfTextInsideClipPath() throws {
        let (doc, image) = try render(##"<defs><text id="t" font-size="20" font-weight="bold">II</text></defs><clipPath id="c"><use href="#t" y="18"/></clipPath><rect width="40" height="20" clip-path="url(#c)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        let covered = (0..<40).filter { alpha(image, $0, 10) > 128 }.count
        #expect(covered > 4 && covered < 30, "\(covered) px of the row covered")
    }

    @Test func useOfAnythingButAShapeOrTextClipsEverythingOut() throws {
        // A group, or a use of a use (an indirect reference), adds nothing to the union: with no
        // other child, nothing is let through (as resvg draws it), with a warning.
        for target in ["g", "u"] {
            let (doc, image) = try render(##"<defs><g id="g"><rect width="40" height="20"/></g><rect id="r" width="40" height="20"/><use id="u" href="#r"/></defs><clipPath id="c"><use href="#\##(target)"/></clipPath><rect width="40" height="20" clip-path="url(#c)"/>"##)
            #expect(alpha(image, 10, 10) == 0)
            #expect(doc.warnings.count == 1, "\(doc.warnings)")
            #expect(doc.isFullySupported)
        }
        let (missing, _) = try render(##"<clipPath id="c"><use href="#nope"/></clipPath><rect width="40" height="20" clip-path="url(#c)"/>"##)
        #expect(missing.warnings.map(\.message) == [##"no element has id "nope""##])
    }

    // MARK: mask on mask

    @Test func aMaskOnAMaskMultiplies() throws {
        // Grey #808080 (128) masked by a mask letting the left half through: 128 on the left,
        // nothing on the right.
        let (doc, image) = try render(##"<mask id="left" maskUnits="userSpaceOnUse" x="0" y="0" width="40" height="20"><rect width="20" height="20" fill="#fff"/></mask><mask id="m" mask="url(#left)" maskUnits="userSpaceOnUse" x="0" y="0" width="40" height="20"><rect width="40" height="20" fill="#808080"/></mask><rect width="40" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        #expect(alpha(image, 10, 10) == 128)
        #expect(alpha(image, 30, 10) == 0)
        // Two grey masks: 128 × 128 / 255 = 64.
        let (_, twice) = try render(##"<mask id="a"><rect width="40" height="20" fill="#808080"/></mask><mask id="m" mask="url(#a)"><rect width="40" height="20" fill="#808080"/></mask><rect width="40" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(abs(alpha(twice, 10, 10) - 64) <= 1)
    }

    @Test func aMaskOnAMaskResolvesOnTheMaskedElementsBox() throws {
        // objectBoundingBox content of the inner mask: the masked rect's (x 20–40) left half.
        let (_, image) = try render(##"<mask id="half" maskContentUnits="objectBoundingBox"><rect width="0.5" height="1" fill="#fff"/></mask><mask id="m" mask="url(#half)"><rect width="40" height="20" fill="#fff"/></mask><rect x="20" width="20" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(alpha(image, 25, 10) == 255)
        #expect(alpha(image, 35, 10) == 0)
    }

    @Test func recursiveMasksOnMasksAreAbsent() throws {
        let (doc, image) = try render(##"<mask id="a" mask="url(#b)"><rect width="40" height="20" fill="#fff"/></mask><mask id="b" mask="url(#a)"><rect width="40" height="20" fill="#fff"/></mask><rect width="40" height="20" fill="#00f" mask="url(#a)"/>"##)
        #expect(doc.isFullySupported)
        #expect(doc.warnings.map(\.message) == [##"reference to "a" leads back to itself"##])
        #expect(alpha(image, 10, 10) == 255)
    }

    @Test func masksOnElementsInsideAMask() throws {
        // The white rect inside the mask is itself masked to its left half.
        let (doc, image) = try render(##"<mask id="left" maskUnits="userSpaceOnUse" x="0" y="0" width="20" height="20"><rect width="40" height="20" fill="#fff"/></mask><mask id="m"><rect width="40" height="20" fill="#fff" mask="url(#left)"/></mask><rect width="40" height="20" fill="#00f" mask="url(#m)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty)
        #expect(alpha(image, 10, 10) == 255)
        #expect(alpha(image, 30, 10) == 0)
    }

    // MARK: vector-effect

    /// Columns of row `y` whose alpha is over half.
    func coveredColumns(_ image: CGImage, y: Int) -> [Int] { (0..<image.width).filter { alpha(image, $0, y) > 128 } }

    @Test func nonScalingStrokeKeepsItsWidthUnderScale() throws {
        // A 2-unit stroke under scale(4): 8 px wide normally, 2 px with non-scaling-stroke.
        let line = ##"<path d="M5 0V5" transform="scale(4)" stroke="#000" stroke-width="2""##
        let (_, scaled) = try render(line + "/>")
        #expect(coveredColumns(scaled, y: 10) == Array(16..<24))
        let (doc, fixed) = try render(line + ##" vector-effect="non-scaling-stroke"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        #expect(coveredColumns(fixed, y: 10) == [19, 20])
        // Non-uniformly scaled and rotated: still 2 px across, in either direction.
        let (_, rotated) = try render(##"<path d="M0 0H5" transform="translate(20 0) rotate(90) scale(3 0.5)" stroke="#000" stroke-width="2" vector-effect="non-scaling-stroke"/>"##)
        #expect(coveredColumns(rotated, y: 8) == [19, 20])
    }

    @Test func nonScalingStrokeScalesWithTheRendering() throws {
        // The host space is the document's px: at scale 2, twice as many pixels.
        let (_, image) = try render(##"<path d="M5 0V5" transform="scale(4)" stroke="#000" stroke-width="2" vector-effect="non-scaling-stroke"/>"##, scale: 2)
        #expect(coveredColumns(image, y: 20) == [38, 39, 40, 41])
    }

    @Test func nonScalingDashesAreInPixels() throws {
        // Dashes of 4 and gaps of 4 px along a line scaled by 10 (100 px long).
        let (_, image) = try render(##"<path d="M0 1H10" transform="scale(10 1)" stroke="#000" stroke-width="2" stroke-dasharray="4 4" vector-effect="non-scaling-stroke"/>"##, width: 100, height: 4)
        #expect(coveredColumns(image, y: 1) == (0..<100).filter { $0 % 8 < 4 })
    }

    @Test func nonScalingStrokeWithAGradient() throws {
        // The paint stays in the element's user space (a line has no box: user-space units).
        let (doc, image) = try render(##"<linearGradient id="g" gradientUnits="userSpaceOnUse" x2="10"><stop offset="0" stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient><path d="M0 5H10" transform="scale(4 1)" stroke="url(#g)" stroke-width="2" vector-effect="non-scaling-stroke"/>"##)
        #expect(doc.warnings.isEmpty)
        let left = image.straightRGBA(x: 2, y: 5), right = image.straightRGBA(x: 37, y: 5)
        #expect(left.r > 200 && left.b < 50 && right.b > 200 && right.r < 50)
        #expect(alpha(image, 20, 3) == 0)
        #expect(alpha(image, 20, 5) == 255)
    }

    @Test func otherVectorEffectsAreWarnings() throws {
        let (doc, _) = try render(##"<rect width="4" height="4" vector-effect="non-rotation"/><rect width="4" height="4" vector-effect="qq"/>"##)
        #expect(doc.isFullySupported)
        #expect(doc.warnings.count == 2, "\(doc.warnings)")
    }

    // MARK: Remote images

    @Test func remoteImagesAreNeverDownloaded() throws {
        for href in ["https://example.org/a.png", "http://example.org/a.svg", "ftp://example.org/a.png"] {
            let (doc, image) = try render(##"<image width="4" height="4" href="\##(href)"/><rect x="10" width="4" height="4"/>"##)
            #expect(doc.isFullySupported)
            #expect(doc.warnings.map(\.message) == [
                "invalid href=\"\(href)\": a URL: Crisp downloads nothing at run time; only data: URIs and files beside the document are read (the image is not drawn)",
            ])
            #expect(alpha(image, 1, 1) == 0)
            #expect(alpha(image, 11, 1) == 255)
        }
    }
}
