import CrispGraphics
import CrispTestSupport
import CrispUI
import Foundation
import Testing

/// The loupe essay's `MagnifierView.drawRect:`, translated to Swift syntax and nothing else:
/// render the referenced view into an image context, make a mask from a grey PNG's own
/// properties and data provider, crop the 36×36 square around the touch, mask it, flip, draw
/// it and the frame PNG above the touch.
final class MagnifierView: UIView {
    var viewref: UIView?
    var touchPoint = CGPoint.zero
    var cachedImage: UIImage?
    /// Where the essay's `loopmask.png` and `loop.png` are (`UIImage(named:)` reads the bundle).
    var maskPath = ""
    var loopPath = ""

    override func draw(_ rect: CGRect) {
        if cachedImage == nil {
            UIGraphicsBeginImageContext(self.bounds.size)
            self.viewref!.layer.render(in: UIGraphicsGetCurrentContext()!)
            cachedImage = UIGraphicsGetImageFromCurrentImageContext()
            UIGraphicsEndImageContext()
        }

        let imageRef = cachedImage!.cgImage!
        let maskRef = UIImage(contentsOfFile: maskPath)!.cgImage!
        let overlay = UIImage(contentsOfFile: loopPath)!.cgImage!
        let mask = CGImage(maskWidth: maskRef.width,
                           height: maskRef.height,
                           bitsPerComponent: maskRef.bitsPerComponent,
                           bitsPerPixel: maskRef.bitsPerPixel,
                           bytesPerRow: maskRef.bytesPerRow,
                           provider: maskRef.dataProvider!,
                           decode: nil,
                           shouldInterpolate: true)!
        // Create Mask
        let subImage = imageRef.cropping(to: CGRect(x: touchPoint.x - 18, y: touchPoint.y - 18, width: 36, height: 36))!
        let xMaskedImage = subImage.masking(mask)!

        let context = UIGraphicsGetCurrentContext()!
        let xform = CGAffineTransform(a: 1.0, b: 0.0,
                                      c: 0.0, d: -1.0,
                                      tx: 0.0, ty: 0.0)
        context.concatenate(xform)
        let area = CGRect(x: touchPoint.x - 42, y: -touchPoint.y, width: 85, height: 85)
        let area2 = CGRect(x: touchPoint.x - 40, y: -touchPoint.y + 2, width: 80, height: 80)
        context.draw(xMaskedImage, in: area2)
        context.draw(overlay, in: area)
    }
}

/// Left half red, right half blue, a 4-point green stripe between: what the essay's loupe magnifies.
final class TwoColourView: UIView {
    override func draw(_ rect: CGRect) {
        let ctx = UIGraphicsGetCurrentContext()!
        ctx.setFillColor(UIColor.red.cgColor)
        ctx.fill(CGRect(x: 0, y: 0, width: bounds.midX, height: bounds.height))
        ctx.setFillColor(UIColor.blue.cgColor)
        ctx.fill(CGRect(x: bounds.midX, y: 0, width: bounds.midX, height: bounds.height))
        ctx.setFillColor(UIColor.green.cgColor)
        ctx.fill(CGRect(x: bounds.midX - 2, y: 0, width: 4, height: bounds.height))
    }
}

@Suite struct MagnifierEssayTests {
    /// Writes the essay's two PNGs: `loopmask.png`, an 80×80 grey image, black (paint) inside an
    /// anti-aliased circle and white (mask out) around it; `loop.png`, an 85×85 RGBA ring.
    static func writeAssets(in directory: URL) throws -> (mask: String, loop: String) {
        let space = CGColorSpaceCreateDeviceGray()
        let maskContext = try #require(CGContext(data: nil, width: 80, height: 80, bitsPerComponent: 8, bytesPerRow: 80,
                                                 space: space, bitmapInfo: CGImageAlphaInfo.none.rawValue))
        maskContext.setFillColor(gray: 1, alpha: 1)
        maskContext.fill(CGRect(x: 0, y: 0, width: 80, height: 80))
        maskContext.setFillColor(gray: 0, alpha: 1)
        maskContext.fillEllipse(in: CGRect(x: 1, y: 1, width: 78, height: 78))
        let maskPath = directory.appendingPathComponent("loopmask.png").path
        try maskContext.makeImage()!.writePNG(to: maskPath)

        let loopContext = try #require(CGContext(width: 85, height: 85))
        loopContext.setStrokeColor(red: 0.3, green: 0.3, blue: 0.35, alpha: 1)
        loopContext.setLineWidth(4)
        loopContext.strokeEllipse(in: CGRect(x: 3.5, y: 3.5, width: 78, height: 78))
        let loopPath = directory.appendingPathComponent("loop.png").path
        try loopContext.makeImage()!.writePNG(to: loopPath)
        return (maskPath, loopPath)
    }

    @Test func aGreyPNGDecodesToAnEightBitGreyImageWithItsBytes() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-essay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (maskPath, loopPath) = try Self.writeAssets(in: dir)
        let mask = try #require(UIImage(contentsOfFile: maskPath)?.cgImage)
        #expect(mask.bitsPerPixel == 8 && mask.bitsPerComponent == 8 && mask.bytesPerRow == 80)
        #expect(mask.colorSpace?.model == .monochrome)
        #expect(mask.alphaInfo == .none)
        let bytes = try #require(mask.dataProvider?.data)
        #expect(bytes.count == 80 * 80)
        #expect(bytes[0] == 255 && bytes[40 * 80 + 40] == 0, "white around, black inside")
        #expect(bytes.contains { $0 > 0 && $0 < 255 }, "an anti-aliased edge")
        let loop = try #require(UIImage(contentsOfFile: loopPath)?.cgImage)
        #expect(loop.bitsPerPixel == 32 || loop.bitsPerPixel == 16, "a ring with alpha: RGBA or grey + alpha")
        #expect(loop.alphaInfo == .last)
    }

    @Test func theEssaysDrawRectDrawsTheLoupeAboveTheTouch() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-essay-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let (maskPath, loopPath) = try Self.writeAssets(in: dir)

        let device = Device(identifier: "essay", name: "Essay", pointSize: CGSize(width: 200, height: 200), scale: 1)
        let window = Window(screen: Screen(device: device))
        let content = TwoColourView()
        window.rootView = content
        window.layoutIfNeeded()
        // The essay's touchesBegan: a magnifier the size of the view, over it.
        let loop = MagnifierView(frame: content.bounds)
        loop.viewref = content
        loop.maskPath = maskPath
        loop.loopPath = loopPath
        content.addSubview(loop)
        loop.touchPoint = CGPoint(x: content.bounds.midX, y: 150)
        loop.setNeedsDisplay()
        let host = try HeadlessHost(window: window)
        let image = try host.snapshot()
        if let path = ProcessInfo.processInfo.environment["CRISP_ESSAY_PNG"] { try image.writePNG(to: path) }

        let t = loop.convert(loop.touchPoint, to: nil)
        let centreY = Int(t.y) - 42
        func px(_ x: CGFloat, _ y: Int) -> UInt32 { image.pixel(x: Int(x), y: y) }
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF, green: UInt32 = 0xFF00_FF00
        // Magnified 80/36 times: the stripe is 2.2 times wider in the disc than below it.
        #expect(px(t.x + 2, centreY) == green && px(t.x - 3, centreY) == green)
        #expect(px(t.x + 2, Int(t.y) + 10) == blue && px(t.x - 3, Int(t.y) + 10) == red)
        // Inside the disc: the 36-point square magnified 80/36 times, red left, blue right, upright.
        #expect(px(t.x - 20, centreY) == red)
        #expect(px(t.x + 20, centreY) == blue)
        #expect(px(t.x - 20, centreY - 20) == red && px(t.x + 20, centreY + 20) == blue)
        // The frame ring is drawn around it (grey, not red or blue).
        let ring = px(t.x, Int(t.y) - 83)
        #expect(ring != red && ring != blue && ring >> 24 == 0xFF, "\(String(ring, radix: 16))")
        // Outside the disc, in the corners of its square, the content shows through unmagnified.
        #expect(px(t.x - 38, Int(t.y) - 80) == red && px(t.x + 38, Int(t.y) - 80) == blue)
        // Below the touch point nothing changed.
        #expect(px(t.x - 20, Int(t.y) + 10) == red && px(t.x + 20, Int(t.y) + 10) == blue)
    }
}
