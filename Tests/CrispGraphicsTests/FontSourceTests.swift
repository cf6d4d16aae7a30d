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
