import CrispGraphics
import Foundation

/// A bitmap image in UIKit's spelling: a `CGImage` with a scale, measured and drawn in points.
///
/// Drawing (`draw(in:)`, `draw(at:)`) goes to the current context (`UIGraphicsGetCurrentContext()`),
/// assumed UIKit-flipped (a view's drawing, an image context), and shows the image upright —
/// unlike `CGContext.draw(_:in:)`, which draws it upside down there (ARCHITECTURE.md, "Coordinates and pixels").
public final class UIImage: @unchecked Sendable, CustomStringConvertible {
    /// The pixels.
    public let cgImage: CGImage?
    /// Pixels per point: 2 for an `@2x` file.
    public let scale: CGFloat

    /// Wraps `cgImage`, `scale` pixels per point (non-positive counts as 1).
    public init(cgImage: CGImage, scale: CGFloat = 1) {
        self.cgImage = cgImage
        self.scale = scale > 0 && scale.isFinite ? scale : 1
    }

    /// Loads a PNG file; an `@2x` before the extension (`knob@2x.png`) makes the scale 2, `@3x` 3.
    /// Nil when the file is missing or not a readable PNG (as UIKit; use `CGImage(contentsOfPNGFile:)`
    /// for the reason).
    public convenience init?(contentsOfFile path: String) {
        guard let image = try? CGImage(contentsOfPNGFile: path) else { return nil }
        self.init(cgImage: image, scale: UIImage.scale(ofFileNamed: (path as NSString).lastPathComponent))
    }

    /// Loads the image called `name` from `Resources/Images` (found as `CrispResources` finds
    /// resources): `name` as given, then `name.png`, then `name@2x.png`. Nil when there is none
    /// or it cannot be read.
    public convenience init?(named name: String) {
        guard let directory = try? CrispResources.url(for: "Images") else { return nil }
        self.init(named: name, inDirectory: directory)
    }

    /// Loads the image called `name` from `directory`, trying the same file names as
    /// `init?(named:)` (UIKit's `init?(named:in:compatibleWith:)` with a folder for a bundle).
    public convenience init?(named name: String, inDirectory directory: URL) {
        let candidates = (name as NSString).pathExtension.isEmpty ? [name + ".png", name + "@2x.png", name] : [name]
        let paths = candidates.map { directory.appendingPathComponent($0).path }
        guard let path = paths.first(where: { FileManager.default.fileExists(atPath: $0) }) else { return nil }
        self.init(contentsOfFile: path)
    }

    /// The scale a file name announces: 2 for `…@2x.png`, 3 for `…@3x.png`, otherwise 1.
    private static func scale(ofFileNamed name: String) -> CGFloat {
        let stem = (name as NSString).deletingPathExtension
        if stem.hasSuffix("@2x") { return 2 }
        if stem.hasSuffix("@3x") { return 3 }
        return 1
    }

    /// The size in points: pixels divided by the scale.
    public var size: CGSize {
        guard let cgImage else { return .zero }
        return CGSize(width: CGFloat(cgImage.width) / scale, height: CGFloat(cgImage.height) / scale)
    }

    /// Draws the image upright, stretched to `rect` (points, current context's user space).
    public func draw(in rect: CGRect) {
        guard let cgImage, let context = UIGraphicsGetCurrentContext() else { return }
        context.saveGState()
        context.translateBy(x: rect.minX, y: rect.maxY)
        context.scaleBy(x: 1, y: -1)
        context.draw(cgImage, in: CGRect(x: 0, y: 0, width: rect.width, height: rect.height))
        context.restoreGState()
    }

    /// Draws the image upright at its size with its top-left corner at `point`.
    public func draw(at point: CGPoint) {
        draw(in: CGRect(origin: point, size: size))
    }

    /// The image as PNG file data; nil when there are no pixels.
    public func pngData() -> Data? {
        guard let bytes = try? cgImage?.pngData() else { return nil }
        return Data(bytes)
    }

    /// Size and scale.
    public var description: String { "UIImage(\(size.width)×\(size.height) pt @\(scale)x)" }
}
