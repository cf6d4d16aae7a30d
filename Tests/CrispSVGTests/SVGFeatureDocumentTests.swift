import CrispGraphics
import CrispSVG
import CrispTestSupport
import Foundation
import Testing

// Hand-written documents for the features and error handling of issue 15, some shaped like real
// exporters' output, each against resvg 0.44.0's rendering (Fixtures/features/<name>.resvg.png)
// and as a golden at scale 2.
//
// The bar, measured by Fixtures/features/spread.py with the bench's compare.py (PSNR over
// premultiplied RGBA, share of pixels off by more than 16/255; figures in the README there):
// - where every peer (resvg, Skia's SVG module, CairoSVG) draws the whole document, the peers'
//   spread is their worst pair, as on the bench scenes;
// - where a peer lacks a feature it disagrees by 10–40 dB (Skia has no <symbol>, <switch> or
//   transform-origin), and the worst pair says nothing: the bar is then the closest peer's
//   agreement with resvg.
// One bar is raised a little to what Crisp measures (illustrator, against CairoSVG alone, since
// Skia draws no <symbol>): on curved edges resvg and CairoSVG give more coverage than the exact
// area (a circle of r 22 whose leftmost point lies on a pixel boundary: 255 where the exact
// area gives 253 and Crisp, flattening curves to 0.05 px, 250). Since chords keep each curve
// piece's area (issue 32, docs/curves.md) Crisp is closer to the exact area and further from
// the samplers: 48.41 → 47.57 dB, 0.188 → 0.240 %; the bar follows (the exact area wins).

@Suite("Feature documents against resvg, as close as the closest peer")
struct SVGFeatureDocumentTests {
    struct Bar: Sendable {
        /// The closest peer's agreement with resvg.
        var psnr: Double
        var percentOver16: Double
        /// Whether the document has warnings: errors written to be recovered from, or an editor's
        /// own attributes (Inkscape's `inkscape:`/`sodipodi:`, which change nothing drawn).
        var expectsWarnings = false
    }

    static let bars: [String: Bar] = [
        // Closest peer (CairoSVG); Crisp 46.52 dB, 0.297 %.
        "use_symbol": Bar(psnr: 30.16, percentOver16: 2.562),
        // Closest peer (Skia; CairoSVG draws no filters); Crisp 46.41 dB, 0.306 %.
        "drop_shadow": Bar(psnr: 42.69, percentOver16: 0.550),
        // Closest peer (CairoSVG; Skia draws no data: images); Crisp 43.61 dB, 0.083 %.
        "image": Bar(psnr: 19.38, percentOver16: 11.708),
        // Closest peer (Skia; CairoSVG has no masks); Crisp 46.42 dB, 0.450 %.
        "mask": Bar(psnr: 18.65, percentOver16: 6.919),
        // Closest peer (CairoSVG, which lacks transform-origin); Crisp 48.66 dB, 0.042 %.
        "switch_origin": Bar(psnr: 12.08, percentOver16: 19.625),
        // Closest peer (CairoSVG); Crisp 47.21 dB, 0.046 %.
        "error_recovery": Bar(psnr: 20.71, percentOver16: 13.574, expectsWarnings: true),
        // Closest peer (CairoSVG: 49.24 dB, 0.146 %); raised to Crisp's 48.41 dB, 0.188 % (curved edges),
        // then to 0.22 % with the 24.8 fixed-point sweep (0.219 %: a few more curved-edge pixels
        // cross 16 levels; CurveCoverageTests holds the exact-area error where it was).
        "illustrator": Bar(psnr: 47.5, percentOver16: 0.25),
        // Worst pair 40.06 dB (CairoSVG–Skia), 1.942 % (CairoSVG–resvg); Crisp 40.39 dB, 1.833 %.
        "inkscape": Bar(psnr: 40.06, percentOver16: 1.942, expectsWarnings: true),
        // Worst pair 38.21 dB (CairoSVG–resvg), 0.738 % (CairoSVG–Skia); Crisp 44.71 dB, 0.252 %.
        "figma": Bar(psnr: 38.21, percentOver16: 0.738),
        // Worst pair 43.88 dB (CairoSVG–Skia), 0.444 % (resvg–Skia); Crisp 50.63 dB, 0.028 %.
        "sketch": Bar(psnr: 43.88, percentOver16: 0.444),
        // Every peer given the bundled Roboto (spread.py). Closest peer (CairoSVG); Crisp 42.09 dB, 1.560 %.
        "text": Bar(psnr: 22.32, percentOver16: 7.223),
        // Closest peer (CairoSVG; Skia draws no patterns here); Crisp 27.20 dB, 4.683 %. The
        // pattern without a size is a warning.
        "pattern": Bar(psnr: 17.62, percentOver16: 8.935, expectsWarnings: true),
        // Closest peer (CairoSVG; Skia draws no markers); Crisp 32.82 dB, 0.877 %.
        "marker": Bar(psnr: 26.57, percentOver16: 1.873),
    ]

    @Test(arguments: bars.keys.sorted())
    func documentAgreesWithResvg(name: String) throws {
        let bar = try #require(SVGFeatureDocumentTests.bars[name])
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/\(name).svg"))
        #expect(doc.unsupportedFeatures.isEmpty, "\(doc.unsupportedFeatures)")
        #expect(doc.warnings.isEmpty != bar.expectsWarnings, "\(doc.warnings)")
        let rendered = try #require(doc.makeImage())
        let crisp = try CGImage(pngData: try PNGEncoder(colorType: .rgba, compressionLevel: 1).encode(rendered))
        let resvg = try CGImage(contentsOfPNGFile: Fixtures.path("features/\(name).resvg.png"))
        #expect(crisp.width == resvg.width && crisp.height == resvg.height)
        let agreement = Agreement(crisp, resvg)
        #expect(agreement.psnr >= bar.psnr, "PSNR \(agreement.psnr) dB < \(bar.psnr)")
        #expect(agreement.percentOver16 <= bar.percentOver16, "\(agreement.percentOver16) % off by > 16 > \(bar.percentOver16) %")
    }

    @Test(arguments: bars.keys.sorted())
    func documentGolden(name: String) throws {
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/\(name).svg"))
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", name)
    }
}
