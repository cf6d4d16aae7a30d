import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

// `<style>` sheets: the selectors exporters write, specificity, order and `!important`, and
// what is skipped with a warning.

@Suite("SVG <style> sheets")
struct SVGStyleSheetTests {
    func svg(_ style: String, _ body: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><style>\##(style)</style>\##(body)</svg>"##
    }

    /// The fill colour of each shape, as #rrggbb (nil for none).
    func fills(_ source: String) throws -> [String?] {
        let doc = try SVGDocument(string: source)
        var result: [String?] = []
        func walk(_ n: SVGRenderNode) {
            switch n.content {
            case .shape(let s):
                result.append(s.fill?.paint.solidColor.map {
                    String(format: "#%02x%02x%02x", Int($0.red * 255), Int($0.green * 255), Int($0.blue * 255))
                })
            case .group(let children): children.forEach(walk)
            case .image, .colorGlyphs: break
            }
        }
        walk(doc.root)
        return result
    }

    @Test(arguments: [
        ("rect { fill: #00f }", ##"<rect width="1" height="1"/><circle r="1"/>"##, ["#0000ff", "#000000"]),
        ("* { fill: #00f }", ##"<rect width="1" height="1"/>"##, ["#0000ff"]),
        (".a { fill: #00f } .b { fill: #0f0 }", ##"<rect class="b  a" width="1" height="1"/>"##, ["#00ff00"]),
        ("#r { fill: #00f } .a { fill: #0f0 }", ##"<rect id="r" class="a" width="1" height="1"/>"##, ["#0000ff"]),
        (".a.b { fill: #00f }", ##"<rect class="a" width="1" height="1"/><rect class="a b" width="1" height="1"/>"##, ["#000000", "#0000ff"]),
        ("g rect { fill: #00f }", ##"<g><g><rect width="1" height="1"/></g></g><rect width="1" height="1"/>"##, ["#0000ff", "#000000"]),
        ("g > rect { fill: #00f }", ##"<g><g><rect width="1" height="1"/></g></g><g><a><rect width="1" height="1"/></a></g>"##, ["#0000ff", "#000000"]),
        ("svg > g.layer rect { fill: #00f }", ##"<g class="layer"><rect width="1" height="1"/></g><g><g class="layer"><rect width="1" height="1"/></g></g>"##, ["#0000ff", "#000000"]),
        ("[data-x] { fill: #00f } [data-y=\"2\"] { fill: #0f0 }", ##"<rect data-x="" width="1" height="1"/><rect data-y="2" width="1" height="1"/>"##, ["#0000ff", "#00ff00"]),
        ("[data-x^=ab] { fill: #00f } [data-x$='yz'] { fill: #0f0 } [data-x~=k] { fill: #f00 }", ##"<rect data-x="abc" width="1" height="1"/><rect data-x="xyz" width="1" height="1"/><rect data-x="j k" width="1" height="1"/>"##, ["#0000ff", "#00ff00", "#ff0000"]),
        ("rect, circle { fill: #00f }", ##"<rect width="1" height="1"/><circle r="1"/>"##, ["#0000ff", "#0000ff"]),
        ("rect:first-child { fill: #00f }", ##"<g><rect width="1" height="1"/><rect width="1" height="1"/></g>"##, ["#0000ff", "#000000"]),
        // Order and precedence: later rule wins at equal specificity; the style attribute beats
        // the sheet; !important beats the style attribute; the sheet beats attributes.
        (".a { fill: #00f } .a { fill: #0f0 }", ##"<rect class="a" width="1" height="1"/>"##, ["#00ff00"]),
        (".a { fill: #00f }", ##"<rect class="a" style="fill: #0f0" width="1" height="1" fill="#f00"/>"##, ["#00ff00"]),
        (".a { fill: #00f !important }", ##"<rect class="a" style="fill: #0f0" width="1" height="1"/>"##, ["#0000ff"]),
        (".a { fill: #00f }", ##"<rect class="a" fill="#f00" width="1" height="1"/>"##, ["#0000ff"]),
        // Inheritance from a styled group; comments.
        ("/* layer */ .g { fill: #00f }", ##"<g class="g"><rect width="1" height="1"/></g>"##, ["#0000ff"]),
        // Skipped: the whole rule with an unsupported selector, at-rules.
        ("rect:hover, rect { fill: #f00 } @media print { rect { fill: #0f0 } } rect { stroke: none }", ##"<rect width="1" height="1"/>"##, ["#000000"]),
    ])
    func selectorsAndPrecedence(style: String, body: String, expected: [String?]) throws {
        #expect(try fills(svg(style, body)) == expected)
    }

    @Test func skippedRulesAreWarnings() throws {
        let doc = try SVGDocument(string: svg("a + b { fill: red } @font-face { font-family: x } rect::before { }", ""))
        #expect(doc.warnings.map(\.message) == [
            ##"unsupported selector "a + b" in <style> (rule skipped)"##,
            "@font-face rule in <style> (skipped)",
            ##"unsupported selector "rect::before" in <style> (rule skipped)"##,
        ])
        #expect(doc.isFullySupported)
    }

    @Test func sheetsReachStopsAndUsedElements() throws {
        let doc = try SVGDocument(string: svg(".s0 { stop-color: #00f } .c { fill: url(#g) }", """
            <linearGradient id="g"><stop class="s0" offset="0"/><stop class="s0" offset="1"/></linearGradient>
            <defs><rect id="r" class="c" width="20" height="20"/></defs><use href="#r"/>
            """))
        let image = try #require(doc.makeImage())
        let p = image.straightRGBA(x: 10, y: 10)
        #expect([p.r, p.g, p.b, p.a] == [0, 0, 255, 255])
    }

    @Test func invalidSheetValuesAreWarningsAtTheElement() throws {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><style>.a { fill: #qq }</style>"## + "\n" + ##"  <g fill="#00f"><rect class="a" width="20" height="20"/></g></svg>"##)
        #expect(doc.warnings.first?.message == ##"invalid fill="#qq": not a colour, none, currentColor or url(#id)"##)
        #expect(doc.warnings.first?.location == SVGSourceLocation(line: 2, column: 18))
        let p = try #require(doc.makeImage()).straightRGBA(x: 10, y: 10)
        #expect([p.r, p.g, p.b, p.a] == [0, 0, 255, 255])
    }
}
