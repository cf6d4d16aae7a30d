import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

@Suite struct FontSourceTests {
    @Test func systemTextLibrariesAreLinked() {
        // Debian 12 ships HarfBuzz 6 and fontconfig 2.14; anything older lacks APIs Crisp uses.
        let hb = TextLibraries.harfBuzzVersion.split(separator: ".").compactMap { Int($0) }
        let fc = TextLibraries.fontconfigVersion.split(separator: ".").compactMap { Int($0) }
        #expect(hb.count == 3 && hb[0] >= 2)
        #expect(fc.count == 3 && (fc[0] > 2 || fc[1] >= 13))
    }
}

@Suite struct FontMatchingTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/fonts")

    @Test func bundledFamilyByWeightAndGenericNames() {
        let source = FontSource(settings: { var s = FontSettings(); s.usesSystemFonts = false; return s }())
        let bold = source.match(families: ["roboto"], weight: 700)
        #expect(bold.face.fullName == "Roboto Bold" && bold.warning == nil)
        #expect(source.match(families: ["Roboto"], weight: 300).face.styleName == "Regular")
        #expect(source.match(families: ["Roboto"], weight: 600).face.fullName == "Roboto Bold")
        #expect(source.match(families: ["sans-serif"]).face.styleName == "Regular")
        #expect(source.localFamilies == ["Noto Sans Arabic", "Roboto"])
    }

    @Test func missingFamilyFallsBackWithAWarningListingWhatWasTried() {
        var settings = FontSettings()
        settings.usesSystemFonts = false
        let m = FontSource(settings: settings).match(families: ["No Such Family", "serif"])
        #expect(m.face.familyName == "Roboto")
        let warning = m.warning ?? ""
        #expect(warning.contains("\"No Such Family\"") && warning.contains("\"DejaVu Serif\""))
        #expect(warning.contains("the app's fonts") && !warning.contains("fontconfig"))
    }

    @Test func userFilesAndFolders() throws {
        var settings = FontSettings()
        settings.usesSystemFonts = false
        settings.fontDirectories = [Self.fixtures]
        let source = FontSource(settings: settings)
        // The hostile fixtures that cannot be read are skipped with a message, not a crash.
        let fixture = try TrueTypeFont(contentsOf: Self.fixtures.appendingPathComponent("kern-cmap12.ttf"))
        let family = try #require(fixture.familyName)
        #expect(source.localFamilies.contains(family))
        #expect(source.match(families: [family]).warning == nil)
        #expect(source.match(families: [family]).face.familyName == family)

        var single = FontSettings()
        single.usesSystemFonts = false
        single.fontFiles = [URL(fileURLWithPath: "/nonexistent/font.ttf")]
        let broken = FontSource(settings: single)
        #expect(broken.loadWarnings.count == 1 && broken.loadWarnings[0].contains("/nonexistent/font.ttf"))
    }

    // fonts-dejavu-core is installed by ./test.sh for these.
    @Test func systemFontsThroughFontconfig() {
        let source = FontSource(settings: FontSettings())
        let bold = source.match(families: ["Nonexistent Sans", "DejaVu Sans"], weight: 700)
        #expect(bold.warning == nil)
        #expect(bold.face.familyName == "DejaVu Sans" && bold.face.weight == 700)
        let mono = source.match(families: ["monospace"])
        #expect(mono.face.familyName == "DejaVu Sans Mono" && mono.face.weight == 400)
        var noSystem = FontSettings()
        noSystem.usesSystemFonts = false
        #expect(FontSource(settings: noSystem).match(families: ["DejaVu Sans"]).warning != nil)
    }

    @Test func missingGlyphsFallBackThroughTheList() throws {
        let roboto = try CTFont.bundledFace(.system)
        let zhe: Unicode.Scalar = "\u{0416}"       // Cyrillic Zhe: not in the bundled Roboto subset
        #expect(roboto.glyph(for: zhe) == 0)
        let face = try #require(FontSource(settings: FontSettings()).fallbackFace(for: zhe))
        #expect(face.familyName == "DejaVu Sans" && face.glyph(for: zhe) != 0)
        var none = FontSettings()
        none.usesSystemFonts = false
        #expect(FontSource(settings: none).fallbackFace(for: zhe) == nil)
    }
}

@Suite struct ShapingTests {
    static func dejaVu() throws -> TrueTypeFont {
        let m = FontSource.standard.match(families: ["DejaVu Sans"])     // fonts-dejavu-core, installed by ./test.sh
        #expect(m.warning == nil)
        return m.face
    }

    @Test func ligaturesAndFeatureSettings() throws {
        let font = CTFont(face: try Self.dejaVu(), size: 20)
        let plain = CTLine(string: "fi", font: font, features: "\"liga\" 0")
        let ligated = CTLine(string: "fi", font: font)
        #expect(plain.glyphs.count == 2 && plain.glyphs == font.glyphs(for: "fi"))
        #expect(ligated.glyphs.count == 1 && ligated.glyphs[0] != 0 && !font.glyphs(for: "fi").contains(ligated.glyphs[0]))
    }

    @Test func marksArePositionedOnTheirBase() throws {
        let face = try Self.dejaVu()
        let font = CTFont(face: face, size: 20)
        // No precomposed q with acute exists: the mark stays a glyph of its own, placed by GPOS.
        let line = CTLine(string: "q\u{301}", font: font)
        #expect(line.glyphs.count == 2 && line.glyphs[1] != 0)
        #expect(abs(line.width - font.advance(for: line.glyphs[0])) < 1e-9)     // the mark takes no space
        #expect(line.positions[1].x >= 0 && line.positions[1].x < line.width)
    }

    @Test func bundledRobotoKernsAsBefore() throws {
        // HarfBuzz's GPOS kerning equals the pair kerning Crisp read itself.
        let font = try CTFont.uiFont(size: 20.48)
        let line = CTLine(string: "AVATAR Tokyo", font: font)
        var pen = 0
        let glyphs = font.glyphs(for: "AVATAR Tokyo")
        #expect(line.glyphs == glyphs)
        for (i, g) in glyphs.enumerated() {
            if i > 0 { pen += font.face.kerning(between: glyphs[i - 1], and: g) }
            #expect(abs(line.positions[i].x - CGFloat(pen) / 100) < 1e-9)
            pen += font.face.advanceWidth(of: g)
        }
    }

    @Test func directionAndCache() throws {
        let font = try CTFont.uiFont(size: 12)
        let ltr = CTLine(string: "abc", font: font)
        // Right to left is the paragraph's direction: Latin inside it keeps its order, an
        // override (U+202E) reverses it (BidiTests has the rest).
        let rtl = CTLine(string: "\u{202E}abc", font: font)
        #expect(rtl.glyphs == ltr.glyphs.reversed())
        #expect(abs(rtl.width - ltr.width) < 1e-9)
        let unique = "shaping cache \(UInt64.random(in: 0...UInt64.max))"
        let first = CTLine(string: unique, font: font)
        let count = Shaper.cachedCount
        let again = CTLine(string: unique, font: font)
        #expect(Shaper.cachedCount <= count && again.glyphs == first.glyphs && again.positions == first.positions)
    }

    @Test func featureSettingsParse() {
        let f = Shaper.parseFeatures("\"liga\" 0, 'kern' off, smcp, \"bad\" 1, \"tnum\" on, \"ss01\" 2, \"x\"")
        #expect(f.map(\.value) == [0, 0, 1, 1, 2])
        #expect(f[0].tag == 0x6C69_6761 && f[2].tag == 0x736D_6370)
        #expect(Shaper.parseFeatures("normal").isEmpty && Shaper.parseFeatures("").isEmpty)
    }
}
