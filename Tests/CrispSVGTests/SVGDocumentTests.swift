import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

extension SVGResolvedPaint {
    var solidColor: SVGColor? {
        if case .color(let c) = self { return c }
        return nil
    }
}

@Suite("SVG documents: structure, cascade, references, errors")
struct SVGDocumentTests {
    func svg(_ body: String, size: String = ##"width="20" height="20""##) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" \##(size)>\##(body)</svg>"##
    }

    func render(_ source: String, scale: CGFloat = 1) throws -> CGImage {
        let doc = try SVGDocument(string: source)
        return try #require(doc.makeImage(scale: scale))
    }

    /// Straight RGBA at (x, y), row 0 at the top.
    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    func shapes(_ doc: SVGDocument) -> [SVGShape] {
        var result: [SVGShape] = []
        func walk(_ n: SVGRenderNode) {
            switch n.content {
            case .shape(let s): result.append(s)
            case .group(let children): children.forEach(walk)
            case .image, .colorGlyphs: break
            }
        }
        walk(doc.root)
        return result
    }

    // MARK: Size and viewport

    @Test func intrinsicSizeAndViewBox() throws {
        let a = try SVGDocument(string: svg("", size: ##"width="200" height="100" viewBox="0 0 20 10""##))
        #expect(a.size == CGSize(width: 200, height: 100))
        #expect(a.viewBox == CGRect(x: 0, y: 0, width: 20, height: 10))
        let b = try SVGDocument(string: svg("", size: ##"viewBox="5 5 40 30""##))
        #expect(b.size == CGSize(width: 40, height: 30))
        let c = try SVGDocument(string: svg("", size: ##"width="1in" height="50%" viewBox="0 0 10 10""##))
        #expect(c.size == CGSize(width: 96, height: 5))
        let d = try SVGDocument(string: svg("", size: ""))
        #expect(d.size == CGSize(width: 100, height: 100))
    }

    @Test(arguments: [
        // Issue 31: without a viewBox and an absolute width and height, the size reaches the
        // content's far edges (its fill box's right and bottom, the origin kept), as resvg 0.44.
        ("", ##"<rect x="2" y="2" width="10" height="5" stroke="red" stroke-width="4"/>"##, CGSize(width: 12, height: 7)),
        ("", ##"<rect x="-5" y="-5" width="10" height="10"/>"##, CGSize(width: 5, height: 5)),
        (##"width="40""##, ##"<rect x="2" y="2" width="10" height="5"/>"##, CGSize(width: 12, height: 7)),
        (##"width="50%" height="50%""##, ##"<g transform="translate(30 0)"><rect x="2" y="2" width="10" height="5"/></g>"##, CGSize(width: 42, height: 7)),
        // Content left of or above the origin, or none: 100 × 100 (percentages of it).
        ("", ##"<rect x="-20" y="-20" width="10" height="10"/>"##, CGSize(width: 100, height: 100)),
        (##"height="50%""##, "", CGSize(width: 100, height: 50)),
        // Absolute sizes and viewBoxes are kept.
        (##"width="40" height="30""##, ##"<rect width="100" height="100"/>"##, CGSize(width: 40, height: 30)),
        (##"viewBox="0 0 20 10""##, ##"<rect width="100" height="100"/>"##, CGSize(width: 20, height: 10)),
    ])
    func sizeWithoutViewBoxFollowsTheContent(size: String, body: String, expected: CGSize) throws {
        #expect(try SVGDocument(string: svg(body, size: size)).size == expected)
    }

    @Test func viewBoxMapsToTheViewport() throws {
        // A 10 × 10 viewBox on a 20 × 20 canvas: the unit square at (5, 5) covers pixels 10…11.
        let image = try render(svg(##"<rect x="5" y="5" width="1" height="1" fill="#00f"/>"##,
                                   size: ##"width="20" height="20" viewBox="0 0 10 10""##))
        #expect(rgba(image, 10, 10) == [0, 0, 255, 255])
        #expect(rgba(image, 11, 11) == [0, 0, 255, 255])
        #expect(rgba(image, 9, 10)[3] == 0)
        #expect(rgba(image, 12, 12)[3] == 0)
    }

    @Test(arguments: [
        ("xMidYMid meet", CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 50)),
        ("xMinYMin meet", CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0)),
        ("xMaxYMax", CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 100)),
        ("xMidYMid slice", CGAffineTransform(a: 4, b: 0, c: 0, d: 4, tx: -50, ty: 0)),
        ("none", CGAffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 0, ty: 0)),
    ])
    func preserveAspectRatio(value: String, expected: CGAffineTransform) throws {
        let doc = try SVGDocument(string: svg("", size: ##"width="100" height="200" viewBox="0 0 50 50" preserveAspectRatio="\##(value)""##))
        #expect(doc.viewBoxTransform == expected)
    }

    // MARK: Cascade

    @Test func propertiesInheritThroughGroups() throws {
        let doc = try SVGDocument(string: svg("""
            <g fill="red" stroke="blue" stroke-width="3" fill-rule="evenodd" stroke-linejoin="round">
              <g style="stroke-width: 5; fill-opacity: .5">
                <rect width="4" height="4"/>
                <rect width="4" height="4" fill="lime" stroke-width="2" style="stroke-width:7"/>
              </g>
              <rect width="4" height="4" stroke="none"/>
            </g>
            """))
        let s = shapes(doc)
        #expect(s.count == 3)
        #expect(s[0].fill?.paint.solidColor == (SVGColor(red: 1, green: 0, blue: 0)))
        #expect(s[0].fill?.opacity == 0.5)
        #expect(s[0].strokeStyle.width == 5)
        #expect(s[0].strokeStyle.join == .round)
        #expect(s[0].fillRule == .evenOdd)
        #expect(s[1].fill?.paint.solidColor == (SVGColor(red: 0, green: 1, blue: 0)))
        #expect(s[1].strokeStyle.width == 7)   // style beats the presentation attribute
        #expect(s[2].stroke == nil)
        #expect(s[2].strokeStyle.width == 3)
        #expect(s[2].fill?.opacity == 1)
    }

    @Test func initialValuesFollowSVGNotCoreGraphics() throws {
        let s = shapes(try SVGDocument(string: svg(##"<path d="M0 0 L5 5" stroke="black"/>"##)))[0]
        #expect(s.strokeStyle.miterLimit == 4)
        #expect(s.strokeStyle.cap == .butt && s.strokeStyle.join == .miter && s.strokeStyle.width == 1)
        #expect(s.fill?.paint.solidColor == SVGColor.black)
    }

    @Test func currentColorAndInherit() throws {
        let s = shapes(try SVGDocument(string: svg("""
            <g color="#0000ff" fill="red"><rect width="2" height="2" fill="currentColor" stroke="inherit"/>
            <g color="lime"><rect width="2" height="2" stroke="currentColor" fill="inherit"/></g></g>
            """)))
        #expect(s[0].fill?.paint.solidColor == (SVGColor(red: 0, green: 0, blue: 1)))
        #expect(s[0].stroke == nil)
        #expect(s[1].stroke?.paint.solidColor == (SVGColor(red: 0, green: 1, blue: 0)))
        #expect(s[1].fill?.paint.solidColor == (SVGColor(red: 1, green: 0, blue: 0)))
    }

    @Test func currentColorInAStopIsTheStopsInheritedColor() throws {
        // The stop's `color` cascades from where the stop is written (its own, else the gradient's
        // and its ancestors'), never from the element the gradient paints.
        let image = try render(svg(##"""
            <defs color="blue"><linearGradient id="g"><stop stop-color="currentColor"/><stop offset="1" stop-color="currentColor" color="red"/></linearGradient></defs>
            <rect width="20" height="20" fill="url(#g)" color="lime"/>
            """##))
        #expect(rgba(image, 0, 10)[1] == 0 && rgba(image, 0, 10)[2] > 240)
        #expect(rgba(image, 19, 10)[1] == 0 && rgba(image, 19, 10)[0] > 240)
    }

    @Test func dashArraysAndLengths() throws {
        let s = shapes(try SVGDocument(string: svg("""
            <path d="M0 0 H10" stroke="red" stroke-dasharray="1, 2 3" stroke-dashoffset="-2" stroke-width="1mm"/>
            <path d="M0 0 H10" stroke="red" stroke-dasharray="0 0"/>
            <path d="M0 0 H10" stroke="red" stroke-dasharray="10%" stroke-width="5%"/>
            """, size: ##"viewBox="0 0 100 100""##)))
        #expect(s[0].strokeStyle.dashes == [1, 2, 3])
        #expect(s[0].strokeStyle.dashOffset == -2)
        #expect(abs(s[0].strokeStyle.width - 96 / 25.4) < 1e-12)
        #expect(s[1].strokeStyle.dashes == [])
        #expect(abs(s[2].strokeStyle.dashes[0] - 10) < 1e-12)   // % of the normalized diagonal
        #expect(abs(s[2].strokeStyle.width - 5) < 1e-12)
    }

    @Test func displayAndVisibility() throws {
        let s = shapes(try SVGDocument(string: svg("""
            <g display="none"><rect width="2" height="2"/></g>
            <g visibility="hidden"><rect width="2" height="2"/><rect width="2" height="2" visibility="visible"/></g>
            <rect width="2" height="2" style="display:none"/>
            """)))
        #expect(s.count == 2)
        #expect(s[0].fill == nil)
        #expect(s[1].fill != nil)
    }

    @Test func basicShapesBecomePaths() throws {
        let s = shapes(try SVGDocument(string: svg("""
            <rect x="1" y="2" width="10" height="6"/>
            <rect x="0" y="0" width="10" height="6" rx="20"/>
            <circle cx="5" cy="5" r="3"/>
            <ellipse cx="5" cy="5" rx="4" ry="2"/>
            <line x1="1" y1="1" x2="9" y2="3" stroke="black"/>
            <polyline points="0,0 5,5 10,0"/>
            <polygon points="0 0, 5 5, 10 0"/>
            <rect width="0" height="5"/>
            <circle r="0"/>
            """)))
        #expect(s.count == 7)
        #expect(s[0].path.boundingBoxOfPath == CGRect(x: 1, y: 2, width: 10, height: 6))
        #expect(s[1].path.boundingBoxOfPath == CGRect(x: 0, y: 0, width: 10, height: 6))  // rx clamped to 5, ry = rx → 3
        #expect(s[1].path.elements.first == .moveTo(CGPoint(x: 5, y: 0)))
        let circle = s[2].path.boundingBoxOfPath
        #expect(abs(circle.minX - 2) < 1e-9 && abs(circle.maxY - 8) < 1e-9)
        #expect(s[2].path.elements.first == .moveTo(CGPoint(x: 8, y: 5)))
        #expect(s[4].fill == nil && s[4].stroke != nil)
        #expect(s[5].path.elements.last == .lineTo(CGPoint(x: 10, y: 0)))
        #expect(s[6].path.elements.last == .closeSubpath)
    }

    @Test func transformsCompose() throws {
        let doc = try SVGDocument(string: svg(##"<g transform="translate(10 0)"><rect transform="scale(2)" width="1" height="1"/></g>"##))
        guard case .group(let children) = doc.root.content, case .group(let inner) = children[0].content else {
            Issue.record("unexpected tree")
            return
        }
        #expect(children[0].transform == CGAffineTransform(translationX: 10, y: 0))
        #expect(inner[0].transform == CGAffineTransform(scaleX: 2, y: 2))
        let image = try render(svg(##"<g transform="translate(10 0)"><rect transform="scale(2)" width="1" height="1" fill="#f00"/></g>"##))
        #expect(rgba(image, 10, 0) == [255, 0, 0, 255])
        #expect(rgba(image, 11, 1) == [255, 0, 0, 255])
        #expect(rgba(image, 12, 0)[3] == 0)
    }

    // MARK: Opacity

    @Test func opacityFoldsIntoASinglePaint() throws {
        let doc = try SVGDocument(string: svg("""
            <rect width="4" height="4" fill="red" fill-opacity="0.5" opacity="0.5"/>
            <g opacity="0.5"><g opacity="0.5"><path d="M0 0 H4" stroke="red" fill="none"/></g></g>
            """))
        #expect(doc.isFullySupported)
        let s = shapes(doc)
        #expect(s[0].fill?.opacity == 0.25)
        #expect(s[1].stroke?.opacity == 0.25)
        let image = try render(svg(##"<rect width="20" height="20" fill="#ff0000" opacity="0.5"/>"##))
        #expect(rgba(image, 5, 5) == [255, 0, 0, 128])
    }

    // MARK: Clip paths

    @Test func clipPathClipsInUserSpace() throws {
        let source = svg("""
            <defs><clipPath id="c"><rect x="0" y="0" width="5" height="20"/></clipPath></defs>
            <g transform="translate(5 0)" clip-path="url(#c)"><rect width="20" height="20" fill="#0f0"/></g>
            """)
        let image = try render(source)
        #expect(rgba(image, 4, 10)[3] == 0)
        #expect(rgba(image, 5, 10) == [0, 255, 0, 255])
        #expect(rgba(image, 9, 10) == [0, 255, 0, 255])
        #expect(rgba(image, 10, 10)[3] == 0)
    }

    @Test func clipRuleAndObjectBoundingBoxUnits() throws {
        let source = svg("""
            <clipPath id="ring" clipPathUnits="objectBoundingBox">
              <path d="M0 0 H1 V1 H0 Z M0.25 0.25 H0.75 V0.75 H0.25 Z" clip-rule="evenodd"/>
            </clipPath>
            <rect x="0" y="0" width="20" height="20" fill="#00f" clip-path="url(#ring)"/>
            """)
        let image = try render(source)
        #expect(rgba(image, 2, 2) == [0, 0, 255, 255])
        #expect(rgba(image, 10, 10)[3] == 0)
        #expect(rgba(image, 17, 10) == [0, 0, 255, 255])
    }

    @Test func nestedClipsIntersect() throws {
        let source = svg("""
            <clipPath id="left"><rect width="10" height="20"/></clipPath>
            <clipPath id="top" clip-path="url(#left)"><rect width="20" height="10"/></clipPath>
            <rect width="20" height="20" fill="#f00" clip-path="url(#top)"/>
            """)
        let image = try render(source)
        #expect(rgba(image, 5, 5) == [255, 0, 0, 255])
        #expect(rgba(image, 15, 5)[3] == 0)
        #expect(rgba(image, 5, 15)[3] == 0)
    }

    @Test func emptyClipPathClipsEverything() throws {
        let image = try render(svg(##"<clipPath id="c"/><rect width="20" height="20" clip-path="url(#c)"/>"##))
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    // MARK: Gradients

    @Test func gradientHrefInheritance() throws {
        let source = svg("""
            <linearGradient id="base" x1="0" x2="0" y2="1" spreadMethod="reflect">
              <stop offset="0" stop-color="red"/><stop offset="50%" stop-color="blue" stop-opacity="0.5"/>
              <stop offset="0.2" style="stop-color: lime"/>
            </linearGradient>
            <linearGradient id="derived" href="#base" gradientUnits="userSpaceOnUse" y2="20"/>
            <rect width="20" height="20" fill="url(#derived)"/>
            """)
        let doc = try SVGDocument(string: source)
        #expect(doc.isFullySupported)
        let g = try gradient("derived", in: source)
        #expect(g.units == .userSpaceOnUse)
        #expect(g.spread == .reflect)
        #expect(g.kind == .linear(x1: 0, y1: 0, x2: 0, y2: 20))
        #expect(g.stops.map(\.offset) == [0, 0.5, 0.5])   // offsets never decrease
        #expect(g.stops[1].color.alpha == 0.5)
        #expect(g.stops[2].color == SVGColor(red: 0, green: 1, blue: 0))
        let radial = try gradient("r", in: svg(##"<radialGradient id="r" fx="0.1" fr="5%"/>"##))
        #expect(radial.kind == .radial(cx: 0.5, cy: 0.5, r: 0.5, fx: 0.1, fy: 0.5, fr: 0.05))
        #expect(radial.units == .objectBoundingBox && radial.spread == .pad && radial.stops.isEmpty)
    }

    /// The resolved gradient `id` of a document.
    func gradient(_ id: String, in source: String) throws -> SVGGradient {
        var reader = XMLReader(bytes: Array(source.utf8))
        let xml = try reader.readDocument()
        let builder = SVGBuilder(lines: reader.lines)
        _ = try builder.build(xml)
        return builder.gradient(id, at: 0)
    }

    @Test func linearGradientRenders() throws {
        let image = try render(svg("""
            <linearGradient id="g" x1="0" x2="1"><stop offset="0" stop-color="#000"/><stop offset="1" stop-color="#fff"/></linearGradient>
            <rect width="20" height="20" fill="url(#g)"/>
            """))
        let left = rgba(image, 0, 10), middle = rgba(image, 10, 10), right = rgba(image, 19, 10)
        #expect(left[0] < 16 && right[0] > 239)
        #expect(abs(middle[0] - 134) <= 4)   // pixel centre 10.5 of 20
        #expect(left[3] == 255 && middle[3] == 255)
    }

    @Test func degenerateGradientsPaintTheLastStop() throws {
        let image = try render(svg("""
            <linearGradient id="g" x1="0.5" x2="0.5"><stop stop-color="#f00"/><stop offset="1" stop-color="#00f"/></linearGradient>
            <radialGradient id="r" r="0"><stop stop-color="#f00"/><stop offset="1" stop-color="#0f0"/></radialGradient>
            <rect width="10" height="20" fill="url(#g)"/><rect x="10" width="10" height="20" fill="url(#r)"/>
            """))
        #expect(rgba(image, 5, 5) == [0, 0, 255, 255])
        #expect(rgba(image, 15, 5) == [0, 255, 0, 255])
    }

    // MARK: Warnings and unsupported features

    @Test func paintOrderPutsTheStrokeUnderTheFill() throws {
        // The stroke's inner half (x 10…15) lies over the fill: blue normally, red with
        // paint-order: stroke; an invalid order is a warning and the default.
        let doc = try SVGDocument(string: svg(##"<rect x="10" y="0" width="10" height="20" fill="#f00" stroke="#00f" stroke-width="10" paint-order="stroke"/><rect x="10" y="0" width="10" height="20" fill="#f00" stroke="#00f" stroke-width="10" transform="translate(0 30)"/><rect x="10" y="60" width="10" height="20" fill="#f00" stroke="#00f" stroke-width="10" paint-order="stroke stroke"/>"##, size: ##"width="40" height="90""##))
        #expect(doc.isFullySupported && doc.warnings.count == 1, "\(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(image.straightRGBA(x: 12, y: 10).r == 255 && image.straightRGBA(x: 7, y: 10).b == 255)
        #expect(image.straightRGBA(x: 12, y: 40).b == 255)
        #expect(image.straightRGBA(x: 12, y: 70).b == 255)
    }

    @Test func aPrefixedSVGRootAndForeignElements() throws {
        // Issue 31: the root spelled with a prefix bound to the SVG namespace draws; elements of
        // another namespace are ignored with their contents (a warning each).
        let doc = try SVGDocument(string: ##"""
            <svg:svg xmlns:svg="http://www.w3.org/2000/svg" xmlns:x="http://example.org/x" width="20" height="20">
              <svg:rect width="10" height="10" fill="#00f"/><x:rect x="10" width="10" height="10"/>
              <svg:g xmlns:svg="http://example.org/not-svg"><svg:rect y="10" width="10" height="10"/></svg:g>
            </svg:svg>
            """##)
        #expect(doc.size == CGSize(width: 20, height: 20))
        #expect(doc.warnings.map(\.message) == ["unknown element <x:rect> (ignored with its contents)", "unknown element <svg:g> (ignored with its contents)"], "\(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(image.straightRGBA(x: 5, y: 5).b == 255 && image.straightRGBA(x: 5, y: 5).a == 255)
        #expect(image.straightRGBA(x: 15, y: 5).a == 0 && image.straightRGBA(x: 5, y: 15).a == 0)
    }

    @Test func unknownThingsAreWarnings() throws {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:inkscape="x" width="10" height="10" inkscape:version="1">
            <inkscape:thing/><blink/><rect width="1" height="1" frobnicate="3" style="frobnicate: 4"/>
            <rect width="1" height="1" frobnicate="3"/><title>t</title>
            </svg>
            """)
        #expect(doc.isFullySupported)
        #expect(doc.warnings.map(\.message) == [
            "unknown attribute inkscape:version on <svg> (ignored)",
            "unknown element <inkscape:thing> (ignored with its contents)",
            "unknown element <blink> (ignored with its contents)",
            "unknown attribute frobnicate on <rect> (ignored)",
            "unknown style property frobnicate (ignored)",
        ])
        #expect(doc.warnings[3].count == 2)
        #expect(doc.warnings[1].location == SVGSourceLocation(line: 2, column: 1))
    }

    @Test(arguments: [
        (##"<foreignObject width="1" height="1"/>"##, "<foreignObject>"),
    ])
    func unsupportedFeaturesAreListed(body: String, reason: String) throws {
        let doc = try SVGDocument(string: svg(body))
        #expect(doc.unsupportedFeatures.map(\.reason) == [reason])
    }

    // MARK: Errors

    func error(_ source: String) -> SVGError? {
        do {
            _ = try SVGDocument(string: source)
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        ("<svg>", 1, 6, "<svg> opened at 1:1 is never closed"),
        ("<svg></g>", 1, 6, "</g> does not close <svg> opened at 1:1"),
        ("<svg><rect width='1' width='2'/></svg>", 1, 22, "attribute width appears twice"),
        ("<svg>\n  <rect width=1/></svg>", 2, 15, "attribute width needs a quoted value"),
        ("<svg><rect a='<'/></svg>", 1, 15, "'<' in an attribute value"),
        ("<svg>&nbsp;</svg>", 1, 6, "undeclared entity &nbsp;"),
        ("<svg><!-- x -- y --></svg>", 1, 13, "'--' inside a comment"),
        ("<svg/><svg/>", 1, 7, "a second root element"),
        ("", 1, 1, "no root element"),
        ("<svg><rect/ ></svg>", 1, 11, "expected white space, '>' or '/>' in <rect>"),
        ("\u{FEFF}<svg/>x", 1, 10, "text after the root element"),
    ])
    func malformedXMLHasAPlace(source: String, line: Int, column: Int, message: String) throws {
        let e = try #require(error(source))
        #expect(e.kind == .malformedXML(message))
        #expect(e.location == SVGSourceLocation(line: line, column: column))
    }

    /// Only what is not SVG at all is an error (SVGErrorHandlingTests has what is recovered from).
    @Test func typedErrorsAreForWhatIsNotSVG() throws {
        var e = try #require(error("<html/>"))
        #expect(e.kind == .notSVG(root: "html"))
        e = try #require(error(svg("", size: ##"width="1e9" height="5""##)))
        guard case .limitExceeded = e.kind else { Issue.record("expected limitExceeded, got \(e)"); return }
        e = try #require(error("<svg>\n<rect width='1'></svg>"))
        #expect(e.location == SVGSourceLocation(line: 2, column: 17))
        #expect(e.description == "2:17: malformed XML: </svg> does not close <rect> opened at 2:1")
    }

    @Test func deepNestingIsALimitNotACrash() throws {
        let deep = String(repeating: "<g>", count: 10_000) + String(repeating: "</g>", count: 10_000)
        let e = try #require(error(svg(deep)))
        guard case .limitExceeded = e.kind else { Issue.record("expected limitExceeded, got \(e)"); return }
    }

    @Test func entitiesAndDoctype() throws {
        let doc = try SVGDocument(string: """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [
              <!ENTITY ns_svg "http://www.w3.org/2000/svg">
              <!ENTITY red "#ff0000">
              <!ELEMENT foo (bar)>
            ]>
            <!-- a comment -->
            <svg xmlns="&ns_svg;" width="4" height="4"><rect width="4" height="4" fill="&red;"/>
            <![CDATA[ ignored <text> ]]></svg>
            """)
        #expect(shapes(doc)[0].fill?.paint.solidColor == (SVGColor(red: 1, green: 0, blue: 0)))
        #expect(try SVGDocument(string: svg(##"<rect width="&#49;&#x30;" height="1"/>"##)).warnings.isEmpty)
    }

    @Test func entitiesHoldingMarkupAreParsedInPlace() throws {
        // Issue 31: an entity's elements join the element it is referred from; references in
        // values are replaced in turn (also in attributes); what the markup holds is reported
        // at the reference.
        let doc = try SVGDocument(string: """
            <!DOCTYPE svg [
              <!ENTITY red "#ff0000">
              <!ENTITY fill "&red;">
              <!ENTITY Square "<rect width='4' height='4' fill='&fill;'/><rect x='4' width='4' height='4' fill='blue' bogus='1'/>">
            ]>
            <svg xmlns="http://www.w3.org/2000/svg" width="8" height="4"><g>&Square;</g><rect y="3" width="1" height="1" fill="&fill;"/></svg>
            """)
        let s = shapes(doc)
        #expect(s.count == 3)
        #expect(s[0].fill?.paint.solidColor == SVGColor(red: 1, green: 0, blue: 0))
        #expect(s[2].fill?.paint.solidColor == SVGColor(red: 1, green: 0, blue: 0))
        #expect(doc.warnings.map(\.location) == [SVGSourceLocation(line: 6, column: 65)], "\(doc.warnings)")   // at &Square;
    }

    @Test(arguments: [
        // Billion laughs: 10⁹ copies without the bounds; 16 MiB of replacement text with them.
        ("<!ENTITY a \"lollollollollollollollollollol\">" + (1...9).map { k in "<!ENTITY \(Character(UnicodeScalar(97 + k)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + k)!));", count: 10) + "\">" }.joined(), "&j;"),
        // The same with markup: 10⁹ elements.
        ("<!ENTITY a \"<g/>\">" + (1...9).map { k in "<!ENTITY \(Character(UnicodeScalar(97 + k)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + k)!));", count: 10) + "\">" }.joined(), "&j;"),
        // Empty values multiply parses, not bytes.
        ("<!ENTITY a \"\">" + (1...9).map { k in "<!ENTITY \(Character(UnicodeScalar(97 + k)!)) \"" + String(repeating: "&\(Character(UnicodeScalar(96 + k)!));", count: 10) + "\">" }.joined(), "&j;"),
        // An entity that refers to itself, and two that refer to each other.
        ("<!ENTITY a \"x&a;\">", "&a;"),
        ("<!ENTITY a \"<g>&b;</g>\"><!ENTITY b \"&a;\">", "&a;"),
    ])
    func entityExpansionIsBounded(declarations: String, body: String) throws {
        let source = "<!DOCTYPE svg [\(declarations)]><svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"><text>\(body)</text></svg>"
        let e = try #require(error(source))
        guard case .limitExceeded = e.kind else { Issue.record("expected limitExceeded, got \(e)"); return }
    }

    @Test func anEntityMustCloseWhatItOpens() throws {
        #expect(error("<!DOCTYPE svg [<!ENTITY open \"<g>\">]><svg xmlns=\"http://www.w3.org/2000/svg\">&open;</svg>") != nil)
        #expect(error("<!DOCTYPE svg [<!ENTITY close \"</g>\">]><svg xmlns=\"http://www.w3.org/2000/svg\"><g>&close;</svg>") != nil)
    }

    @Test func readingAMissingFileIsAnError() {
        #expect(throws: SVGError.self) { try SVGDocument(contentsOfFile: "/nonexistent/file.svg") }
    }

    // MARK: Drawing into views

    @Test func drawsIntoAnyRectOfAFlippedContext() throws {
        let doc = try SVGDocument(string: svg(##"<rect width="10" height="10" fill="#f00"/>"##))
        let context = try #require(CGContext(width: 40, height: 40))
        // A view-style context: y down.
        context.translateBy(x: 0, y: 40)
        context.scaleBy(x: 1, y: -1)
        doc.draw(in: context, rect: CGRect(x: 20, y: 0, width: 20, height: 20))
        let image = try #require(context.makeImage())
        #expect(rgba(image, 25, 5) == [255, 0, 0, 255])   // top-left quarter of the rect's area
        #expect(rgba(image, 35, 5)[3] == 0)
        #expect(rgba(image, 5, 5)[3] == 0)
        #expect(rgba(image, 25, 25)[3] == 0)
    }

    @Test func scaledRenderingKeepsEdgesSharp() throws {
        let image = try render(svg(##"<rect x="1" y="1" width="2" height="2" fill="#000"/>"##, size: ##"width="4" height="4""##), scale: 4)
        #expect(image.width == 16 && image.height == 16)
        #expect(rgba(image, 4, 4) == [0, 0, 0, 255])
        #expect(rgba(image, 11, 11) == [0, 0, 0, 255])
        #expect(rgba(image, 3, 4)[3] == 0 && rgba(image, 12, 11)[3] == 0)
    }
}
