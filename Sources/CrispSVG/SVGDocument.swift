import CrispGraphics
import Foundation

/// An SVG drawing, read once and drawn any number of times into any `CGContext`.
///
/// Reading follows SVG's error handling: only what is not SVG at all throws an `SVGError` with
/// a line and column (malformed XML, no `<svg>` root, input over the size limits). An invalid
/// value is treated as absent (the property's initial or inherited value), path data is drawn
/// up to its first error, a missing or recursive reference is as if absent (a paint server:
/// its fallback colour, else none), a negative size disables its element; each of these is a
/// warning with its place. `warnings` also lists what does not change the picture or is
/// unknown, and `unsupportedFeatures` what Crisp cannot draw yet (foreignObject, …). A
/// document with unsupported features still draws, without them.
///
/// ```swift
/// let icon = try SVGDocument(contentsOfFile: "gear.svg")
/// icon.draw(in: context, rect: bounds)        // in a view's flipped (y-down) context
/// let image = icon.makeImage(scale: 2)        // or straight to a bitmap
/// ```
public final class SVGDocument {
    /// The intrinsic size in px (`width` × `height`, else the viewBox's size, else 100 × 100).
    public let size: CGSize
    /// The `viewBox`, if the root element has one.
    public let viewBox: CGRect?
    /// Things that were read but ignored (unknown elements and attributes, duplicate ids, and
    /// errors recovered from as SVG says); each distinct warning once, with a count.
    public let warnings: [SVGWarning]
    /// Features the document uses that Crisp does not draw; empty when it draws faithfully.
    public let unsupportedFeatures: [SVGUnsupportedFeature]

    /// The viewBox-to-viewport transform (viewport at the origin, `size` big).
    let viewBoxTransform: CGAffineTransform
    @_spi(Testing) public let root: SVGRenderNode

    /// Largest input accepted, in bytes.
    public static let maximumInputSize = 1 << 26

    /// Reads a document from the bytes of an SVG file (UTF-8).
    /// - Throws: `SVGError` for malformed or unreadable input.
    public convenience init(data: [UInt8], fontSettings: FontSettings? = nil) throws(SVGError) {
        try self.init(data: data, baseDirectory: nil, fontSettings: fontSettings)
    }

    /// The font source for `settings` (nil: the standard one), made once per settings: scanning
    /// the user's folders is not repeated for every document.
    static func fontSource(_ settings: FontSettings?) -> FontSource {
        guard let settings else { return .standard }
        return sourcesLock.withLock {
            if let s = sources[settings] { return s }
            let s = FontSource(settings: settings)
            if sources.count > 16 { sources.removeAll() }
            sources[settings] = s
            return s
        }
    }
    private static let sourcesLock = NSLock()
    nonisolated(unsafe) private static var sources: [FontSettings: FontSource] = [:]

    /// Reads a document; `<image>` files are looked for relative to `baseDirectory` (none: only
    /// `data:` images).
    convenience init(data: [UInt8], baseDirectory: String?, fontSettings: FontSettings? = nil) throws(SVGError) {
        try self.init(data: data, baseDirectory: baseDirectory, fontSource: SVGDocument.fontSource(fontSettings),
                      imageNesting: 0, imageBudget: SVGImageBudget())
    }

    /// Reads a document, as an `<image>` of another (`imageNesting` > 0) or on its own; the
    /// documents of one file's images share `imageBudget`.
    init(data: [UInt8], baseDirectory: String?, fontSource: FontSource, imageNesting: Int, imageBudget: SVGImageBudget) throws(SVGError) {
        guard data.count <= SVGDocument.maximumInputSize else {
            throw SVGError(.limitExceeded("the input is \(data.count) bytes; at most \(SVGDocument.maximumInputSize) are read"),
                           at: SVGSourceLocation(line: 1, column: 1))
        }
        var reader = XMLReader(bytes: data)
        let xml = try reader.readDocument()
        let builder = SVGBuilder(lines: reader.lines, baseDirectory: baseDirectory, fontSource: fontSource)
        builder.imageNesting = imageNesting
        builder.imageBudget = imageBudget
        let result = try builder.build(xml)
        size = result.size
        viewBox = result.viewBox
        viewBoxTransform = result.viewBoxTransform
        root = result.root
        warnings = builder.warnings
        unsupportedFeatures = builder.unsupported
    }

    /// Reads a document from SVG source text.
    public convenience init(string: String, fontSettings: FontSettings? = nil) throws(SVGError) {
        try self.init(data: Array(string.utf8), fontSettings: fontSettings)
    }

    /// Reads the SVG file at `path`.
    public convenience init(contentsOfFile path: String, fontSettings: FontSettings? = nil) throws(SVGError) {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = (error as? CocoaError)?.underlying.map { "\($0.localizedDescription)" } ?? error.localizedDescription
            throw SVGError(.readFailed(path: path, reason: reason), at: SVGSourceLocation(line: 0, column: 0))
        }
        try self.init(data: [UInt8](data), baseDirectory: URL(fileURLWithPath: path).deletingLastPathComponent().path,
                      fontSettings: fontSettings)
    }

    /// Whether every feature the document uses is drawn.
    public var isFullySupported: Bool { unsupportedFeatures.isEmpty }
}

extension CocoaError {
    fileprivate var underlying: Error? { userInfo[NSUnderlyingErrorKey] as? Error }
}
