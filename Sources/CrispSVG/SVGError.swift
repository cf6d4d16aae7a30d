import Foundation

/// A place in the SVG source: 1-based line and column (columns count UTF-8 bytes).
public struct SVGSourceLocation: Equatable, Hashable, Sendable, CustomStringConvertible {
    /// The line, starting at 1.
    public var line: Int
    /// The column in UTF-8 bytes, starting at 1.
    public var column: Int

    /// Creates a location.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "\(line):\(column)" }
}

/// Why an SVG document could not be read, with the place it was found — or, for the kinds SVG
/// says to recover from, what was recovered from.
///
/// Only what is not SVG at all is thrown: malformed XML, a root that is not `<svg>`, input over
/// the size and nesting limits, a file that cannot be read. Nothing is drawn from such a
/// document. The other kinds (an invalid value, bad path data, a missing, recursive or
/// wrong-type reference) follow SVG's error handling instead: the value is treated as absent,
/// a path is drawn up to its error, and the document reads with a warning
/// (`SVGDocument.warnings`) whose message is this error's `message`.
public struct SVGError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Equatable, Sendable {
        /// The bytes are not well-formed XML (the message says how).
        case malformedXML(String)
        /// The root element is not `<svg>` (it is the associated name).
        case notSVG(root: String)
        /// An attribute or style property has a value that does not parse.
        case invalidValue(attribute: String, value: String, reason: String)
        /// A path's `d` attribute (or a `points` list) stops parsing at the location.
        case invalidPathData(String)
        /// A `url(#id)` or `href` names an id that no element has.
        case missingReference(id: String)
        /// A chain of references leads back to where it started.
        case recursiveReference(id: String)
        /// A `url(#id)` names an element of the wrong kind (a clip path that is not a `clipPath`).
        case wrongReferenceType(id: String, expected: String, found: String)
        /// The document is too big or too deep to read safely (a size, a nesting depth, a count).
        case limitExceeded(String)
        /// The file could not be read.
        case readFailed(path: String, reason: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// Where it went wrong (line 0 when there is no place, like a file that cannot be read).
    public var location: SVGSourceLocation

    /// Creates an error.
    public init(_ kind: Kind, at location: SVGSourceLocation) {
        self.kind = kind
        self.location = location
    }

    /// The line, starting at 1.
    public var line: Int { location.line }
    /// The column in UTF-8 bytes, starting at 1.
    public var column: Int { location.column }

    /// What went wrong, without the place.
    public var message: String {
        switch kind {
        case .malformedXML(let m): return "malformed XML: \(m)"
        case .notSVG(let root): return "the root element is <\(root)>, not <svg>"
        case .invalidValue(let attribute, let value, let reason):
            return "invalid \(attribute)=\"\(value.count > 60 ? String(value.prefix(60)) + "…" : value)\": \(reason)"
        case .invalidPathData(let m): return "invalid path data: \(m)"
        case .missingReference(let id): return "no element has id \"\(id)\""
        case .recursiveReference(let id): return "reference to \"\(id)\" leads back to itself"
        case .wrongReferenceType(let id, let expected, let found):
            return "\"\(id)\" is a <\(found)>, expected \(expected)"
        case .limitExceeded(let m): return "limit exceeded: \(m)"
        case .readFailed(let path, let reason): return "cannot read \(path): \(reason)"
        }
    }

    public var description: String {
        if case .readFailed = kind { return message }
        return "\(location.line):\(location.column): \(message)"
    }
}

/// Something in the document that was read but will not be drawn as written: an unknown
/// element or attribute, a duplicate id, or an error SVG says to recover from (an invalid
/// value treated as absent, path data drawn up to its error, a missing or recursive reference).
/// Drawing goes on without it.
public struct SVGWarning: Equatable, Sendable, CustomStringConvertible {
    /// What was ignored and why.
    public var message: String
    /// Where (the first occurrence, when the same thing repeats).
    public var location: SVGSourceLocation
    /// How many times the same warning occurred.
    public var count: Int

    public var description: String {
        "\(location): warning: \(message)" + (count > 1 ? " (\(count) times)" : "")
    }
}

/// A feature the document uses that Crisp cannot draw yet (text, images, `use`, filters,
/// masks, …). A document with any of these draws without them,
/// so `crisp render` refuses it (exit status 77) instead of drawing something wrong.
public struct SVGUnsupportedFeature: Equatable, Sendable, CustomStringConvertible {
    /// What is not supported.
    public var reason: String
    /// Where it is used (the first occurrence).
    public var location: SVGSourceLocation

    public var description: String { "\(location): unsupported: \(reason)" }
}
