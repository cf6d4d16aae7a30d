import Foundation
import Testing
import CrispUI

@Suite struct StringsTableTests {
    @Test func entriesCommentsAndEscapes() {
        let text = #"""
            /* A block comment
               over two lines */
            "signal quality" = "Signalqualität"; // trailing line comment
            "quote" = "say \"hi\"\\now";
            "controls" = "a\nb\tc\rd\0e\'f";
            "unicode" = "\U00B0 \u00e9 \UD83D\UDE00";
            simple_key = unquoted.value;
            "same";
            "multi
            line" = "value /* not a comment */ // nor this";
            "dup" = "first";
            "dup" = "second";
            """#
        let t = StringsTable(parsing: text)
        #expect(t.problems.isEmpty)
        #expect(t["signal quality"] == "Signalqualität")
        #expect(t["quote"] == #"say "hi"\now"#)
        #expect(t["controls"] == "a\nb\tc\rd\0e'f")
        #expect(t["unicode"] == "° é 😀")
        #expect(t["simple_key"] == "unquoted.value")
        #expect(t["same"] == "same")
        #expect(t["multi\nline"] == "value /* not a comment */ // nor this")
        #expect(t["dup"] == "second")
        #expect(t.entries.count == 8)
    }

    @Test func malformedLinesAreReportedAndTheRestLoads() {
        let text = """
            "a" = "1";
            "b" "2";
            "c" = "3";
            "d" = "4"
            "e" = "5";
            = "6";
            "f" = "\\Uzz12";
            "g" = "7";
            "h" = ;
            "i" = "9";
            """
        let t = StringsTable(parsing: text, fileName: "de.strings")
        #expect(t.problems.map(\.line) == [2, 5, 6, 7, 9])
        #expect(t.problems[0].description == "de.strings:2: expected '=' after key \"b\", found '\"'")
        #expect(t.problems[1].message == "expected ';' after the value of \"d\"")
        #expect(t.problems[3].message == "\\U needs four hexadecimal digits")
        #expect(t.entries == ["a": "1", "c": "3", "e": "5", "g": "7", "i": "9"])
    }

    @Test func unterminatedStringAndComment() {
        // The quote opening "c" closes b's value, so the fault shows on line 3; c still loads.
        let s = StringsTable(parsing: "\"a\" = \"1\";\n\"b\" = \"never closed;\n\"c\" = \"3\";\n")
        #expect(s.problems.map(\.description) == ["<strings>:3: expected ';' after the value of \"b\""])
        #expect(s.entries == ["a": "1", "c": "3"])
        let u = StringsTable(parsing: "\"a\" = \"1\";\n\"b\" = \"never closed;\n\n")
        #expect(u.problems.map(\.description) == ["<strings>:2: unterminated string"])
        #expect(u.entries == ["a": "1"])
        let c = StringsTable(parsing: "\"a\" = \"1\";\n/* open\n\"b\" = \"2\";\n")
        #expect(c.problems == [StringsFileProblem(file: "<strings>", line: 2, message: "unterminated comment")])
        #expect(c.entries == ["a": "1"])
    }

    @Test func unpairedSurrogates() {
        let t = StringsTable(parsing: #""a" = "\UD83D";"# + "\n" + #""b" = "\UDE00x";"# + "\n\"c\" = \"ok\";")
        #expect(t.problems.map(\.line) == [1, 2])
        #expect(t.entries == ["c": "ok"])
    }

    @Test func encodings() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let text = "\"größe\" = \"tamaño\";"
        let utf8BOM = dir.appendingPathComponent("a.strings")
        try Data([0xEF, 0xBB, 0xBF] + Array(text.utf8)).write(to: utf8BOM)
        let utf16LE = dir.appendingPathComponent("b.strings")
        var le: [UInt8] = [0xFF, 0xFE]
        for u in text.utf16 { le += [UInt8(u & 0xFF), UInt8(u >> 8)] }
        try Data(le).write(to: utf16LE)
        let utf16BE = dir.appendingPathComponent("c.strings")
        var be: [UInt8] = [0xFE, 0xFF]
        for u in text.utf16 { be += [UInt8(u >> 8), UInt8(u & 0xFF)] }
        try Data(be).write(to: utf16BE)
        for url in [utf8BOM, utf16LE, utf16BE] {
            let t = try StringsTable(contentsOf: url)
            #expect(t["größe"] == "tamaño", "\(url.lastPathComponent)")
            #expect(t.problems.isEmpty)
        }
    }
}
