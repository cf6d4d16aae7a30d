import CrispGraphics
import Foundation

/// Files under Tests/CrispSVGTests/Fixtures, found from this source file's path (so tests do
/// not depend on the working directory or on ../shared).
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    static func bytes(_ relative: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: directory.appendingPathComponent(relative))) }
}

/// The bench harness's image agreement metrics (compare.py), on premultiplied 8-bit RGBA.
struct Agreement {
    var psnr: Double
    var percentOver16: Double
    var maximum: Int

    /// Compares two images of the same size, pixel by pixel and channel by channel.
    init(_ a: CGImage, _ b: CGImage) {
        precondition(a.width == b.width && a.height == b.height, "size mismatch")
        var squares = 0.0
        var over16 = 0
        var maximum = 0
        for i in 0..<a.pixels.count {
            let p = a.pixels[i], q = b.pixels[i]
            var largest = 0
            for shift in stride(from: 0, through: 24, by: 8) {
                let d = abs(Int((p >> UInt32(shift)) & 0xFF) - Int((q >> UInt32(shift)) & 0xFF))
                squares += Double(d * d)
                largest = max(largest, d)
            }
            if largest > 16 { over16 += 1 }
            maximum = max(maximum, largest)
        }
        let mse = squares / Double(a.pixels.count * 4)
        psnr = mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
        percentOver16 = 100 * Double(over16) / Double(a.pixels.count)
        self.maximum = maximum
    }
}
