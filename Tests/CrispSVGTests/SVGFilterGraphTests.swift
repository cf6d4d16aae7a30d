import CrispGraphics
@_spi(Testing) @testable import CrispSVG
import Foundation
import Testing

// The filter graph (Filter Effects 1) on small documents whose pixels can be worked out by
// hand: regions and subregions, inputs and named results, colour spaces, chains, transforms,
// the CSS filter functions, recovery from errors, and the bound on a filter's memory.

@Suite("SVG filters: the graph on bitmaps")
struct SVGFilterGraphTests {
    func render(_ defs: String, _ body: String, size: Int = 40) throws -> (SVGDocument, CGImage) {
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="\##(size)" height="\##(size)"><defs>\##(defs)</defs>\##(body)</svg>"##)
        return (doc, try #require(doc.makeImage()))
    }

    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    func close(_ a: [Int], _ b: [Int], _ tolerance: Int = 1) -> Bool {
        zip(a, b).allSatisfy { abs($0 - $1) <= tolerance }
    }

    @Test func floodFillsItsSubregionInsideTheFilterRegion() throws {
        let (doc, image) = try render(##"<filter id="f" filterUnits="userSpaceOnUse" x="5" y="5" width="30" height="30"><feFlood flood-color="#f00" flood-opacity="0.5" x="0" y="10" height="10"/></filter>"##,
                                      ##"<rect width="40" height="40" fill="#00f" filter="url(#f)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        #expect(close(rgba(image, 7, 15), [255, 0, 0, 128]))   // inside: x from the region (5), y 10…20
        #expect(rgba(image, 3, 15)[3] == 0)                     // left of the filter region
        #expect(rgba(image, 20, 25)[3] == 0)                    // below the subregion
        #expect(rgba(image, 20, 2)[3] == 0)                     // the source is replaced
    }

    @Test func namedResultsAndThePreviousResult() throws {
        // The merge takes "a" (red) under the previous result (SourceAlpha moved 10 right);
        // an unknown name is the previous result.
        let (_, image) = try render(##"<filter id="f" x="0" y="0" width="1" height="1"><feFlood flood-color="#f00" result="a"/><feOffset in="SourceAlpha" dx="10"/><feMerge><feMergeNode in="a"/><feMergeNode in="nothing"/></feMerge></filter>"##,
                                    ##"<rect width="40" height="20" fill="#0f0" filter="url(#f)"/>"##)
        #expect(close(rgba(image, 5, 5), [255, 0, 0, 255]))
        #expect(close(rgba(image, 15, 5), [0, 0, 0, 255]))
        #expect(rgba(image, 15, 25)[3] == 0)
    }

    @Test func colorInterpolationFilters() throws {
        // A slope of 0.5 on grey 50 %: in sRGB 128 → 64; in linearRGB 0.2158 → 0.1079 → sRGB 92.
        let defs = ##"""
            <filter id="lin"><feComponentTransfer><feFuncR type="linear" slope="0.5"/></feComponentTransfer></filter>
            <filter id="srgb" color-interpolation-filters="sRGB"><feComponentTransfer><feFuncR type="linear" slope="0.5"/></feComponentTransfer></filter>
            <filter id="mixed" color-interpolation-filters="sRGB"><feComponentTransfer color-interpolation-filters="linearRGB"><feFuncR type="linear" slope="0.5"/></feComponentTransfer></filter>
            """##
        let (_, image) = try render(defs, ##"<rect width="10" height="10" fill="#808080" filter="url(#lin)"/><rect x="20" width="10" height="10" fill="#808080" filter="url(#srgb)"/><rect y="20" width="10" height="10" fill="#808080" filter="url(#mixed)"/>"##)
        #expect(close(rgba(image, 5, 5), [92, 128, 128, 255]), "\(rgba(image, 5, 5))")
        #expect(close(rgba(image, 25, 5), [64, 128, 128, 255]), "\(rgba(image, 25, 5))")
        #expect(close(rgba(image, 5, 25), [92, 128, 128, 255]), "\(rgba(image, 5, 25))")
    }

    @Test(arguments: [
        ("over", [0, 0, 255, 255]), ("in", [255, 0, 0, 255]), ("out", [0, 0, 0, 0]), ("atop", [255, 0, 0, 255]),
        ("xor", [0, 0, 0, 0]), ("lighter", [255, 0, 255, 255]),
    ])
    func compositeOperators(op: String, expected: [Int]) throws {
        // in: opaque red (the flood), in2: opaque blue (the source); where both cover.
        let (_, image) = try render(##"<filter id="f" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB"><feFlood flood-color="#f00"/><feComposite in2="SourceGraphic" operator="\##(op)"/></filter>"##,
                                    ##"<rect width="20" height="20" fill="#00f" filter="url(#f)"/>"##)
        let got = rgba(image, 10, 10)
        #expect(op == "over" ? close(got, [255, 0, 0, 255]) : close(got, expected), "\(op): \(got)")
    }

    @Test func arithmeticCompositeAndBlend() throws {
        let defs = ##"""
            <filter id="k" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB"><feFlood flood-color="#f00"/><feComposite in2="SourceGraphic" operator="arithmetic" k2="0.5" k3="0.5" k4="0.1"/></filter>
            <filter id="m" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB"><feFlood flood-color="#808080"/><feBlend in2="SourceGraphic" mode="multiply"/></filter>
            """##
        let (_, image) = try render(defs, ##"<rect width="10" height="10" fill="#00f" filter="url(#k)"/><rect x="20" width="10" height="10" fill="#ff0" filter="url(#m)"/>"##)
        // 0.5·red + 0.5·blue + 0.1 on each premultiplied channel (alpha 1 after the clamp).
        #expect(close(rgba(image, 5, 5), [153, 26, 153, 255], 2), "\(rgba(image, 5, 5))")
        // Grey × yellow.
        #expect(close(rgba(image, 25, 5), [128, 128, 0, 255], 2), "\(rgba(image, 25, 5))")
    }

    @Test func blurKeepsTheMassAndSpreadsIt() throws {
        // A Gaussian keeps what it spreads: alpha summed over the region stays the square's.
        for sigma in ["1", "4", "3 0"] {
            let (_, image) = try render(##"<filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="80" height="80"><feGaussianBlur stdDeviation="\##(sigma)"/></filter>"##,
                                        ##"<rect x="30" y="30" width="20" height="20" filter="url(#f)"/>"##, size: 80)
            var total = 0
            for y in 0..<80 { for x in 0..<80 { total += Int(image.straightRGBA(x: x, y: y).a) } }
            #expect(abs(total - 400 * 255) < 400 * 255 / 50, "σ \(sigma): \(total)")
            if sigma == "3 0" {
                #expect(image.straightRGBA(x: 40, y: 29).a == 0)          // nothing vertically
                #expect(image.straightRGBA(x: 29, y: 40).a > 60)          // spread horizontally
            } else {
                #expect(image.straightRGBA(x: 40, y: 29).a > 20)
            }
        }
    }

    @Test func aRotatedElementIsFilteredInItsOwnSpace() throws {
        // Rotated 90°: the element's +x is the device's +y, so an offset of dx moves it down.
        let (_, image) = try render(##"<filter id="f" x="-1" y="-1" width="3" height="3"><feOffset dx="10"/></filter>"##,
                                    ##"<rect x="0" y="0" width="10" height="10" fill="#000" transform="translate(20 10) rotate(90)" filter="url(#f)"/>"##)
        // Without the filter the rect covers x 10…20, y 10…20; with it, y 20…30.
        #expect(rgba(image, 15, 15)[3] == 0)
        #expect(rgba(image, 15, 25)[3] == 255)
    }

    @Test func aChainFeedsEachFilterThePreviousOutput() throws {
        let defs = ##"""
            <filter id="a" x="0" y="0" width="2" height="1"><feOffset dx="10"/></filter>
            <filter id="b" x="0" y="0" width="2" height="1" color-interpolation-filters="sRGB"><feColorMatrix type="matrix" values="0 0 1 0 0  0 1 0 0 0  1 0 0 0 0  0 0 0 1 0"/></filter>
            """##
        let (_, image) = try render(defs, ##"<rect width="10" height="10" fill="#f00" filter="url(#a) url(#b)"/>"##)
        #expect(rgba(image, 5, 5)[3] == 0)
        #expect(close(rgba(image, 15, 5), [0, 0, 255, 255]))   // moved by a, red ↔ blue by b
    }

    @Test func cssFilterFunctions() throws {
        let (doc, image) = try render("", ##"<rect width="10" height="10" fill="#f80" filter="grayscale(100%)"/><rect x="20" width="10" height="10" fill="#f80" filter="invert(1) opacity(0.5)"/><rect y="20" width="10" height="10" fill="#888" style="filter: brightness(2)"/>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        let gray = rgba(image, 5, 5)
        #expect(gray[0] == gray[1] && gray[1] == gray[2] && gray[3] == 255, "\(gray)")
        #expect(close(rgba(image, 25, 5), [0, 119, 255, 128], 2), "\(rgba(image, 25, 5))")
        #expect(close(rgba(image, 5, 25), [255, 255, 255, 255]), "\(rgba(image, 5, 25))")
        // drop-shadow() with a colour function inside.
        let (_, shadowed) = try render("", ##"<rect x="5" y="5" width="10" height="10" fill="#00f" filter="drop-shadow(10px 10px rgba(255, 0, 0, 0.5))"/>"##)
        #expect(close(rgba(shadowed, 20, 20), [255, 0, 0, 128]), "\(rgba(shadowed, 20, 20))")
        #expect(close(rgba(shadowed, 10, 10), [0, 0, 255, 255]))
    }

    @Test func invalidFilterValuesAreRecoveredFrom() throws {
        let (doc, image) = try render(##"<filter id="e"/>"##, ##"<rect width="10" height="10" filter="blur(nope)"/><rect x="20" width="10" height="10" filter="url(#e)"/><rect y="20" width="10" height="10" filter="url(nope"/>"##)
        #expect(doc.warnings.count == 2, "\(doc.warnings)")
        #expect(rgba(image, 5, 5)[3] == 0)       // an invalid function: not rendered
        #expect(rgba(image, 25, 5)[3] == 0)      // a filter without primitives: not rendered
        #expect(rgba(image, 5, 25)[3] == 255)    // not a filter list: ignored
    }

    @Test func aHugeFilterRegionIsSkippedWithAWarning() throws {
        let (doc, image) = try render(##"<filter id="f" filterUnits="userSpaceOnUse" x="-50000" y="-50000" width="100000" height="100000"><feFlood flood-color="#f00"/></filter>"##,
                                      ##"<rect width="10" height="10" filter="url(#f)"/><rect x="20" width="10" height="10"/>"##)
        #expect(doc.warnings.count == 1 && doc.warnings[0].message.contains("filter region"), "\(doc.warnings)")
        #expect(rgba(image, 5, 5)[3] == 0 && rgba(image, 35, 35)[3] == 0)
        #expect(rgba(image, 25, 5)[3] == 255)
    }

    @Test func lightingAFlatSurfaceFromAbove() throws {
        // A distant light straight above a flat surface: N·L = 1, the light's colour times kd.
        let (_, image) = try render(##"<filter id="f" x="0" y="0" width="1" height="1" color-interpolation-filters="sRGB"><feDiffuseLighting diffuseConstant="0.5" lighting-color="#fff"><feDistantLight elevation="90"/></feDiffuseLighting></filter>"##,
                                    ##"<rect width="20" height="20" filter="url(#f)"/>"##)
        #expect(close(rgba(image, 10, 10), [128, 128, 128, 255]), "\(rgba(image, 10, 10))")
    }

    @Test func morphologyTileAndDropShadow() throws {
        let defs = ##"""
            <filter id="d" x="-1" y="-1" width="3" height="3" primitiveUnits="userSpaceOnUse" color-interpolation-filters="sRGB"><feMorphology operator="dilate" radius="2"/></filter>
            <filter id="t" filterUnits="userSpaceOnUse" x="20" y="0" width="20" height="20" color-interpolation-filters="sRGB"><feFlood flood-color="#f00" x="20" y="0" width="2" height="2"/><feMerge x="20" y="0" width="4" height="4"><feMergeNode/></feMerge><feTile/></filter>
            <filter id="s" color-interpolation-filters="sRGB"><feDropShadow dx="3" dy="3" stdDeviation="0" flood-color="#0f0"/></filter>
            """##
        let (_, image) = try render(defs, ##"<rect x="4" y="4" width="4" height="4" filter="url(#d)"/><rect x="20" width="20" height="20" filter="url(#t)"/><rect x="5" y="25" width="5" height="5" fill="#00f" filter="url(#s)"/>"##)
        // Dilated over 2r × 2r = x − 2 … x + 1: the rect's pixels 4…7 reach 3…9.
        #expect(rgba(image, 3, 3)[3] == 255 && rgba(image, 9, 9)[3] == 255)
        #expect(rgba(image, 2, 2)[3] == 0 && rgba(image, 10, 10)[3] == 0)
        // The 4 × 4 tile, red in its top-left 2 × 2, repeated from (20, 0).
        #expect(close(rgba(image, 33, 13), [255, 0, 0, 255]) && rgba(image, 35, 13)[3] == 0 && rgba(image, 33, 15)[3] == 0)
        #expect(close(rgba(image, 7, 27), [0, 0, 255, 255]) && close(rgba(image, 10, 30), [0, 255, 0, 255]))
    }

    @Test func turbulenceIsDeterministicAndSeeded() throws {
        func noise(_ seed: Int) throws -> [UInt32] {
            try render(##"<filter id="f" x="0" y="0" width="1" height="1"><feTurbulence baseFrequency="0.1" numOctaves="2" seed="\##(seed)"/></filter>"##,
                       ##"<rect width="40" height="40" filter="url(#f)"/>"##).1.pixels
        }
        #expect(try noise(1) == noise(1))
        #expect(try noise(1) != noise(2))
        // Seeds are truncated towards zero, and seeds ≤ 0 map as the reference code maps them.
        let generator = SVGTurbulenceGenerator(seed: 0)
        let t = SVGFilterPrimitive.Turbulence(baseFrequencyX: 0.05, baseFrequencyY: 0.05, octaves: 1, seed: 0, stitch: false, fractalNoise: true)
        let v = generator.turbulence(0, x: 10.5, y: 3.25, t, tileX: 0, tileY: 0, tileWidth: 40, tileHeight: 40)
        #expect(v.isFinite && abs(v) < 1)
        #expect(generator.turbulence(0, x: 0, y: 0, t, tileX: 0, tileY: 0, tileWidth: 40, tileHeight: 40) == 0)   // lattice points are zero
    }

    @Test func feImageOfAnElementAndOfItself() throws {
        // The element drawn in the filtered element's user space. One that leads back to the
        // filtered element ends the recursion there: the inner copy's feImage is transparent,
        // so the copy, and with it the outer result, draws nothing (no endless recursion).
        let (doc, image) = try render(##"<rect id="src" x="0" y="0" width="10" height="10" fill="#0f0"/><filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="40" height="40"><feImage href="#src"/><feOffset dx="20"/></filter><filter id="g" filterUnits="userSpaceOnUse" x="0" y="0" width="40" height="40"><feImage href="#me"/></filter>"##,
                                      ##"<rect width="5" height="5" filter="url(#f)"/><rect id="me" x="0" y="20" width="10" height="10" fill="#00f" filter="url(#g)"/>"##)
        #expect(doc.isFullySupported)
        #expect(close(rgba(image, 25, 5), [0, 255, 0, 255]) && rgba(image, 2, 2)[3] == 0)
        #expect(rgba(image, 5, 25)[3] == 0, "\(rgba(image, 5, 25))")
    }

    @Test func mixBlendModeAndIsolation() throws {
        // Grey multiplied onto yellow: (128, 128, 0). In an isolated group the backdrop is the
        // group's own (transparent under the grey), so the grey stays grey.
        let (doc, image) = try render("", ##"<rect width="40" height="40" fill="#ff0"/><rect width="10" height="10" fill="#808080" style="mix-blend-mode: multiply"/><g style="isolation: isolate"><rect x="20" width="10" height="10" fill="#808080" style="mix-blend-mode: multiply"/></g><rect y="20" width="10" height="10" fill="#808080" style="mix-blend-mode: bogus"/>"##)
        #expect(doc.isFullySupported && doc.warnings.count == 1, "\(doc.warnings)")
        #expect(close(rgba(image, 5, 5), [128, 128, 0, 255]), "\(rgba(image, 5, 5))")
        #expect(close(rgba(image, 25, 5), [128, 128, 128, 255]), "\(rgba(image, 25, 5))")
        #expect(close(rgba(image, 5, 25), [128, 128, 128, 255]))   // an invalid mode: normal, with a warning
    }

    @Test(arguments: [
        ##"<feFlood flood-color="#f00"/><feComposite in2="SourceGraphic" operator="arithmetic" k1="1e308" k2="1e308" k3="-1e308" k4="1e308"/><feComponentTransfer><feFuncR type="table" tableValues="0 1"/></feComponentTransfer>"##,
        ##"<feTurbulence baseFrequency="1e300" numOctaves="1000" seed="-1e300" stitchTiles="stitch"/>"##,
        ##"<feGaussianBlur stdDeviation="1e300 1e-300"/><feOffset dx="-1e300" dy="1e300"/><feMorphology radius="1e300"/>"##,
        ##"<feDisplacementMap in2="SourceGraphic" scale="1e308"/><feConvolveMatrix order="3" kernelMatrix="1e308 -1e308 1e308 0 0 0 0 0 1e-308" divisor="1e-308"/>"##,
        ##"<feSpecularLighting surfaceScale="1e308" specularExponent="128"><feSpotLight x="1e308" z="-1e308" pointsAtX="NaN" limitingConeAngle="1e308"/></feSpecularLighting>"##,
        ##"<feTile x="1e308" width="1e308"/><feMerge><feMergeNode in="x"/></feMerge>"##,
    ])
    func extremeValuesDrawWithoutTrapping(primitives: String) throws {
        let (_, image) = try render(##"<filter id="f">\##(primitives)</filter>"##, ##"<rect x="5" y="5" width="30" height="30" fill="#08f" filter="url(#f)"/>"##)
        #expect(image.width == 40)
    }
}
