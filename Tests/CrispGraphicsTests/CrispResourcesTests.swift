import Foundation
import Testing
@testable import CrispGraphics

@Suite struct CrispResourcesTests {
    @Test func findsTheBundledFonts() throws {
        let url = try CrispResources.url(for: "Fonts/Roboto-Regular.ttf")
        #expect(FileManager.default.fileExists(atPath: url.path))
        #expect(url.path.hasSuffix("Resources/Fonts/Roboto-Regular.ttf"))
    }

    @Test func missingResourceNamesEveryPathTried() {
        do {
            _ = try CrispResources.url(for: "Fonts/NoSuchFont.ttf")
            Issue.record("expected NotFound")
        } catch let error as CrispResources.NotFound {
            #expect(error.relativePath == "Fonts/NoSuchFont.ttf")
            #expect(error.triedPaths.count == CrispResources.candidateDirectories().count)
            #expect(error.triedPaths.allSatisfy { $0.hasSuffix("Resources/Fonts/NoSuchFont.ttf") })
            #expect(error.description.contains("CRISP_RESOURCES"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func sourceTreeIsTheLastResort() {
        let last = CrispResources.candidateDirectories().last!
        #expect(last.path.hasSuffix("/Resources"))
        #expect(FileManager.default.fileExists(atPath: last.appendingPathComponent("Fonts").path))
    }
}
