import CrispGraphics
import CrispSVG
import Foundation
import FuzzSupport

// SVG: parse, then render into a small canvas (and at the document's own size when that is small).
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let document = try? SVGDocument(data: bytes) else { return 0 }
    if let context = CGContext(width: 48, height: 48) {
        document.draw(in: context, rect: CGRect(x: 0, y: 0, width: 48, height: 48))
    }
    if document.size.width * document.size.height <= 256 * 256 { _ = document.makeImage() }
    return 0
}
