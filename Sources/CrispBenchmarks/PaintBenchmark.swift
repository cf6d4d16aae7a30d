import CrispGraphics
import Foundation

/// The paint benchmark behind `crisp bench paint`: gradients, shadows and image drawing.
public struct PaintBenchmark {
    public var minimumSeconds: Double

    public init(minimumSeconds: Double = 0.25) { self.minimumSeconds = minimumSeconds }

    /// One measured figure.
    public struct Result: Sendable {
        public var name: String
        public var value: Double
        public var unit: String
    }

    public func run() -> [Result] {
        var results: [Result] = []
        let size = 512
        let ctx = CGContext(width: size, height: size)!
        let gradient = CGGradient(colorsSpace: nil, colors: [CGColor(red: 0.9, green: 0.2, blue: 0.1, alpha: 1),
                                                             CGColor(red: 1, green: 0.85, blue: 0.2, alpha: 0.8),
                                                             CGColor(red: 0.1, green: 0.3, blue: 0.9, alpha: 1)],
                                  locations: [0, 0.4, 1])!
        let pixels = Double(size * size)
        let both: CGGradientDrawingOptions = [.drawsBeforeStartLocation, .drawsAfterEndLocation]
        let linear = Stopwatch.median(minimumSeconds: minimumSeconds) {
            ctx.drawLinearGradient(gradient, start: CGPoint(x: 40, y: 30), end: CGPoint(x: 470, y: 490), options: both)
        }
        results.append(Result(name: "linear gradient, 512×512", value: pixels / linear / 1e6, unit: "Mpx/s"))
        let radial = Stopwatch.median(minimumSeconds: minimumSeconds) {
            ctx.drawRadialGradient(gradient, startCenter: CGPoint(x: 200, y: 220), startRadius: 10,
                                   endCenter: CGPoint(x: 256, y: 256), endRadius: 250, options: both)
        }
        results.append(Result(name: "radial gradient, 512×512", value: pixels / radial / 1e6, unit: "Mpx/s"))

        for blur in [2.0, 8.0, 32.0] {
            let circles = 50
            let seconds = Stopwatch.median(minimumSeconds: minimumSeconds) {
                ctx.saveGState()
                ctx.setShadow(offset: CGSize(width: 3, height: -3), blur: blur)
                ctx.setFillColor(red: 0.2, green: 0.5, blue: 0.8, alpha: 1)
                for i in 0..<circles {
                    let x = CGFloat((i * 97) % 400) + 20, y = CGFloat((i * 61) % 400) + 20
                    ctx.fillEllipse(in: CGRect(x: x, y: y, width: 64, height: 64))
                }
                ctx.restoreGState()
            }
            results.append(Result(name: "shadowed 64 px circle, blur \(Int(blur))", value: Double(circles) / (seconds * 1000),
                                  unit: "ops/ms"))
        }

        // A 256×256 image with detail, drawn bilinearly at three scales.
        var px = [UInt32](repeating: 0, count: 256 * 256)
        for y in 0..<256 { for x in 0..<256 { px[y * 256 + x] = 0xFF00_0000 | UInt32(x) << 16 | UInt32(y) << 8 | UInt32((x ^ y) & 0xFF) } }
        let image = CGImage(width: 256, height: 256, pixels: px)
        ctx.interpolationQuality = .low
        for scale in [0.5, 1.0, 2.0] {
            let side = 256 * scale
            let seconds = Stopwatch.median(minimumSeconds: minimumSeconds) {
                ctx.draw(image, in: CGRect(x: 0.5, y: 0.5, width: side, height: side))
            }
            results.append(Result(name: "bilinear image at \(scale)×", value: side * side / seconds / 1e6, unit: "Mpx/s"))
        }
        return results
    }
}
