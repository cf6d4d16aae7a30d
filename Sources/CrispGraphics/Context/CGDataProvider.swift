import Foundation

/// A source of bytes for images and image masks, as `CGDataProvider`.
///
/// Crisp's provider holds a `Data` value (CoreGraphics' takes a `CFData`).
public final class CGDataProvider: @unchecked Sendable {
    /// The provider's bytes.
    public let data: Data?

    /// A provider of `data`.
    public init?(data: Data) { self.data = data }
}
