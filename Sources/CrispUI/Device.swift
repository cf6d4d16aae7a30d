import Foundation

/// A screen shape to emulate: size in points and scale (pixels per point).
///
/// The presets are the iPhone and iPad screens of 2009–2012 (ARCHITECTURE.md, "Screens and devices"); `custom` describes any
/// other size, such as a freely resized window.
public struct Device: Hashable, Sendable, CustomStringConvertible {
    /// A short lower-case name for command lines and file names, like `iphone4`.
    public let identifier: String
    /// The human name, like "iPhone 4".
    public let name: String
    /// Size in points.
    public let pointSize: CGSize
    /// Pixels per point (1 or 2 for the presets).
    public let scale: CGFloat

    /// Creates a device description.
    ///
    /// - Precondition: a positive, finite size and scale.
    public init(identifier: String, name: String, pointSize: CGSize, scale: CGFloat) {
        precondition(pointSize.width > 0 && pointSize.height > 0 && pointSize.width.isFinite && pointSize.height.isFinite,
                     "a device needs a positive size, not \(pointSize)")
        precondition(scale > 0 && scale.isFinite, "a device needs a positive scale, not \(scale)")
        self.identifier = identifier
        self.name = name
        self.pointSize = pointSize
        self.scale = scale
    }

    /// The 3.5-inch non-retina iPhone: 320×480 pt at 1×.
    public static let iPhone3GS = Device(identifier: "iphone3gs", name: "iPhone 3GS", pointSize: CGSize(width: 320, height: 480), scale: 1)
    /// The 3.5-inch retina iPhone: 320×480 pt at 2×.
    public static let iPhone4 = Device(identifier: "iphone4", name: "iPhone 4", pointSize: CGSize(width: 320, height: 480), scale: 2)
    /// The 4-inch retina iPhone: 320×568 pt at 2×.
    public static let iPhone5 = Device(identifier: "iphone5", name: "iPhone 5", pointSize: CGSize(width: 320, height: 568), scale: 2)
    /// The non-retina iPad: 768×1024 pt at 1×.
    public static let iPad = Device(identifier: "ipad", name: "iPad", pointSize: CGSize(width: 768, height: 1024), scale: 1)
    /// The retina iPad: 768×1024 pt at 2×.
    public static let iPadRetina = Device(identifier: "ipad-retina", name: "iPad (retina)", pointSize: CGSize(width: 768, height: 1024), scale: 2)

    /// The presets in keyboard order (keys 1–5 in the demo).
    public static let presets: [Device] = [.iPhone3GS, .iPhone4, .iPhone5, .iPad, .iPadRetina]

    /// The preset with this identifier or name, or nil. Case, spaces, hyphens, underscores,
    /// dots and parentheses are ignored, so `iphone-3gs`, `iPhone_3GS`, `iphone3gs` and
    /// `"iPhone 3GS"` all name the iPhone 3GS, and `ipadretina` the `ipad-retina`.
    public static func preset(named identifier: String) -> Device? {
        let key = Device.normalized(identifier)
        guard !key.isEmpty else { return nil }
        return presets.first { Device.normalized($0.identifier) == key || Device.normalized($0.name) == key }
    }

    /// `name` lower-cased, without the separators `preset(named:)` ignores.
    private static func normalized(_ name: String) -> String {
        String(name.lowercased().filter { !" -_.()".contains($0) })
    }

    /// A screen of `pixelWidth × pixelHeight` pixels at `scale`: `pixels / scale` points each way.
    public static func custom(pixelWidth: Int, pixelHeight: Int, scale: CGFloat) -> Device {
        Device(identifier: "custom", name: "Custom \(pixelWidth)×\(pixelHeight) @\(Int(scale))x",
               pointSize: CGSize(width: CGFloat(max(pixelWidth, 1)) / scale, height: CGFloat(max(pixelHeight, 1)) / scale),
               scale: scale)
    }

    /// The same point size at another scale (the preset with that shape if there is one, turned
    /// on its side for a landscape shape).
    public func withScale(_ scale: CGFloat) -> Device {
        if let preset = Device.presets.first(where: { $0.pointSize == pointSize && $0.scale == scale }) { return preset }
        if let preset = Device.presets.first(where: { $0.transposed.pointSize == pointSize && $0.scale == scale }) {
            return preset.transposed
        }
        return Device(identifier: "custom", name: "Custom \(Int(pointSize.width))×\(Int(pointSize.height)) pt @\(Int(scale))x",
                      pointSize: pointSize, scale: scale)
    }

    /// The device turned on its side: width and height swapped, the same name and scale (a
    /// preset in landscape).
    public var transposed: Device {
        Device(identifier: identifier, name: name, pointSize: CGSize(width: pointSize.height, height: pointSize.width), scale: scale)
    }

    /// Whether the device is an iPad (its shorter side is at least 768 points): its interface
    /// also turns upside down.
    public var isPad: Bool { min(pointSize.width, pointSize.height) >= 768 }

    /// Width in pixels (points × scale, rounded).
    public var pixelWidth: Int { Int((pointSize.width * scale).rounded()) }
    /// Height in pixels (points × scale, rounded).
    public var pixelHeight: Int { Int((pointSize.height * scale).rounded()) }

    public var description: String { "\(name) (\(pointSize.width)×\(pointSize.height) pt @\(scale)x)" }
}
