import CrispTestSupport
import Foundation
import Testing
import CrispGraphics

/// Every golden PNG decodes, re-encodes (both encoder modes) and decodes to the same pixels.
@Suite struct GoldenRoundTripTests {
    @Test func everyGoldenRoundTripsThroughPNG() throws {
        let goldens = Golden.allGoldens()
        #expect(goldens.count >= 25, "expected the committed goldens, found \(goldens.count)")
        for url in goldens {
            let image = try CGImage(contentsOfPNGFile: url.path)
            for mode in [PNGEncoder.ColorType.automatic, .rgba] {
                let again = try CGImage(pngData: try image.pngData(colorType: mode))
                #expect(again.pixels == image.pixels, "\(url.lastPathComponent) (\(mode))")
            }
        }
    }
}
