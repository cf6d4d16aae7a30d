import CrispGraphics
import Foundation
import FuzzSupport

// The drawing API: bytes become a sequence of CGContext calls — paths with extreme coordinates,
// transforms, clips, dashes, gradients, shadows, images, masks, transparency layers, blend modes,
// text — on a small context of a layout chosen by the first byte.

/// The bitmap layouts a CGContext may be asked for (unsupported ones return nil: also tested).
let layouts: [(bitsPerComponent: Int, bytesPerPixel: Int, space: CGColorSpace, info: UInt32)] = [
    (8, 4, CGColorSpaceCreateDeviceRGB(), CGBitmapInfo.crispNative.rawValue),
    (8, 4, CGColorSpaceCreateDeviceRGB(), CGImageAlphaInfo.premultipliedLast.rawValue),
    (8, 4, CGColorSpaceCreateDeviceRGB(), CGImageAlphaInfo.premultipliedFirst.rawValue),
    (8, 4, CGColorSpaceCreateDeviceRGB(), CGImageAlphaInfo.noneSkipLast.rawValue),
    (8, 4, CGColorSpaceCreateDeviceRGB(), CGImageAlphaInfo.noneSkipFirst.rawValue),
    (8, 1, CGColorSpaceCreateDeviceGray(), CGImageAlphaInfo.none.rawValue),
    (8, 1, CGColorSpaceCreateDeviceGray(), CGImageAlphaInfo.alphaOnly.rawValue),
]


/// `FUZZ_TRACE=1`: print each step (to turn a finding into a regression test).
let tracing = ProcessInfo.processInfo.environment["FUZZ_TRACE"] == "1"

@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    var r = FuzzReader(bytes)
    let layout = layouts[r.below(layouts.count)]
    let width = 1 + r.below(40), height = 1 + r.below(40)
    let bytesPerRow = width * layout.bytesPerPixel + r.below(7)
    guard let context = CGContext(data: nil, width: width, height: height, bitsPerComponent: layout.bitsPerComponent,
                                  bytesPerRow: bytesPerRow, space: layout.space, bitmapInfo: layout.info) else { return 0 }
    var depth = 0
    func point(_ r: inout FuzzReader) -> CGPoint { CGPoint(x: r.coordinate(), y: r.coordinate()) }
    func rect(_ r: inout FuzzReader) -> CGRect {
        CGRect(x: r.coordinate(), y: r.coordinate(), width: r.coordinate(), height: r.coordinate())
    }
    func color(_ r: inout FuzzReader) -> CGColor {
        CGColor(red: CGFloat(r.byte()) / 255, green: CGFloat(r.byte()) / 255, blue: CGFloat(r.byte()) / 255,
                alpha: CGFloat(r.byte()) / 255)
    }
    var steps = 0, strokedReplacements = 0
    while !r.isAtEnd, steps < 64 {
        steps += 1
        let operation = r.below(30)
        if tracing { print("step \(steps): operation \(operation), path \(context.path.map { String(describing: $0) } ?? "none")") }
        switch operation {
        case 0: context.move(to: point(&r))
        case 1: context.addLine(to: point(&r))
        case 2: context.addCurve(to: point(&r), control1: point(&r), control2: point(&r))
        case 3: context.addQuadCurve(to: point(&r), control: point(&r))
        case 4: context.addArc(center: point(&r), radius: r.coordinate(), startAngle: r.coordinate(),
                               endAngle: r.coordinate(), clockwise: r.byte() & 1 == 0)
        case 5: context.addArc(tangent1End: point(&r), tangent2End: point(&r), radius: r.coordinate())
        case 6: context.addRect(rect(&r)); context.addEllipse(in: rect(&r))
        case 7: context.closePath()
        case 8: context.fillPath(using: r.byte() & 1 == 0 ? .winding : .evenOdd)
        case 9: context.strokePath()
        case 10: context.setLineWidth(r.coordinate()); context.setMiterLimit(r.coordinate())
        case 11:
            context.setLineJoin([.miter, .round, .bevel][r.below(3)])
            context.setLineCap([.butt, .round, .square][r.below(3)])
        case 12:
            var lengths: [CGFloat] = []
            for _ in 0..<r.below(5) { lengths.append(r.coordinate()) }
            context.setLineDash(phase: r.coordinate(), lengths: lengths)
        case 13: context.concatenate(CGAffineTransform(a: r.coordinate() / 16, b: r.coordinate() / 16, c: r.coordinate() / 16,
                                                      d: r.coordinate() / 16, tx: r.coordinate(), ty: r.coordinate()))
        case 14: context.rotate(by: r.coordinate())
        case 15: context.clip(to: rect(&r))
        case 16: if !context.isPathEmpty { context.clip(using: r.byte() & 1 == 0 ? .winding : .evenOdd) }
        case 17: context.saveGState(); depth += 1
        case 18: if depth > 0 { context.restoreGState(); depth -= 1 }
        case 19: context.setFillColor(color(&r)); context.setStrokeColor(color(&r))
        case 20: context.setBlendMode(CGBlendMode.allCases[r.below(CGBlendMode.allCases.count)]); context.setAlpha(CGFloat(r.byte()) / 255)
        case 21:
            // A blur's cost is bounded by the clip grown by its reach (up to 1443 px each side
            // at the 1024 px maximum): ~8 M pixels per shadowed draw, a few milliseconds in a
            // release build but seconds under the harness's coverage instrumentation, which would
            // make libFuzzer report timeouts instead of exploring. Larger blurs are drawn at 96.
            let offset = CGSize(width: r.coordinate(), height: r.coordinate())
            var blur = r.coordinate()
            if abs(blur) > 96 { blur = blur < 0 ? -96 : 96 }
            context.setShadow(offset: offset, blur: blur, color: color(&r))
        case 22:
            let colors = [color(&r), color(&r), color(&r)]
            var locations: [CGFloat] = [r.coordinate() / 64, r.coordinate() / 64, r.coordinate() / 64]
            if let gradient = CGGradient(colorsSpace: CGColorSpaceCreateDeviceRGB(), colors: colors, locations: &locations) {
                let options = CGGradientDrawingOptions(rawValue: UInt32(r.below(4)))
                if r.byte() & 1 == 0 {
                    context.drawLinearGradient(gradient, start: point(&r), end: point(&r), options: options)
                } else {
                    context.drawRadialGradient(gradient, startCenter: point(&r), startRadius: r.coordinate(),
                                               endCenter: point(&r), endRadius: r.coordinate(), options: options)
                }
            }
        case 23:
            let w = 1 + r.below(8), h = 1 + r.below(8)
            var pixels: [UInt32] = []
            for _ in 0..<(w * h) { pixels.append(UInt32(r.byte()) &* 0x0101_0101) }
            let image = CGImage(width: w, height: h, pixels: pixels)
            if r.byte() & 1 == 0 { context.draw(image, in: rect(&r)) } else { context.draw(image, in: rect(&r), byTiling: true) }
        case 24:
            let w = 1 + r.below(8), h = 1 + r.below(8)
            var alphas: [UInt32] = []
            for _ in 0..<(w * h) { alphas.append(UInt32(r.byte()) << 24) }
            let mask = CGImage(width: w, height: h, pixels: alphas)
            context.clip(to: rect(&r), mask: mask)
        case 25: if depth < 8 { context.beginTransparencyLayer(in: rect(&r), auxiliaryInfo: nil); depth += 1 }
        case 26: context.endTransparencyLayer()
        case 27:
            // CTFont's size must be finite and not negative (a documented precondition).
            let size = abs(r.coordinate())
            if size.isFinite, let font = try? CTFont.uiFont(.system, size: size) { CTLine(string: "Ag", font: font).draw(in: context) }
        case 28: context.fill(rect(&r)); context.stroke(rect(&r)); context.clear(rect(&r))
        default:
            // Each replacement at least doubles the path (two sides plus joins), so a run of them
            // grows it exponentially — as in CoreGraphics; two per input explore the stroker.
            if strokedReplacements < 2 { context.replacePathWithStrokedPath(); strokedReplacements += 1 }
        }
    }
    _ = context.makeImage()
    return 0
}
