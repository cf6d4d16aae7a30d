import CrispGraphics
import Foundation

/// The files under `Resources/` the demo cannot run without, checked once at launch so that a
/// binary installed without them stops with a message naming every place it looked, instead
/// of drawing a screen with no text.
public enum DemoResources {
    /// The required files, relative to `Resources/`.
    public static let requiredFiles = ["Fonts/Roboto-Regular.ttf", "Fonts/Roboto-Bold.ttf"]
        + DemoApp.languages.map { "Strings/\($0).strings" }

    /// Finds every required file and reads the fonts.
    ///
    /// - Throws: `CrispResources.NotFound` for the first file missing (its description lists
    ///   every path tried), or the font's error when one cannot be read.
    public static func check() throws {
        for file in requiredFiles { _ = try CrispResources.url(for: file) }
        _ = try CTFont.bundledFace(.system)
        _ = try CTFont.bundledFace(.emphasizedSystem)
    }
}
