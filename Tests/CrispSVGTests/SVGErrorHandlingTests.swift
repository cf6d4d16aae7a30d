import CrispGraphics
import CrispSVG
import Foundation
import Testing

// SVG's error handling, case by case: an invalid value is as if absent (the initial or the
// inherited value), path data draws up to its error, an odd `points` list drops its last
// coordinate, a missing, wrong-type or recursive reference is as if absent (a paint server:
// its fallback colour, else none), a negative size disables its element. Each reads with a
// warning that points at the offending value's line and column, and draws what the spec says.
// Typed errors stay for what is not SVG at all (SVGDocumentTests covers those).

@Suite("SVG error handling: invalid values fall back as the spec says, with a placed warning")
struct SVGErrorHandlingTests {
    struct Case: CustomTestStringConvertible, Sendable {
        /// The document body; it starts on line 2.
        var body: String
        /// Text on line 2 where the warning must point (its first occurrence).
        var needle: String
        /// The start of the warning's message.
        var message: String
        /// A pixel and its straight RGBA as drawn.
        var pixel: (x: Int, y: Int)
        var rgba: [Int]
        var testDescription: String { message }
    }

    static let blue = [0, 0, 255, 255], lime = [0, 255, 0, 255], clear = [0, 0, 0, 0]

    static let cases: [Case] = [
        // Invalid values: as if absent (inherited or initial).
        Case(body: ##"<g fill="#00ff00"><rect width="20" height="20" fill="#qqq"/></g>"##, needle: "#qqq",
             message: ##"invalid fill="#qqq": not a colour"##, pixel: (10, 10), rgba: lime),
        Case(body: ##"<rect width="20" height="20" fill="#00f" x="5qq"/>"##, needle: "qq",
             message: ##"invalid x="5qq": unknown unit "qq""##, pixel: (2, 2), rgba: blue),
        Case(body: ##"<linearGradient id="g" gradientUnits="qwe"><stop stop-color="#00f"/></linearGradient><rect width="20" height="20" fill="url(#g)"/>"##,
             needle: "qwe", message: ##"invalid gradientUnits="qwe""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<path d="M0 10 H20" stroke="#00f" stroke-width="4" stroke-linecap="miter"/>"##, needle: "miter",
             message: ##"invalid stroke-linecap="miter""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<g stroke-width="6"><path d="M0 10 H20" stroke="#00f" stroke-width="-3"/></g>"##, needle: "-3",
             message: ##"invalid stroke-width="-3": must not be negative"##, pixel: (10, 12), rgba: blue),
        Case(body: ##"<rect width="20" height="20" fill="#00f" opacity="half"/>"##, needle: "half",
             message: ##"invalid opacity="half""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<rect width="10" height="10" fill="#00f" transform="translate(10 10) spin(3)"/>"##, needle: "spin",
             message: ##"invalid transform="translate(10 10) spin(3)": unknown transform spin()"##, pixel: (2, 2), rgba: blue),
        Case(body: ##"<linearGradient id="g" gradientTransform="skewX(1 2)"><stop stop-color="#00f"/><stop offset="1" stop-color="#00f"/></linearGradient><rect width="20" height="20" fill="url(#g)"/>"##,
             needle: "skewX", message: ##"invalid gradientTransform="skewX(1 2)""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<rect style="fill: bleu; stroke: none" width="20" height="20"/>"##, needle: " bleu",
             message: ##"invalid fill="bleu""##, pixel: (10, 10), rgba: [0, 0, 0, 255]),
        // Negative sizes disable the element; a rect's negative rx is auto.
        Case(body: ##"<circle cx="10" cy="10" r="-5" fill="#00f"/>"##, needle: "-5",
             message: ##"invalid r="-5": must not be negative (the element is not drawn)"##, pixel: (10, 10), rgba: clear),
        Case(body: ##"<rect width="-20" height="20" fill="#00f"/>"##, needle: "-20",
             message: ##"invalid width="-20""##, pixel: (10, 10), rgba: clear),
        Case(body: ##"<ellipse cx="10" cy="10" rx="-1" ry="5" fill="#00f"/>"##, needle: "-1",
             message: ##"invalid rx="-1""##, pixel: (10, 10), rgba: clear),
        Case(body: ##"<rect width="20" height="20" rx="-5" fill="#00f"/>"##, needle: "-5",
             message: ##"invalid rx="-5": must not be negative (treated as auto)"##, pixel: (0, 0), rgba: blue),
        // Path data up to the error; points without the odd coordinate.
        Case(body: ##"<path d="M0 0 H20 V20 H0 Z L 5 x" fill="#00f"/>"##, needle: "x\"",
             message: "invalid path data: expected a number (drawn up to here)", pixel: (10, 10), rgba: blue),
        Case(body: ##"<path d="M0 0 H20 V20 H0 Z" fill="#00f"/><path d="M0 0 H20 V20 H0 Q 1" fill="#f00"/>"##, needle: ##"" fill="#f00""##,
             message: "invalid path data: expected a number", pixel: (10, 10), rgba: [255, 0, 0, 255]),
        Case(body: ##"<polygon points="0,0 20,0 20,20 0,20 7" fill="#00f"/>"##, needle: "0,0 20",
             message: "invalid path data: points has an odd number of coordinates (9); the last is dropped", pixel: (10, 10), rgba: blue),
        // References.
        Case(body: ##"<rect width="20" height="20" fill="url(#nope)"/>"##, needle: "url(#nope)",
             message: ##"no element has id "nope""##, pixel: (10, 10), rgba: clear),
        Case(body: ##"<rect width="20" height="20" fill="url(#nope) #00f"/>"##, needle: "url(#nope)",
             message: ##"no element has id "nope""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<rect id="r" width="1" height="1" fill="none"/><rect width="20" height="20" fill="url(#r) #00f"/>"##, needle: "url(#r)",
             message: ##""r" is a <rect>, expected a paint server"##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<linearGradient id="a" href="#b"><stop stop-color="#0f0"/></linearGradient><linearGradient id="b" href="#a"/><rect width="20" height="20" fill="url(#a)"/>"##,
             needle: "#a\"", message: ##"reference to "a" leads back to itself"##, pixel: (10, 10), rgba: lime),
        Case(body: ##"<linearGradient id="a" href="#gone"><stop stop-color="#0f0"/></linearGradient><rect width="20" height="20" fill="url(#a)"/>"##,
             needle: "#gone", message: ##"no element has id "gone""##, pixel: (10, 10), rgba: lime),
        Case(body: ##"<rect width="20" height="20" fill="#00f" clip-path="url(#nope)"/>"##, needle: "url(#nope)",
             message: ##"no element has id "nope""##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<clipPath id="c"><rect width="20" height="20" clip-path="url(#c)"/></clipPath><rect width="20" height="20" fill="#00f" clip-path="url(#c)"/>"##,
             needle: "url(#c)", message: ##"reference to "c" leads back to itself"##, pixel: (10, 10), rgba: blue),
        Case(body: ##"<clipPath id="c" clipPathUnits="pixels"><rect width="10" height="10"/></clipPath><rect width="20" height="20" fill="#00f" clip-path="url(#c)"/>"##,
             needle: "pixels", message: ##"invalid clipPathUnits="pixels""##, pixel: (5, 5), rgba: blue),
    ]

    @Test(arguments: cases)
    func invalidValueFallsBackWithAPlacedWarning(_ c: Case) throws {
        let source = ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">"## + "\n" + c.body + "\n</svg>"
        let doc = try SVGDocument(string: source)
        let warning = try #require(doc.warnings.first { $0.message.hasPrefix(c.message) }, "warnings: \(doc.warnings)")
        let line2 = source.split(separator: "\n", omittingEmptySubsequences: false)[1]
        let column = try #require(line2.range(of: c.needle)).lowerBound.utf16Offset(in: line2) + 1
        #expect(warning.location == SVGSourceLocation(line: 2, column: column))
        let image = try #require(doc.makeImage())
        let p = image.straightRGBA(x: c.pixel.x, y: c.pixel.y)
        #expect([Int(p.r), Int(p.g), Int(p.b), Int(p.a)] == c.rgba)
    }

    @Test func invalidRootAttributesAreAbsent() throws {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="30" height="-4" viewBox="0 0 0 10" preserveAspectRatio="middle"/>"##)
        #expect(doc.size == CGSize(width: 30, height: 100))
        #expect(doc.viewBox == nil)
        #expect(doc.warnings.map(\.message) == [
            ##"invalid height="-4": must be positive"##,
            ##"invalid viewBox="0 0 0 10": the width and height must be positive"##,
            ##"invalid preserveAspectRatio="middle": expected none or xMinYMin … xMaxYMax, then meet or slice"##,
        ])
    }

    @Test func eachDistinctWarningIsCounted() throws {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"><rect fill="#qqq"/><rect fill="#qqq"/><rect fill="#ppp"/></svg>"##)
        #expect(doc.warnings.map(\.count) == [2, 1])
    }
}
