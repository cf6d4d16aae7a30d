import Foundation
import Testing
@testable import CrispGraphics

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
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/fonts")

    @Test func bundledFamilyByWeightAndGenericNames() {
        let source = FontSource(settings: { var s = FontSettings(); s.usesSystemFonts = false; return s }())
        let bold = source.match(families: ["roboto"], weight: 700)
        #expect(bold.face.fullName == "Roboto Bold" && bold.warning == nil)
        #expect(source.match(families: ["Roboto"], weight: 300).face.styleName == "Regular")
        #expect(source.match(families: ["Roboto"], weight: 600).face.fullName == "Roboto Bold")
        #expect(source.match(families: ["sans-serif"]).face.styleName == "Regular")
        #expect(source.localFamilies == ["Roboto"])
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
