import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// CFF, CFF2, collections and variable fonts: outlines HarfBuzz draws and Crisp's rasterizer
/// fills. The variable fixtures are built by `Fixtures/fonts/make_variable_fixtures.py`: a
/// 'wght' axis 100…900 (default 400), the bar of 'I' 40 units wide at 100, 100 at 400 and 260 at
/// 900, and an 'avar' map that moves 700 to the normalized 0.84 (so 'I' is 234.4 wide there, not
/// the 196 of a linear axis).
@Suite struct OpenTypeOutlineTests {
    static let cantarell = "/usr/share/fonts/opentype/cantarell/Cantarell-Regular.otf"

    static func cantarellFace() throws -> TrueTypeFont {
        guard FileManager.default.fileExists(atPath: cantarell) else {
            Issue.record("\(cantarell) is missing: apt-get install fonts-cantarell (test.sh installs it)")
            throw CancellationError()
        }
        return try TrueTypeFont(contentsOf: URL(fileURLWithPath: cantarell))
    }

    static func variable(_ name: String) throws -> TrueTypeFont { try TrueTypeFont(data: TestFonts.fixtureBytes(name)) }

    /// The ink width of `glyph`'s outline in font units.
    static func inkWidth(_ face: TrueTypeFont, _ scalar: Unicode.Scalar) throws -> CGFloat {
        try face.path(for: face.glyph(for: scalar)).boundingBoxOfPath.width
    }

    @Test func cffOutlinesAreDrawnThroughHarfBuzz() throws {
        let face = try OpenTypeOutlineTests.cantarellFace()
        #expect(face.outlineFormat == .cff && face.familyName == "Cantarell")
        let h = try face.path(for: face.glyph(for: "H"))
        let box = h.boundingBoxOfPath
        // Cantarell's H: a cap height of about 700 units of 1000, drawn from cubic curves and lines.
        #expect(box.minY > -5 && box.maxY > 650 && box.maxY < 760 && box.width > 400 && box.width < 800)
        #expect(try face.path(for: face.glyph(for: " ")).isEmpty)
        #expect(throws: FontError.self) { try face.pointCount(of: 5) }
        #expect(throws: FontError.glyphOutOfRange(glyph: 60000, glyphCount: face.glyphCount)) { try face.path(for: 60000) }
        // A line shapes (GPOS kerning, ligatures) and draws ink where the glyphs are.
        let font = CTFont(face: face, size: 24)
        let line = CTLine(string: "Hamburgefonts", font: font)
        #expect(line.glyphs.allSatisfy { $0 != 0 } && line.width > 120 && line.width < 200)
        let ctx = CGContext(width: 220, height: 40)!
        ctx.textPosition = CGPoint(x: 4, y: 10)
        line.draw(in: ctx)
        let area = ctx.coveredArea
        #expect(area > 250 && area < 1200, "covered \(area) px")
        // Cached bitmaps and plain outline fills agree (the glyph cache and the rasterizer see the
        // same path).
        let outlines = CGContext(width: 220, height: 40)!
        // A skew too small to see sends the run through the outline path.
        outlines.textMatrix = CGAffineTransform(a: 1, b: 1e-7, c: 0, d: 1, tx: 4, ty: 10)
        line.draw(in: outlines)
        #expect(abs(outlines.coveredArea - area) < 0.01 * area)
    }

    /// 'MVAR': the line metrics follow the instance (make_variable_fixtures.py's masters: typo
    /// ascender 760 / 800 / 900 at wght 100 / 400 / 900, and so on), as HarfBuzz applies them.
    @Test func lineMetricsFollowTheInstanceThroughMVAR() throws {
        let face = try OpenTypeOutlineTests.variable("VariableTest-MVAR.ttf")
        func metrics(_ f: TrueTypeFont) -> [Int?] {
            [f.ascender, f.descender, f.lineGap, f.typographicAscender, f.typographicDescender, f.typographicLineGap, f.capHeight, f.xHeight]
        }
        // The default instance: 'hhea' 800 / -200 / 0, the Regular master's OS/2.
        #expect(metrics(face) == [800, -200, 0, 800, -200, 0, 700, 500])
        let black = face.instance(weight: 900)
        #expect(metrics(black) == [900, -240, 100, 900, -240, 100, 760, 540])
        let thin = face.instance(weight: 100)
        #expect(metrics(thin) == [760, -180, 0, 760, -180, 0, 650, 480])
        // avar puts 700 at 0.84 of the way to 900: 800 + 0.84 × 100.
        let bold = face.instance(weight: 700)
        #expect(bold.ascender == 884 && bold.capHeight == 750 && bold.lineGap == 84)
        // CTFont's line box follows: a black line is taller than a regular one.
        let regularFont = CTFont(face: face, size: 100), blackFont = CTFont(face: black, size: 100)
        #expect(abs(blackFont.ascent - 90) < 1e-9 && abs(blackFont.descent - 24) < 1e-9 && abs(blackFont.leading - 10) < 1e-9)
        #expect(abs(regularFont.ascent - 80) < 1e-9 && abs(regularFont.leading) < 1e-9)
        // A font without 'MVAR' keeps its metrics at every instance.
        let plain = try OpenTypeOutlineTests.variable("VariableTest.ttf")
        #expect(metrics(plain.instance(weight: 900)) == metrics(plain))
    }

    @Test(arguments: ["VariableTest.ttf", "VariableTest-CFF2.otf"])
    func variableFontAxesInstancesAndAvar(_ name: String) throws {
        let face = try OpenTypeOutlineTests.variable(name)
        #expect(face.outlineFormat == (name.hasSuffix("ttf") ? .trueType : .cff2))
        #expect(face.variationAxes.map(\.tag) == ["wght"])
        let axis = face.variationAxes[0]
        #expect(axis.minimum == 100 && axis.defaultValue == 400 && axis.maximum == 900 && axis.name == "Weight")
        #expect(face.namedInstances.map(\.name) == ["Thin", "Regular", "Bold"])
        #expect(face.namedInstances[2].coordinates == [FontVariation(tag: "wght", value: 700)])
        #expect(face.weightRange == 100...900)

        #expect(abs(try OpenTypeOutlineTests.inkWidth(face, "I") - 100) < 0.01)
        let thin = face.instance(variations: [FontVariation(tag: "wght", value: 100)])
        #expect(abs(try OpenTypeOutlineTests.inkWidth(thin, "I") - 40) < 0.01)
        #expect(thin.advanceWidth(of: thin.glyph(for: "I")) == 160)
        let black = face.instance(fontVariationSettings: "\"wght\" 900")
        #expect(abs(try OpenTypeOutlineTests.inkWidth(black, "I") - 260) < 0.01)
        // avar: 700 is 0.84 of the way from 400 to 900, not 0.6.
        let bold = try #require(face.instance(named: "bold"))
        #expect(abs(try OpenTypeOutlineTests.inkWidth(bold, "I") - 234.4) < 1)
        #expect(abs(bold.advanceWidth(of: bold.glyph(for: "I")) - 354) <= 1)
        #expect(bold.weight == 700 && bold.variations == [FontVariation(tag: "wght", value: 700)])
        // The same coordinates give the same object (caches keep their entries); out-of-range
        // values clamp, unknown axes and the default are no change.
        #expect(face.instance(weight: 700) === bold)
        #expect(face.instance(fontVariationSettings: "'wght' 5000") === black)
        #expect(face.instance(fontVariationSettings: "\"wdth\" 50") === face)
        #expect(face.instance(fontVariationSettings: "normal") === face)
        #expect(face.instance(weight: 400) === face)
        #expect(bold.instance(weight: 100) === thin)
        #expect(face.instance(named: "Condensed") == nil)
        // Shaping uses the instance's advances ('HVAR' / phantom points).
        let line = CTLine(string: "II", font: CTFont(face: bold, size: 1000))
        #expect(abs(line.width - 2 * CGFloat(bold.advanceWidth(of: bold.glyph(for: "I")))) < 1.01)
        // Drawn: more ink at a heavier weight.
        func ink(_ f: TrueTypeFont) -> Double {
            let ctx = CGContext(width: 80, height: 30)!
            ctx.textPosition = CGPoint(x: 2, y: 4)
            CTLine(string: "HIH", font: CTFont(face: f, size: 24)).draw(in: ctx)
            return ctx.coveredArea
        }
        #expect(ink(thin) < ink(face) && ink(face) < ink(bold) && ink(bold) < ink(black))
    }

    @Test func cssVariationSettingsParse() {
        #expect(FontVariation.parse("\"wght\" 650, 'wdth' 80.5") == [FontVariation(tag: "wght", value: 650), FontVariation(tag: "wdth", value: 80.5)])
        #expect(FontVariation.parse("\"wght\" 300, \"wght\" 500") == [FontVariation(tag: "wght", value: 500)])
        #expect(FontVariation.parse("normal").isEmpty)
        #expect(FontVariation.parse("wght 650, \"toolong\" 3, \"wght\" x, \"wght\" inf").isEmpty)
    }

    /// A '.ttc' of Roboto Regular and Bold, made here: each face's table directory points into
    /// the one file.
    static func collection(_ fonts: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = Array("ttcf".utf8) + [0, 1, 0, 0] + be32(fonts.count)
        let headerSize = 12 + 4 * fonts.count
        let directorySizes = fonts.map { 12 + 16 * Int(u16($0, 4)) }
        var dataOffset = headerSize + directorySizes.reduce(0, +)
        var directories: [UInt8] = [], data: [UInt8] = []
        var directoryOffset = headerSize
        for (font, size) in zip(fonts, directorySizes) {
            out += be32(directoryOffset)
            directoryOffset += size
            directories += font[0..<12]
            for i in 0..<Int(u16(font, 4)) {
                let r = 12 + 16 * i
                let offset = Int(u32(font, r + 8)), length = Int(u32(font, r + 12))
                directories += font[r..<(r + 8)] + be32(dataOffset) + be32(length)
                var table = Array(font[offset..<(offset + length)])
                while table.count % 4 != 0 { table.append(0) }
                data += table
                dataOffset += table.count
            }
        }
        return out + directories + data
    }
    static func be32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
    static func u16(_ b: [UInt8], _ i: Int) -> UInt16 { UInt16(b[i]) << 8 | UInt16(b[i + 1]) }
    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 { UInt32(u16(b, i)) << 16 | UInt32(u16(b, i + 2)) }

    @Test func collectionsAreReadFaceByFace() throws {
        let regular = try TestFonts.bytes("Roboto-Regular.ttf"), bold = try TestFonts.bytes("Roboto-Bold.ttf")
        let ttc = OpenTypeOutlineTests.collection([regular, bold])
        #expect(try TrueTypeFont.faceCount(data: ttc) == 2)
        #expect(try TrueTypeFont.faceCount(data: regular) == 1)
        let second = try TrueTypeFont(data: ttc, faceIndex: 1)
        #expect(second.fullName == "Roboto Bold" && second.faceIndex == 1)
        let alone = try TestFonts.bold
        let g = alone.glyph(for: "g")
        #expect(second.glyph(for: "g") == g)
        #expect(try second.path(for: g) == alone.path(for: g))
        // HarfBuzz reads the same face of the collection.
        let a = CTLine(string: "AVo fi", font: CTFont(face: second, size: 20))
        let b = CTLine(string: "AVo fi", font: CTFont(face: alone, size: 20))
        #expect(a.glyphs == b.glyphs && a.positions == b.positions)
        #expect(throws: FontError.self) { try TrueTypeFont(data: ttc, faceIndex: 2) }
        #expect(throws: FontError.self) { try TrueTypeFont(data: regular, faceIndex: 1) }
        // A header that claims more faces than the file holds.
        var lie = ttc
        lie[8] = 0x7F
        #expect(throws: FontError.self) { try TrueTypeFont.faceCount(data: lie) }
        // FontSource offers every face of a collection in the user's folder.
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-ttc-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data(ttc).write(to: dir.appendingPathComponent("Both.ttc"))
        var settings = FontSettings()
        settings.usesSystemFonts = false
        settings.fontDirectories = [dir]
        let source = FontSource(settings: settings)
        #expect(source.loadWarnings.isEmpty)
        #expect(source.match(families: ["Roboto"], weight: 700).face.fullName == "Roboto Bold")
    }

    @Test func fontSourceInstancesAVariableFontAtTheRequestedWeight() throws {
        var settings = FontSettings()
        settings.usesSystemFonts = false
        settings.fontFiles = [TestFonts.fixtures.appendingPathComponent("VariableTest.ttf")]
        let source = FontSource(settings: settings)
        #expect(source.loadWarnings.isEmpty)
        let m = source.match(families: ["Variable Test"], weight: 700)
        #expect(m.warning == nil && m.face.variations == [FontVariation(tag: "wght", value: 700)])
        #expect(source.match(families: ["Variable Test"], weight: 250).face.weight == 250)
        #expect(source.match(families: ["Variable Test"], weight: 400).face.variations.isEmpty)
        #expect(source.match(families: ["Variable Test"], weight: 950).face.weight == 900)
    }

    /// Mutated CFF, CFF2 and variable fonts: each fails to open with a `FontError` or opens and
    /// survives every query, instances and a drawing.
    @Test(arguments: ["VariableTest.ttf", "VariableTest-CFF2.otf", "Cantarell"])
    func mutatedFontsParseOrFailCleanly(_ name: String) throws {
        let base = name == "Cantarell" ? [UInt8](try Data(contentsOf: URL(fileURLWithPath: OpenTypeOutlineTests.cantarell)))
            : try TestFonts.fixtureBytes(name)
        var rng = SplitMix64(seed: 0xCFF0 + UInt64(name.count))
        let context = CGContext(width: 64, height: 24)!
        var opened = 0, rejected = 0
        let kinds: [FontFuzzTests.Mutation] = [.truncate, .flipBits, .randomBytes, .offsetLie, .tableRecordLie]
        for i in 0..<(name == "Cantarell" ? 300 : 800) {
            let bytes = FontFuzzTests.mutate(base, kinds[i % kinds.count], &rng)
            do throws(FontError) {
                let font = try TrueTypeFont(data: bytes)
                opened += 1
                FontFuzzTests.exercise(font, &rng, context: context)
                for axis in font.variationAxes.prefix(4) {
                    let v = font.instance(variations: [FontVariation(tag: axis.tag, value: Double.random(in: -2000...2000, using: &rng))])
                    FontFuzzTests.exercise(v, &rng, context: context)
                }
                _ = font.namedInstances
            } catch {
                rejected += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(opened > 20 && rejected > 20, "opened \(opened), rejected \(rejected)")
    }
}
