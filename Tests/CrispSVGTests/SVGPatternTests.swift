import CrispGraphics
import CrispSVG
import Foundation
import Testing

// `pattern`: seamless and crisp tiling, units, href inheritance, and the spec's error cases.

@Suite("SVG patterns")
struct SVGPatternTests {
    func document(_ body: String, size: Int = 40) throws(SVGError) -> SVGDocument {
        try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(size)" height="\##(size)">\##(body)</svg>"##)
    }

    func image(_ body: String, scale: CGFloat = 1) throws -> CGImage {
        let doc = try document(body)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        return try #require(doc.makeImage(scale: scale))
    }

    @Test(arguments: [1.0, 1.37, 2.0, 3.3])
    func tilesMeetWithoutSeams(scale: CGFloat) throws {
        // Each tile is filled edge to edge: every pixel well inside the shape is the colour,
        // whatever the scale, rotation and offset put the tile edges between pixels.
        for transform in ["translate(0.3 0.6) rotate(17)", "translate(0.3 0.6)"] {
            // A background over the whole tile and a stripe crossing its edge (cut by the tile).
            let body = ##"<pattern id="p" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="\##(transform)"><rect width="7" height="7" fill="#369"/><rect x="-3" y="3" width="13" height="1" fill="#369"/></pattern><rect width="40" height="40" fill="url(#p)"/>"##
            try expectSolid(try image(body, scale: scale), scale: scale)
        }
    }

    func expectSolid(_ rendered: CGImage, scale: CGFloat) throws {
        let margin = Int(scale.rounded(.up)) + 1
        for y in margin..<(rendered.height - margin) {
            for x in margin..<(rendered.width - margin) {
                let p = rendered.straightRGBA(x: x, y: y)
                #expect([p.r, p.g, p.b, p.a] == [0x33, 0x66, 0x99, 255], "pixel \(x), \(y)")
                if [p.r, p.g, p.b, p.a] != [0x33, 0x66, 0x99, 255] { return }
            }
        }
    }

    @Test(arguments: [1.0, 2.0, 4.0])
    func tilesOnWholePixelsAreTheContentDrawnDirectly(scale: CGFloat) throws {
        let tiled = try image(##"<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><circle cx="5" cy="5" r="3.3" fill="#c30"/><rect x="7" width="3" height="2" fill="#036"/></pattern><rect width="40" height="40" fill="url(#p)"/>"##, scale: scale)
        var direct = ""
        for y in stride(from: 0, to: 40, by: 10) {
            for x in stride(from: 0, to: 40, by: 10) {
                direct += ##"<circle cx="\##(x + 5)" cy="\##(y + 5)" r="3.3" fill="#c30"/><rect x="\##(x + 7)" y="\##(y)" width="3" height="2" fill="#036"/>"##
            }
        }
        #expect(tiled.pixels == (try image(direct, scale: scale)).pixels)
    }

    @Test func objectBoundingBoxTilesFollowTheShape() throws {
        // A quarter of the box per tile, content in user space: the same four-by-four tiling as
        // the user-space pattern sized to that box.
        let box = try image(##"<pattern id="p" width="0.25" height="0.25"><rect width="4" height="4" fill="#090"/></pattern><rect x="8" y="4" width="32" height="24" fill="url(#p)"/>"##)
        let user = try image(##"<pattern id="p" x="8" y="4" width="8" height="6" patternUnits="userSpaceOnUse"><rect width="4" height="4" fill="#090"/></pattern><rect x="8" y="4" width="32" height="24" fill="url(#p)"/>"##)
        #expect(box.pixels == user.pixels)
        // Content units of the box, and a viewBox, map onto the tile the same way here.
        let contentInBox = try image(##"<pattern id="p" x="8" y="4" width="8" height="6" patternUnits="userSpaceOnUse" patternContentUnits="objectBoundingBox"><rect width="0.125" height="0.166667" fill="#090"/></pattern><rect x="8" y="4" width="32" height="24" fill="url(#p)"/>"##)
        #expect(Agreement(contentInBox, user).maximum <= 1)
        let viewBox = try image(##"<pattern id="p" x="8" y="4" width="8" height="6" patternUnits="userSpaceOnUse" viewBox="0 0 16 12"><rect width="8" height="8" fill="#090"/></pattern><rect x="8" y="4" width="32" height="24" fill="url(#p)"/>"##)
        #expect(viewBox.pixels == user.pixels)
    }

    @Test func hrefInheritsAttributesAndChildren() throws {
        let base = ##"<pattern id="a" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="#909"/></pattern>"##
        let inherited = try image(base + ##"<pattern id="b" href="#a" patternTransform="translate(2 3)"/><rect width="40" height="40" fill="url(#b)"/>"##)
        let spelled = try image(##"<pattern id="b" width="10" height="10" patternUnits="userSpaceOnUse" patternTransform="translate(2 3)"><rect width="5" height="5" fill="#909"/></pattern><rect width="40" height="40" fill="url(#b)"/>"##)
        #expect(inherited.pixels == spelled.pixels)
    }

    @Test func strokesArePaintedToo() throws {
        let doc = try document(##"<pattern id="p" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="4" fill="#f00"/></pattern><line x1="0" y1="20" x2="40" y2="20" stroke="url(#p)" stroke-width="6"/>"##)
        let rendered = try #require(doc.makeImage())
        #expect(rendered.straightRGBA(x: 0, y: 20).r == 255 && rendered.straightRGBA(x: 0, y: 20).a == 255)
        #expect(rendered.straightRGBA(x: 2, y: 20).a == 0)
        #expect(rendered.straightRGBA(x: 0, y: 10).a == 0)
    }

    @Test(arguments: [
        (##"<pattern id="p" patternUnits="userSpaceOnUse"><rect width="9" height="9"/></pattern>"##, "has no width or height"),
        (##"<pattern id="p" width="-5" height="5" patternUnits="userSpaceOnUse"><rect width="9" height="9"/></pattern>"##, "negative width"),
        (##"<pattern id="p" width="0" height="5" patternUnits="userSpaceOnUse"><rect width="9" height="9"/></pattern>"##, nil),
    ] as [(String, String?)])
    func emptyTilesPaintNothingNotTheFallback(definition: String, warning: String?) throws {
        let doc = try document(definition + ##"<rect width="40" height="40" fill="url(#p) lime"/>"##)
        #expect(doc.isFullySupported)
        #expect(try #require(doc.makeImage()).pixels.allSatisfy { $0 >> 24 == 0 })
        if let warning {
            let found = doc.warnings.first { $0.message.contains(warning) }
            #expect(found?.location == SVGSourceLocation(line: 1, column: 64), "\(doc.warnings)")
        } else {
            #expect(doc.warnings.isEmpty)
        }
    }

    /// A tile stretched far more one way than the other (a bounding-box pattern on a shape 1e40
    /// wide and 10 high): its bitmap stays within the pixel budget along both sides. It once
    /// asked for an Int from 6e22 and trapped; fuzz-svg found it.
    @Test(arguments: ["M0 0H1e40V10H0z", "M0 0H10V1e40H0z", "M0 0H1e40V1e-30H0z"])
    func aTileStretchedOneWayStaysWithinTheBudget(shape: String) throws {
        let body = ##"<pattern id="p" width="0.5" height="0.5"><rect width="1" height="1" fill="#c30"/></pattern><path d="\##(shape)" fill="url(#p)"/>"##
        let rendered = try image(body)
        #expect(rendered.width == 40 && rendered.height == 40)
    }

    @Test func aPatternPaintingItselfIsACycle() throws {
        let doc = try document(##"<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="5" height="5" fill="url(#p) blue"/><rect x="5" width="5" height="5" fill="#0f0"/></pattern><rect width="40" height="40" fill="url(#p)"/>"##)
        #expect(doc.warnings.map(\.message).contains { $0.contains("leads back to itself") }, "\(doc.warnings)")
        // The reference inside falls back to its colour.
        let rendered = try #require(doc.makeImage())
        #expect(rendered.straightRGBA(x: 7, y: 2).g == 255)
        #expect(rendered.straightRGBA(x: 2, y: 2).b == 255)
    }

    @Test func hrefCyclesEndTheChain() throws {
        let doc = try document(##"<pattern id="a" href="#b" width="10" height="10" patternUnits="userSpaceOnUse"><rect width="5" height="5"/></pattern><pattern id="b" href="#a"/><rect width="40" height="40" fill="url(#b)"/>"##)
        #expect(doc.warnings.contains { $0.message.contains("leads back to itself") }, "\(doc.warnings)")
        #expect(doc.makeImage() != nil)
    }

    @Test func nestedPatternsAreALimitNotAStackOverflow() throws {
        var defs = ""
        for k in 0..<40 {
            defs += ##"<pattern id="p\##(k)" width="4" height="4" patternUnits="userSpaceOnUse"><rect width="2" height="2" fill="url(#p\##(k + 1)) red"/></pattern>"##
        }
        do {
            _ = try document(defs + ##"<rect width="40" height="40" fill="url(#p0)"/>"##)
            Issue.record("expected a limit error")
        } catch {
            guard case .limitExceeded = error.kind else { Issue.record("expected limitExceeded, got \(error)"); return }
        }
    }

    @Test func multiplyingPatternsStayWithinTheExpansionBudget() throws {
        // Ten patterns, each drawing the next ten times: 10¹⁰ shapes if expanded.
        var defs = ""
        for k in 0..<10 {
            let next = k < 9 ? "url(#p\(k + 1))" : "#000"
            defs += ##"<pattern id="p\##(k)" width="10" height="10" patternUnits="userSpaceOnUse">"##
                + String(repeating: ##"<rect width="1" height="1" fill="\##(next)"/>"##, count: 10) + "</pattern>"
        }
        do {
            _ = try document(defs + ##"<rect width="40" height="40" fill="url(#p0)"/>"##)
            Issue.record("expected a limit error")
        } catch {
            guard case .limitExceeded = error.kind else { Issue.record("expected limitExceeded, got \(error)"); return }
        }
    }
}
