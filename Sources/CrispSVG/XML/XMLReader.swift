import Foundation

// A small, strict, non-validating XML 1.0 reader: enough of the specification for SVG files
// as editors write them, and strict about everything it reads, so malformed input is reported
// with a line and column instead of being guessed at.
//
// What it reads: the XML declaration and processing instructions (skipped), comments, CDATA
// sections, elements and attributes (names are kept qualified, `xlink:href`; namespaces are not
// resolved, which SVG in the wild does not need), the five predefined entities, character
// references, and a DOCTYPE whose internal subset declares general entities with literal values
// (old Illustrator files use them for namespace URLs; hand-written files for repeated markup).
// A reference to an entity whose value holds markup or references is parsed in place, as XML
// says: in content, its elements and text join the element the reference is in (they must close
// what they open); in an attribute value, its references are replaced in turn. Entities refer to
// entities at most `maximumEntityNesting` deep (a reference to itself is an error), and the
// total size of all replacement text is bounded by `maximumEntityExpansion`, so "billion laughs"
// stops with an error after 16 MiB instead of expanding to gigabytes. What an entity's markup
// holds is reported at the reference's place.
//
// Why not Foundation's XMLParser: on Linux it needs libxml2 through FoundationXML, its errors
// carry line numbers but not reliably columns, and its delegate API turns a tree walk into a
// state machine. A reader of our own is about 400 lines and gives every error a place.
//
// Offsets are bytes into the UTF-8 input; `LineTable` turns them into line and column only
// when an error or warning needs one.

/// Reads a complete XML document into an `XMLElement` tree.
struct XMLReader {
    /// Deepest element nesting accepted.
    static let maximumDepth = 256
    /// Largest total size of text produced by entity references.
    static let maximumEntityExpansion = 1 << 24
    /// Most entity references inside one another's replacement text.
    static let maximumEntityNesting = 16

    private let bytes: [UInt8]
    private var i = 0
    let lines: LineTable
    private var entities: [String: String] = [:]
    private var expandedEntityBytes = 0
    /// For the replacement text of an entity: the offset, in the document, of the reference
    /// every position is reported at; and how many entities deep it is.
    private var fixedOffset: Int?
    private var entityNesting = 0
    /// The element nesting outside this replacement text (counts against `maximumDepth`), and
    /// the nesting where text is being read.
    private var outerDepth = 0
    private var textDepth = 0
    /// Entity values parsed (markup or references in them) so far, bounded by
    /// `maximumEntityParses`: each costs a reader, however short its value.
    private var entityParses = 0
    static let maximumEntityParses = 100_000

    init(bytes: [UInt8]) {
        self.bytes = bytes
        self.lines = LineTable(bytes)
    }

    /// A reader of `name`'s replacement text, referred to at `offset` of `outer`'s input.
    private init(entity name: String, value: String, of outer: XMLReader, at offset: Int) throws(SVGError) {
        guard outer.entityNesting < XMLReader.maximumEntityNesting else {
            throw SVGError(.limitExceeded("entity references nested more than \(XMLReader.maximumEntityNesting) deep (&\(name);)"),
                           at: outer.lines.location(of: offset))
        }
        bytes = Array(value.utf8)
        lines = outer.lines
        entities = outer.entities
        expandedEntityBytes = outer.expandedEntityBytes
        entityParses = outer.entityParses + 1
        guard entityParses <= XMLReader.maximumEntityParses else {
            throw SVGError(.limitExceeded("more than \(XMLReader.maximumEntityParses) entity references with markup or references in their values"),
                           at: outer.lines.location(of: offset))
        }
        fixedOffset = offset
        entityNesting = outer.entityNesting + 1
    }

    /// Where position `k` of this input is reported: itself, or the entity reference's place.
    private func place(_ k: Int) -> Int { fixedOffset ?? k }

    // MARK: Errors

    private func error(_ message: String, at offset: Int) -> SVGError {
        SVGError(.malformedXML(message), at: lines.location(of: fixedOffset ?? min(offset, bytes.count)))
    }

    // MARK: Document

    /// Parses the whole input and returns the root element.
    mutating func readDocument() throws(SVGError) -> XMLElement {
        if bytes.count >= 2, (bytes[0] == 0xFE && bytes[1] == 0xFF) || (bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw error("UTF-16 input is not supported (save the file as UTF-8)", at: 0)
        }
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { i = 3 }
        var root: XMLElement?
        while true {
            skipWhiteSpace()
            guard i < bytes.count else { break }
            guard bytes[i] == UInt8(ascii: "<") else {
                throw error(root == nil ? "expected '<' to start the root element" : "text after the root element", at: i)
            }
            if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<!DOCTYPE") {
                guard root == nil else { throw error("DOCTYPE after the root element", at: i) }
                try readDoctype()
            } else if root == nil {
                root = try readElementTree()
            } else {
                throw error("a second root element", at: i)
            }
        }
        guard let root else { throw error("no root element", at: bytes.count) }
        return root
    }

    /// Reads an element and everything inside it, keeping open elements on an explicit stack
    /// (no recursion, so depth is limited by `maximumDepth`, not by the thread's stack).
    private mutating func readElementTree() throws(SVGError) -> XMLElement {
        // Opening the root.
        let (first, firstIsEmpty) = try readStartTag()
        if firstIsEmpty { return first }
        var stack = [first]
        while let current = stack.last {
            guard i < bytes.count else {
                throw error("<\(current.name)> opened at \(lines.location(of: current.offset)) is never closed", at: i)
            }
            try readContentItem(&stack, floor: 0)
        }
        return first
    }

    /// Reads an entity's replacement text as content of `parent` (elements, text, references);
    /// what it opens it must close.
    private mutating func readFragment(into parent: XMLElement) throws(SVGError) {
        var stack = [parent]
        while i < bytes.count { try readContentItem(&stack, floor: 1) }
        guard stack.count == 1 else { throw error("<\(stack.last!.name)> opened in an entity is not closed in it", at: i) }
    }

    /// Reads one piece of content (text, an end tag, a comment, CDATA, a processing instruction
    /// or a start tag) inside `stack.last`; an end tag may not close `stack[floor - 1]` or below.
    private mutating func readContentItem(_ stack: inout [XMLElement], floor: Int) throws(SVGError) {
        let current = stack.last!
        if bytes[i] != UInt8(ascii: "<") {
            textDepth = outerDepth + stack.count
            try readText(into: current)
        } else if starts(with: "</") {
            let start = i
            i += 2
            let name = try readName()
            skipWhiteSpace()
            try expect(">")
            guard stack.count > floor else { throw error("</\(name)> in an entity closes an element the entity did not open", at: start) }
            guard name == current.name else {
                throw error("</\(name)> does not close <\(current.name)> opened at \(lines.location(of: current.offset))", at: start)
            }
            stack.removeLast()
        } else if starts(with: "<!--") {
            try skipComment()
        } else if starts(with: "<![CDATA[") {
            let start = i + 9
            guard let end = find("]]>", from: start) else { throw error("unterminated CDATA section", at: i) }
            appendText(bytes[start..<end], to: current, at: place(start))
            i = end + 3
        } else if starts(with: "<?") {
            try skipProcessingInstruction()
        } else if starts(with: "<!") {
            throw error("unexpected markup declaration inside an element", at: i)
        } else {
            let (child, isEmpty) = try readStartTag()
            current.children.append(child)
            if !isEmpty {
                guard outerDepth + stack.count < XMLReader.maximumDepth else {
                    throw SVGError(.limitExceeded("elements nested more than \(XMLReader.maximumDepth) deep"),
                                   at: lines.location(of: child.offset))
                }
                stack.append(child)
            }
        }
    }

    /// Reads `<name attr="value" …>` or `<name … />`.
    private mutating func readStartTag() throws(SVGError) -> (XMLElement, isEmpty: Bool) {
        let start = i
        i += 1
        let name = try readName()
        var attributes: [XMLAttribute] = []
        while true {
            let hadSpace = skipWhiteSpace()
            guard i < bytes.count else { throw error("unterminated start tag <\(name)", at: start) }
            if bytes[i] == UInt8(ascii: ">") {
                i += 1
                return (XMLElement(name: name, attributes: attributes, offset: place(start)), false)
            }
            if starts(with: "/>") {
                i += 2
                return (XMLElement(name: name, attributes: attributes, offset: place(start)), true)
            }
            guard hadSpace else { throw error("expected white space, '>' or '/>' in <\(name)>", at: i) }
            let nameOffset = i
            let attributeName = try readName()
            skipWhiteSpace()
            try expect("=")
            skipWhiteSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") else {
                throw error("attribute \(attributeName) needs a quoted value", at: i)
            }
            let quote = bytes[i]
            i += 1
            let valueOffset = i
            let value = try readAttributeValue(quote: quote)
            if attributes.contains(where: { $0.name == attributeName }) {
                throw error("attribute \(attributeName) appears twice", at: nameOffset)
            }
            attributes.append(XMLAttribute(name: attributeName, value: value, nameOffset: place(nameOffset), valueOffset: place(valueOffset)))
        }
    }

    /// Reads an attribute value up to the closing `quote`, replacing references.
    private mutating func readAttributeValue(quote: UInt8) throws(SVGError) -> String {
        let start = i
        // Most values hold no reference: skip to the first byte that needs a look (the quote,
        // `<` or `&`) in a plain loop, then go on byte by byte from there.
        i = bytes.withUnsafeBufferPointer { b in
            var k = start
            while k < b.count, b[k] != quote, b[k] != UInt8(ascii: "<"), b[k] != UInt8(ascii: "&") { k += 1 }
            return k
        }
        var decoded: [UInt8]?
        while true {
            guard i < bytes.count else { throw error("unterminated attribute value", at: start - 1) }
            let b = bytes[i]
            if b == quote { break }
            if b == UInt8(ascii: "<") { throw error("'<' in an attribute value", at: i) }
            if b == UInt8(ascii: "&") {
                if decoded == nil { decoded = Array(bytes[start..<i]) }
                decoded! += try readReference()
                continue
            }
            decoded?.append(b)
            i += 1
        }
        let raw = decoded.map { $0[...] } ?? bytes[start..<i]
        i += 1
        return try string(raw, at: start)
    }

    /// Reads character data up to the next `<`, appending it unless it is all white space.
    private mutating func readText(into element: XMLElement) throws(SVGError) {
        var start = i
        var decoded: [UInt8]?
        while i < bytes.count, bytes[i] != UInt8(ascii: "<") {
            if bytes[i] == UInt8(ascii: "&") {
                if let (name, value) = markupEntity() {
                    // Its markup is parsed in place: the text so far first.
                    if let d = decoded { appendText(d[...], to: element, at: place(start)) } else { appendText(bytes[start..<i], to: element, at: place(start)) }
                    let reference = i
                    i += name.utf8.count + 2
                    try expand(name, value, at: reference, into: element)
                    start = i
                    decoded = nil
                    continue
                }
                if decoded == nil { decoded = Array(bytes[start..<i]) }
                decoded! += try readReference()
                continue
            }
            decoded?.append(bytes[i])
            i += 1
        }
        if let decoded { appendText(decoded[...], to: element, at: place(start)) } else { appendText(bytes[start..<i], to: element, at: place(start)) }
    }

    /// The declared entity referred to at `i` (`&name;`) when its value holds markup or
    /// references (then it is parsed, not inserted as text).
    private func markupEntity() -> (String, String)? {
        guard !entities.isEmpty, let end = find(";", from: i + 1, limit: 64), end > i + 1, bytes[i + 1] != UInt8(ascii: "#") else { return nil }
        let name = String(decoding: bytes[(i + 1)..<end], as: UTF8.self)
        guard let value = entities[name], value.utf8.contains(where: { $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: "&") }) else { return nil }
        return (name, value)
    }

    /// Parses entity `name`'s replacement text into `element`, referred to at `reference`.
    private mutating func expand(_ name: String, _ value: String, at reference: Int, into element: XMLElement) throws(SVGError) {
        try countExpansion(value.utf8.count, at: reference)
        var sub = try XMLReader(entity: name, value: value, of: self, at: place(reference))
        sub.outerDepth = textDepth
        try sub.readFragment(into: element)
        expandedEntityBytes = sub.expandedEntityBytes
        entityParses = sub.entityParses
    }

    private mutating func countExpansion(_ n: Int, at offset: Int) throws(SVGError) {
        expandedEntityBytes += n
        guard expandedEntityBytes <= XMLReader.maximumEntityExpansion else {
            throw SVGError(.limitExceeded("entity references expand to more than \(XMLReader.maximumEntityExpansion) bytes"),
                           at: lines.location(of: place(offset)))
        }
    }

    /// Whether an element's character data is laid out, white space and all (a switch, not a
    /// set: it is asked for every run of white space between tags).
    private static func isTextElement(_ name: String) -> Bool {
        switch name {
        case "text", "tspan", "textPath", "a": return true
        default: return false
        }
    }

    private func appendText(_ text: ArraySlice<UInt8>, to element: XMLElement, at offset: Int) {
        if XMLReader.isTextElement(element.name), !text.isEmpty {
            element.textRuns.append(XMLTextRun(text: String(decoding: text, as: UTF8.self), childIndex: element.children.count,
                                               offset: offset))
        }
        guard text.contains(where: { !XMLReader.isWhiteSpace($0) }) || !element.text.isEmpty else { return }
        element.text += String(decoding: text, as: UTF8.self)
    }

    /// Reads `&name;`, `&#N;` or `&#xH;` at `i` and returns its replacement text.
    private mutating func readReference() throws(SVGError) -> [UInt8] {
        let start = i
        i += 1
        guard let end = find(";", from: i, limit: 64) else { throw error("'&' that does not start a reference (write &amp;)", at: start) }
        let body = bytes[i..<end]
        i = end + 1
        if body.first == UInt8(ascii: "#") {
            let hex = body.dropFirst().first == UInt8(ascii: "x")
            let digits = body.dropFirst(hex ? 2 : 1)
            var value: UInt32 = 0
            guard !digits.isEmpty else { throw error("empty character reference", at: start) }
            for d in digits {
                guard let v = XMLReader.digitValue(d, hex: hex), value < 0x11_0000 else {
                    throw error("invalid character reference", at: start)
                }
                value = value * (hex ? 16 : 10) + v
            }
            guard let scalar = Unicode.Scalar(value), value != 0, value < 0x11_0000 else {
                throw error("character reference to an invalid character", at: start)
            }
            return Array(String(Character(scalar)).utf8)
        }
        let name = String(decoding: body, as: UTF8.self)
        let replacement: String
        switch name {
        case "lt": replacement = "<"
        case "gt": replacement = ">"
        case "amp": replacement = "&"
        case "apos": replacement = "'"
        case "quot": replacement = "\""
        default:
            guard let value = entities[name] else { throw error("undeclared entity &\(name);", at: start) }
            if value.utf8.contains(UInt8(ascii: "&")) {
                // References inside the value are replaced in turn (an attribute value, or text
                // whose value has no markup).
                try countExpansion(value.utf8.count, at: start)
                var sub = try XMLReader(entity: name, value: value, of: self, at: place(start))
                let expanded = try sub.replacingReferences()
                expandedEntityBytes = sub.expandedEntityBytes
                entityParses = sub.entityParses
                return expanded
            }
            replacement = value
        }
        try countExpansion(replacement.utf8.count, at: start)
        return Array(replacement.utf8)
    }

    /// The whole input with its references replaced (an entity's value used in an attribute).
    private mutating func replacingReferences() throws(SVGError) -> [UInt8] {
        var out: [UInt8] = []
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "&") {
                out += try readReference()
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return out
    }

    // MARK: Prolog

    private mutating func skipProcessingInstruction() throws(SVGError) {
        guard let end = find("?>", from: i + 2) else { throw error("unterminated processing instruction", at: i) }
        i = end + 2
    }

    private mutating func skipComment() throws(SVGError) {
        guard let end = find("--", from: i + 4) else { throw error("unterminated comment", at: i) }
        guard end + 2 < bytes.count, bytes[end + 2] == UInt8(ascii: ">") else { throw error("'--' inside a comment", at: end) }
        i = end + 3
    }

    /// Reads `<!DOCTYPE name [ExternalID] [[internal subset]]>`, keeping general entity
    /// declarations with literal values.
    private mutating func readDoctype() throws(SVGError) {
        let start = i
        i += 9
        guard skipWhiteSpace() else { throw error("expected white space after <!DOCTYPE", at: i) }
        _ = try readName()
        while true {
            skipWhiteSpace()
            guard i < bytes.count else { throw error("unterminated DOCTYPE", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: ">") { i += 1; return }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                _ = try readQuoted()
            } else if b == UInt8(ascii: "[") {
                i += 1
                try readInternalSubset()
            } else if XMLReader.isNameByte(b) {
                _ = try readName()   // SYSTEM / PUBLIC
            } else {
                throw error("unexpected character in DOCTYPE", at: i)
            }
        }
    }

    private mutating func readInternalSubset() throws(SVGError) {
        while true {
            skipWhiteSpace()
            guard i < bytes.count else { throw error("unterminated DOCTYPE internal subset", at: i) }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return }
            if starts(with: "<!--") {
                try skipComment()
            } else if starts(with: "<?") {
                try skipProcessingInstruction()
            } else if starts(with: "<!ENTITY") {
                try readEntityDeclaration()
            } else if starts(with: "<!") {
                // ELEMENT, ATTLIST, NOTATION: skipped, quotes respected.
                i += 2
                while true {
                    guard i < bytes.count else { throw error("unterminated markup declaration", at: i) }
                    if bytes[i] == UInt8(ascii: ">") { i += 1; break }
                    if bytes[i] == UInt8(ascii: "\"") || bytes[i] == UInt8(ascii: "'") { _ = try readQuoted() } else { i += 1 }
                }
            } else if bytes[i] == UInt8(ascii: "%") {
                guard let end = find(";", from: i, limit: 256) else { throw error("unterminated parameter-entity reference", at: i) }
                i = end + 1
            } else {
                throw error("unexpected character in DOCTYPE internal subset", at: i)
            }
        }
    }

    private mutating func readEntityDeclaration() throws(SVGError) {
        let start = i
        i += 8
        guard skipWhiteSpace() else { throw error("expected white space after <!ENTITY", at: i) }
        var isParameter = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "%") {
            isParameter = true
            i += 1
            skipWhiteSpace()
        }
        let name = try readName()
        skipWhiteSpace()
        var value: String?
        while true {
            guard i < bytes.count else { throw error("unterminated entity declaration", at: start) }
            let b = bytes[i]
            if b == UInt8(ascii: ">") { i += 1; break }
            if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                let literal = try readQuoted()
                if value == nil { value = literal }
            } else if XMLReader.isNameByte(b) {
                _ = try readName()   // SYSTEM, PUBLIC, NDATA: external entities are not loaded
                value = value ?? ""
            } else if XMLReader.isWhiteSpace(b) {
                i += 1
            } else {
                throw error("unexpected character in entity declaration", at: i)
            }
        }
        if !isParameter, entities[name] == nil { entities[name] = value ?? "" }
    }

    /// Reads a quoted literal (no references replaced) at `i`.
    private mutating func readQuoted() throws(SVGError) -> String {
        let quote = bytes[i]
        let start = i + 1
        guard let end = bytes[start...].firstIndex(of: quote) else { throw error("unterminated quoted literal", at: i) }
        i = end + 1
        return try string(bytes[start..<end], at: start)
    }

    // MARK: Lexical helpers

    static func isWhiteSpace(_ b: UInt8) -> Bool {
        b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09
    }

    /// Name characters: ASCII letters, digits, `_ : - .`, and any byte of a multi-byte UTF-8
    /// sequence (non-ASCII name characters are accepted without checking their classes).
    static func isNameByte(_ b: UInt8) -> Bool {
        (b >= 0x61 && b <= 0x7A) || (b >= 0x41 && b <= 0x5A) || (b >= 0x30 && b <= 0x39)
            || b == UInt8(ascii: "_") || b == UInt8(ascii: ":") || b == UInt8(ascii: "-") || b == UInt8(ascii: ".") || b >= 0x80
    }

    private static func digitValue(_ d: UInt8, hex: Bool) -> UInt32? {
        switch d {
        case 0x30...0x39: return UInt32(d - 0x30)
        case 0x61...0x66 where hex: return UInt32(d - 0x61 + 10)
        case 0x41...0x46 where hex: return UInt32(d - 0x41 + 10)
        default: return nil
        }
    }

    @discardableResult
    private mutating func skipWhiteSpace() -> Bool {
        let start = i
        while i < bytes.count, XMLReader.isWhiteSpace(bytes[i]) { i += 1 }
        return i > start
    }

    private mutating func readName() throws(SVGError) -> String {
        let start = i
        guard i < bytes.count else { throw error("expected a name", at: i) }
        let b = bytes[i]
        guard XMLReader.isNameByte(b), !(b >= 0x30 && b <= 0x39), b != UInt8(ascii: "-"), b != UInt8(ascii: ".") else {
            throw error("expected a name", at: i)
        }
        while i < bytes.count, XMLReader.isNameByte(bytes[i]) { i += 1 }
        return try string(bytes[start..<i], at: start)
    }

    private mutating func expect(_ s: StaticString) throws(SVGError) {
        guard starts(with: s) else { throw error("expected '\(s)'", at: i) }
        i += s.utf8CodeUnitCount
    }

    private func starts(with s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard i + n <= bytes.count else { return false }
        let p = s.utf8Start
        for k in 0..<n where bytes[i + k] != p[k] { return false }
        return true
    }

    /// The offset of the next occurrence of `s` at or after `from` (within `limit` bytes if given).
    private func find(_ s: StaticString, from: Int, limit: Int = .max) -> Int? {
        let n = s.utf8CodeUnitCount
        let p = s.utf8Start
        let last = min(bytes.count - n, limit == .max ? .max : from + limit)
        guard from <= last else { return nil }
        var k = from
        while k <= last {
            if bytes[k] == p[0] {
                var match = true
                for j in 1..<n where bytes[k + j] != p[j] { match = false; break }
                if match { return k }
            }
            k += 1
        }
        return nil
    }

    /// The bytes as a String, which must be valid UTF-8. ASCII, which names and most values are,
    /// is valid as it is and skips the validating initializer's slow path for array slices.
    private func string(_ slice: ArraySlice<UInt8>, at offset: Int) throws(SVGError) -> String {
        if slice.allSatisfy({ $0 < 0x80 }) { return String(decoding: slice, as: UTF8.self) }
        guard let s = String(validating: slice, as: UTF8.self) else { throw error("invalid UTF-8", at: offset) }
        return s
    }
}
