import CrispGraphics
import Foundation

/// Looks up localized strings in `Resources/Strings/<language>.strings`.
///
/// The language is a setting the app may change at any time (the demo switches between
/// English, German and Spanish while running); lookups after the change use the new table.
/// Tables are read on first use and kept. A key the table lacks — or a language without a
/// table — yields the key itself, so English keys double as the English text.
///
/// Thread-safe: the language and the table cache are guarded by a lock.
public final class Localization: @unchecked Sendable {
    /// The instance `localized(_:comment:)` uses.
    public static let shared = Localization()

    private let lock = NSLock()
    private var currentLanguage: String
    private var tables: [String: [StringsTable]] = [:]
    private let directories: [URL]

    /// A localization reading tables from `directory` (default: `Resources/Strings` found by
    /// `CrispResources`), starting in `language` (default: from the environment, see
    /// `environmentLanguage`).
    public init(directory: URL? = nil, language: String? = nil) {
        directories = [directory ?? (try? CrispResources.url(for: "Strings"))].compactMap { $0 }
        currentLanguage = Localization.normalized(language ?? Localization.environmentLanguage())
    }

    /// A localization reading tables from several folders: a key is looked up in the first
    /// folder's table, then in the next (an app's own strings before Crisp's).
    public init(directories: [URL], language: String? = nil) {
        self.directories = directories
        currentLanguage = Localization.normalized(language ?? Localization.environmentLanguage())
    }

    /// The language in force, as a code such as `"de"` or `"pt_BR"`. Setting it normalizes the
    /// value the way `LANG` is read (`"de_DE.UTF-8"` becomes `"de_DE"`, `"C"` becomes `"en"`).
    public var language: String {
        get { lock.withLock { currentLanguage } }
        set { lock.withLock { currentLanguage = Localization.normalized(newValue) } }
    }

    /// The direction layouts run in for the current language: right to left for Arabic,
    /// Hebrew, Persian, Urdu and the other languages written right to left
    /// (`layoutDirection(forLanguage:)`), else left to right.
    public var layoutDirection: UserInterfaceLayoutDirection { Localization.layoutDirection(forLanguage: language) }

    /// The languages written right to left, as ISO 639 codes: Arabic, Central Kurdish, Dhivehi,
    /// Hebrew (and its old code `iw`), Kashmiri, Persian, Pashto, Sindhi, Uyghur, Urdu, Yiddish.
    public static let rightToLeftLanguages: Set<String> = ["ar", "ckb", "dv", "fa", "he", "iw", "ks", "ps", "sd", "ug", "ur", "yi"]

    /// The layout direction of `language` (`"ar"`, `"he_IL"`, `"fa-IR"`; a script subtag
    /// decides when there is one: `"ks_Deva"` runs left to right, `"az_Arab"` right to left),
    /// as `Locale.characterDirection(forLanguage:)` answers on Apple's platforms.
    public static func layoutDirection(forLanguage language: String) -> UserInterfaceLayoutDirection {
        let parts = normalized(language).split(separator: "_").map(String.init)
        guard let base = parts.first?.lowercased() else { return .leftToRight }
        if let script = parts.dropFirst().first(where: { $0.count == 4 }) {
            return ["Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg"].contains(script.capitalized) ? .rightToLeft : .leftToRight
        }
        return rightToLeftLanguages.contains(base) ? .rightToLeft : .leftToRight
    }

    /// The localized text for `key` in the current language, or `key` when there is none.
    public func string(forKey key: String) -> String {
        lock.withLock { lookupTables(for: currentLanguage).lazy.compactMap { $0[key] }.first } ?? key
    }

    /// The table used for `language`: `<language>.strings`, else the one of its base language
    /// (`de` for `de_AT`); nil when there is neither.
    public func table(for language: String) -> StringsTable? {
        lock.withLock { lookupTables(for: Localization.normalized(language)).first }
    }

    /// Problems found in the current language's table (empty when it is well-formed or absent).
    public var problems: [StringsFileProblem] { table(for: language)?.problems ?? [] }

    /// The languages that have a table, sorted.
    public var availableLanguages: [String] {
        let names = directories.flatMap { (try? FileManager.default.contentsOfDirectory(atPath: $0.path)) ?? [] }
        return Set(names.filter { $0.hasSuffix(".strings") }.map { String($0.dropLast(8)) }).sorted()
    }

    private func lookupTables(for language: String) -> [StringsTable] {
        if let cached = tables[language] { return cached }
        var found: [StringsTable] = []
        for directory in directories {
            var table: StringsTable?
            let base = language.split(separator: "_").first.map(String.init) ?? language
            for name in Set([language, base]).sorted(by: { $0.count > $1.count }) {
                if let t = try? StringsTable(contentsOf: directory.appendingPathComponent("\(name).strings")) {
                    table = t
                    break
                }
            }
            if let table { found.append(table) }
        }
        tables[language] = found
        return found
    }

    /// The language the environment asks for, POSIX-style: the first of `LC_ALL`,
    /// `LC_MESSAGES` and `LANG` that is set and not empty; `"en"` when none is.
    public static func environmentLanguage(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[name], !value.isEmpty { return normalized(value) }
        }
        return "en"
    }

    /// `"de_DE.UTF-8@euro"` → `"de_DE"`, `"es-MX"` → `"es_MX"`, `"C"`/`"POSIX"`/`""` → `"en"`.
    public static func normalized(_ locale: String) -> String {
        var s = Substring(locale)
        if let i = s.firstIndex(where: { $0 == "." || $0 == "@" }) { s = s[..<i] }
        let code = s.replacingOccurrences(of: "-", with: "_")
        return code.isEmpty || code == "C" || code == "POSIX" ? "en" : code
    }
}

/// The localized text for `key` in `Localization.shared`'s language, or `key` itself when it
/// has no translation, in the manner of `NSLocalizedString`. `comment` is for translators only.
public func localized(_ key: String, comment: String = "") -> String {
    Localization.shared.string(forKey: key)
}
