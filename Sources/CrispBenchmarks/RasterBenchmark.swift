import CrispGraphics
import Foundation

// Fixed-seed scenes in the style of Blend2D's bl_bench: many shapes of one size S at random
// positions on a 512×600 canvas, random colours with random alpha, source-over. A test's figure
// is shapes per millisecond; "Mpx/s" multiplies that by the nominal S×S area of a shape.

/// The rasterizer benchmark behind `crisp bench`.
public struct RasterBenchmark {
    /// One kind of shape.
    public enum Test: String, CaseIterable, Sendable {
        case fillRectAligned = "FillRectA"
        case fillRectUnaligned = "FillRectU"
        case fillRectRotated = "FillRectRot"
        case fillRoundUnaligned = "FillRoundU"
        case fillPolyNonZero10 = "FillPolyNZi10"
        case fillPolyEvenOdd10 = "FillPolyEOi10"
        case fillPolyNonZero40 = "FillPolyNZi40"
        case fillPolyEvenOdd40 = "FillPolyEOi40"
        case strokeRectUnaligned = "StrokeRectU"
        case strokeRoundUnaligned = "StrokeRoundU"
        case strokePoly10 = "StrokePolyi10"
    }

    public static let canvasWidth = 512
    public static let canvasHeight = 600
    public static let defaultSizes = [8, 16, 32, 64, 128, 256]

    public var tests: [Test]
    public var sizes: [Int]
    /// Shapes drawn per timed run.
    public var shapesPerRun: Int
    /// Minimum seconds spent timing each cell of the table.
    public var minimumSeconds: Double

    public init(tests: [Test] = Test.allCases, sizes: [Int] = defaultSizes, shapesPerRun: Int = 200,
                minimumSeconds: Double = 0.25) {
        self.tests = tests
        self.sizes = sizes
        self.shapesPerRun = shapesPerRun
        self.minimumSeconds = minimumSeconds
    }

    /// One measured cell.
    public struct Result: Sendable {
        public var test: Test
        public var size: Int
        /// Shapes per millisecond (median run).
        public var operationsPerMillisecond: Double
        /// Nominal megapixels per second (S² per shape).
        public var megapixelsPerSecond: Double { operationsPerMillisecond * Double(size * size) / 1000 }
    }

    /// Measures every test at every size.
    public func run(progress: (Result) -> Void = { _ in }) -> [Result] {
        var results: [Result] = []
        for test in tests {
            for size in sizes {
                let r = measure(test, size: size)
                progress(r)
                results.append(r)
            }
        }
        return results
    }

    /// Measures one test at one size, on a canvas in `layout`.
    public func measure(_ test: Test, size: Int, layout: BenchmarkLayout = .native) -> Result {
        let ctx = layout.makeContext(width: Self.canvasWidth, height: Self.canvasHeight)
        let shapes = Self.makeShapes(test, size: size, count: shapesPerRun)
        let seconds = Stopwatch.median(minimumSeconds: minimumSeconds) {
            for s in shapes { Self.draw(s, test: test, in: ctx) }
        }
        return Result(test: test, size: size, operationsPerMillisecond: Double(shapesPerRun) / (seconds * 1000))
    }

    struct Shape {
        var rect: CGRect
        var angle: CGFloat
        var points: [CGPoint]
        var color: CGColor
    }

    static func makeShapes(_ test: Test, size: Int, count: Int) -> [Shape] {
        var rng = SplitMix64(seed: 0x5EED_0000 &+ UInt64(size))
        let s = CGFloat(size)
        let w = CGFloat(canvasWidth) - s, h = CGFloat(canvasHeight) - s
        let aligned = test == .fillRectAligned
        let vertexCount = [.fillPolyNonZero40, .fillPolyEvenOdd40].contains(test) ? 40 : 10
        let needsPoints = [.fillPolyNonZero10, .fillPolyEvenOdd10, .fillPolyNonZero40, .fillPolyEvenOdd40, .strokePoly10].contains(test)
        return (0..<count).map { _ in
            var x = rng.nextUnit() * w, y = rng.nextUnit() * h
            if aligned { x = x.rounded(.down); y = y.rounded(.down) }
            let rect = CGRect(x: x, y: y, width: s, height: s)
            let points = needsPoints ? (0..<vertexCount).map { _ in CGPoint(x: x + rng.nextUnit() * s, y: y + rng.nextUnit() * s) } : []
            let color = CGColor(red: rng.nextUnit(), green: rng.nextUnit(), blue: rng.nextUnit(), alpha: 0.2 + 0.8 * rng.nextUnit())
            return Shape(rect: rect, angle: rng.nextUnit() * .pi, points: points, color: color)
        }
    }

    static func draw(_ s: Shape, test: Test, in ctx: CGContext) {
        switch test {
        case .fillRectAligned, .fillRectUnaligned:
            ctx.setFillColor(s.color)
            ctx.fill(s.rect)
        case .fillRectRotated:
            ctx.setFillColor(s.color)
            ctx.saveGState()
            ctx.translateBy(x: s.rect.midX, y: s.rect.midY)
            ctx.rotate(by: s.angle)
            ctx.fill(CGRect(x: -s.rect.width / 2, y: -s.rect.height / 2, width: s.rect.width, height: s.rect.height))
            ctx.restoreGState()
        case .fillRoundUnaligned:
            ctx.setFillColor(s.color)
            ctx.addPath(CGPath(roundedRect: s.rect, cornerWidth: s.rect.width / 4, cornerHeight: s.rect.width / 4))
            ctx.fillPath()
        case .fillPolyNonZero10, .fillPolyNonZero40, .fillPolyEvenOdd10, .fillPolyEvenOdd40:
            ctx.setFillColor(s.color)
            ctx.addLines(between: s.points)
            ctx.closePath()
            ctx.fillPath(using: test == .fillPolyEvenOdd10 || test == .fillPolyEvenOdd40 ? .evenOdd : .winding)
        case .strokeRectUnaligned:
            ctx.setStrokeColor(s.color)
            ctx.setLineWidth(2)
            ctx.stroke(s.rect)
        case .strokeRoundUnaligned:
            ctx.setStrokeColor(s.color)
            ctx.setLineWidth(2)
            ctx.addPath(CGPath(roundedRect: s.rect, cornerWidth: s.rect.width / 4, cornerHeight: s.rect.width / 4))
            ctx.strokePath()
        case .strokePoly10:
            ctx.setStrokeColor(s.color)
            ctx.setLineWidth(2)
            ctx.addLines(between: s.points)
            ctx.closePath()
            ctx.strokePath()
        }
    }

    /// Full-canvas opaque fill throughput next to a plain store loop over the same buffer.
    public struct FillRate: Sendable {
        /// Gigapixels per second for `fill(_ rect:)` of the whole canvas with an opaque colour.
        public var opaqueFill: Double
        /// Gigapixels per second for storing one value into every pixel of the same buffer
        /// (memset-class; the upper bound).
        public var memset: Double
        public var ratio: Double { opaqueFill / memset }
    }

    /// Measures the fill rate on a `width`×`height` canvas (in `layout`; the memset baseline
    /// stores as many bytes).
    public func measureFillRate(width: Int = 1536, height: Int = 2048, layout: BenchmarkLayout = .native) -> FillRate {
        let ctx = layout.makeContext(width: width, height: height)
        let pixels = Double(width * height)
        ctx.setFillColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 1)
        let fill = Stopwatch.median(minimumSeconds: minimumSeconds * 2) {
            ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        }
        let base = ctx.data!.assumingMemoryBound(to: UInt32.self)
        let count = width * height * layout.bytesPerPixel / 4
        var value: UInt32 = 0xFF11_2233
        let store = Stopwatch.median(minimumSeconds: minimumSeconds * 2) {
            memset_pattern(base, value, count)
            value &+= 1
        }
        return FillRate(opaqueFill: pixels / fill / 1e9, memset: pixels / store / 1e9)
    }
}

/// Stores `value` into `count` pixels: the memset-class baseline.
@inline(never)
func memset_pattern(_ base: UnsafeMutablePointer<UInt32>, _ value: UInt32, _ count: Int) {
    base.update(repeating: value, count: count)
}
