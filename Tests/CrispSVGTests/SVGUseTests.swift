import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

// `use`, `symbol`, nested `svg`, `switch` with `systemLanguage`, and `transform-origin`: pixel
// checks, the cycle guards, and the expansion limit (counted in elements built, never timed).

@Suite("SVG use, symbol, nested svg, switch, transform-origin")
struct SVGUseTests {
    func svg(_ body: String, size: String = ##"width="20" height="20""##) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" \##(size)>\##(body)</svg>"##
    }

    func rgba(_ doc: SVGDocument, _ x: Int, _ y: Int) throws -> [Int] {
        let image = try #require(doc.makeImage())
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    static let blue = [0, 0, 255, 255], clear = [0, 0, 0, 0]

    @Test func useDrawsItsTargetMovedWithTheCascadeOfTheUse() throws {
        let doc = try SVGDocument(string: svg(##"<defs><rect id="r" width="5" height="5"/></defs><use href="#r" x="10" y="10" fill="#00f"/><use xlink:href="#r" fill="#0f0" transform="translate(0 10)"/>"##))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        #expect(try rgba(doc, 12, 12) == Self.blue)
        #expect(try rgba(doc, 2, 12) == [0, 255, 0, 255])
        #expect(try rgba(doc, 2, 2) == Self.clear)   // the rect in <defs> draws only through the uses
    }

    @Test func symbolMapsItsViewBoxIntoTheUsesSizeAndClips() throws {
        // A 10 × 10 viewBox into 20 × 10 (meet, centred): scale 1, 5 px of margin either side; the
        // circle reaching beyond the viewBox is clipped to the viewport.
        let doc = try SVGDocument(string: svg(##"<symbol id="s" viewBox="0 0 10 10"><rect width="10" height="10" fill="#00f"/><rect x="-5" width="5" height="10" fill="#f00"/></symbol><use href="#s" y="5" width="20" height="10"/>"##))
        #expect(try rgba(doc, 10, 10) == Self.blue)
        #expect(try rgba(doc, 6, 10) == Self.blue)
        #expect(try rgba(doc, 3, 10) == [255, 0, 0, 255])   // in the viewport, left of the viewBox
        #expect(try rgba(doc, 10, 2) == Self.clear)
        let visible = try SVGDocument(string: svg(##"<symbol id="s" overflow="visible"><rect x="-5" y="-5" width="5" height="5" fill="#00f"/></symbol><use href="#s" x="10" y="10" width="1" height="1"/>"##))
        #expect(try rgba(visible, 7, 7) == Self.blue)
    }

    @Test func nestedSvgIsAViewport() throws {
        let doc = try SVGDocument(string: svg(##"<svg x="10" width="10" height="10" viewBox="0 0 1 1"><rect width="1" height="1" fill="#00f"/><rect y="1" width="1" height="1" fill="#f00"/></svg>"##))
        #expect(doc.isFullySupported)
        #expect(try rgba(doc, 15, 5) == Self.blue)
        #expect(try rgba(doc, 15, 15) == Self.clear)   // clipped to the nested viewport
        #expect(try rgba(doc, 5, 5) == Self.clear)
    }

    @Test(arguments: [
        ##"<g id="a"><use href="#a"/></g>"##,
        ##"<use id="u" href="#u"/>"##,
        ##"<g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g>"##,
        ##"<symbol id="s"><use href="#s"/></symbol><use href="#s"/>"##,
    ])
    func cyclesAreSkippedWithAWarning(body: String) throws {
        let doc = try SVGDocument(string: svg(body + ##"<rect width="5" height="5" fill="#00f"/>"##))
        #expect(doc.warnings.contains { $0.message.hasSuffix("leads back to itself") }, "\(doc.warnings)")
        #expect(try rgba(doc, 2, 2) == Self.blue)
    }

    @Test func missingAndWrongTargetsAreWarnings() throws {
        let doc = try SVGDocument(string: svg(##"<use href="#nowhere"/><linearGradient id="g"/><use href="#g"/><use href="other.svg#x"/>"##))
        #expect(doc.warnings.map(\.message) == [
            ##"no element has id "nowhere""##,
            ##""g" is a <linearGradient>, expected a graphics element, <symbol> or <svg>"##,
            ##"invalid href="other.svg#x": expected #id (only references within the document)"##,
        ])
    }

    /// Ten uses of ten uses of … nine levels deep would be 10⁹ rectangles: the expansion stops at
    /// the limit, having built no more than the limit's worth of elements, and that use is
    /// skipped with a warning while the rest of the document draws (issue 31); a second such use
    /// is over the limit at its first element.
    @Test func billionLaughsIsBoundedByCountedWork() throws {
        var defs = ##"<rect id="l0" width="1" height="1"/>"##
        for level in 1...9 {
            defs += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        var reader = XMLReader(bytes: Array(svg("<defs>\(defs)</defs><use href=\"#l9\"/><use href=\"#l9\"/><rect width=\"5\" height=\"5\"/>").utf8))
        let builder = SVGBuilder(lines: reader.lines)
        _ = try builder.build(try reader.readDocument())
        #expect(builder.warnings.count == 1 && builder.warnings[0].count == 2 && builder.warnings[0].message.contains("references expand"),
                "\(builder.warnings)")
        #expect(builder.useInstances == SVGBuilder.maximumUseInstances + 2)
        // Below the limit the same shape of document reads: 10⁴ rectangles.
        var small = ##"<rect id="l0" width="1" height="1"/>"##
        for level in 1...4 {
            small += "<g id=\"l\(level)\">" + String(repeating: "<use href=\"#l\(level - 1)\"/>", count: 10) + "</g>"
        }
        _ = try SVGDocument(string: svg("<defs>\(small)</defs><use href=\"#l4\"/>"))
    }

    @Test func aLongChainOfUsesIsALimitNotAStackOverflow() throws {
        // Past the nesting limit the chain is not drawn (a warning); the rest of the file is.
        var defs = ##"<rect id="u0" width="1" height="1"/>"##
        for k in 1...200 { defs += "<use id=\"u\(k)\" href=\"#u\(k - 1)\"/>" }
        let doc = try SVGDocument(string: svg("<defs>\(defs)</defs><use href=\"#u200\"/><use href=\"#u10\" x=\"5\"/>"))
        #expect(doc.warnings.count == 1 && doc.warnings[0].message.contains("use references nested"), "\(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(image.straightRGBA(x: 0, y: 0).a == 0)      // the over-deep chain
        #expect(image.straightRGBA(x: 5, y: 0).a == 255)    // a chain within the limit
    }

    @Test func switchDrawsTheFirstChildWhoseConditionsPass() throws {
        let doc = try SVGDocument(string: svg("""
            <switch>
              <rect systemLanguage="fr" width="20" height="20" fill="#f00"/>
              <rect requiredExtensions="http://example.org/ext" width="20" height="20" fill="#f0f"/>
              <rect systemLanguage="de, en-US" width="20" height="20" fill="#00f"/>
              <rect width="20" height="20" fill="#0f0"/>
            </switch>
            <rect systemLanguage="ja" width="5" height="5" fill="#f00"/>
            """))
        #expect(try rgba(doc, 10, 10) == Self.blue)
        #expect(try rgba(doc, 2, 2) == Self.blue)
    }

    @Test func transformOriginMovesTheFixedPoint() throws {
        // scale(0.5) about the rect's centre (10, 10): the rect 0…20 becomes 5…15.
        let doc = try SVGDocument(string: svg(##"<rect width="20" height="20" fill="#00f" transform="scale(0.5)" transform-origin="10 10"/><rect width="20" height="20" fill="#0f0" transform="scale(0.25)" style="transform-origin: right bottom"/>"##))
        #expect(try rgba(doc, 6, 6) == Self.blue)
        #expect(try rgba(doc, 3, 3) == Self.clear)
        #expect(try rgba(doc, 17, 17) == [0, 255, 0, 255])
        #expect(try rgba(doc, 14, 14) == Self.blue)
    }
}

@Suite("SVG relative units")
struct SVGUnitTests {
    /// The width of a rect written `width="<value>"` (inside the given wrapper) in px.
    func width(_ value: String, wrapper: (String, String) = ("", ""), size: String = ##"width="200" height="100""##) throws -> CGFloat {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" \##(size)>\##(wrapper.0)<rect height="1" width="\##(value)"/>\##(wrapper.1)</svg>"##)
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        var result: CGFloat = -1
        func walk(_ n: SVGRenderNode) {
            switch n.content {
            case .shape(let s): result = s.path.boundingBoxOfPath.width
            case .group(let children): children.forEach(walk)
            case .image, .colorGlyphs: break
            }
        }
        walk(doc.root)
        return result
    }

    static let units: [(String, Double)] = [
        ("2em", 32), ("2ex", 2 * 16 * 1082 / 2048), ("1rem", 16), ("10vw", 20), ("10vh", 10), ("10vmin", 10), ("10vmax", 20),
        ("4Q", 96 / 25.4), ("1ch", 16 * 1151 / 2048), ("1cap", 16 * 1456 / 2048), ("1ic", 16), ("1lh", 16 * 2400 / 2048),
        ("1rlh", 16 * 2400 / 2048), ("50%", 100), ("1in", 96),
    ]

    @Test(arguments: units)
    func unitsResolve(value: String, expected: Double) throws {
        #expect(abs(try width(value) - CGFloat(expected)) < 1e-9)
    }

    @Test func emFollowsTheInheritedAndOwnFontSize() throws {
        #expect(try width("1em", wrapper: (##"<g font-size="20">"##, "</g>")) == 20)
        #expect(try width("1em", wrapper: (##"<g font-size="20"><g style="font-size: 150%">"##, "</g></g>")) == 30)
        #expect(try width("2em", wrapper: (##"<g font-size="10"><g font-size="2em">"##, "</g></g>")) == 40)
        #expect(try width("1em", wrapper: (##"<g font-size="large">"##, "</g>")) == 18)
        #expect(try width("1rem", wrapper: (##"<g font-size="40">"##, "</g>")) == 16)
    }

    @Test func vwIsOfTheOutermostViewportNotTheViewBox() throws {
        #expect(try width("10vw", size: ##"width="200" height="100" viewBox="0 0 20 10""##) == 20)
        #expect(try width("10%", size: ##"width="200" height="100" viewBox="0 0 20 10""##) == 2)
    }
}
