import CrispGraphics
import CrispSVG
import Foundation
import FuzzSupport

// Images: the input is the bytes of an image file (PNG, JPEG, GIF, WebP or SVG; the format is
// found from the bytes), given to `<image>` as a base64 data: URI and drawn scaled into 24×24,
// once smooth and once with nearest-pixel sampling. Reaches libjpeg-turbo, giflib, libwebp and
// a nested SVG document through CrispSVG's decoding path.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let href = "data:image/png;base64," + Data(bytes).base64EncodedString()
    let svg = #"<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><image width="24" height="24" href=""# + href
        + #""/><image x="4" width="8" height="20" preserveAspectRatio="none" image-rendering="optimizeSpeed" href=""# + href + #""/></svg>"#
    guard let document = try? SVGDocument(string: svg) else { return 0 }
    _ = document.makeImage()
    return 0
}
