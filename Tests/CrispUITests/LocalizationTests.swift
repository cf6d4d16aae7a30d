import Foundation
import Testing
import CrispUI

@Suite struct LocalizationTests {
    @Test func shippedTablesAreWellFormedAndComplete() throws {
        let l = Localization(language: "en")
        #expect(l.availableLanguages == ["ar", "de", "en", "es"])
        let en = try #require(l.table(for: "en"))
        for language in ["ar", "de", "en", "es"] {
            let t = try #require(l.table(for: language))
            #expect(t.problems.isEmpty, "\(language): \(t.problems)")
            #expect(Set(t.entries.keys) == Set(en.entries.keys), "\(language) has the same keys as en")
        }
        for key in ["signal quality", "time", "Carrier", "Touch to return to call", "on", "off", "battery",
                    "N", "E", "S", "W", "km/h", "seconds"] {
            #expect(en[key] != nil, "\(key)")
        }
    }

    @Test func languageSwitchesAtRunTime() {
        let l = Localization(language: "de_DE.UTF-8")
        #expect(l.language == "de_DE")
        #expect(l.string(forKey: "signal quality") == "Signalqualität")   // de_DE falls back to de
        #expect(l.string(forKey: "E") == "O")
        l.language = "es"
        #expect(l.string(forKey: "signal quality") == "calidad de señal")
        #expect(l.string(forKey: "Hello, \"world\"") == "¡Hola, «mundo»!")
        l.language = "en"
        #expect(l.string(forKey: "on") == "ON")
        #expect(l.string(forKey: "Loading…") == "Loading…")
    }

    @Test func fallsBackToTheKey() {
        let l = Localization(language: "fr")
        #expect(l.string(forKey: "signal quality") == "signal quality")
        #expect(l.problems.isEmpty)
        l.language = "de"
        #expect(l.string(forKey: "no such key") == "no such key")
        let nowhere = Localization(directory: URL(fileURLWithPath: "/nonexistent"), language: "de")
        #expect(nowhere.string(forKey: "time") == "time")
    }

    @Test func malformedTableStillTranslatesItsGoodLines() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-l10n-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try "\"time\" = \"Zeit\";\n\"broken\" = ;\n\"on\" = \"EIN\";\n".write(to: dir.appendingPathComponent("de.strings"),
                                                                         atomically: true, encoding: .utf8)
        let l = Localization(directory: dir, language: "de")
        #expect(l.string(forKey: "time") == "Zeit")
        #expect(l.string(forKey: "on") == "EIN")
        #expect(l.problems.map(\.description) == ["de.strings:2: expected a quoted value, found ';'"])
    }

    @Test func environmentLanguage() {
        #expect(Localization.environmentLanguage(["LANG": "es_ES.UTF-8"]) == "es_ES")
        #expect(Localization.environmentLanguage(["LANG": "de_DE.UTF-8", "LC_ALL": "C"]) == "en")
        #expect(Localization.environmentLanguage(["LANG": "de", "LC_MESSAGES": "es_MX"]) == "es_MX")
        #expect(Localization.environmentLanguage(["LC_ALL": ""]) == "en")
        #expect(Localization.environmentLanguage([:]) == "en")
        #expect(Localization.normalized("de-AT@euro") == "de_AT")
        #expect(Localization.normalized("POSIX") == "en")
    }

    @Test func globalLookupUsesTheSharedLanguage() {
        // Only reads the shared instance: tests run in parallel, so none of them sets it.
        #expect(localized("time", comment: "axis label") == Localization.shared.string(forKey: "time"))
    }
}
