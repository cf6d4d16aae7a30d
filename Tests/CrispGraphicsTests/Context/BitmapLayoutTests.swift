import Foundation
import Testing
@_spi(Testing) import CrispGraphics

/// Contexts in layouts other than native BGRA: each draws what the native layout draws (the
/// same coverage, ±1 level), in caller memory with odd strides whose padding is never written,
/// and `makeImage()` keeps the layout.
@Suite struct BitmapLayoutTests {
    /// A layout under test: how to create it and how many bytes a pixel takes.
    struct Layout: CustomTestStringConvertible, Sendable {
        let name: String
        let space: CGColorSpace
        let bitmapInfo: UInt32
        let bytesPerPixel: Int
        var testDescription: String { name }
    }

    static let rgb = CGColorSpaceCreateDeviceRGB()
    static func info(_ alpha: CGImageAlphaInfo, _ order: CGBitmapInfo) -> UInt32 { alpha.rawValue | order.rawValue }

    static let layouts: [Layout] = [
        Layout(name: "RGBA", space: rgb, bitmapInfo: info(.premultipliedLast, .byteOrderDefault), bytesPerPixel: 4),
        Layout(name: "RGBA 32Big", space: rgb, bitmapInfo: info(.premultipliedLast, .byteOrder32Big), bytesPerPixel: 4),
        Layout(name: "ABGR", space: rgb, bitmapInfo: info(.premultipliedLast, .byteOrder32Little), bytesPerPixel: 4),
        Layout(name: "ARGB", space: rgb, bitmapInfo: info(.premultipliedFirst, .byteOrder32Big), bytesPerPixel: 4),
        Layout(name: "RGBX", space: rgb, bitmapInfo: info(.noneSkipLast, .byteOrder32Big), bytesPerPixel: 4),
        Layout(name: "XBGR", space: rgb, bitmapInfo: info(.noneSkipLast, .byteOrder32Little), bytesPerPixel: 4),
        Layout(name: "XRGB", space: rgb, bitmapInfo: info(.noneSkipFirst, .byteOrder32Big), bytesPerPixel: 4),
        Layout(name: "grey 8", space: CGColorSpaceCreateDeviceGray(), bitmapInfo: info(.none, .byteOrderDefault), bytesPerPixel: 1),
        Layout(name: "alpha 8", space: rgb, bitmapInfo: info(.alphaOnly, .byteOrderDefault), bytesPerPixel: 1),
    ]

    static let width = 61, height = 37
    static let sentinel: UInt8 = 0xA5

    /// Whether the layout keeps alpha (so the scene may leave pixels transparent).
    static func keepsAlpha(_ layout: Layout) -> Bool {
        let alpha = layout.bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue
        return alpha == CGImageAlphaInfo.premultipliedLast.rawValue || alpha == CGImageAlphaInfo.premultipliedFirst.rawValue
            || alpha == CGImageAlphaInfo.alphaOnly.rawValue
    }

    /// Fills, strokes, clipped and blended shapes, gradients, an image and text. Layouts without
    /// alpha get an opaque background (their destination is opaque); grey gets no colour blend
    /// modes (the luminance of a multiplied colour is not the product of luminances).
    static func drawScene(_ ctx: CGContext, layout: Layout) throws {
        ctx.setFillColor(red: 0.9, green: 0.8, blue: 0.6, alpha: keepsAlpha(layout) ? 0.5 : 1)
        ctx.fill(CGRect(x: 0, y: 0, width: width, height: height))
        ctx.setFillColor(red: 0.1, green: 0.5, blue: 0.9, alpha: 0.8)
        ctx.addEllipse(in: CGRect(x: 3.3, y: 2.7, width: 30.5, height: 22.1))
        ctx.fillPath()
        // A translucent rectangle over what is there: spans of one coverage (edges and interior).
        ctx.setFillColor(red: 0.3, green: 0.6, blue: 0.2, alpha: 0.6)
        ctx.fill(CGRect(x: 20.5, y: 3.25, width: 30.3, height: 12.6))
        ctx.setStrokeColor(red: 0.8, green: 0.1, blue: 0.2, alpha: 1)
        ctx.setLineWidth(2.5)
        ctx.move(to: CGPoint(x: 2, y: 30))
        ctx.addCurve(to: CGPoint(x: 58, y: 5), control1: CGPoint(x: 20, y: 50), control2: CGPoint(x: 40, y: -10))
        ctx.strokePath()
        let colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.4)]
        let gradient = try #require(CGGradient(colorsSpace: rgb, colors: colors, locations: nil))
        ctx.saveGState()
        ctx.clip(to: CGRect(x: 30, y: 10, width: 28, height: 20))
        ctx.drawLinearGradient(gradient, start: CGPoint(x: 30, y: 10), end: CGPoint(x: 58, y: 30), options: [])
        ctx.restoreGState()
        let source = try #require(CGContext(width: 8, height: 8))
        source.drawRadialGradient(gradient, startCenter: CGPoint(x: 4, y: 4), startRadius: 0,
                                  endCenter: CGPoint(x: 4, y: 4), endRadius: 5, options: [.drawsAfterEndLocation])
        ctx.draw(try #require(source.makeImage()), in: CGRect(x: 40.5, y: 20.25, width: 17, height: 13))
        ctx.setFillColor(red: 0, green: 0.3, blue: 0.1, alpha: 1)
        ctx.textPosition = CGPoint(x: 4, y: 24)
        CTLine(string: "Ag", font: CTFont(face: try TestFonts.regular, size: 14)).draw(in: ctx)
        if layout.bytesPerPixel == 4 {
            for (i, mode) in [CGBlendMode.multiply, .screen, .overlay, .difference].enumerated() {
                ctx.setBlendMode(mode)
                ctx.setFillColor(red: 0.2 * CGFloat(i), green: 0.7, blue: 0.4, alpha: 0.7)
                ctx.fill(CGRect(x: 5 + 12 * CGFloat(i), y: 28.5, width: 10.5, height: 6))
            }
        }
    }

    /// The largest difference per level between the layout's pixels and the native ones as that
    /// layout would hold them.
    static func maxDifference(layout: Layout, pixels: [UInt32], native: [UInt32]) -> Int {
        var worst = 0
        for (p, q) in zip(pixels, native) {
            switch layout.bytesPerPixel == 1 ? (keepsAlpha(layout) ? "alpha" : "grey") : "colour" {
            case "alpha": worst = max(worst, abs(Int(p >> 24) - Int(q >> 24)))
            case "grey": worst = max(worst, abs(Int(p & 255) - Int(PixelLayout.luminance(q))))
            default:
                for shift: UInt32 in [0, 8, 16, 24] {
                    worst = max(worst, abs(Int((p >> shift) & 255) - Int((q >> shift) & 255)))
                }
            }
        }
        return worst
    }

    @Test(arguments: layouts)
    func drawsWhatTheNativeLayoutDrawsIntoCallerMemory(layout: Layout) throws {
        let native = try #require(CGContext(width: Self.width, height: Self.height))
        try Self.drawScene(native, layout: layout)
        let nativePixels = try #require(native.makeImage()).pixels

        let rowBytes = Self.width * layout.bytesPerPixel
        let bytesPerRow = rowBytes + 3
        let memory = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * Self.height + 1, alignment: 4)
        defer { memory.deallocate() }
        let data = memory + 1  // misaligned on purpose
        for y in 0..<Self.height {
            (data + y * bytesPerRow).initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes)
            (data + y * bytesPerRow + rowBytes).initializeMemory(as: UInt8.self, repeating: Self.sentinel, count: 3)
        }
        let ctx = try #require(CGContext(data: data, width: Self.width, height: Self.height, bitsPerComponent: 8,
                                         bytesPerRow: bytesPerRow, space: layout.space, bitmapInfo: layout.bitmapInfo))
        try Self.drawScene(ctx, layout: layout)
        let image = try #require(ctx.makeImage())

        #expect(Self.maxDifference(layout: layout, pixels: image.pixels, native: nativePixels) <= 1)
        let padding = (0..<Self.height).flatMap { y in (0..<3).map { data.load(fromByteOffset: y * bytesPerRow + rowBytes + $0, as: UInt8.self) } }
        #expect(padding.allSatisfy { $0 == Self.sentinel })

        #expect(image.bitsPerComponent == 8)
        #expect(image.bitsPerPixel == layout.bytesPerPixel * 8)
        #expect(image.bytesPerRow == rowBytes)
        #expect(image.bitmapInfo.rawValue == layout.bitmapInfo)
        #expect(image.alphaInfo.rawValue == layout.bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue)
        #expect(image.colorSpace?.model == (layout.bytesPerPixel == 1 ? (Self.keepsAlpha(layout) ? nil : .monochrome) : .rgb))
        let bytes = try #require(image.dataProvider?.data)
        let rows = (0..<Self.height).flatMap { y in (0..<rowBytes).map { data.load(fromByteOffset: y * bytesPerRow + $0, as: UInt8.self) } }
        #expect([UInt8](bytes) == rows)

        let back = try #require(CGContext(width: Self.width, height: Self.height))
        back.setBlendMode(.copy)
        back.draw(image, in: CGRect(x: 0, y: 0, width: Self.width, height: Self.height))
        #expect(back.makeImage()?.pixels == image.pixels)
    }

    /// Transparency layers (native buffers of their bounds) composite back into every layout as
    /// into native, shadows and clip masks included.
    @Test(arguments: layouts)
    func layersShadowsAndMasksMatchNative(layout: Layout) throws {
        func draw(_ ctx: CGContext) {
            ctx.setFillColor(red: 0.9, green: 0.8, blue: 0.6, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: Self.width, height: Self.height))
            ctx.addEllipse(in: CGRect(x: 4, y: 4, width: 50, height: 28))
            ctx.clip()
            ctx.setShadow(offset: CGSize(width: 2, height: -2), blur: 3)
            ctx.setAlpha(0.6)
            ctx.beginTransparencyLayer(in: CGRect(x: 8.5, y: 6, width: 40, height: 24), auxiliaryInfo: nil)
            ctx.setFillColor(red: 0.1, green: 0.4, blue: 0.8, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 30, height: 20))
            ctx.setFillColor(red: 0.8, green: 0.2, blue: 0.1, alpha: 1)
            ctx.fillEllipse(in: CGRect(x: 20, y: 10, width: 40, height: 30))
            ctx.endTransparencyLayer()
        }
        let native = try #require(CGContext(width: Self.width, height: Self.height))
        draw(native)
        let ctx = try #require(CGContext(data: nil, width: Self.width, height: Self.height, bitsPerComponent: 8,
                                         bytesPerRow: 0, space: layout.space, bitmapInfo: layout.bitmapInfo))
        draw(ctx)
        #expect(Self.maxDifference(layout: layout, pixels: try #require(ctx.makeImage()).pixels,
                                   native: try #require(native.makeImage()).pixels) <= 1)
    }

    @Test(arguments: layouts)
    func ownMemoryMatchesCallerMemory(layout: Layout) throws {
        let own = try #require(CGContext(data: nil, width: Self.width, height: Self.height, bitsPerComponent: 8,
                                         bytesPerRow: 0, space: layout.space, bitmapInfo: layout.bitmapInfo))
        #expect(own.bytesPerRow == Self.width * layout.bytesPerPixel)
        #expect(own.bitsPerPixel == layout.bytesPerPixel * 8)
        try Self.drawScene(own, layout: layout)
        let native = try #require(CGContext(width: Self.width, height: Self.height))
        try Self.drawScene(native, layout: layout)
        #expect(Self.maxDifference(layout: layout, pixels: try #require(own.makeImage()).pixels,
                                   native: try #require(native.makeImage()).pixels) <= 1)
    }

    /// Word-aligned RGBA and RGBX memory takes source-over of solid colours in place; misaligned
    /// memory converts through native rows. Both give the same bytes, in every 32-bit layout.
    @Test(arguments: layouts.filter { $0.bytesPerPixel == 4 })
    func inPlaceBlendingMatchesConversion(layout: Layout) throws {
        let bytesPerRow = Self.width * 4 + 4
        func draw(offset: Int) throws -> [UInt8] {
            let memory = UnsafeMutableRawPointer.allocate(byteCount: bytesPerRow * Self.height + 4, alignment: 16)
            defer { memory.deallocate() }
            memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytesPerRow * Self.height + 4)
            let ctx = try #require(CGContext(data: memory + offset, width: Self.width, height: Self.height, bitsPerComponent: 8,
                                             bytesPerRow: bytesPerRow, space: layout.space, bitmapInfo: layout.bitmapInfo))
            try Self.drawScene(ctx, layout: layout)
            return (0..<bytesPerRow * Self.height).map { (memory + offset).load(fromByteOffset: $0, as: UInt8.self) }
        }
        #expect(try draw(offset: 0) == draw(offset: 1), "\(layout.name)")
    }

    @Test func greyContextStoresLuminance() throws {
        var bytes = [UInt8](repeating: 0, count: 4)
        try bytes.withUnsafeMutableBytes { buf in
            let ctx = try #require(CGContext(data: buf.baseAddress, width: 4, height: 1, bitsPerComponent: 8, bytesPerRow: 4,
                                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue))
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
            ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
            ctx.setFillColor(gray: 0.5, alpha: 1)
            ctx.fill(CGRect(x: 2, y: 0, width: 1, height: 1))
            ctx.setFillColor(gray: 1, alpha: 0.5)
            ctx.fill(CGRect(x: 3, y: 0, width: 1, height: 1))
        }
        // (77·r + 150·g + 29·b + 128) >> 8; grey levels unchanged; white at half alpha over black.
        #expect(bytes == [77, 149, 128, 128])
    }

    @Test func alphaOnlyContextRecordsCoverageTimesAlpha() throws {
        var bytes = [UInt8](repeating: 0, count: 3)
        try bytes.withUnsafeMutableBytes { buf in
            let ctx = try #require(CGContext(data: buf.baseAddress, width: 3, height: 1, bitsPerComponent: 8, bytesPerRow: 3,
                                             space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue))
            ctx.setFillColor(red: 0.3, green: 0.2, blue: 0.1, alpha: 0.5)
            ctx.fill(CGRect(x: 0, y: 0, width: 1.5, height: 1))
            ctx.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
            ctx.fill(CGRect(x: 2, y: 0, width: 1, height: 1))
        }
        #expect(bytes == [128, 64, 255])
    }

    @Test func unsupportedLayoutsAreNil() {
        let rgb = CGColorSpaceCreateDeviceRGB(), grey = CGColorSpaceCreateDeviceGray()
        let premultipliedLast = CGImageAlphaInfo.premultipliedLast.rawValue
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 16, bytesPerRow: 0, space: rgb, bitmapInfo: premultipliedLast) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                          bitmapInfo: premultipliedLast | CGBitmapInfo.floatComponents.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                          bitmapInfo: premultipliedLast | CGBitmapInfo.byteOrder16Little.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb,
                          bitmapInfo: CGImageAlphaInfo.last.rawValue) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 15, space: rgb, bitmapInfo: premultipliedLast) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 3, space: grey, bitmapInfo: 0) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: rgb, bitmapInfo: 0) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 0, space: grey, bitmapInfo: premultipliedLast) == nil)
        #expect(CGContext(data: nil, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 18, space: rgb,
                          bitmapInfo: CGBitmapInfo.crispNative.rawValue) == nil)
    }

    @Test func nativeImagesKeepTheirLayoutFields() throws {
        let ctx = try #require(CGContext(width: 3, height: 2))
        ctx.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        let image = try #require(ctx.makeImage())
        #expect(image.bitsPerPixel == 32 && image.bytesPerRow == 12 && image.alphaInfo == .premultipliedFirst)
        #expect(image.bitmapInfo == .crispNative)
        let bytes = try #require(image.dataProvider?.data)
        #expect(bytes.count == 24)
        #expect(Array(bytes[12..<16]) == [0, 0, 0, 255])
    }
}
