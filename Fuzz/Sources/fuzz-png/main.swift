import CrispGraphics
import Foundation
import FuzzSupport

// PNG: decode; what decodes is encoded again and must decode to the same pixels. The
// optimizer (level 0) either refuses the input with a decoding error or returns a file with
// the same pixels; it must never fail its own verification.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    // APNG: the frame structure is read and every frame composited; errors are fine, never a
    // crash. Frames are written again by APNGWriter and must read back the same.
    if let animation = try? APNGAnimation(pngData: bytes, maximumPixelCount: 1 << 16), animation.frames.count <= 64 {
        var images: [CGImage] = []
        if (try? animation.forEachImage({ _, image in images.append(image) })) != nil, let first = images.first {
            final class Memory: APNGOutput {
                var bytes: [UInt8] = []
                func write(_ data: [UInt8], at offset: Int) throws {
                    if offset + data.count > bytes.count { bytes += [UInt8](repeating: 0, count: offset + data.count - bytes.count) }
                    bytes.replaceSubrange(offset..<(offset + data.count), with: data)
                }
                func truncate(to length: Int) throws { bytes.removeLast(max(0, bytes.count - length)) }
                func close() {}
            }
            let memory = Memory()
            let writer = try! APNGWriter(width: first.width, height: first.height, output: memory)
            var kept: [[UInt32]] = []
            for (i, image) in images.enumerated() {
                let added = try! image.pixels.withUnsafeBufferPointer { p in
                    try writer.addFrame(p.baseAddress!, stride: image.width, x: 0, y: 0, width: image.width, height: image.height, time: Double(i))
                }
                if added { kept.append(image.pixels) }
            }
            try! writer.finish(at: Double(images.count))
            let again = try! APNGAnimation(pngData: memory.bytes).images().map(\.pixels)
            precondition(again == kept, "APNG frames changed in a round trip")
        }
    }
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
