// The asset report: what the demo would weigh if it shipped its screens and controls as
// bitmaps, beside the compiled code that draws them.
//
// Every item of `AssetCatalog` is rendered as an app would have to ship it: at each device
// (1× and 2×, iPhone and iPad, 3.5- and 4-inch — the essay's "5 variants") × each language its
// picture shows text in × each theme it recolours in × each state that looks different. Whether
// a state shows text or recolours is found by rendering it on the first device in every language
// and every theme and comparing, so nothing is counted that an app would not need. Each picture
// is encoded with Crisp's PNG optimizer; pictures that come out identical (a control the same
// size on the iPhone 4 and 5) are one file, as an asset catalog would hold them.
//
// Rejected: a hand-written table of which control has text and colours (it would drift from the
// drawing code), and counting every combination blindly (it inflates the bitmap side).

import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The bytes of bitmaps the demo would ship instead of drawing in vectors, per item, with the
/// bytes of the compiled code that draws the same thing.
public struct AssetReport: Sendable, Equatable {
    /// One item's figures.
    public struct Row: Sendable, Equatable {
        /// The item's name, like `signal.background` (`total` for the sum).
        public var name: String
        /// Its states.
        public var states: Int
        /// The devices it appears on.
        public var devices: Int
        /// The languages its pictures differ in (1 when it shows no text), the most of any state.
        public var languages: Int
        /// The themes its pictures differ in (1 when it does not recolour), the most of any state.
        public var themes: Int
        /// The pictures an app would make: Σ over states of devices × languages × themes.
        public var variants: Int
        /// The distinct files among them.
        public var files: Int
        /// The files' total size, optimized PNG.
        public var pngBytes: Int
        /// The compiled code that draws the item, or nil when it could not be measured.
        public var codeBytes: Int?

        /// How many times bigger the bitmaps are than the code, or nil without code figures.
        public var ratio: Double? { codeBytes.flatMap { $0 > 0 ? Double(pngBytes) / Double($0) : nil } }
    }

    /// One PNG file of the report.
    public struct File: Sendable, Equatable {
        /// Its name, like `signal.background@iphone4-de.png`: the item, the state after a dot,
        /// the device, then the language and the theme when the picture differs in them.
        public var name: String
        /// Its bytes.
        public var data: [UInt8]
    }

    /// The rows, in catalog order.
    public var rows: [Row]
    /// Every distinct file, in the order made.
    public var files: [File]
    /// The number of devices considered.
    public var deviceCount: Int
    /// The number of languages considered.
    public var languageCount: Int
    /// Why the code could not be measured (nil when it was).
    public var codeSizeFailure: String?

    /// Creates a report from its parts.
    public init(rows: [Row], files: [File], deviceCount: Int, languageCount: Int, codeSizeFailure: String? = nil) {
        self.rows = rows
        self.files = files
        self.deviceCount = deviceCount
        self.languageCount = languageCount
        self.codeSizeFailure = codeSizeFailure
    }

    /// The sum of every row (`languages` and `themes` are the most of any row).
    public var total: Row {
        Row(name: "total", states: rows.reduce(0) { $0 + $1.states }, devices: rows.map(\.devices).max() ?? 0,
            languages: rows.map(\.languages).max() ?? 1, themes: rows.map(\.themes).max() ?? 1,
            variants: rows.reduce(0) { $0 + $1.variants }, files: rows.reduce(0) { $0 + $1.files },
            pngBytes: rows.reduce(0) { $0 + $1.pngBytes },
            codeBytes: rows.allSatisfy { $0.codeBytes != nil } ? rows.reduce(0) { $0 + ($1.codeBytes ?? 0) } : nil)
    }

    /// The row called `name`, or nil.
    public func row(named name: String) -> Row? { rows.first { $0.name == name } }

    /// Renders and encodes every item of `items` (see the essay atop this file).
    ///
    /// - Parameters:
    ///   - devices: the device variants, the first one used to find which states show text or
    ///     recolour.
    ///   - languages: the language codes, the first the default.
    ///   - themes: the themes, the first the default.
    ///   - codeSizes: the symbols to measure the drawing code by, or a failure to report.
    ///   - keepsFiles: whether `files` holds the PNGs' bytes (for writing them); without, each
    ///     file has its name and no bytes, and the report stays small in memory (the screen's).
    ///   - progress: called after each item with the items done and the total.
    /// - Throws: `PNGError` when a picture cannot be encoded.
    public static func compute(items: [AssetItem], devices: [Device] = Device.presets, languages: [String] = DemoApplication.languages,
                               themes: [Theme] = Theme.all, codeSizes: Result<SymbolSizes, SymbolSizes.Failure>, keepsFiles: Bool = true,
                               progress: (Int, Int) -> Void = { _, _ in }) throws(PNGError) -> AssetReport {
        precondition(!devices.isEmpty && !languages.isEmpty && !themes.isEmpty, "the report needs a device, a language and a theme")
        let localizations = languages.map { Localization(language: $0) }
        var rows: [Row] = [], files: [File] = []
        for (done, item) in items.enumerated() {
            let shown = devices.filter { item.size($0) != nil }
            var row = Row(name: item.name, states: item.states.count, devices: shown.count, languages: 1, themes: 1,
                          variants: 0, files: 0, pngBytes: 0, codeBytes: try? codeSizes.get().bytes(matchingAnyOf: item.codePrefixes))
            var seen = Set<Digest>()
            for state in item.states {
                var cache: [String: [UInt8]] = [:]
                func picture(_ d: Int, _ l: Int, _ t: Int) throws(PNGError) -> [UInt8] {
                    let key = "\(d) \(l) \(t)"
                    if let data = cache[key] { return data }
                    let image = item.render(state: state, device: shown[d], theme: themes[t], localization: localizations[l])
                    let data = try image?.pngData() ?? []
                    cache[key] = data
                    return data
                }
                guard !shown.isEmpty else { continue }
                let base = try picture(0, 0, 0)
                var languagesVary = false, themesVary = false
                for l in languages.indices.dropFirst() where try picture(0, l, 0) != base { languagesVary = true }
                for t in themes.indices.dropFirst() where try picture(0, 0, t) != base { themesVary = true }
                let ls = languagesVary ? Array(languages.indices) : [0], ts = themesVary ? Array(themes.indices) : [0]
                row.languages = max(row.languages, ls.count)
                row.themes = max(row.themes, ts.count)
                for d in shown.indices {
                    for l in ls {
                        for t in ts {
                            let data = try picture(d, l, t)
                            guard !data.isEmpty else { continue }
                            row.variants += 1
                            guard seen.insert(Digest(data)).inserted else { continue }
                            let name = item.name + (state.isEmpty ? "" : ".\(state)") + "@\(shown[d].identifier)"
                                + (languagesVary ? "-\(languages[l])" : "") + (themesVary ? "-\(themes[t].name)" : "") + ".png"
                            files.append(File(name: name, data: keepsFiles ? data : []))
                            row.files += 1
                            row.pngBytes += data.count
                        }
                    }
                }
                cache = [:]
                releaseFreeMemory()
            }
            rows.append(row)
            progress(done + 1, items.count)
        }
        var failure: String?
        if case let .failure(error) = codeSizes { failure = error.description }
        return AssetReport(rows: rows, files: files, deviceCount: devices.count, languageCount: languages.count, codeSizeFailure: failure)
    }

    /// Gives the free memory of every malloc arena back to the system. A retina iPad picture
    /// takes tens of megabytes while it is rendered and encoded; glibc keeps freed memory in the
    /// (per-thread) arena it came from, so without this a window that once made the report
    /// would keep its peak for good. Called after each state.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
        // malloc_trim is in <malloc.h>, which the Glibc module does not export.
        typealias Trim = @convention(c) (Int) -> Int32
        if let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim") {
            _ = unsafeBitCast(symbol, to: Trim.self)(0)
        }
        #endif
    }

    /// What tells files apart without keeping their bytes: the length and two 64-bit FNV-1a
    /// hashes with different offsets (a false match among a few thousand files is far less
    /// likely than a memory error).
    struct Digest: Hashable {
        let count: Int, a: UInt64, b: UInt64

        init(_ bytes: [UInt8]) {
            var a: UInt64 = 0xCBF2_9CE4_8422_2325, b: UInt64 = 0x84222325CBF29CE4
            for byte in bytes {
                a = (a ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                b = (b ^ UInt64(byte ^ 0x5A)) &* 0x0000_0100_0000_01B3
            }
            count = bytes.count
            self.a = a
            self.b = b
        }
    }

    /// The demo's report: every item of `AssetCatalog.demo(tabIcons:)`, the code measured in the
    /// running executable.
    public static func demo(tabIcons: [AssetCatalog.TabIcon], devices: [Device] = Device.presets, keepsFiles: Bool = true,
                            progress: (Int, Int) -> Void = { _, _ in }) throws(PNGError) -> AssetReport {
        try compute(items: AssetCatalog.demo(tabIcons: tabIcons), devices: devices,
                    codeSizes: Result { () throws(SymbolSizes.Failure) in try SymbolSizes.ofRunningExecutable() }, keepsFiles: keepsFiles,
                    progress: progress)
    }
}
