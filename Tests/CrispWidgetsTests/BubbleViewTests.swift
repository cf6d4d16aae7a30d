import CrispGraphics
import CrispTestSupport
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The essay's embossed bubble (ported `drawRect:`, Core Animation drop shadow): how it looks
/// at several sizes and values, and where its light comes from. Replaces the reconstruction of
/// the embossed circle that `PaintGoldenTests` used to draw with other offsets and insets.
@Suite struct BubbleViewTests {
    /// Bubbles of `values` side by side, `size` points each with room for the drop shadow, on
    /// the light grey of the essay's screenshots.
    func canvas(size: CGFloat, values: [CGFloat], scale: CGFloat) throws -> ControlCanvas {
        let inset: CGFloat = 8
        let views: [(View, CGRect)] = values.enumerated().map { i, v in
            (BubbleView(percentValue: v), CGRect(x: inset + CGFloat(i) * (size + inset), y: inset, width: size, height: size))
        }
        let canvas = try ControlCanvas(size: CGSize(width: CGFloat(values.count) * (size + inset) + inset, height: size + 2 * inset),
                                       scale: scale, views: views)
        canvas.window.backgroundColor = CGColor(gray: 0.94, alpha: 1)
        return canvas
    }

    static let cases: [(CGFloat, CGFloat)] = [(24, 1), (40, 2), (64, 1), (64, 2), (100, 2)]

    /// Red (0), orange (0.25), yellow (0.5), yellow-green (0.75) and green (1) at each size.
    @Test(arguments: cases)
    func golden(size: CGFloat, scale: CGFloat) throws {
        let c = try canvas(size: size, values: [0, 0.25, 0.5, 0.75, 1], scale: scale)
        Golden.check(try c.snapshot(), "bubble", "\(Int(size))pt-\(Int(scale))x")
    }

    /// Light from the top left: the rim is brighter at the top left (the shine) than at the
    /// bottom right (the inner shadow), and the drop shadow falls below and to the right.
    @Test(arguments: [CGFloat(1), 2])
    func lightComesFromTheTopLeft(scale: CGFloat) throws {
        let size: CGFloat = 80
        let c = try canvas(size: size, values: [0.5], scale: scale)
        let image = try c.snapshot()
        func luminance(_ x: CGFloat, _ y: CGFloat) -> Int {
            let p = image.pixels[Int(y * scale) * image.width + Int(x * scale)]
            return Int((p >> 16) & 0xFF) + Int((p >> 8) & 0xFF) + Int(p & 0xFF)
        }
        // Points on the rim band (4 points inside the circle) at 135° and 315°.
        let centre = 8 + size / 2, r = size / 2 - 1 - 4, d = r / 2.squareRoot()
        let topLeft = luminance(centre - d, centre - d), bottomRight = luminance(centre + d, centre + d)
        #expect(topLeft > bottomRight + 60, "top-left rim \(topLeft), bottom-right rim \(bottomRight)")
        // Just outside the circle: darker below-right (drop shadow) than above-left.
        let out = size / 2 + 2, o = out / 2.squareRoot()
        let shadowSide = luminance(centre + o, centre + o), litSide = luminance(centre - o, centre - o)
        #expect(shadowSide + 30 < litSide, "below-right \(shadowSide), above-left \(litSide)")
    }

    /// The hue follows the value: red at 0, green at 1.
    @Test func hueRunsFromRedToGreen() throws {
        let c = try canvas(size: 40, values: [0, 1], scale: 1)
        let image = try c.snapshot()
        func rgb(_ x: Int, _ y: Int) -> (Int, Int, Int) {
            let p = image.pixels[y * image.width + x]
            return (Int((p >> 16) & 0xFF), Int((p >> 8) & 0xFF), Int(p & 0xFF))
        }
        let red = rgb(8 + 20, 8 + 20), green = rgb(8 + 48 + 20, 8 + 20)
        #expect(red.0 > 2 * red.1 && red.0 > 2 * red.2, "\(red)")
        #expect(green.1 > 2 * green.0 && green.1 > 2 * green.2, "\(green)")
    }

    /// A tap outside the circle (in the bounds' corner) does not hit the bubble.
    @Test func hitsOnlyTheCircle() {
        let b = BubbleView(frame: CGRect(x: 0, y: 0, width: 40, height: 40))
        #expect(b.point(inside: CGPoint(x: 20, y: 20)))
        #expect(!b.point(inside: CGPoint(x: 2, y: 2)))
    }
}
