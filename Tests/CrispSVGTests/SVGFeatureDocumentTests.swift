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
// Curves are drawn by their exact covered area (issue 32), and resvg 0.44 at 1× is not: where
// they disagree the exact area wins. Fifteen bars were lowered to what Crisp measured when
// exact curves became the default (clip_use 47.26 → 45.62 dB, paint_order 49.9 → 47.98 dB, the
// shaped-text documents by 0.3–0.5 dB), each a little under it; context_paint, image_formats
// and text_arabic were then set again from 702d144's figures. The measured pixel: a circle
// of r 22 at (32.3, 31.6), pixel (47, 47), whose true covered area (integrated numerically) is
// 127.4/255: Crisp 128, Crisp's former chords at 0.05 px 117, CairoSVG 121, resvg 96 — and
// resvg itself at 16× reduced by a 16×16 box 126.9. Over that circle's 163 edge pixels the
// worst error is Crisp 2.1, resvg 31.4, CairoSVG 11.5 levels (docs/curves.md, "Against the
// samplers").

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
        "illustrator": Bar(psnr: 47.9, percentOver16: 0.22),
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
        // Issue 31, the filter graph. Skia's SVG module lacks much of it (its spread to resvg is
        // 12–27 dB), so each bar is Crisp's own agreement with resvg, a little under, where the
        // difference left is resvg departing from Filter Effects 1 (Fixtures/features/README.md):
        // feGaussianBlur edgeMode="duplicate" (resvg ignores it). Crisp 23.3 dB, 4.93 %; Skia 27.3 dB, 19.2 %.
        "filter_blur": Bar(psnr: 23.0, percentOver16: 5.0),
        // Colour matrices, transfer functions, CSS filter functions. Crisp 46.0 dB, 0.114 %; Skia 15.0 dB.
        "filter_color": Bar(psnr: 45.5, percentOver16: 0.15),
        // Porter-Duff, arithmetic, every blend mode; resvg draws operator="lighter" as over.
        // Crisp 26.8 dB, 1.40 %; Skia 24.1 dB, 23.8 %.
        "filter_composite": Bar(psnr: 26.5, percentOver16: 1.5),
        // Turbulence, stitching, lighting: resvg neither stitches (its tiles show seams) nor
        // converts lighting-color to linearRGB. Crisp 24.7 dB, 29.4 %; Skia 17.8 dB, 26.5 %.
        "filter_light": Bar(psnr: 24.5, percentOver16: 29.5),
        // Regions, units, transforms, chains, use, invalid references; resvg ignores an
        // feOffset's own subregion. Crisp 21.4 dB, 2.10 %; Skia 15.3 dB, 12.8 %.
        "filter_region": Bar(psnr: 21.0, percentOver16: 2.2, expectsWarnings: true),
        // Morphology, tile, feDropShadow, displacement, convolution; resvg's displacement by
        // linearRGB turbulence is nearly empty and its feTile output is not converted back to
        // sRGB. Crisp 17.3 dB, 12.2 %; Skia 12.4 dB, 15.9 %.
        "filter_shape": Bar(psnr: 17.0, percentOver16: 12.5),
        // feImage of an element and of PNGs placed by preserveAspectRatio. Crisp 46.3 dB, 0.104 %.
        "filter_image": Bar(psnr: 45.7, percentOver16: 0.12),
        // mix-blend-mode (every CSS mode, with fill-opacity and opacity) and isolation.
        // Crisp 50.7 dB, 0.099 %; Skia 16.1 dB, 25.0 %.
        "blend_modes": Bar(psnr: 49.4, percentOver16: 0.12),
        // paint-order: stroke under fill (attribute and style), markers first and between fill
        // and stroke. Crisp 49.9 dB, 0.094 %.
        "paint_order": Bar(psnr: 47.9, percentOver16: 0.29),
        // Displacement by turbulence (resvg draws almost nothing; Crisp–Skia 14.5 dB, 11.9 %).
        // Crisp–resvg 13.5 dB, 14.9 %.
        "filter_disp": Bar(psnr: 13.3, percentOver16: 15.0),
        // JPEG (baseline, progressive, EXIF-tagged, data: URI), GIF, WebP, image-rendering, SVG
        // images and feImage of a JPEG. Skia and CairoSVG draw none of these files (8.6-8.9 dB
        // to resvg); Crisp 43.45 dB, 0.611 % (702d144: the JPEG decoders' rounding and resvg's
        // bicubic scaling).
        "image_formats": Bar(psnr: 43.3, percentOver16: 0.63),
        // context-fill / context-stroke in markers and use, with currentColor, a gradient, and
        // outside any context. Closest peer (Skia) 17.29 dB, 6.850 %; Crisp 42.99 dB, 0.581 %
        // (702d144).
        "context_paint": Bar(psnr: 42.9, percentOver16: 0.6),
        // Entities of the internal DTD subset: namespace URLs, an entity of an entity, markup in
        // entities, nested, in text. Skia and CairoSVG refuse the file; Crisp 44.64 dB, 0.525 %
        // (the text's edges).
        "entities": Bar(psnr: 43.9, percentOver16: 0.7),
        // textLength and lengthAdjust. Where resvg departs from SVG 2 Crisp follows SVG 2
        // (resvg anchors by the natural width and spreads spacing over n characters, not n − 1):
        // Crisp 24.43 dB, 3.981 %; closest peer (Skia, which draws no text here) 18.66 dB.
        "text_length": Bar(psnr: 24.2, percentOver16: 4.3),
        // textPath: startOffset (length, %), text-anchor, side="right" (resvg 0.44 ignores side,
        // Crisp walks the path backwards as SVG 2 says), a transformed path, a circle, tspans with
        // dy, text past the end. Closest peer (CairoSVG) 23.31 dB, 6.500 %; Crisp 23.49 dB, 5.365 %.
        "text_path": Bar(psnr: 23.3, percentOver16: 5.45),
        // use inside clipPath (x/y, transform, clip-rule from the use, the use's own clip-path,
        // text) beside a clip-path on a clipPath child. Closest peer (CairoSVG) 16.84 dB, 9.849 %;
        // Crisp 47.26 dB, 0.312 %.
        "clip_use": Bar(psnr: 45.6, percentOver16: 0.48),
        // Masks on <mask>s (luminance × luminance, × alpha, objectBoundingBox on the masked
        // element) and a masked element inside a mask. Closest peer (Skia) 47.22 dB, 0.233 %;
        // Crisp 53.99 dB, 0.007 %.
        "mask_nested": Bar(psnr: 47.2, percentOver16: 0.233),
        // tref: character data of text with tspans, positions and paint on the tref, rotate.
        // Closest peer (CairoSVG) 21.61 dB, 8.476 %; Crisp 24.88 dB, 3.962 % (a chunk that starts
        // with the referenced leading space keeps one space where resvg drops it).
        "tref": Bar(psnr: 24.6, percentOver16: 4.35),
        // Issue 34, shaped SVG text (system fonts: fonts-dejavu-core, fonts-dejavu-extra,
        // fonts-lohit-deva; the references rendered with those files, Fixtures/features/README.md).
        // Each bar a little under Crisp's agreement; Skia's SVG module and CairoSVG were not run.
        // Arabic joining, lam-alef, marks, Arabic-Indic digits, anchor middle. Crisp 40.72 dB,
        // 1.022 % (702d144; 41.3 dB, 0.876 % with chords).
        "text_arabic": Bar(psnr: 40.6, percentOver16: 1.04),
        // Hebrew and Arabic runs inside Latin, numbers, brackets, spans in a reordered run.
        // Crisp 40.8 dB, 0.938 %.
        "text_bidi": Bar(psnr: 40.0, percentOver16: 1.15),
        // Ligatures keeping their first character's dx/dy, kerning, decorations, baseline-shift,
        // dominant-baseline, a real italic face. Crisp 32.3 dB, 1.987 % (the underline's
        // thickness and position: post table through HarfBuzz against resvg's rounding).
        "text_ligature": Bar(psnr: 32.0, percentOver16: 2.34),
        // Devanagari in Lohit: resvg 0.44 departs here (its shaper drops the space between
        // हिन्दी and क्षत्रिय and leaves a visible virama in दुनिया), Crisp draws HarfBuzz's
        // shaping, which reads correctly: Crisp 20.3 dB, 4.792 %.
        "text_devanagari": Bar(psnr: 20.0, percentOver16: 4.86),
    ]

    /// `vector-effect="non-scaling-stroke"`: none of resvg 0.44, Skia's SVG module or CairoSVG
    /// draws it (each strokes as if it were absent), so there is no peer reference; the golden
    /// was checked against Chromium (docs/svg.md) and the widths are tested in
    /// SVGClipMaskEffectTests.
    @Test func nonScalingStrokeGolden() throws {
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/non_scaling_stroke.svg"))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", "non_scaling_stroke")
    }

    /// `text-decoration-style` and `-color`: resvg 0.44 draws every line solid in the element's
    /// paint, so there is no peer reference; the golden was looked at (each style, colours from
    /// the shorthand, the longhand and currentColor, a double overline and line-through over
    /// stroked glyphs, a wavy line on a textPath) and the rules are tested in
    /// SVGTextDecorationTests.
    @Test func textDecorationStyleGolden() throws {
        let doc = try SVGDocument(contentsOfFile: Fixtures.path("features/text_decoration_style.svg"))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        Golden.check(try #require(doc.makeImage(scale: 2)), "features", "text_decoration_style")
    }

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
