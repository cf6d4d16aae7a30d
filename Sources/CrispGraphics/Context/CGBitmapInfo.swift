/// Byte order and float flags of a bitmap layout, as `CGBitmapInfo`.
///
/// Combine with a `CGImageAlphaInfo` raw value when creating a context:
/// `CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue`
/// is Crisp's native layout (BGRA in memory, `0xAARRGGBB` as a little-endian `UInt32`).
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)

    /// Crisp's native layout: premultiplied first, 32-bit little-endian.
    public static let crispNative = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue | byteOrder32Little.rawValue)
}

/// How a path is painted by `CGContext.drawPath(using:)`, as `CGPathDrawingMode`.
public enum CGPathDrawingMode: Int32, Sendable, CaseIterable {
    case fill = 0, eoFill, stroke, fillStroke, eoFillStroke
}

/// Image interpolation quality, as `CGInterpolationQuality`.
public enum CGInterpolationQuality: Int32, Sendable {
    case `default` = 0, none, low, high, medium
}
