import Foundation

// The CSS that exporters put in `<style>`: rules of selector lists and declarations. Selectors
// are what Illustrator, Inkscape, Figma and Sketch write — type, `*`, `.class`, `#id`,
// attribute tests (`[a]`, `[a=v]`, `~=`, `|=`, `^=`, `$=`, `*=`), `:first-child`, descendant
// and child combinators, comma lists — with CSS specificity. A rule with anything else (other
// pseudo-classes, sibling combinators, at-rules) is skipped whole, with a warning, as CSS skips
// a rule it cannot parse.
//
// Matching happens once, before the tree walk (SVGBuilder+Cascade): rules are indexed by the
// rightmost compound's most selective part (id, else a class, else the type, else universal),
// so each element is tested against the few rules that can match it, not against the sheet.

/// One compound selector: all its simple selectors must match the same element.
struct SVGCompoundSelector {
    enum AttributeTest {
        case exists, equals(String), includes(String), dashMatch(String), prefix(String), suffix(String), substring(String)
    }
    var type: String?
    var id: String?
    var classes: [String] = []
    var attributes: [(name: String, test: AttributeTest)] = []
    var isFirstChild = false

    func matches(_ e: XMLElement, isFirstChild first: Bool) -> Bool {
        if let type, e.name != type { return false }
        if let id, e.attribute("id")?.value != id { return false }
        if isFirstChild && !first { return false }
        if !classes.isEmpty {
            let own = e.attribute("class")?.value.split(whereSeparator: \.isWhitespace) ?? []
            for c in classes where !own.contains(Substring(c)) { return false }
        }
        for (name, test) in attributes {
            guard let value = e.attribute(name)?.value else { return false }
            switch test {
            case .exists: break
            case .equals(let v): if value != v { return false }
            case .includes(let v): if !value.split(whereSeparator: \.isWhitespace).contains(Substring(v)) { return false }
            case .dashMatch(let v): if value != v && !value.hasPrefix(v + "-") { return false }
            case .prefix(let v): if v.isEmpty || !value.hasPrefix(v) { return false }
            case .suffix(let v): if v.isEmpty || !value.hasSuffix(v) { return false }
            case .substring(let v): if v.isEmpty || !value.contains(v) { return false }
            }
        }
        return true
    }
}

/// A complex selector: compounds from left to right; a compound's `isChild` says whether it is
/// joined to the one before it by a child combinator (`>`) rather than a descendant one.
struct SVGSelector {
    var compounds: [(compound: SVGCompoundSelector, isChild: Bool)]
    /// (ids, classes + attributes + pseudo-classes, types), packed so larger compares greater.
    var specificity: Int

    /// Whether the selector matches `e`, whose ancestors are `ancestors` (root first) and
    /// `firstChildFlags` says which of them (and `e`, last) are first element children.
    func matches(_ e: XMLElement, ancestors: [XMLElement], firstChildFlags: [Bool]) -> Bool {
        guard let last = compounds.last, last.compound.matches(e, isFirstChild: firstChildFlags.last ?? false) else { return false }
        return matchAncestors(from: compounds.count - 2, below: ancestors.count, isChild: last.isChild,
                              ancestors: ancestors, flags: firstChildFlags)
    }

    /// Matches compounds[...k] against ancestors above index `limit`.
    private func matchAncestors(from k: Int, below limit: Int, isChild: Bool, ancestors: [XMLElement], flags: [Bool]) -> Bool {
        guard k >= 0 else { return true }
        var i = limit - 1
        while i >= 0 {
            if compounds[k].compound.matches(ancestors[i], isFirstChild: flags[i]),
               matchAncestors(from: k - 1, below: i, isChild: compounds[k].isChild, ancestors: ancestors, flags: flags) {
                return true
            }
            if isChild { return false }
            i -= 1
        }
        return false
    }
}

/// A parsed `<style>` sheet.
struct SVGStyleSheet {
    struct Rule {
        var selector: SVGSelector
        var declarations: [(name: String, value: String, isImportant: Bool)]
        /// Position in the sheet (later wins among equal specificity).
        var order: Int
    }

    private(set) var rules: [Rule] = []
    /// Rules by the key of their rightmost compound: "#id", ".class", "type" or "*".
    private(set) var index: [String: [Int]] = [:]
    /// Why rules were skipped (one message per skipped rule).
    private(set) var problems: [String] = []

    var isEmpty: Bool { rules.isEmpty }

    /// Adds the rules of one sheet's text.
    mutating func add(_ text: String) {
        var s = Substring(SVGStyleSheet.removingComments(text))
        while true {
            s = s.drop(while: \.isWhitespace)
            guard !s.isEmpty else { return }
            if s.hasPrefix("@") {
                // At-rules: a statement to the next ';' or a block; skipped.
                let name = s.prefix { !$0.isWhitespace && $0 != "{" && $0 != ";" }
                problems.append("\(name) rule in <style> (skipped)")
                guard let brace = s.firstIndex(where: { $0 == "{" || $0 == ";" }) else { return }
                s = s[s[brace] == ";" ? s.index(after: brace)... : SVGStyleSheet.afterBlock(s, from: brace)...]
                continue
            }
            guard let open = s.firstIndex(of: "{") else {
                problems.append("text without a { … } block in <style> (skipped)")
                return
            }
            let selectorText = s[..<open]
            let close = s[open...].firstIndex(of: "}") ?? s.endIndex
            let body = s[s.index(after: open)..<close]
            s = close == s.endIndex ? s[close...] : s[s.index(after: close)...]
            let declarations = SVGStyleSheet.declarations(body)
            var selectors: [SVGSelector] = []
            for part in selectorText.split(separator: ",") {
                guard let selector = SVGStyleSheet.selector(part) else {
                    problems.append("unsupported selector \"\(part.trimmingWhiteSpaceAndNewlines())\" in <style> (rule skipped)")
                    selectors = []
                    break
                }
                selectors.append(selector)
            }
            for selector in selectors {
                let k = rules.count
                rules.append(Rule(selector: selector, declarations: declarations, order: k))
                index[SVGStyleSheet.key(of: selector.compounds.last!.compound), default: []].append(k)
            }
        }
    }

    /// The rules that may match an element (all whose rightmost key it has), in sheet order.
    func candidates(for e: XMLElement) -> [Rule] {
        var keys = ["*", e.name]
        if let id = e.attribute("id")?.value { keys.append("#" + id) }
        if let classes = e.attribute("class")?.value.split(whereSeparator: \.isWhitespace) {
            keys.append(contentsOf: Set(classes).map { "." + $0 })
        }
        var result: [Int] = []
        for key in keys { result.append(contentsOf: index[key] ?? []) }
        return result.sorted().map { rules[$0] }
    }

    private static func key(of c: SVGCompoundSelector) -> String {
        if let id = c.id { return "#" + id }
        if let first = c.classes.first { return "." + first }
        return c.type ?? "*"
    }

    private static func afterBlock(_ s: Substring, from open: Substring.Index) -> Substring.Index {
        var depth = 0
        var i = open
        while i < s.endIndex {
            if s[i] == "{" { depth += 1 } else if s[i] == "}" {
                depth -= 1
                if depth == 0 { return s.index(after: i) }
            }
            i = s.index(after: i)
        }
        return s.endIndex
    }

    static func removingComments(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let open = rest.range(of: "/*") {
            result += rest[..<open.lowerBound]
            guard let close = rest.range(of: "*/", range: open.upperBound..<rest.endIndex) else { return result }
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// `name: value [!important]; …`
    static func declarations(_ body: Substring) -> [(name: String, value: String, isImportant: Bool)] {
        var result: [(String, String, Bool)] = []
        for part in body.split(separator: ";") {
            guard let colon = part.firstIndex(of: ":") else { continue }
            let name = part[..<colon].trimmingWhiteSpaceAndNewlines()
            var value = part[part.index(after: colon)...].trimmingWhiteSpaceAndNewlines()
            var important = false
            if let bang = value.range(of: "!important", options: [.backwards, .caseInsensitive]),
               value[bang.upperBound...].allSatisfy(\.isWhitespace) {
                important = true
                value = value[..<bang.lowerBound].trimmingWhiteSpace()
            }
            if !name.isEmpty { result.append((name, value, important)) }
        }
        return result
    }

    /// Parses one complex selector; nil when it uses something unsupported.
    static func selector(_ text: Substring) -> SVGSelector? {
        var compounds: [(compound: SVGCompoundSelector, isChild: Bool)] = []
        var ids = 0, classes = 0, types = 0
        var s = text.trimmingWhiteSpaceAndNewlines()[...]
        guard !s.isEmpty else { return nil }
        var pendingChild = false
        while !s.isEmpty {
            var c = SVGCompoundSelector()
            var sawAny = false
            func identifier() -> String {
                let name = s.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                s = s.dropFirst(name.count)
                return String(name)
            }
            if s.first == "*" {
                s = s.dropFirst()
                sawAny = true
            } else if let f = s.first, f.isLetter {
                let name = s.prefix { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "|" }
                s = s.dropFirst(name.count)
                guard !name.contains("|") else { return nil }
                c.type = String(name)
                types += 1
                sawAny = true
            }
            loop: while let f = s.first {
                switch f {
                case "#":
                    s = s.dropFirst()
                    let name = identifier()
                    guard !name.isEmpty else { return nil }
                    c.id = name
                    ids += 1
                case ".":
                    s = s.dropFirst()
                    let name = identifier()
                    guard !name.isEmpty else { return nil }
                    c.classes.append(name)
                    classes += 1
                case "[":
                    guard let close = s.firstIndex(of: "]") else { return nil }
                    guard let test = attributeTest(s[s.index(after: s.startIndex)..<close]) else { return nil }
                    c.attributes.append(test)
                    s = s[s.index(after: close)...]
                    classes += 1
                case ":":
                    guard s.hasPrefix(":first-child") else { return nil }
                    s = s.dropFirst(12)
                    c.isFirstChild = true
                    classes += 1
                default:
                    break loop
                }
                sawAny = true
            }
            guard sawAny else { return nil }
            compounds.append((c, pendingChild))
            let before = s.count
            s = s.drop(while: \.isWhitespace)
            pendingChild = false
            if s.first == ">" {
                pendingChild = true
                s = s.dropFirst().drop(while: \.isWhitespace)
            } else if !s.isEmpty && s.count == before {
                return nil   // `+`, `~` or something else after a compound
            }
            if s.first == "+" || s.first == "~" { return nil }
        }
        guard !pendingChild else { return nil }
        return SVGSelector(compounds: compounds, specificity: min(ids, 255) << 16 | min(classes, 255) << 8 | min(types, 255))
    }

    private static func attributeTest(_ inner: Substring) -> (name: String, test: SVGCompoundSelector.AttributeTest)? {
        let operators: [(String, (String) -> SVGCompoundSelector.AttributeTest)] = [
            ("~=", { .includes($0) }), ("|=", { .dashMatch($0) }), ("^=", { .prefix($0) }), ("$=", { .suffix($0) }),
            ("*=", { .substring($0) }), ("=", { .equals($0) }),
        ]
        for (op, make) in operators {
            if let r = inner.range(of: op) {
                let name = inner[..<r.lowerBound].trimmingWhiteSpace()
                var value = inner[r.upperBound...].trimmingWhiteSpace()
                if value.count >= 2, let q = value.first, q == "\"" || q == "'", value.last == q {
                    value = String(value.dropFirst().dropLast())
                }
                guard !name.isEmpty else { return nil }
                return (name, make(value))
            }
        }
        let name = inner.trimmingWhiteSpace()
        return name.isEmpty ? nil : (name, .exists)
    }
}
