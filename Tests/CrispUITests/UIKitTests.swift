import CrispGraphics
@_spi(Testing) import CrispUI
import Foundation
import Testing

/// A UIKit-style subclass, written as ported code would be.
private final class SwatchView: UIView {
    var color = UIColor.red

    override init(frame: CGRect) {
        super.init(frame: frame)
    }

    override func draw(_ rect: CGRect) {
        color.setFill()
        UIGraphicsGetCurrentContext()?.fill(bounds)
    }
}

/// The straight RGBA of a pixel (row 0 at the top) as one number `0xRRGGBBAA`.
private func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> UInt32 {
    let p = image.straightRGBA(x: x, y: y)
    return UInt32(p.r) << 24 | UInt32(p.g) << 16 | UInt32(p.b) << 8 | UInt32(p.a)
}

@Suite struct UIColorTests {
    @Test func namedColours() {
        #expect(UIColor.red.cgColor.components == [1, 0, 0, 1])
        #expect(UIColor.green.cgColor.components == [0, 1, 0, 1])
        #expect(UIColor.blue.cgColor.components == [0, 0, 1, 1])
        #expect(UIColor.gray.cgColor.components == [0.5, 1])
        #expect(UIColor.clear.cgColor.alpha == 0)
        #expect(UIColor.white == UIColor(white: 1, alpha: 1))
        #expect(UIColor.black.withAlphaComponent(0.25).cgColor.components == [0, 0.25])
    }

    @Test(arguments: [
        (0.0, 1.0, 1.0, [1.0, 0, 0]), (1.0 / 3, 1, 1, [0, 1, 0]), (2.0 / 3, 1, 1, [0, 0, 1]),
        (0.5, 1, 1, [0, 1, 1]), (1 / 6.0, 1, 1, [1, 1, 0]), (5 / 6.0, 1, 1, [1, 0, 1]),
        (1.0, 1, 1, [1, 0, 0]), (0.25, 0, 0.4, [0.4, 0.4, 0.4]), (0.0, 0.5, 0.8, [0.8, 0.4, 0.4]),
    ] as [(CGFloat, CGFloat, CGFloat, [CGFloat])])
    func hueSaturationBrightness(hue: CGFloat, saturation: CGFloat, brightness: CGFloat, rgb: [CGFloat]) {
        let c = UIColor(hue: hue, saturation: saturation, brightness: brightness, alpha: 0.5).cgColor.components!
        #expect(zip(c, rgb + [0.5]).allSatisfy { abs($0 - $1) < 1e-12 }, "\(c)")
    }

    @Test func setFillStrokeAndSetActOnTheCurrentContext() throws {
        UIGraphicsBeginImageContext(CGSize(width: 10, height: 10))
        defer { UIGraphicsEndImageContext() }
        let context = try #require(UIGraphicsGetCurrentContext())
        UIColor.blue.setFill()
        context.fill(CGRect(x: 0, y: 0, width: 10, height: 5))
        UIColor.green.setStroke()
        context.setLineWidth(2)
        context.stroke(CGRect(x: 1, y: 6, width: 8, height: 3))
        UIColor.red.set()
        context.fill(CGRect(x: 4, y: 7, width: 2, height: 1))
        let image = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        #expect(rgba(image, 5, 2) == 0x0000_FFFF)
        #expect(rgba(image, 1, 8) == 0x00FF_00FF)
        #expect(rgba(image, 5, 7) == 0xFF00_00FF)
    }
}

@Suite struct UIImageTests {
    /// A 4×2 px PNG: top row red, bottom row blue, in a fresh folder.
    static func writeImage(named name: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-uiimage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let red: UInt32 = 0xFFFF_0000, blue: UInt32 = 0xFF00_00FF
        let image = CGImage(width: 4, height: 2, pixels: [red, red, red, red, blue, blue, blue, blue])
        try image.writePNG(to: folder.appendingPathComponent(name).path)
        return folder
    }

    @Test func namedImagesAndTheirScale() throws {
        let folder = try Self.writeImage(named: "chip@2x.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try #require(UIImage(named: "chip", inDirectory: folder))
        #expect(image.scale == 2)
        #expect(image.size == CGSize(width: 2, height: 1))
        #expect(image.cgImage?.width == 4)
        #expect(UIImage(named: "chip@2x.png", inDirectory: folder)?.scale == 2)
        #expect(UIImage(named: "missing", inDirectory: folder) == nil)
        #expect(UIImage(named: "no-such-image-in-resources") == nil)
    }

    @Test func unreadableFilesGiveNil() throws {
        let folder = try Self.writeImage(named: "ok.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let broken = folder.appendingPathComponent("broken.png")
        try Data("not a png".utf8).write(to: broken)
        #expect(UIImage(contentsOfFile: broken.path) == nil)
        #expect(UIImage(contentsOfFile: folder.appendingPathComponent("absent.png").path) == nil)
        #expect(UIImage(contentsOfFile: folder.appendingPathComponent("ok.png").path)?.size == CGSize(width: 4, height: 2))
    }

    @Test func drawsUprightInAUIKitContext() throws {
        let folder = try Self.writeImage(named: "stripes.png")
        defer { try? FileManager.default.removeItem(at: folder) }
        let image = try #require(UIImage(named: "stripes", inDirectory: folder))
        UIGraphicsBeginImageContext(CGSize(width: 8, height: 8))
        defer { UIGraphicsEndImageContext() }
        image.draw(in: CGRect(x: 0, y: 0, width: 8, height: 4))
        image.draw(at: CGPoint(x: 2, y: 5))
        let result = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        #expect(rgba(result, 4, 0) == 0xFF00_00FF)    // red on top
        #expect(rgba(result, 4, 3) == 0x0000_FFFF)    // blue below
        #expect(rgba(result, 3, 5) == 0xFF00_00FF)
        #expect(rgba(result, 3, 6) == 0x0000_FFFF)
        #expect(rgba(result, 1, 5) == 0)               // draw(at:) uses the image's own size
        #expect(rgba(result, 6, 5) == 0)
    }
}

@Suite struct ImageContextTests {
    @Test func imageContextsNestAndAreFlipped() throws {
        #expect(UIGraphicsGetCurrentContext() == nil)
        UIGraphicsBeginImageContext(CGSize(width: 10, height: 10))
        let outer = try #require(UIGraphicsGetCurrentContext())
        UIColor.red.setFill()
        outer.fill(CGRect(x: 0, y: 0, width: 10, height: 3))   // the top three rows
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 4, height: 4), false, 2)
        let inner = try #require(UIGraphicsGetCurrentContext())
        #expect(inner !== outer && inner.width == 8)
        UIColor.blue.setFill()
        inner.fill(CGRect(x: 0, y: 0, width: 4, height: 1))
        let small = try #require(UIGraphicsGetImageFromCurrentImageContext())
        UIGraphicsEndImageContext()
        #expect(small.scale == 2 && small.size == CGSize(width: 4, height: 4))
        #expect(rgba(small.cgImage!, 0, 1) == 0x0000_FFFF && rgba(small.cgImage!, 0, 2) == 0)
        #expect(UIGraphicsGetCurrentContext() === outer)
        let big = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        #expect(rgba(big, 5, 2) == 0xFF00_00FF && rgba(big, 5, 3) == 0)
        UIGraphicsEndImageContext()
        #expect(UIGraphicsGetCurrentContext() == nil)
        #expect(UIGraphicsGetImageFromCurrentImageContext() == nil)
        UIGraphicsEndImageContext()   // unmatched: ignored
    }

    @Test func scaleZeroTakesTheCurrentContextsScale() throws {
        let window = makeWindow(width: 20, height: 20, scale: 2)
        final class Probe: View {
            var scale: CGFloat?
            override func draw(_ rect: CGRect) {
                UIGraphicsBeginImageContextWithOptions(CGSize(width: 3, height: 3), true, 0)
                scale = UIGraphicsGetImageFromCurrentImageContext()?.scale
                UIGraphicsEndImageContext()
            }
        }
        let probe = Probe(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(probe)
        try HeadlessHost(window: window).renderFrame()
        #expect(probe.scale == 2)
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 3, height: 3), false, 0)
        #expect(UIGraphicsGetImageFromCurrentImageContext()?.scale == 1)
        UIGraphicsEndImageContext()
    }

    @Test(arguments: [CGSize.zero, CGSize(width: -4, height: 4), CGSize(width: 1e9, height: 1), CGSize(width: CGFloat.nan, height: 2)])
    func absurdSizesMakeNoContext(size: CGSize) {
        UIGraphicsBeginImageContext(size)
        #expect(UIGraphicsGetCurrentContext() == nil)
        #expect(UIGraphicsGetImageFromCurrentImageContext() == nil)
        UIGraphicsEndImageContext()
        #expect(GraphicsContextStack.current.entries.isEmpty)
    }
}

@Suite struct BaseSpaceTests {
    /// A view's `draw(_:)` gets a UIKit context: a shadow with a positive height falls down the
    /// screen, and offsets are in points (6 px at scale 2 for 3 pt).
    @Test(arguments: [CGFloat(1), 2])
    func viewShadowsFallDown(scale: CGFloat) throws {
        final class Shadowed: View {
            override func draw(_ rect: CGRect) {
                let context = UIGraphicsGetCurrentContext()!
                context.setShadow(offset: CGSize(width: 0, height: 3), blur: 0, color: UIColor.red.cgColor)
                UIColor.white.setFill()
                context.fill(CGRect(x: 5, y: 5, width: 10, height: 10))
            }
        }
        let window = makeWindow(width: 20, height: 30, scale: scale)
        window.addSubview(Shadowed(frame: CGRect(x: 0, y: 0, width: 20, height: 30)))
        let image = try HeadlessHost(window: window).snapshot()
        let x = Int(10 * scale)
        #expect(rgba(image, x, Int(17 * scale)) == 0xFF00_00FF)          // below the square
        #expect(rgba(image, x, Int(18 * scale)) == 0x0000_00FF)          // shadow ends 3 pt below
        #expect(rgba(image, x, Int(4 * scale)) == 0x0000_00FF)           // nothing above
        #expect(rgba(image, x, Int(14 * scale)) == 0xFFFF_FFFF)
    }

    @Test func imageContextShadowsFallDownToo() throws {
        UIGraphicsBeginImageContextWithOptions(CGSize(width: 20, height: 20), false, 2)
        defer { UIGraphicsEndImageContext() }
        let context = try #require(UIGraphicsGetCurrentContext())
        context.setShadow(offset: CGSize(width: 0, height: 5), blur: 0, color: UIColor.black.cgColor)
        UIColor.white.setFill()
        context.fill(CGRect(x: 5, y: 2, width: 10, height: 10))
        let image = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        #expect(rgba(image, 20, 33) == 0x0000_00FF)   // 5 pt = 10 px below the bottom edge (24 px)
        #expect(rgba(image, 20, 34) == 0)
        #expect(rgba(image, 20, 3) == 0)
    }
}

@Suite struct LayerRenderTests {
    @Test func renderDrawsTheViewAndItsSubviewsInItsOwnCoordinates() throws {
        let container = View(frame: CGRect(x: 50, y: 50, width: 10, height: 10))
        container.backgroundColor = UIColor.white.cgColor
        let swatch = SwatchView(frame: CGRect(x: 2, y: 4, width: 3, height: 3))
        container.addSubview(swatch)
        UIGraphicsBeginImageContextWithOptions(container.bounds.size, false, 2)
        defer { UIGraphicsEndImageContext() }
        container.layer.render(in: UIGraphicsGetCurrentContext()!)
        let image = try #require(UIGraphicsGetImageFromCurrentImageContext()?.cgImage)
        #expect(image.width == 20)
        #expect(rgba(image, 0, 0) == 0xFFFF_FFFF)
        #expect(rgba(image, 4, 8) == 0xFF00_00FF && rgba(image, 9, 13) == 0xFF00_00FF)
        #expect(rgba(image, 3, 8) == 0xFFFF_FFFF && rgba(image, 10, 13) == 0xFFFF_FFFF)
    }

    /// A loupe renders its own superview from inside its `draw(_:)`: no recursion; the loupe
    /// itself shows as it last appeared on screen — nothing the first time.
    @Test func aViewMayRenderItsSuperviewWhileDrawing() throws {
        final class Loupe: View {
            var captures: [CGImage] = []
            override func draw(_ rect: CGRect) {
                guard let superview else { return }
                UIGraphicsBeginImageContext(superview.bounds.size)
                superview.layer.render(in: UIGraphicsGetCurrentContext()!)
                captures.append(UIGraphicsGetImageFromCurrentImageContext()!.cgImage!)
                UIGraphicsEndImageContext()
                UIColor.blue.setFill()
                UIGraphicsGetCurrentContext()?.fill(bounds)
            }
        }
        let window = makeWindow(width: 40, height: 40)
        let container = View(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        container.backgroundColor = UIColor.white.cgColor
        container.addSubview(SwatchView(frame: CGRect(x: 0, y: 0, width: 5, height: 5)))
        let loupe = Loupe(frame: CGRect(x: 10, y: 10, width: 5, height: 5))
        container.addSubview(loupe)
        window.addSubview(container)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        #expect(loupe.captures.count == 1)
        let first = loupe.captures[0]
        #expect(rgba(first, 2, 2) == 0xFF00_00FF)   // the sibling
        #expect(rgba(first, 12, 12) == 0xFFFF_FFFF) // the loupe: nothing yet
        loupe.setNeedsDisplay()
        try host.renderFrame()
        #expect(loupe.captures.count == 2)
        #expect(rgba(loupe.captures[1], 12, 12) == 0x0000_FFFF)  // as it appeared last frame
        #expect(rgba(loupe.captures[1], 15, 15) == 0xFFFF_FFFF)
    }
}
