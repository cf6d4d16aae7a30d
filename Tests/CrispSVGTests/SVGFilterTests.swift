import CrispGraphics
@_spi(Testing) import CrispSVG
import Foundation
import Testing

// `filter`: the drop-shadow recipe is drawn with the shadow machinery; every other filter stays
// unsupported.

@Suite("SVG filters: the drop-shadow recipe")
struct SVGFilterTests {
    func svg(_ defs: String, _ body: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><defs>\##(defs)</defs>\##(body)</svg>"##
    }

    static let recipe = ##"""
        <filter id="f"><feGaussianBlur in="SourceAlpha" stdDeviation="1.5"/><feOffset dx="6" dy="8" result="o"/>
        <feFlood flood-color="#00f" flood-opacity="0.5"/><feComposite in2="o" operator="in"/>
        <feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>
        """##

    @Test func theRecipeBecomesAShadow() throws {
        let doc = try SVGDocument(string: svg(Self.recipe, ##"<rect x="4" y="4" width="20" height="20" fill="#f00" filter="url(#f)"/>"##))
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        guard case .group(let children) = doc.root.content, let shadow = children.first?.shadow else {
            Issue.record("no shadow")
            return
        }
        #expect(shadow.dx == 6 && shadow.dy == 8 && shadow.sigma == 1.5)
        #expect(shadow.color == SVGColor(red: 0, green: 0, blue: 1, alpha: 0.5))
        let image = try #require(doc.makeImage())
        let inside = image.straightRGBA(x: 10, y: 10), below = image.straightRGBA(x: 20, y: 28), outside = image.straightRGBA(x: 36, y: 2)
        #expect([inside.r, inside.g, inside.b, inside.a] == [255, 0, 0, 255])
        #expect(below.b == 255 && below.r == 0 && abs(Int(below.a) - 128) <= 2)   // the shadow, under and beside
        #expect(outside.a == 0)
    }

    @Test func theClipCutsTheShadowCastByTheWholeElement() throws {
        // The clip shows x 14…40: the shadow (cast by the whole rect, 4…24 moved by 6: 10…30)
        // shows right of the rect and below it, never left of x 14; the rect's left part is cut.
        let clip = ##"<clipPath id="c"><rect x="14" y="0" width="26" height="40"/></clipPath>"##
        let doc = try SVGDocument(string: svg(Self.recipe + clip, ##"<rect x="4" y="4" width="20" height="20" fill="#f00" filter="url(#f)" clip-path="url(#c)"/>"##))
        let image = try #require(doc.makeImage())
        for y in 0..<40 {
            for x in 0..<14 { #expect(image.straightRGBA(x: x, y: y).a == 0, "pixel \(x), \(y)") }
        }
        let underLeftEdge = image.straightRGBA(x: 15, y: 27), beside = image.straightRGBA(x: 25, y: 20)
        #expect(underLeftEdge.b == 255 && abs(Int(underLeftEdge.a) - 128) <= 2)   // cast by the part the clip hides
        #expect(beside.b == 255 && abs(Int(beside.a) - 128) <= 2)
    }

    @Test func opacityAppliesToTheElementOverItsShadow() throws {
        // SVG: filter, then opacity. Where the opaque rect covers its shadow, only the rect shows,
        // at half alpha.
        let doc = try SVGDocument(string: svg(Self.recipe, ##"<rect x="4" y="4" width="20" height="20" fill="#f00" filter="url(#f)" opacity="0.5"/>"##))
        let image = try #require(doc.makeImage())
        let overShadow = image.straightRGBA(x: 20, y: 20), shadow = image.straightRGBA(x: 20, y: 28)
        #expect([overShadow.r, overShadow.g, overShadow.b] == [255, 0, 0] && abs(Int(overShadow.a) - 128) <= 1)
        #expect(shadow.b == 255 && abs(Int(shadow.a) - 64) <= 2)
    }

    @Test(arguments: [
        ##"<filter id="f"><feGaussianBlur stdDeviation="2"/></filter>"##,
        ##"<filter id="f"><feColorMatrix type="saturate" values="0"/></filter>"##,
        ##"<filter id="f" x="0" y="0" width="1" height="1"><feGaussianBlur in="SourceAlpha" stdDeviation="2"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>"##,
        ##"<filter id="f"><feGaussianBlur in="SourceAlpha" stdDeviation="2 4"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>"##,
    ])
    func otherFiltersRunAsAGraph(filter: String) throws {
        let doc = try SVGDocument(string: svg(filter, ##"<rect x="10" y="10" width="20" height="20" filter="url(#f)"/>"##))
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        guard case .group(let children) = doc.root.content else { return }
        #expect(children.first?.filters?.count == 1 && children.first?.shadow == nil)
        #expect(try #require(doc.makeImage()).straightRGBA(x: 20, y: 20).a > 200)
    }

    @Test func brokenReferencesAndEmptyBoxes() throws {
        // Filter Effects 1: a reference to nothing, or to something other than a <filter>, means
        // the element is not rendered.
        let doc = try SVGDocument(string: svg(Self.recipe + ##"<rect id="r"/>"##, ##"<rect width="10" height="10" fill="#00f" filter="url(#nope)"/><rect x="20" width="10" height="10" filter="url(#r)"/><path d="M0 20 H40" stroke="#f00" filter="url(#f)"/>"##))
        #expect(doc.warnings.map(\.message) == [##"no element has id "nope""##, ##""r" is a <rect>, expected a <filter>"##], "\(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(image.straightRGBA(x: 5, y: 5).a == 0)
        #expect(image.straightRGBA(x: 25, y: 5).a == 0)
        #expect(image.straightRGBA(x: 20, y: 20).a == 0)     // a filter on a box without area hides it
    }
}
