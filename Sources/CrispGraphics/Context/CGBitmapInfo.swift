/// Byte order and float flags of a bitmap layout, as `CGBitmapInfo`.
///
/// Combine with a `CGImageAlphaInfo` raw value when creating a context:
/// `CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue`
/// is Crisp's native layout (BGRA in memory, `0xAARRGGBB` as a little-endian `UInt32`).
public struct CGBitmapInfo: OptionSet, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// The bits that hold a `CGImageAlphaInfo` raw value.
    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    /// Components are floats (not supported by Crisp's contexts, which are 8-bit).
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    /// The bits that hold the byte order.
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    /// The default byte order: components in memory in the order the alpha info names them.
    public static let byteOrderDefault = CGBitmapInfo([])
    /// 16-bit words, little-endian.
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    /// 32-bit words, little-endian (with `premultipliedFirst`: BGRA in memory, Crisp's native).
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    /// 16-bit words, big-endian.
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    /// 32-bit words, big-endian.
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)

    /// Crisp's native layout: premultiplied first, 32-bit little-endian.
    public static let crispNative = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue | byteOrder32Little.rawValue)
}

/// How a path is painted by `CGContext.drawPath(using:)`, as `CGPathDrawingMode`.
public enum CGPathDrawingMode: Int32, Sendable, CaseIterable {
    /// Fill with the non-zero winding rule.
    case fill = 0
    /// Fill with the even-odd rule.
    case eoFill
    /// Stroke the path.
    case stroke
    /// Fill with the non-zero rule, then stroke.
    case fillStroke
    /// Fill with the even-odd rule, then stroke.
    case eoFillStroke
}

/// Image interpolation quality, as `CGInterpolationQuality`.
public enum CGInterpolationQuality: Int32, Sendable {
    /// The default: as `medium`.
    case `default` = 0
    /// Nearest neighbour: no interpolation.
    case none
    /// Bilinear from the full-size image, even when minified.
    case low
    /// Bilinear from the two nearest mipmap levels, blended (trilinear) when minified.
    case high
    /// Bilinear from the nearest mipmap level when minified.
    case medium
}
