import CrispGraphics
import Foundation

/// Loads the bitmaps under `Resources/Images` (found by `CrispResources`), with an error that
/// names the file and says what is wrong with it.
public enum ResourceImage {
    /// Why an image could not be loaded.
    public struct LoadError: Error, CustomStringConvertible, Sendable {
        /// The file, as a path relative to `Resources/`, or the absolute path tried.
        public var file: String
        /// What went wrong: not found, or the PNG decoder's complaint.
        public var reason: String

        /// Creates an error about `file`.
        public init(file: String, reason: String) {
            self.file = file
            self.reason = reason
        }

        public var description: String { "cannot load image \(file): \(reason)" }
    }

    /// Reads `Resources/Images/<name>` as a PNG.
    public static func load(_ name: String) throws(LoadError) -> CGImage {
        let relative = "Images/" + name
        let url: URL
        do {
            url = try CrispResources.url(for: relative)
        } catch {
            throw LoadError(file: "Resources/" + relative, reason: "not found in any Resources folder (set CRISP_RESOURCES to the repository's Resources)")
        }
        return try load(contentsOf: url.path)
    }

    /// Reads the PNG at `path`.
    public static func load(contentsOf path: String) throws(LoadError) -> CGImage {
        do {
            return try CGImage(contentsOfPNGFile: path)
        } catch {
            throw LoadError(file: path, reason: "\(error)")
        }
    }
}
