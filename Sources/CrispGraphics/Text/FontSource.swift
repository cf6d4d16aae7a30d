import CFontconfig
import Foundation

// Finding fonts by family, weight and style, the way a platform text stack does: first the
// app's own fonts (Crisp's bundled Roboto and Noto Sans Arabic), then the folders and files the user names, then —
// unless told not to — the system's fonts through fontconfig, whose pattern matching (FcFontSort
// after the configuration's substitutions) is how every Linux toolkit finds them. Generic CSS
// families (serif, sans-serif, monospace, cursive, fantasy) map to configurable families. A
// family found nowhere falls back to the default family, with a warning listing what was tried.
//
// Every face of TrueType, CFF and CFF2 files and of '.ttc' collections is offered. A variable
// font with a 'wght' axis answers a weight inside its range with an instance at that weight (as
// CSS's font-weight does on a variable font). Faces are read once per file per process and
// shared, so the glyph cache keeps their bitmaps across lookups.

/// Where to look for fonts and which families the generic names stand for, as resvg's options.
public struct FontSettings: Sendable, Hashable {
    /// Single font files (resvg's `--use-font-file`).
    public var fontFiles: [URL] = []
    /// Folders searched recursively for font files (resvg's `--use-fonts-dir`).
    public var fontDirectories: [URL] = []
    /// Whether the system's fonts are searched through fontconfig (`--skip-system-fonts` turns
    /// this off).
    public var usesSystemFonts = true
    /// The family used when none is named or none of those named is found (`--font-family`).
    public var defaultFamily = "Roboto"
    /// The family `serif` stands for (`--serif-family`).
    public var serifFamily = "DejaVu Serif"
    /// The family `sans-serif` stands for (`--sans-serif-family`).
    public var sansSerifFamily = "Roboto"
    /// The family `monospace` stands for (`--monospace-family`).
    public var monospaceFamily = "DejaVu Sans Mono"
    /// The family `cursive` stands for (`--cursive-family`).
    public var cursiveFamily = "DejaVu Serif"
    /// The family `fantasy` stands for (`--fantasy-family`).
    public var fantasyFamily = "DejaVu Sans"
    /// Families tried, in order, for a character the chosen face lacks. Noto Sans Arabic is
    /// bundled (the basic Arabic block, regular and bold), so Arabic draws the same with or
    /// without the system's fonts; DejaVu Sans (Debian's `fonts-dejavu-core`) covers much else;
    /// the emoji family (`fonts-noto-color-emoji`) draws emoji in colour.
    public var fallbackFamilies: [String] = ["Noto Sans Arabic", "DejaVu Sans", "Noto Color Emoji"]

    /// The default settings: the families above.
    public init() {}

    /// The family a generic name stands for, or `family` itself.
    public func resolve(_ family: String) -> String {
        switch family.lowercased() {
        case "serif": return serifFamily
        case "sans-serif": return sansSerifFamily
        case "monospace": return monospaceFamily
        case "cursive": return cursiveFamily
        case "fantasy": return fantasyFamily
        default: return family
        }
    }
}

/// A face found by `FontSource`, with what was done to find it.
public struct FontMatch: Sendable {
    /// The face to draw with.
    public let face: TrueTypeFont
    /// The family the face belongs to.
    public let family: String
    /// Set when none of the families asked for exists: says what was tried and what is used.
    public let warning: String?
}

/// A collection of fonts searched by family, weight and style. See `FontSettings`.
public final class FontSource: @unchecked Sendable {
    /// The settings the source was made with.
    public let settings: FontSettings
    /// Problems met while reading the user's files and folders (unreadable or unsupported fonts).
    public let loadWarnings: [String]

    private struct Entry { let family: String; let weight: ClosedRange<Int>; let italic: Bool; let load: () -> TrueTypeFont? }
    private let local: [Entry]
    private let lock = NSLock()
    private var cache: [String: FontMatch?] = [:]
    private struct FallbackKey: Hashable { let scalar: UInt32; let weight: Int; let italic: Bool }
    private var fallbackCache: [FallbackKey: TrueTypeFont?] = [:]

    /// The source with default settings: the bundled fonts and the system's.
    public static let standard = FontSource(settings: FontSettings())

    /// Where `String.draw(at:font:color:in:)`, `String.size(withFont:)` and so `Label` find
    /// characters their font lacks (per character, see `CTLine(string:font:fallback:)`); nil
    /// draws the font's .notdef glyph instead (for output that must not depend on the system's
    /// fonts). `standard` by default. Set it before drawing starts.
    nonisolated(unsafe) public static var drawingFallback: FontSource? = .standard

    /// Reads the families of the bundled fonts and of the user's files and folders.
    public init(settings: FontSettings) {
        self.settings = settings
        var entries: [Entry] = []
        var warnings: [String] = []
        for type in [CTFontUIFontType.system, .emphasizedSystem] {
            if let face = try? CTFont.bundledFace(type) {
                entries.append(Entry(family: face.familyName ?? "Roboto", weight: face.weightRange, italic: face.isItalic, load: { face }))
            }
        }
        for face in CTFont.bundledScriptFaces {
            entries.append(Entry(family: face.familyName ?? "Noto Sans Arabic", weight: face.weightRange, italic: face.isItalic, load: { face }))
        }
        var files = settings.fontFiles
        for dir in settings.fontDirectories {
            guard let walker = FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil) else {
                warnings.append("font folder \(dir.path) cannot be read"); continue
            }
            var found: [URL] = []
            for case let url as URL in walker where ["ttf", "otf", "ttc"].contains(url.pathExtension.lowercased()) {
                found.append(url)
            }
            if found.isEmpty { warnings.append("font folder \(dir.path) has no font files") }
            files += found.sorted { $0.path < $1.path }
        }
        for url in files {
            let path = url.standardizedFileURL.path
            do {
                let count = try FontSource.faceCount(at: path)
                for index in 0..<count {
                    do {
                        let face = try FontSource.face(at: path, index: index)
                        entries.append(Entry(family: face.familyName ?? url.deletingPathExtension().lastPathComponent,
                                             weight: face.weightRange, italic: face.isItalic, load: { face }))
                    } catch {
                        warnings.append("font file \(url.path), face \(index), skipped: \(error)")
                    }
                }
            } catch {
                warnings.append("font file \(url.path) skipped: \(error)")
            }
        }
        local = entries
        loadWarnings = warnings
    }

    /// The families of the bundled and user fonts, sorted, without duplicates.
    public var localFamilies: [String] { Array(Set(local.map(\.family))).sorted() }

    /// The best face of the first family in `families` that exists (generic names resolved),
    /// else of the default family, with a warning listing what was tried.
    ///
    /// A CSS-like match within a family: the style (italic or not) first, then the nearest weight.
    ///
    /// - Precondition: the bundled fonts can be read (`CTFont.bundledFace` does not throw): they
    ///   are the last fallback.
    public func match(families: [String], weight: Int = 400, italic: Bool = false) -> FontMatch {
        let names = families.map { settings.resolve($0.trimmingCharacters(in: .whitespaces)) }.filter { !$0.isEmpty }
        for name in names {
            if let m = find(name, weight, italic) { return m }
        }
        let fallback = find(settings.resolve(settings.defaultFamily), weight, italic) ?? find("Roboto", weight, italic)
        // The bundled Roboto is always there unless the resources are missing.
        let face = fallback?.face ?? (try? CTFont.bundledFace(weight > 500 ? .emphasizedSystem : .system))
        guard let face else { preconditionFailure("the bundled font cannot be read") }
        let family = fallback?.family ?? (face.familyName ?? "Roboto")
        var warning: String?
        if !names.isEmpty {
            var places = ["the app's fonts"]
            if !settings.fontFiles.isEmpty || !settings.fontDirectories.isEmpty { places.append("the user's font files and folders") }
            if settings.usesSystemFonts { places.append("the system's fonts (fontconfig)") }
            let tried = names.map { "\"\($0)\"" }.joined(separator: ", ")
            warning = "font family \(tried) not found in \(places.joined(separator: ", ")); using \"\(family)\""
        }
        return FontMatch(face: fallback?.face ?? face, family: family, warning: warning)
    }

    /// A face that has a glyph for `scalar`: the fallback families in order, then (with system
    /// fonts) whatever fontconfig finds covering it. Nil when no font has it. Answers are kept
    /// per (scalar, weight, style) for the source's life, so fontconfig is asked once.
    public func fallbackFace(for scalar: Unicode.Scalar, weight: Int = 400, italic: Bool = false) -> TrueTypeFont? {
        let key = FallbackKey(scalar: scalar.value, weight: weight, italic: italic)
        if let hit = lock.withLock({ fallbackCache[key] }) { return hit }
        let face = findFallbackFace(for: scalar, weight: weight, italic: italic)
        lock.withLock {
            if fallbackCache.count >= 65_536 { fallbackCache.removeAll(keepingCapacity: true) }
            fallbackCache[key] = .some(face)
        }
        return face
    }

    private func findFallbackFace(for scalar: Unicode.Scalar, weight: Int, italic: Bool) -> TrueTypeFont? {
        // A character shown as emoji by default (Unicode's Emoji_Presentation) prefers a
        // fallback family with colour glyphs for it, as platforms do, even when a family listed
        // earlier has a monochrome glyph (DejaVu Sans has the emoticons).
        if scalar.properties.isEmojiPresentation {
            for family in settings.fallbackFamilies {
                if let m = find(settings.resolve(family), weight, italic), m.face.hasColorGlyphs,
                   case let g = m.face.glyph(for: scalar), g != 0, m.face.isColorGlyph(g) { return m.face }
            }
        }
        for family in settings.fallbackFamilies {
            if let m = find(settings.resolve(family), weight, italic), m.face.glyph(for: scalar) != 0 { return m.face }
        }
        for e in local where e.load()?.glyph(for: scalar) ?? 0 != 0 { return e.load() }
        guard settings.usesSystemFonts else { return nil }
        return FontSource.systemFaces(family: nil, weight: weight, italic: italic, scalar: scalar).first { $0.glyph(for: scalar) != 0 }
    }

    private func find(_ family: String, _ weight: Int, _ italic: Bool) -> FontMatch? {
        let key = "\(family.lowercased())|\(weight)|\(italic)"
        if let cached = lock.withLock({ cache[key] }) { return cached }
        var result: FontMatch?
        let candidates = local.filter { $0.family.caseInsensitiveCompare(family) == .orderedSame }
        if let best = candidates.min(by: { FontSource.distance($0.weight, $0.italic, weight, italic) < FontSource.distance($1.weight, $1.italic, weight, italic) }),
           let face = best.load() {
            result = FontMatch(face: face.instance(weight: weight), family: best.family, warning: nil)
        } else if settings.usesSystemFonts, let face = FontSource.systemFaces(family: family, weight: weight, italic: italic, scalar: nil).first {
            result = FontMatch(face: face.instance(weight: weight), family: face.familyName ?? family, warning: nil)
        }
        lock.withLock { cache[key] = .some(result) }
        return result
    }

    /// How far a face is from the request: style first, then weight (lighter faces count a
    /// little further for bold requests and heavier ones for light requests, as CSS prefers).
    private static func distance(_ range: ClosedRange<Int>, _ i: Bool, _ wantW: Int, _ wantI: Bool) -> Int {
        let style = i == wantI ? 0 : 10_000
        // A variable font covers its whole 'wght' range.
        let w = min(max(wantW, range.lowerBound), range.upperBound)
        let d = abs(w - wantW) * 2 + ((wantW >= 500) == (w < wantW) ? 1 : 0)
        return style + d
    }

    // MARK: Files and fontconfig

    private static let facesLock = NSLock()
    nonisolated(unsafe) private static var faces: [String: Result<TrueTypeFont, any Error>] = [:]
    nonisolated(unsafe) private static var files: [String: Result<[UInt8], any Error>] = [:]

    private static func bytes(at path: String) throws -> [UInt8] {
        if let r = facesLock.withLock({ files[path] }) { return try r.get() }
        let r = Result { () throws -> [UInt8] in [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }
        facesLock.withLock { files[path] = r }
        return try r.get()
    }

    /// The number of faces in the file at `path` (a collection's count, else 1).
    static func faceCount(at path: String) throws -> Int { try TrueTypeFont.faceCount(data: try bytes(at: path)) }

    /// Face `index` of the file at `path`, read once per process (the file's bytes too, shared
    /// by a collection's faces).
    static func face(at path: String, index: Int = 0) throws -> TrueTypeFont {
        let key = "\(index):\(path)"
        if let r = facesLock.withLock({ faces[key] }) { return try r.get() }
        let r = Result { () throws -> TrueTypeFont in try TrueTypeFont(data: try bytes(at: path), faceIndex: index) }
        facesLock.withLock { faces[key] = r }
        return try r.get()
    }

    private static let fontconfigLock = NSLock()

    /// System faces in fontconfig's order of preference for the pattern (family, weight, slant,
    /// and a character to cover); with a family, only faces of that family. A variable font's
    /// named instances (which fontconfig lists one by one) count once, as the font itself.
    static func systemFaces(family: String?, weight: Int, italic: Bool, scalar: Unicode.Scalar?) -> [TrueTypeFont] {
        var paths: [(path: String, index: Int)] = []
        fontconfigLock.withLock {
            guard FcInit() != 0, let pattern = FcPatternCreate() else { return }
            defer { FcPatternDestroy(pattern) }
            if let family { FcPatternAddString(pattern, "family", family) }
            FcPatternAddInteger(pattern, "weight", Int32(FcWeightFromOpenType(Int32(max(1, min(1000, weight))))))
            FcPatternAddInteger(pattern, "slant", italic ? 100 : 0)     // FC_SLANT_ITALIC, FC_SLANT_ROMAN
            var charset: OpaquePointer?
            if let scalar, let set = FcCharSetCreate() {
                FcCharSetAddChar(set, scalar.value)
                FcPatternAddCharSet(pattern, "charset", set)
                charset = set
            }
            defer { if let charset { FcCharSetDestroy(charset) } }
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let set = FcFontSort(nil, pattern, 0, nil, &result) else { return }
            defer { FcFontSetDestroy(set) }
            let count = Int(set.pointee.nfont)
            for i in 0..<count {
                guard let font = set.pointee.fonts[i] else { continue }
                var index: Int32 = 0
                if FcPatternGetInteger(font, "index", 0, &index) != FcResultMatch { index = 0 }
                // fontconfig's index: the face in its low 16 bits, a named instance + 1 above.
                let faceIndex = Int(index & 0xFFFF)
                if let family {
                    var n: Int32 = 0, matches = false
                    var name: UnsafeMutablePointer<FcChar8>?
                    while FcPatternGetString(font, "family", n, &name) == FcResultMatch, let name {
                        if String(cString: name).caseInsensitiveCompare(family) == .orderedSame { matches = true; break }
                        n += 1
                    }
                    if !matches { continue }
                }
                var file: UnsafeMutablePointer<FcChar8>?
                guard FcPatternGetString(font, "file", 0, &file) == FcResultMatch, let file else { continue }
                let path = String(cString: file)
                if paths.contains(where: { $0.path == path && $0.index == faceIndex }) { continue }
                paths.append((path, faceIndex))
                if paths.count >= 8 { break }
            }
        }
        return paths.compactMap { try? face(at: $0.path, index: $0.index) }
    }
}
