import CrispGraphics
import CrispSVG
import Foundation
import Testing

// `<image>`: PNG, JPEG, GIF, WebP and SVG from data: URIs and files beside the document,
// placement and aspect ratio, image-rendering; broken images are warnings, and so are remote ones (never downloaded).

@Suite("SVG images")
struct SVGImageTests {
    /// A 2 × 1 PNG: red, then blue.
    static let png: String = {
        let image = CGImage(width: 2, height: 1, pixels: [0xFFFF_0000, 0xFF00_00FF])
        return "data:image/png;base64," + Data(try! image.pngData()).base64EncodedString()
    }()

    func svg(_ body: String) -> String {
        ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20">\##(body)</svg>"##
    }

    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [Int] {
        let p = image.straightRGBA(x: x, y: y)
        return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
    }

    @Test func dataURIPlacedUprightAtItsOwnSize() throws {
        let doc = try SVGDocument(string: svg(##"<image x="3" y="5" href="\##(Self.png)"/>"##))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(rgba(image, 3, 5) == [255, 0, 0, 255])
        #expect(rgba(image, 4, 5) == [0, 0, 255, 255])
        #expect(rgba(image, 3, 6)[3] == 0)
    }

    @Test func preserveAspectRatioMeetsOrSlices() throws {
        // 2 × 1 into 20 × 20: meet gives a 20 × 10 image in the middle. 2 × 1 into 10 × 10 with
        // slice: a 20 × 10 image, cut to the viewport (without the cut, blue would show at x 15).
        let meet = try #require(try SVGDocument(string: svg(##"<image width="20" height="20" href="\##(Self.png)"/>"##)).makeImage())
        #expect(rgba(meet, 10, 2)[3] == 0)
        #expect(rgba(meet, 2, 10) == [255, 0, 0, 255])
        let slice = try #require(try SVGDocument(string: svg(##"<image width="10" height="10" preserveAspectRatio="xMinYMin slice" href="\##(Self.png)"/>"##)).makeImage())
        #expect(rgba(slice, 2, 5) == [255, 0, 0, 255])
        #expect(rgba(slice, 15, 5)[3] == 0)
        let none = try #require(try SVGDocument(string: svg(##"<image width="20" height="20" preserveAspectRatio="none" href="\##(Self.png)"/>"##)).makeImage())
        #expect(rgba(none, 2, 2) == [255, 0, 0, 255])
        #expect(rgba(none, 17, 17) == [0, 0, 255, 255])
    }

    @Test func filesBesideTheDocument() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-svg-image-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try CGImage(width: 2, height: 1, pixels: [0xFFFF_0000, 0xFF00_00FF]).writePNG(to: directory.appendingPathComponent("dot.png").path)
        let file = directory.appendingPathComponent("doc.svg").path
        try Data(svg(##"<image href="dot.png"/><image y="5" href="gone.png"/>"##).utf8).write(to: URL(fileURLWithPath: file))
        let doc = try SVGDocument(contentsOfFile: file)
        #expect(rgba(try #require(doc.makeImage()), 1, 0) == [0, 0, 255, 255])
        #expect(doc.warnings.map(\.message) == ["cannot read \(directory.path)/gone.png: cannot be read (the image is not drawn)"])
        // Read from bytes there is no directory: a file image is a warning, not drawn.
        let fromBytes = try SVGDocument(string: svg(##"<image href="dot.png"/>"##))
        #expect(fromBytes.isFullySupported)
        #expect(fromBytes.warnings.map(\.message) == [
            ##"invalid href="dot.png": a file, but the document was not read from a file (no directory to find it in) (the image is not drawn)"##,
        ])
    }

    @Test func remoteImagesAreWarnings() throws {
        // Never downloaded (SVGClipMaskEffectTests has the cases); not an unsupported feature.
        let doc = try SVGDocument(string: svg(##"<image width="4" height="4" href="https://example.org/a.png"/>"##))
        #expect(doc.isFullySupported)
        #expect(doc.warnings.count == 1)
    }

    // MARK: Issue 31: JPEG, GIF, WebP, SVG images, image-rendering

    static func dataURI(_ fixture: String, type: String) throws -> String {
        "data:\(type);base64," + Data(try Fixtures.bytes("features/images/" + fixture)).base64EncodedString()
    }

    /// The fixtures' pattern (images/make_images.c), 48 × 32: red, green / blue, yellow
    /// quadrants, a white dot at (4…9, 4…9).
    func expectPattern(_ image: CGImage, at x: Int, _ y: Int, tolerance: Int = 40, alpha: Bool = false, _ name: String) {
        func near(_ p: [Int], _ q: [Int]) -> Bool { zip(p, q).allSatisfy { abs($0 - $1) <= tolerance } }
        let dot = rgba(image, x + 6, y + 6), green = rgba(image, x + 36, y + 4), yellow = rgba(image, x + 36, y + 28)
        #expect(near(dot, [255, 255, 255, 255]) || alpha, "\(name): dot \(dot)")
        #expect(near(green, [20, 200, 45, 255]), "\(name): green \(green)")
        #expect(near(yellow, [230, 200, 45, 255]), "\(name): yellow \(yellow)")
    }

    @Test(arguments: [("baseline.jpg", "image/jpeg"), ("progressive.jpg", "image/jpeg"), ("exif6.jpg", "image/jpeg"),
                      ("first.gif", "image/gif"), ("interlaced.gif", "image/gif"), ("lossy.webp", "image/webp"),
                      ("lossless.webp", "image/webp")])
    func rasterFormatsDecode(fixture: String, type: String) throws {
        // At their own size (48 × 32: EXIF orientation is not applied, as resvg does not).
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40"><image x="2" y="3" href="\##(try Self.dataURI(fixture, type: type))"/></svg>"##)
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.unsupportedFeatures) \(doc.warnings)")
        let image = try #require(doc.makeImage())
        // (GIF: the pattern quantized to 64 colours.)
        expectPattern(image, at: 2, 3, tolerance: fixture.hasSuffix(".gif") ? 70 : 40, alpha: fixture.hasSuffix(".webp"), fixture)
        #expect(rgba(image, 2 + 48, 3 + 10)[3] == 0 && rgba(image, 2 + 10, 3 + 32)[3] == 0, "\(fixture) is 48 × 32")
        if fixture.hasSuffix(".gif") {
            // The transparent corner of the first frame; the second frame (all white) is not drawn.
            #expect(rgba(image, 2 + 44, 3 + 28)[3] == 0)
        }
        if fixture.hasSuffix(".webp") {
            // Alpha: transparent on the left, opaque on the right.
            #expect(rgba(image, 2 + 2, 3 + 20)[3] == 0 && rgba(image, 2 + 40, 3 + 20)[3] == 255)
        }
    }

    @Test func greyJPEGDecodes() throws {
        // resvg 0.44 fails on grey JPEGs ("Failed to decode a JPEG image"); browsers draw them.
        let doc = try SVGDocument(string: svg(##"<image width="20" height="20" preserveAspectRatio="none" href="\##(try Self.dataURI("gray.jpg", type: "image/jpeg"))"/>"##))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        let p = rgba(try #require(doc.makeImage()), 18, 18)
        #expect(p[0] == p[1] && p[1] == p[2] && p[3] == 255 && p[0] > 100)
    }

    @Test func theFormatIsFoundFromTheBytes() throws {
        // A JPEG called image/png: drawn as the JPEG it is.
        let doc = try SVGDocument(string: ##"<svg xmlns="http://www.w3.org/2000/svg" width="50" height="40"><image href="\##(try Self.dataURI("baseline.jpg", type: "image/png"))"/></svg>"##)
        #expect(doc.warnings.isEmpty)
        expectPattern(try #require(doc.makeImage()), at: 0, 0, "baseline.jpg as image/png")
    }

    @Test(arguments: [
        // Truncated after the header: TurboJPEG's error (or its warning: then grey rows).
        ("jpeg-header", Array(try! Fixtures.bytes("features/images/baseline.jpg").prefix(200))),
        // A JPEG whose size says 65000 × 65000: refused before anything is allocated.
        ("jpeg-huge", [0xFF, 0xD8, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0xFD, 0xE8, 0xFD, 0xE8, 0x03, 0x01, 0x22, 0x00, 0x02, 0x11, 0x01, 0x03, 0x11, 0x01, 0xFF, 0xD9]),
        ("jpeg-garbage", [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0x42, count: 64)),
        ("gif-header", Array("GIF89a".utf8) + [0x10, 0x00]),
        ("gif-truncated", Array(try! Fixtures.bytes("features/images/interlaced.gif").prefix(120))),
        ("gif-huge", Array("GIF89a".utf8) + [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x2C, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x02, 0x02, 0x44, 0x01, 0x00, 0x3B]),
        ("webp-truncated", Array(try! Fixtures.bytes("features/images/lossy.webp").prefix(40))),
        ("webp-garbage", Array("RIFF".utf8) + [0x40, 0, 0, 0] + Array("WEBPVP8 ".utf8) + [UInt8](repeating: 0x17, count: 56)),
        ("unknown", Array("not an image".utf8)),
        ("svgz", [0x1F, 0x8B, 0x08, 0x00]),
    ] as [(String, [UInt8])])
    func aCorruptImageIsSkippedWithAWarning(name: String, bytes: [UInt8]) throws {
        let href = "data:image/jpeg;base64," + Data(bytes).base64EncodedString()
        let doc = try SVGDocument(string: svg(##"<image width="10" height="10" href="\##(href)"/><rect x="12" width="4" height="4"/>"##))
        #expect(doc.isFullySupported, "\(name)")
        let image = try #require(doc.makeImage())
        #expect(rgba(image, 13, 1) == [0, 0, 0, 255], "\(name): the rest of the document is drawn")
        if doc.warnings.isEmpty {
            // Only a truncated file may decode (the library's warning: the rows it read).
            #expect(name.hasSuffix("truncated") || name == "jpeg-header", "\(name) gave no warning")
        } else {
            #expect(doc.warnings.first?.message.contains("the image is not drawn") == true, "\(name): \(doc.warnings)")
        }
    }

    @Test func svgImagesAreDrawnAsVectors() throws {
        // A 10 × 10 document with a viewBox, drawn into 40 × 20 (meet: 20 × 20 in the middle).
        let inner = "%3Csvg xmlns='http://www.w3.org/2000/svg' width='10' height='10' viewBox='0 0 1 1'%3E%3Crect width='0.5' height='1' fill='red'/%3E%3Crect x='1' width='9' height='1' fill='blue'/%3E%3C/svg%3E"
        let doc = try SVGDocument(string: svg(##"<image width="20" height="10" href="data:image/svg+xml,\##(inner)"/>"##))
        #expect(doc.isFullySupported && doc.warnings.isEmpty, "\(doc.warnings)")
        let image = try #require(doc.makeImage(scale: 2))
        #expect(rgba(image, 2 * 3, 2 * 5)[3] == 0)                // left of the 10 × 10 square (x 5…15)
        #expect(rgba(image, 2 * 7, 2 * 5) == [255, 0, 0, 255])    // its left half
        #expect(rgba(image, 2 * 12, 2 * 5)[3] == 0)               // its right half: nothing drawn
        #expect(rgba(image, 2 * 17, 2 * 5)[3] == 0)               // the blue rect (x 15…) lies outside its viewport: clipped
    }

    @Test func svgImagesNameThemselvesHarmlessly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-svg-nested-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Each level draws a square and itself four times, smaller: 4 + 16 + 64 … documents
        // without the bounds.
        let me = ##"<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="10" height="10" fill="#08f"/>"##
            + (0..<4).map { ##"<image x="\##(10 * ($0 % 2))" y="\##(10 * ($0 / 2))" width="10" height="10" href="me.svg"/>"## }.joined() + "</svg>"
        let file = directory.appendingPathComponent("me.svg").path
        try Data(me.utf8).write(to: URL(fileURLWithPath: file))
        let doc = try SVGDocument(contentsOfFile: file)
        #expect(doc.isFullySupported)
        #expect(doc.warnings.contains { $0.message.contains("nested more than 3 deep") }, "\(doc.warnings)")
        let image = try #require(doc.makeImage())
        #expect(rgba(image, 2, 2) == [0, 136, 255, 255])
        #expect(rgba(image, 12, 2) == [0, 136, 255, 255])   // the first nested copy's square
    }

    @Test(arguments: ["optimizeSpeed", "pixelated", "crisp-edges"])
    func imageRenderingSamplesTheNearestPixel(value: String) throws {
        // The 2 × 1 red, blue PNG scaled to 20 × 10: no purple in the middle.
        let smooth = try #require(try SVGDocument(string: svg(##"<image width="20" height="10" href="\##(Self.png)"/>"##)).makeImage())
        let p = rgba(smooth, 9, 5)
        #expect(p[0] > 20 && p[2] > 20, "interpolated: \(p)")
        let doc = try SVGDocument(string: svg(##"<g style="image-rendering: \##(value)"><image width="20" height="10" href="\##(Self.png)"/></g>"##))
        #expect(doc.warnings.isEmpty, "\(doc.warnings)")
        let nearest = try #require(doc.makeImage())
        #expect(rgba(nearest, 9, 5) == [255, 0, 0, 255] && rgba(nearest, 10, 5) == [0, 0, 255, 255])
    }

    @Test func aBrokenPNGIsAWarning() throws {
        let doc = try SVGDocument(string: svg(##"<image width="4" height="4" href="data:image/png;base64,iVBORw0KGgoAAAAA"/>"##))
        #expect(doc.isFullySupported)
        #expect(doc.warnings.first?.message.contains("the PNG does not decode") == true)
    }
}
