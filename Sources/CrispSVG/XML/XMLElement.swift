import Foundation

/// An attribute as written: qualified name, decoded value, and where the value starts.
struct XMLAttribute {
    /// The qualified name (`fill`, `xlink:href`).
    var name: String
    /// The value with entity and character references replaced.
    var value: String
    /// Byte offset of the attribute's name in the source.
    var nameOffset: Int
    /// Byte offset of the value's first character in the source.
    var valueOffset: Int
}

/// An element of the document tree that `XMLReader` builds. Text content is kept only when it
/// is not all white space (SVG's drawing elements ignore it; `<style>` is reported from it).
final class XMLElement {
    /// The qualified name (`svg`, `sodipodi:namedview`).
    var name: String
    /// The attributes in source order (names are unique).
    var attributes: [XMLAttribute]
    /// The child elements in source order.
    var children: [XMLElement] = []
    /// The concatenated character data, when any of it is not white space.
    var text = ""
    /// The character data in pieces, white space included, each with the number of child
    /// elements before it: kept only for the elements that lay out text (`text`, `tspan`,
    /// `textPath`, `a`), where it interleaves with child elements.
    var textRuns: [XMLTextRun] = []
    /// Byte offset of the `<` that opens the element.
    let offset: Int

    init(name: String, attributes: [XMLAttribute], offset: Int) {
        self.name = name
        self.attributes = attributes
        self.offset = offset
    }

    /// The attribute named `name`, if present.
    func attribute(_ name: String) -> XMLAttribute? {
        attributes.first { $0.name == name }
    }
}

/// A piece of character data inside a text element.
struct XMLTextRun {
    /// The text, references replaced.
    var text: String
    /// How many child elements come before it.
    var childIndex: Int
    /// Byte offset of its first character.
    var offset: Int
}

/// Maps byte offsets to 1-based line and column numbers.
struct LineTable: Sendable {
    /// Offsets at which lines start (line 1 starts at 0).
    private let lineStarts: [Int]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { starts.append(i + 1) }
        lineStarts = starts
    }

    /// The location of byte `offset`.
    func location(of offset: Int) -> SVGSourceLocation {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return SVGSourceLocation(line: lo + 1, column: offset - lineStarts[lo] + 1)
    }
}
