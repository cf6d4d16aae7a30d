import Foundation
import Testing

/// The README's "Your own views" shows excerpts of the example package (Examples/HelloCrisp),
/// each under a link to its file: every `swift` block of that section must stand, line for
/// line, in one of the files the section links to, so the docs cannot drift from the code CI
/// builds and tests (`./test.sh` runs the example's tests). And every relative link of the
/// user's documents (README, ARCHITECTURE.md, docs/, the DocC articles) must lead to a file or
/// folder of the repository, and a `#fragment` into a Markdown file to one of its headings.
@Suite struct ExampleDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func read(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    /// The text outside fenced code blocks, and the fenced blocks with their info strings.
    static func split(_ markdown: String) -> (prose: [String], blocks: [(info: String, text: String)]) {
        var prose: [String] = [], blocks: [(String, String)] = []
        var fence: (info: String, lines: [String])?
        for line in markdown.components(separatedBy: "\n") {
            if line.hasPrefix("```") {
                if let open = fence {
                    blocks.append((open.info, open.lines.joined(separator: "\n") + "\n"))
                    fence = nil
                } else {
                    fence = (String(line.dropFirst(3)), [])
                }
            } else if fence != nil {
                fence!.lines.append(line)
            } else {
                prose.append(line)
            }
        }
        return (prose, blocks)
    }

    /// The targets of the Markdown links (and images) in `lines`, `[text](target)`.
    static func links(in lines: [String]) -> [String] {
        let text = lines.joined(separator: "\n")
        var found: [String] = []
        var rest = text[...]
        while let open = rest.range(of: "](") {
            let after = rest[open.upperBound...]
            guard let close = after.firstIndex(where: { $0 == ")" || $0 == " " || $0 == "\n" }) else { break }
            if after[close] == ")" { found.append(String(after[..<close])) }
            rest = after[close...]
        }
        return found
    }

    /// GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.compactMap { c -> Character? in
            if c == " " { return "-" }
            if CharacterSet.alphanumerics.contains(c) || c == "-" || c == "_" { return Character(c) }
            return nil
        })
    }

    /// The anchors of a Markdown file's headings (outside code blocks).
    static func anchors(ofFile url: URL) throws -> Set<String> {
        Set(split(try String(contentsOf: url, encoding: .utf8)).prose.compactMap { line -> String? in
            guard line.hasPrefix("#") else { return nil }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            return anchor(title)
        })
    }

    @Test func theReadmesExcerptsStandInTheExample() throws {
        let readme = try Self.read("README.md")
        let start = try #require(readme.range(of: "\n## Your own views\n"), "README.md has no section \"Your own views\"")
        let end = readme[start.upperBound...].range(of: "\n## ")?.lowerBound ?? readme.endIndex
        let (prose, blocks) = Self.split(String(readme[start.upperBound..<end]))
        let linked = Self.links(in: prose).filter { $0.hasPrefix("Examples/HelloCrisp/") }
        var files: [String: String] = [:]
        for path in linked {
            var isFolder: ObjCBool = false
            #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path, isDirectory: &isFolder),
                    "README.md links to \(path), which does not exist")
            if !isFolder.boolValue { files[path] = try? Self.read(path) }
        }
        let excerpts = blocks.filter { $0.info == "swift" }.map(\.text)
        #expect(excerpts.count >= 4, "\"Your own views\" shows \(excerpts.count) Swift excerpts")
        var shown: Set<String> = []
        for excerpt in excerpts {
            let homes = files.filter { $0.value.hasPrefix(excerpt) || $0.value.contains("\n" + excerpt) }.map(\.key)
            #expect(!homes.isEmpty, "README.md's excerpt is in none of the example's files it links to (copy it from the file, whole lines):\n\(excerpt)")
            shown.formUnion(homes)
        }
        for required in ["Examples/HelloCrisp/Package.swift", "Examples/HelloCrisp/Sources/HelloCrisp/HelloApp.swift",
                         "Examples/HelloCrisp/Sources/HelloCrisp/TilesView.swift",
                         "Examples/HelloCrisp/Tests/HelloCrispTests/SnapshotTests.swift"] {
            #expect(shown.contains(required), "README.md's \"Your own views\" shows no excerpt of \(required) under a link to it")
        }
    }

    @Test func everyLinkOfTheDocumentsLeadsSomewhere() throws {
        let manager = FileManager.default
        var documents = ["README.md", "ARCHITECTURE.md"]
        documents += try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        for module in try manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path).sorted() {
            let catalog = "Sources/\(module)/\(module).docc"
            guard let articles = try? manager.contentsOfDirectory(atPath: Self.root.appendingPathComponent(catalog).path) else { continue }
            documents += articles.filter { $0.hasSuffix(".md") }.sorted().map { "\(catalog)/\($0)" }
        }
        var checked = 0
        for document in documents {
            let url = Self.root.appendingPathComponent(document)
            for link in Self.links(in: Self.split(try Self.read(document)).prose) {
                if link.contains("://") || link.hasPrefix("mailto:") || link.hasPrefix("doc:") { continue }
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? url : url.deletingLastPathComponent().appendingPathComponent(parts[0]).standardized
                checked += 1
                guard manager.fileExists(atPath: target.path) else {
                    Issue.record("\(document) links to \(link): \(target.path) does not exist")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    #expect(try Self.anchors(ofFile: target).contains(parts[1]),
                            "\(document) links to \(link): \(target.lastPathComponent) has no heading with that anchor")
                }
            }
        }
        #expect(checked > 50, "only \(checked) links found: the link reader is broken")
    }
}
