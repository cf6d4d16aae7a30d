import CrispGraphics
import Foundation
import FuzzSupport

// PNG: decode; what decodes is encoded again and must decode to the same pixels. The
// optimizer (level 0) either refuses the input with a decoding error or returns a file with
// the same pixels; it must never fail its own verification.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let image = try? PNGDecoder(maximumPixelCount: 1 << 22).decode(bytes) else { return 0 }
    guard let encoded = try? PNGEncoder().encode(image), let again = try? PNGDecoder().decode(encoded) else {
        fatalError("a decoded image did not survive encoding")
    }
    precondition(again.width == image.width && again.height == image.height && again.pixels == image.pixels,
                 "pixels changed in a round trip")
    do {
        let optimized = try PNGOptimizer(level: 0, maximumPixelCount: 1 << 22).optimize(bytes)
        let pixels = try PNGDecoder().decode(optimized.data).pixels
        precondition(pixels == image.pixels, "the optimizer changed pixels")
    } catch .verificationFailed(let reason) {
        fatalError("the optimizer failed its verification: \(reason)")
    } catch {
        // Refused (APNG): fine.
    }
    return 0
}
