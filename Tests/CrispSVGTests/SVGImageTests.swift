import CrispGraphics
import CrispSVG
import Foundation
import Testing

// `<image>`: PNG from data: URIs and files beside the document, placement and aspect ratio;
// other formats are unsupported, broken images are warnings.

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
        // Read from bytes there is no directory: a file image is unsupported.
        #expect(try SVGDocument(string: svg(##"<image href="dot.png"/>"##)).unsupportedFeatures.count == 1)
    }

    @Test(arguments: ["data:image/jpeg;base64,/9j/4AAQ", "data:image/svg+xml;utf8,%3Csvg/%3E", "https://example.org/a.png"])
    func otherFormatsAreUnsupported(href: String) throws {
        let doc = try SVGDocument(string: svg(##"<image width="4" height="4" href="\##(href)"/>"##))
        #expect(doc.unsupportedFeatures.count == 1)
    }

    @Test func aBrokenPNGIsAWarning() throws {
        let doc = try SVGDocument(string: svg(##"<image width="4" height="4" href="data:image/png;base64,iVBORw0KGgoAAAAA"/>"##))
        #expect(doc.isFullySupported)
        #expect(doc.warnings.first?.message.contains("the PNG does not decode") == true)
    }
}
