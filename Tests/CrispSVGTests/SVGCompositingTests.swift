import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import CrispTestSupport
import Foundation
import Testing

// Group opacity through transparency layers, and clip paths whose children unite (through a
// mask, or as one path when that is exact): pixel checks, equivalences between the cheap and the
// general way of drawing the same thing, limits, and the two feature documents against resvg
// and as goldens.

@Suite("SVG group opacity and clip-path unions")
struct SVGCompositingTests {
    func svg(_ body: String, size: String = ##"width="20" height="20""##) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" \##(size)>\##(body)</svg>"##
    }

    func render(_ source: String, scale: CGFloat = 1) throws -> CGImage {
        let doc = try SVGDocument(string: source)
        #expect(doc.isFullySupported, "\(doc.unsupportedFeatures)")
        return try #require(doc.makeImage(scale: scale))
    }

    /// Straight RGBA at (x, y), row 0 at the top.
    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    /// The largest difference of any premultiplied channel of any pixel.
    func largestDifference(_ a: CGImage, _ b: CGImage) -> Int {
        Agreement(a, b).maximum
    }

    // MARK: Group opacity

    @Test func groupOpacityShowsOnlyTheTopChildWhereChildrenOverlap() throws {
        let image = try render(svg(##"<g opacity="0.5"><rect width="12" height="20" fill="#f00"/><rect x="8" width="12" height="20" fill="#00f"/></g>"##))
        #expect(rgba(image, 2, 10) == [255, 0, 0, 128])
        #expect(rgba(image, 10, 10) == [0, 0, 255, 128])   // not red showing through blue
        #expect(rgba(image, 18, 10) == [0, 0, 255, 128])
    }

    @Test func opacityOnFillAndStrokeHidesTheFillUnderTheStroke() throws {
        let image = try render(svg(##"<rect x="5" y="5" width="10" height="10" fill="#ff0" stroke="#00f" stroke-width="4" opacity="0.5"/>"##))
        #expect(rgba(image, 10, 10) == [255, 255, 0, 128])
        #expect(rgba(image, 5, 10) == [0, 0, 255, 128])    // on the outline: stroke only
        #expect(rgba(image, 3, 10) == [0, 0, 255, 128])
    }

    @Test func singlePaintsAndLayersOfLayersFold() throws {
        let doc = try SVGDocument(string: svg("""
            <g opacity="0.5"><g opacity="0.5"><rect width="4" height="4"/><rect x="2" width="4" height="4"/></g></g>
            <g opacity="0.5"><rect width="4" height="4" fill="red" stroke="blue"/></g>
            """))
        #expect(doc.isFullySupported)
        guard case .group(let top) = doc.root.content else { Issue.record("no root group"); return }
        // The outer group's opacity multiplies into the inner group's layer: one layer, not two.
        #expect(top.map(\.layerOpacity) == [1, 0.5])
        #expect(top.map(\.layerNesting) == [1, 1])
        guard case .group(let inner) = top[0].content else { Issue.record("no inner group"); return }
        #expect(inner[0].layerOpacity == 0.25)
    }

    /// Children that do not overlap look the same through a layer as with their own opacity, so
    /// the layer's bounds must hold everything they paint: miter joins, square caps, strokes
    /// beyond the fill, children's transforms.
    @Test(arguments: [1.0, 2.5])
    func layerBoundsHoldEverythingPainted(scale: Double) throws {
        let children = [
            ##"<polyline points="2,30 10,4 18,30" fill="none" stroke="#008" stroke-width="3" stroke-miterlimit="10"/>"##,
            ##"<path d="M24 6 H34" stroke="#080" stroke-width="5" stroke-linecap="square"/>"##,
            ##"<rect x="24" y="16" width="10" height="10" fill="#fa0" stroke="#800" stroke-width="4" transform="rotate(20 29 21)"/>"##,
        ]
        let size = ##"width="40" height="36""##
        let layered = try render(svg("<g opacity=\"0.6\">" + children.joined() + "</g>", size: size), scale: scale)
        let separate = try render(svg(children.map { "<g opacity=\"0.6\">" + $0 + "</g>" }.joined(), size: size), scale: scale)
        #expect(largestDifference(layered, separate) <= 1)
    }

    @Test func opacityZeroPaintsNothing() throws {
        let image = try render(svg(##"<g opacity="0"><rect width="20" height="20" fill="red"/><rect width="5" height="5"/></g>"##))
        #expect(image.pixels.allSatisfy { $0 == 0 })
    }

    @Test func clippedLayerIsCutOnce() throws {
        // The clip's anti-aliased edge must be applied once: a layer clipped and then composited
        // through the same clip would square it. Through the layer, every pixel is the same
        // group drawn without opacity, at half alpha.
        let clip = ##"<clipPath id="c"><circle cx="10" cy="10" r="7.3"/></clipPath>"##
        let children = ##"<rect width="20" height="20" fill="#00f"/><rect x="5" width="15" height="20" fill="#00f"/>"##
        let layered = try render(svg(clip + ##"<g opacity="0.5" clip-path="url(#c)">"## + children + "</g>"))
        let opaque = try render(svg(clip + ##"<g clip-path="url(#c)">"## + children + "</g>"))
        let halved = CGImage(width: 20, height: 20, pixels: opaque.pixels.map { p in
            var q: UInt32 = 0
            for shift: UInt32 in [0, 8, 16, 24] { q |= ((((p >> shift) & 0xFF) * 128 + 127) / 255) << shift }
            return q
        })
        #expect(largestDifference(layered, halved) <= 1)
        #expect(opaque.pixels.contains { $0 >> 24 != 0 && $0 >> 24 != 255 })   // there are edge pixels
    }

    @Test func deeplyNestedLayersAreALimit() throws {
        let pair = ##"<rect width="1" height="1"/><rect width="1" height="1"/>"##
        let depth = SVGBuilder.maximumLayerNesting + 1
        let source = svg(String(repeating: ##"<g opacity="0.9">"## + pair, count: depth) + String(repeating: "</g>", count: depth))
        do {
            _ = try SVGDocument(string: source)
            Issue.record("expected an error")
        } catch {
            guard case .limitExceeded(let message) = error.kind else { Issue.record("expected limitExceeded, got \(error)"); return }
            #expect(message.contains("transparency layers"))
            #expect(error.line == 1)
        }
        let allowed = SVGBuilder.maximumLayerNesting
        _ = try SVGDocument(string: svg(String(repeating: ##"<g opacity="0.9">"## + pair, count: allowed) + String(repeating: "</g>", count: allowed)))
    }

    // MARK: Clip-path unions

    @Test func overlappingChildrenUnite() throws {
        let image = try render(svg("""
            <clipPath id="c"><rect width="10" height="10"/><rect x="5" y="5" width="10" height="10"/></clipPath>
            <rect width="20" height="20" fill="#0a0" clip-path="url(#c)"/>
            """))
        #expect(rgba(image, 2, 2) == [0, 170, 0, 255])
        #expect(rgba(image, 7, 7) == [0, 170, 0, 255])
        #expect(rgba(image, 12, 12) == [0, 170, 0, 255])
        #expect(rgba(image, 12, 2)[3] == 0)
        #expect(rgba(image, 17, 17)[3] == 0)
    }

    @Test func childrenKeepTheirOwnClipRules() throws {
        // An evenodd frame (hole 5…15) and a nonzero square inside the hole: the union has a
        // gap between them; as one path under either rule it would not.
        let image = try render(svg("""
            <clipPath id="c">
              <path d="M0 0 H20 V20 H0 Z M5 5 H15 V15 H5 Z" clip-rule="evenodd"/>
              <rect x="8" y="8" width="4" height="4" clip-rule="nonzero"/>
            </clipPath>
            <rect width="20" height="20" fill="#00f" clip-path="url(#c)"/>
            """))
        #expect(rgba(image, 2, 10) == [0, 0, 255, 255])
        #expect(rgba(image, 6, 10)[3] == 0)
        #expect(rgba(image, 10, 10) == [0, 0, 255, 255])
    }

    /// Shapes far apart go through one path clip, anything else through a mask; both must give
    /// the same pixels, also under rotation and scale (the mask is sampled in device space).
    @Test(arguments: [(1.0, "scale(1)"), (3.0, "rotate(17 10 10)"), (0.7, "translate(0.3 0.45) scale(1.3 0.9)")])
    func maskAndPathClipAgree(scale: Double, transform: String) throws {
        let shapes = ##"<circle cx="5" cy="5" r="3.7"/><path d="M12 11 L19 13 L14 19 Z"/>"##
        // The same shapes, but one with a clip of its own that removes nothing: a mask is needed.
        let masked = ##"<circle cx="5" cy="5" r="3.7" clip-path="url(#everything)"/><path d="M12 11 L19 13 L14 19 Z"/>"##
        func document(_ children: String) -> String {
            svg(##"<clipPath id="everything"><rect x="-100" y="-100" width="300" height="300"/></clipPath>"##
                + ##"<clipPath id="c">\##(children)</clipPath>"##
                + ##"<g transform="\##(transform)" clip-path="url(#c)"><rect x="-5" y="-5" width="30" height="30" fill="#a05"/></g>"##)
        }
        let path = try render(document(shapes), scale: scale)
        let mask = try render(document(masked), scale: scale)
        #expect(largestDifference(path, mask) <= 1)
        #expect(path.pixels.contains { $0 != 0 })
    }

    @Test func clipPathOnAChildOfAClipPath() throws {
        // The circle child is cut to its left half by its own clip (in objectBoundingBox units
        // of the circle); the rect child is whole.
        let image = try render(svg("""
            <clipPath id="left" clipPathUnits="objectBoundingBox"><rect width="0.5" height="1"/></clipPath>
            <clipPath id="c"><circle cx="6" cy="6" r="5" clip-path="url(#left)"/><rect x="12" y="12" width="6" height="6"/></clipPath>
            <rect width="20" height="20" fill="#000" clip-path="url(#c)"/>
            """))
        #expect(rgba(image, 3, 6) == [0, 0, 0, 255])
        #expect(rgba(image, 9, 6)[3] == 0)
        #expect(rgba(image, 15, 15) == [0, 0, 0, 255])
    }

    @Test func objectBoundingBoxUnionAndClipOnTheClipPath() throws {
        let image = try render(svg("""
            <clipPath id="top"><rect width="20" height="10"/></clipPath>
            <clipPath id="c" clipPathUnits="objectBoundingBox" clip-path="url(#top)">
              <rect width="0.25" height="1"/><rect x="0.75" width="0.25" height="1"/>
            </clipPath>
            <rect x="2" y="2" width="16" height="16" fill="#f00" clip-path="url(#c)"/>
            """))
        #expect(rgba(image, 3, 5) == [255, 0, 0, 255])
        #expect(rgba(image, 10, 5)[3] == 0)
        #expect(rgba(image, 16, 5) == [255, 0, 0, 255])
        #expect(rgba(image, 3, 15)[3] == 0)
    }

    @Test func deeplyNestedClipPathsAreALimit() throws {
        let count = SVGBuilder.maximumClipNesting + 2
        var defs = ""
        for k in 0..<count {
            let next = k + 1 < count ? ##" clip-path="url(#c\##(k + 1))""## : ""
            defs += ##"<clipPath id="c\##(k)"><rect width="9" height="9"\##(next)/><rect width="1" height="1"/></clipPath>"##
        }
        do {
            _ = try SVGDocument(string: svg(defs + ##"<rect width="9" height="9" clip-path="url(#c0)"/>"##))
            Issue.record("expected an error")
        } catch {
            guard case .limitExceeded(let message) = error.kind else { Issue.record("expected limitExceeded, got \(error)"); return }
            #expect(message.contains("clip paths nested"))
        }
    }

    // MARK: Feature documents

    /// The peers' spread on each document: the worst pair among resvg 0.44.0, Skia (SVGDOM) and
    /// Cairo (the harness's svgmini reader), measured with the harness's compare.py; see
    /// Fixtures/features/README.md. Cairo's reader refuses clip paths with several children, so
    /// clip_union's spread is resvg against Skia alone.
    ///
    /// One bar is raised: on group_opacity, 0.37 % of Crisp's pixels are off resvg's by more
    /// than 16 against the peers' worst 0.27 % (PSNR 47.7 dB is within). They are the
    /// anti-aliased edges of the circles and of the rounded stroke, where Crisp's coverage sits
    /// with Skia's (0.14 % off, 48.2 dB: within the spread) rather than resvg's; the same
    /// document with every opacity removed shows it too (Crisp–resvg 0.70 %, resvg–Skia 0.66 %).
    static let featureSpread: [String: SVGSceneTests.Spread] = [
        // The peers' worst pair; Crisp 54.54 dB, 0.003 % since CrispSVG flattens curves to 0.05 px.
        "group_opacity": SVGSceneTests.Spread(worstPSNR: 46.9, worstPercentOver16: 0.273),
        "clip_union": SVGSceneTests.Spread(worstPSNR: 41.9, worstPercentOver16: 1.021),
    ]

    @Test(arguments: featureSpread.keys.sorted())
    func featureDocumentAgreesWithResvg(name: String) throws {
        let doc = try SVGDocument(data: try Fixtures.bytes("features/\(name).svg"))
        #expect(doc.unsupportedFeatures.isEmpty, "\(doc.unsupportedFeatures)")
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        let rendered = try #require(doc.makeImage())
        let crisp = try CGImage(pngData: try PNGEncoder(colorType: .rgba, compressionLevel: 1).encode(rendered))
        let resvg = try CGImage(contentsOfPNGFile: Fixtures.path("features/\(name).resvg.png"))
        #expect(crisp.width == resvg.width && crisp.height == resvg.height)
        let agreement = Agreement(crisp, resvg)
        let bar = try #require(SVGCompositingTests.featureSpread[name])
        #expect(agreement.psnr >= bar.worstPSNR, "PSNR \(agreement.psnr) dB < \(bar.worstPSNR)")
        #expect(agreement.percentOver16 <= bar.worstPercentOver16, "\(agreement.percentOver16) % off by > 16 > \(bar.worstPercentOver16) %")
    }

    @Test(arguments: featureSpread.keys.sorted())
    func featureDocumentGolden(name: String) throws {
        let doc = try SVGDocument(data: try Fixtures.bytes("features/\(name).svg"))
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", name)
    }
}
