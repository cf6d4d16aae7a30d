import CrispGraphics

/// A bitmap layout a benchmark canvas can be created in (`crisp bench raster --layouts`).
public struct BenchmarkLayout: Sendable {
    /// A short name for tables ("BGRA", "RGBA", "grey 8", …).
    public var name: String
    /// Bytes per pixel.
    public var bytesPerPixel: Int
    /// Whether the colour space is grey.
    var isGrey: Bool
    /// Alpha info and byte order, as `CGContext(data:…bitmapInfo:)` takes them.
    var bitmapInfo: UInt32

    /// Crisp's native layout, premultiplied BGRA.
    public static let native = BenchmarkLayout(name: "BGRA (native)", bytesPerPixel: 4, isGrey: false,
                                               bitmapInfo: CGBitmapInfo.crispNative.rawValue)

    /// Every layout a context can be created in, native first.
    public static let all: [BenchmarkLayout] = [
        native,
        quad("RGBA", .premultipliedLast, .byteOrder32Big),
        quad("ARGB", .premultipliedFirst, .byteOrder32Big),
        quad("ABGR", .premultipliedLast, .byteOrder32Little),
        quad("RGBX", .noneSkipLast, .byteOrder32Big),
        quad("XRGB", .noneSkipFirst, .byteOrder32Big),
        quad("XBGR", .noneSkipLast, .byteOrder32Little),
        BenchmarkLayout(name: "grey 8", bytesPerPixel: 1, isGrey: true, bitmapInfo: CGImageAlphaInfo.none.rawValue),
        BenchmarkLayout(name: "alpha 8", bytesPerPixel: 1, isGrey: false, bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue),
    ]

    /// The layout a table prints as `name` (any case; the native one also as "BGRA" or "native").
    public static func named(_ name: String) -> BenchmarkLayout? {
        let key = name.lowercased()
        if key == "bgra" || key == "native" { return native }
        return all.first { $0.name.lowercased() == key }
    }

    private static func quad(_ name: String, _ alpha: CGImageAlphaInfo, _ order: CGBitmapInfo) -> BenchmarkLayout {
        BenchmarkLayout(name: name, bytesPerPixel: 4, isGrey: false, bitmapInfo: alpha.rawValue | order.rawValue)
    }

    /// A cleared context of this layout in its own memory.
    func makeContext(width: Int, height: Int) -> CGContext {
        let space = isGrey ? CGColorSpaceCreateDeviceGray() : CGColorSpaceCreateDeviceRGB()
        guard let ctx = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0,
                                  space: space, bitmapInfo: bitmapInfo) else {
            preconditionFailure("layout \(name) is not supported")
        }
        return ctx
    }
}
