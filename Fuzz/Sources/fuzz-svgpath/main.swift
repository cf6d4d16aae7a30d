import CrispGraphics
import CrispSVG
import Foundation
import FuzzSupport

// SVG path data alone: parse, fill, stroke with round joins and a dash, and query the path.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    guard let path = try? SVGPathParser.path(from: String(decoding: bytes, as: UTF8.self)) else { return 0 }
    guard let context = CGContext(width: 32, height: 32) else { return 0 }
    context.addPath(path)
    context.fillPath(using: .evenOdd)
    context.addPath(path)
    context.setLineJoin(.round)
    context.setLineDash(phase: 0.5, lengths: [2, 1])
    context.strokePath()
    _ = path.boundingBox
    _ = path.contains(CGPoint(x: 3, y: 3))
    return 0
}
