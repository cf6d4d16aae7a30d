import CrispTestSupport
import Foundation
import CrispGraphics

/// Fonts for the text tests: the bundled faces and the fixtures of `Fixtures/fonts`.
enum TestFonts {
    static let fixtures = Golden.testsDirectory().appendingPathComponent("Fixtures/fonts")

    static func bytes(_ resource: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: try CrispResources.url(for: "Fonts/\(resource)")))
    }

    static func fixtureBytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: fixtures.appendingPathComponent(name)))
    }

    static var regular: TrueTypeFont { get throws { try CTFont.bundledFace(.system) } }
    static var bold: TrueTypeFont { get throws { try CTFont.bundledFace(.emphasizedSystem) } }
    static var kernCmap12: TrueTypeFont { get throws { try TrueTypeFont(data: fixtureBytes("kern-cmap12.ttf")) } }
}
