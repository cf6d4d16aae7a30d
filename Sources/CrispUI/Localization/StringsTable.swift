import Foundation

// A reader for Apple's `.strings` files — the old-style property list subset localizers know:
//
//     /* Axis label of the signal graph */
//     "signal quality" = "Signalqualität";
//     // line comments too
//     "quote" = "\"Ja\"\n\U00B0";
//     simple_key = unquoted_value;
//     "same";                          (the value is the key)
//
// Escapes in quoted strings: \" \\ \n \t \r \0 \' and \Uxxxx or \uxxxx (four hex digits; a
// UTF-16 surrogate pair written as two escapes makes one scalar); any other escaped character
// stands for itself. Quoted strings may span lines.
//
// A broken entry does not lose the file: the reader records a problem with the line it was
// found on and goes on with the next line (or, when the error was only noticed on a later line
// — a missing semicolon — from the start of that line), so every well-formed entry still loads.
// Only an unterminated comment ends the file early. A hand-written scanner rather than
// PropertyListSerialization: Foundation's parser stops at the first error and reports no line.

/// A problem in a `.strings` file.
public struct StringsFileProblem: Error, Equatable, CustomStringConvertible, Sendable {
    /// The file's name (or a label for text that did not come from a file).
    public var file: String
    /// The 1-based line the problem was found on.
    public var line: Int
    /// What is wrong.
    public var message: String

    /// A problem on `line` of `file`.
    public init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    public var description: String { "\(file):\(line): \(message)" }
}

/// The key–value pairs of one `.strings` file, with any problems found reading it.
public struct StringsTable: Sendable, Equatable {
    /// Every well-formed entry; a key given twice keeps its last value.
    public private(set) var entries: [String: String] = [:]
    /// Problems, in file order. Entries around them are still read.
    public private(set) var problems: [StringsFileProblem] = []

    /// The value for `key`, if the table has one.
    public subscript(key: String) -> String? { entries[key] }

    /// Parses `.strings` text; `fileName` labels problems.
    public init(parsing text: String, fileName: String = "<strings>") {
        var scanner = Scanner(text: text, file: fileName)
        scanner.run()
        entries = scanner.entries
        problems = scanner.problems
    }

    /// Reads a `.strings` file in UTF-8 (with or without a byte order mark) or UTF-16 (with one).
    ///
    /// - Throws: the file system's error when the file cannot be read. Malformed content is not
    ///   an error; see `problems`.
    public init(contentsOf url: URL) throws {
        let data = try Data(contentsOf: url)
        let name = url.lastPathComponent
        let bytes = [UInt8](data)
        let text: String
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            let littleEndian = bytes[0] == 0xFF
            var units: [UInt16] = []
            var i = 2
            while i + 1 < bytes.count {
                let (lo, hi) = littleEndian ? (bytes[i], bytes[i + 1]) : (bytes[i + 1], bytes[i])
                units.append(UInt16(hi) << 8 | UInt16(lo))
                i += 2
            }
            text = String(decoding: units, as: UTF16.self)
        } else {
            let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
            text = String(decoding: body, as: UTF8.self)
        }
        self.init(parsing: text, fileName: name)
    }
}

extension StringsTable {
    fileprivate struct Scanner {
        let chars: [Unicode.Scalar]
        let file: String
        var position = 0
        var line = 1
        var entries: [String: String] = [:]
        var problems: [StringsFileProblem] = []

        /// The index of each line's first character (line n starts at `lineStarts[n - 1]`).
        let lineStarts: [Int]

        init(text: String, file: String) {
            let scalars = Array(text.unicodeScalars)
            chars = scalars
            self.file = file
            lineStarts = [0] + scalars.indices.filter { scalars[$0] == "\n" }.map { $0 + 1 }
        }

        /// A parse failure at `line`; a fatal one (an unterminated comment) ends the file.
        struct Failure: Error {
            var line: Int
            var message: String
            var isFatal = false
        }

        var isAtEnd: Bool { position >= chars.count }
        var current: Unicode.Scalar? { isAtEnd ? nil : chars[position] }

        mutating func advance() {
            if chars[position] == "\n" { line += 1 }
            position += 1
        }

        mutating func run() {
            while true {
                var entryLine = line
                do throws(Failure) {
                    try skipTrivia()
                    if isAtEnd { return }
                    entryLine = line
                    try parseEntry()
                } catch {
                    problems.append(StringsFileProblem(file: file, line: error.line, message: error.message))
                    if error.isFatal { return }
                    recover(entryLine: entryLine, errorLine: error.line)
                }
            }
        }

        /// Resumes at the start of the line the error was noticed on when that is past the
        /// entry's first line, else at the line after the entry's first.
        mutating func recover(entryLine: Int, errorLine: Int) {
            let target = errorLine > entryLine ? errorLine : entryLine + 1
            if target - 1 < lineStarts.count {
                position = lineStarts[target - 1]
                line = target
            } else {
                position = chars.count
            }
        }

        mutating func parseEntry() throws(Failure) {
            let key = try parseString(role: "key")
            try skipTrivia()
            let value: String
            switch current {
            case ";":
                value = key
            case "=":
                advance()
                try skipTrivia()
                value = try parseString(role: "value")
                try skipTrivia()
                guard current == ";" else { throw Failure(line: line, message: "expected ';' after the value of \"\(key)\"") }
            case nil:
                throw Failure(line: line, message: "unexpected end of file after key \"\(key)\"")
            case let c?:
                throw Failure(line: line, message: "expected '=' after key \"\(key)\", found '\(c)'")
            }
            advance()   // the ';'
            entries[key] = value
        }

        static func isUnquotedCharacter(_ c: Unicode.Scalar) -> Bool {
            c.properties.isAlphabetic || ("0"..."9").contains(c) || "_$:./-+".unicodeScalars.contains(c)
        }

        mutating func parseString(role: String) throws(Failure) -> String {
            guard let first = current else { throw Failure(line: line, message: "expected a \(role)") }
            if first != "\"" {
                guard Scanner.isUnquotedCharacter(first) else {
                    throw Failure(line: line, message: "expected a quoted \(role), found '\(first)'")
                }
                var s = String.UnicodeScalarView()
                while let c = current, Scanner.isUnquotedCharacter(c) { s.append(c); advance() }
                return String(s)
            }
            let startLine = line
            advance()
            var s = String.UnicodeScalarView()
            var pendingHighSurrogate: UInt32?
            while true {
                guard let c = current else { throw Failure(line: startLine, message: "unterminated string") }
                advance()
                if c == "\"" { break }
                if c != "\\" {
                    if pendingHighSurrogate != nil {
                        throw Failure(line: line, message: "unpaired UTF-16 surrogate escape")
                    }
                    s.append(c)
                    continue
                }
                guard let e = current else { throw Failure(line: startLine, message: "unterminated string") }
                advance()
                if e == "U" || e == "u" {
                    var v: UInt32 = 0
                    for _ in 0..<4 {
                        guard let h = current, h.isASCII, let d = UInt32(String(h), radix: 16) else {
                            throw Failure(line: line, message: "\\\(e) needs four hexadecimal digits")
                        }
                        v = v << 4 | d
                        advance()
                    }
                    if (0xD800...0xDBFF).contains(v) {
                        guard pendingHighSurrogate == nil else { throw Failure(line: line, message: "unpaired UTF-16 surrogate escape") }
                        pendingHighSurrogate = v
                        continue
                    }
                    if (0xDC00...0xDFFF).contains(v) {
                        guard let high = pendingHighSurrogate else { throw Failure(line: line, message: "unpaired UTF-16 surrogate escape") }
                        pendingHighSurrogate = nil
                        v = 0x10000 + ((high - 0xD800) << 10) + (v - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(v) else { throw Failure(line: line, message: "invalid escape \\\(e)") }
                    s.append(scalar)
                    continue
                }
                if pendingHighSurrogate != nil { throw Failure(line: line, message: "unpaired UTF-16 surrogate escape") }
                switch e {
                case "n": s.append("\n")
                case "t": s.append("\t")
                case "r": s.append("\r")
                case "0": s.append("\0")
                default: s.append(e)          // \" \\ \' and anything else: the character itself
                }
            }
            if pendingHighSurrogate != nil { throw Failure(line: line, message: "unpaired UTF-16 surrogate escape") }
            return String(s)
        }

        /// Skips white space and comments.
        mutating func skipTrivia() throws(Failure) {
            while let c = current {
                if c.properties.isWhitespace || c == "\u{FEFF}" {
                    advance()
                } else if c == "/", position + 1 < chars.count, chars[position + 1] == "/" {
                    while let d = current, d != "\n" { advance() }
                } else if c == "/", position + 1 < chars.count, chars[position + 1] == "*" {
                    let startLine = line
                    advance(); advance()
                    while true {
                        guard let d = current else { throw Failure(line: startLine, message: "unterminated comment", isFatal: true) }
                        if d == "*", position + 1 < chars.count, chars[position + 1] == "/" { advance(); advance(); break }
                        advance()
                    }
                } else {
                    return
                }
            }
        }
    }
}
