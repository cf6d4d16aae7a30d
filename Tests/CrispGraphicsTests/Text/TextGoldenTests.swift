import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Golden images of text: sizes, weights, the three languages, rotations, scales, flipped view
/// contexts (the seed's rotated axis label), clip, alpha and blend mode. Each golden was looked
/// at, enlarged, before it was committed.
@Suite struct TextGoldenTests {
    static func canvas(_ width: Int, _ height: Int, flipped: Bool = false) -> CGContext {
        let ctx = flipped ? CGContext.flipped(width: width, height: height) : CGContext(width: width, height: height)!
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        ctx.setFillColor(gray: 0, alpha: 1)
        return ctx
    }

    @Test func sizesAndWeights() throws {
        let ctx = TextGoldenTests.canvas(340, 136)
        var baseline: CGFloat = 126
        for size: CGFloat in [9, 12, 17, 24, 34] {
            for (i, type) in [CTFontUIFontType.system, .emphasizedSystem].enumerated() {
                ctx.textPosition = CGPoint(x: 4 + CGFloat(i) * 168, y: baseline)
                CTLine(string: size < 20 ? "Signal quality 42%" : "Signal 42%", font: try CTFont.uiFont(type, size: size)).draw(in: ctx)
            }
            baseline -= size * 1.25 + 4
        }
        Golden.check(ctx, "text", "sizes-and-weights")
    }

    static let samples = [
        ("en", "Touch to return to call • Battery 80% • N E S W"),
        ("de", "Zum Gespräch zurückkehren – Größe, Straße, Übung"),
        ("es", "¿Volver a la llamada? ¡Señal! Año, canción, niño"),
    ]

    @Test func threeLanguages() throws {
        let ctx = TextGoldenTests.canvas(360, 120)
        var baseline: CGFloat = 100
        for (_, text) in TextGoldenTests.samples {
            ctx.textPosition = CGPoint(x: 4, y: baseline)
            CTLine(string: text, font: try CTFont.uiFont(size: 15)).draw(in: ctx)
            ctx.textPosition = CGPoint(x: 4, y: baseline - 18)
            CTLine(string: text, font: try CTFont.uiFont(.emphasizedSystem, size: 12)).draw(in: ctx)
            baseline -= 38
        }
        Golden.check(ctx, "text", "three-languages")
    }

    @Test func rotations() throws {
        let ctx = TextGoldenTests.canvas(200, 200)
        let font = try CTFont.uiFont(size: 14)
        for degrees in stride(from: 0, to: 360, by: 45) {
            ctx.saveGState()
            ctx.translateBy(x: 100, y: 100)
            ctx.rotate(by: CGFloat(degrees) * .pi / 180)
            ctx.setFillColor(red: CGFloat(degrees) / 400, green: 0.2, blue: 0.5, alpha: 1)
            ctx.textPosition = CGPoint(x: 14, y: -4)
            CTLine(string: "Größe \(degrees)°", font: font).draw(in: ctx)
            ctx.restoreGState()
        }
        Golden.check(ctx, "text", "rotations")
    }

    @Test func scalesAndSkew() throws {
        let ctx = TextGoldenTests.canvas(260, 130)
        let font = try CTFont.uiFont(size: 10)
        ctx.saveGState()
        ctx.translateBy(x: 4, y: 100)
        ctx.scaleBy(x: 2, y: 2)                       // retina: cached at 20 px
        ctx.textPosition = .zero
        CTLine(string: "Señal ½×", font: font).draw(in: ctx)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.translateBy(x: 4, y: 60)
        ctx.scaleBy(x: 2.5, y: 1.2)                   // anisotropic: still cached
        ctx.textPosition = .zero
        CTLine(string: "wide ¡Ñ!", font: font).draw(in: ctx)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.translateBy(x: 4, y: 20)
        ctx.concatenate(CGAffineTransform(a: 1.5, b: 0, c: 0.6, d: 1.5, tx: 0, ty: 0))   // skew: outlines
        ctx.textPosition = .zero
        CTLine(string: "skewed ¿ß?", font: font).draw(in: ctx)
        ctx.restoreGState()
        // A 120 px em is drawn as an outline, not cached.
        ctx.textPosition = CGPoint(x: 170, y: 30)
        CTLine(string: "ß", font: try CTFont.uiFont(.emphasizedSystem, size: 120)).draw(in: ctx)
        Golden.check(ctx, "text", "scales-and-skew")
    }

    /// The seed's axis labels, ported line for line: measure, translate, rotate by −π/2, draw at
    /// .zero — in a flipped view context at scale 2.
    @Test func rotatedAxisLabelInFlippedContext() throws {
        let scale: CGFloat = 2
        let ctx = TextGoldenTests.canvas(240, 160, flipped: true)
        ctx.scaleBy(x: scale, y: scale)               // the view now draws in points: 120 × 80
        let font = try CTFont.uiFont(size: 9)
        let color = CGColor(red: 0.1, green: 0.3, blue: 0.8, alpha: 1)
        ctx.setStrokeColor(gray: 0.6, alpha: 1)
        ctx.stroke(CGRect(x: 16, y: 4, width: 100, height: 60), width: 0.5)

        let yLabel = "signal quality"
        let ySize = yLabel.size(withFont: font)
        ctx.saveGState()
        ctx.translateBy(x: 4, y: 4 + (60 + ySize.width) / 2)
        ctx.rotate(by: -.pi / 2)
        yLabel.draw(at: .zero, font: font, color: color, in: ctx)
        ctx.restoreGState()

        let xLabel = "time"
        let xSize = xLabel.size(withFont: font)
        xLabel.draw(at: CGPoint(x: 16 + (100 - xSize.width) / 2, y: 66), font: font, color: color, in: ctx)
        "Señal ¡sí!".draw(at: CGPoint(x: 30, y: 20), font: try CTFont.uiFont(.emphasizedSystem, size: 12),
                          color: CGColor(gray: 0, alpha: 1), in: ctx)
        Golden.check(ctx, "text", "axis-labels-flipped")
    }

    @Test func clipAlphaAndBlendMode() throws {
        let ctx = TextGoldenTests.canvas(200, 70)
        ctx.setFillColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 100, height: 70))
        let font = try CTFont.uiFont(.emphasizedSystem, size: 26)
        ctx.saveGState()
        ctx.addEllipse(in: CGRect(x: 10, y: 5, width: 180, height: 60))
        ctx.clip()
        ctx.setAlpha(0.6)
        ctx.setFillColor(red: 0, green: 0.2, blue: 0.9, alpha: 1)
        ctx.textPosition = CGPoint(x: 6, y: 40)
        CTLine(string: "Übergröße", font: font).draw(in: ctx)
        ctx.restoreGState()
        // Copy: the run composites once, so overlapping glyph edges do not erase each other.
        ctx.setBlendMode(.copy)
        ctx.setFillColor(red: 0, green: 0.5, blue: 0, alpha: 0.5)
        ctx.textPosition = CGPoint(x: 6, y: 8)
        CTLine(string: "AVATAR Tj", font: try CTFont.uiFont(size: 20)).draw(in: ctx)
        Golden.check(ctx, "text", "clip-alpha-blend")
    }

    /// Text casts a shadow like any shape: offset and blur in device space (the rotated line's
    /// shadow still falls down and right), cached glyphs and outlines alike, and a shadow whose
    /// text is clipped away still shows where the clip lets it.
    @Test func textUnderAShadow() throws {
        let ctx = TextGoldenTests.canvas(220, 110)
        let font = try CTFont.uiFont(.emphasizedSystem, size: 22)
        ctx.setShadow(offset: CGSize(width: 3, height: -3), blur: 4, color: CGColor(red: 0, green: 0, blue: 0.4, alpha: 0.6))
        ctx.setFillColor(red: 0.95, green: 0.6, blue: 0.1, alpha: 1)
        ctx.textPosition = CGPoint(x: 8, y: 74)
        CTLine(string: "Shadow 9:41", font: font).draw(in: ctx)
        ctx.saveGState()
        ctx.translateBy(x: 150, y: 10)
        ctx.rotate(by: .pi / 6)
        ctx.textPosition = .zero
        CTLine(string: "Tilt", font: font).draw(in: ctx)
        ctx.restoreGState()
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 0, y: 0, width: 120, height: 34))
        ctx.setShadow(offset: CGSize(width: 0, height: -14), blur: 2)
        ctx.textPosition = CGPoint(x: 8, y: 40)
        CTLine(string: "Only shadow", font: try CTFont.uiFont(size: 16)).draw(in: ctx)
        ctx.restoreGState()
        Golden.check(ctx, "text", "shadow")
    }

    @Test func missingCharactersDrawNotdef() throws {
        let ctx = TextGoldenTests.canvas(120, 30)
        ctx.textPosition = CGPoint(x: 4, y: 9)
        CTLine(string: "ĀŁ→ ok", font: try CTFont.uiFont(size: 16)).draw(in: ctx)
        Golden.check(ctx, "text", "notdef")
    }
}
