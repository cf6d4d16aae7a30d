import Foundation
import Testing

/// The README's "Your own views" shows the example package's files: each block introduced by
/// a line `` `Examples/HelloCrisp/<path>`: `` must be that file, byte for byte, so the docs
/// cannot drift from the code CI builds and tests (`./test.sh` runs the example's tests).
@Suite struct ExampleDocumentationTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each documented path with the text of the fenced block after it.
    static func documentedFiles() throws -> [(path: String, text: String)] {
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = readme.components(separatedBy: "\n")
        var found: [(String, String)] = []
        var i = 0
        while i < lines.count {
            let line = lines[i]
            if line.hasPrefix("`Examples/HelloCrisp/"), line.hasSuffix("`:"),
               i + 2 < lines.count, lines[i + 1].isEmpty, lines[i + 2].hasPrefix("```") {
                let path = String(line.dropFirst().dropLast(2))
                var body: [String] = []
                var j = i + 3
                while j < lines.count, lines[j] != "```" {
                    body.append(lines[j])
                    j += 1
                }
                found.append((path, body.joined(separator: "\n") + "\n"))
                i = j
            }
            i += 1
        }
        return found
    }

    @Test func theReadmeShowsTheExampleAsItIs() throws {
        let documented = try Self.documentedFiles()
        let paths = documented.map(\.path)
        for required in ["Examples/HelloCrisp/Package.swift", "Examples/HelloCrisp/Sources/HelloCrisp/HelloApp.swift",
                         "Examples/HelloCrisp/Sources/HelloCrisp/TilesView.swift",
                         "Examples/HelloCrisp/Sources/hello-crisp/main.swift",
                         "Examples/HelloCrisp/Sources/HelloCrisp/Resources/Strings/de.strings",
                         "Examples/HelloCrisp/Tests/HelloCrispTests/SnapshotTests.swift"] {
            #expect(paths.contains(required), "README.md's \"Your own views\" does not show \(required)")
        }
        for (path, text) in documented {
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            #expect(file == text, "README.md shows \(path) differently from the file: copy the file into the README")
        }
    }
}
