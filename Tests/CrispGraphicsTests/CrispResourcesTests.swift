import Foundation
import Testing
import CrispGraphics

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

    @Test func installPrefixIsTheLastResortAndTheSourceTreeIsNotSearched() {
        let candidates = CrispResources.candidateDirectories()
        #expect(candidates.last?.path.hasSuffix("/share/crisp/Resources") == true)
        let sourceTree = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Resources").standardizedFileURL.path
        // The test bundle lives under this checkout's .build, so the checkout is found by the
        // walk up from the executable — once, not again as a compiled-in fallback.
        #expect(candidates.filter { $0.standardizedFileURL.path == sourceTree }.count == 1)
    }
}
