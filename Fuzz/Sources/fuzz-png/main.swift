import CrispGraphics
import Foundation
import FuzzSupport

// PNG: decode; what decodes is encoded again and must decode to the same pixels.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let image = try? PNGDecoder(maximumPixelCount: 1 << 22).decode(bytes) else { return 0 }
    guard let encoded = try? PNGEncoder().encode(image), let again = try? PNGDecoder().decode(encoded) else {
        fatalError("a decoded image did not survive encoding")
    }
    precondition(again.width == image.width && again.height == image.height && again.pixels == image.pixels,
                 "pixels changed in a round trip")
    return 0
}
