import CrispApp
import Foundation
import SnapshotTesting

// Snapshot strategies for pointfreeco/swift-snapshot-testing: a view, or a whole screen of an
// app, rendered headless on a named device, scale, language, theme and call-bar state, and
// compared pixel for pixel with a PNG reference. Crisp's rasterizer gives the same bits on every
// x86-64 and arm64 CPU (and through its AVX2 and SSE2 kernels alike), so references recorded on
// one machine hold on every other: no tolerance is needed, and none is on by default.
//
// The library does the rest as it does for its own strategies: references in `__Snapshots__`
// beside the test file, the record modes (`.missing`, `.all`, `.failed`, `.never`), the failed
// image in `SNAPSHOT_ARTIFACTS` (default: the temporary folder). The difference image is written
// beside it, and the failure message names all three and says how many pixels differ and by how
// much.

/// A rendered snapshot, or why there is none: a reference that is not a PNG decodes to a
/// `SnapshotImage` whose `problem` says so, and the comparison fails with that sentence.
public struct SnapshotImage {
    /// The pixels; nil when `problem` says why there are none.
    public let image: CGImage?
    /// Why there is no image (a reference that is not a PNG, a screen that could not be
    /// rendered); nil for an image.
    public let problem: String?

    /// An image.
    public init(_ image: CGImage) {
        self.image = image
        problem = nil
    }

    /// No image, because of `problem`.
    public init(problem: String) {
        image = nil
        self.problem = problem
    }

    /// Decodes PNG bytes; bytes that are not a PNG give an image-less value saying why.
    public init(pngData: Data) {
        do {
            self.init(try CGImage(pngData: pngData))
        } catch {
            self.init(problem: pngData.isEmpty ? "the reference is empty, not a PNG"
                      : "the reference is not a PNG (\(error), \(pngData.count) bytes)")
        }
    }

    /// The PNG bytes (empty for an image-less value).
    public var pngData: Data {
        guard let image, let bytes = try? image.pngData() else { return Data() }
        return Data(bytes)
    }
}

/// How far a snapshot may stray from its reference and still pass: off by default (`.exact`),
/// as Crisp renders the same bits everywhere.
public struct SnapshotTolerance: Equatable, Sendable {
    /// The largest difference, in any channel (0…255), of a pixel still counted as equal.
    public var maximumChannelDifference: Int
    /// How many pixels may differ (beyond `maximumChannelDifference`) for the snapshot to pass.
    public var maximumDifferingPixels: Int

    /// A tolerance.
    public init(maximumChannelDifference: Int = 0, maximumDifferingPixels: Int = 0) {
        self.maximumChannelDifference = max(0, maximumChannelDifference)
        self.maximumDifferingPixels = max(0, maximumDifferingPixels)
    }

    /// Every pixel equal to the bit: the default.
    public static let exact = SnapshotTolerance()
}

/// A strategy's arguments that name nothing valid: an unknown device, language, theme or
/// screen, a scale other than 1 or 2, an app whose resources folder does not exist. The
/// message lists what is valid.
public struct SnapshotConfigurationError: LocalizedError, CustomStringConvertible, Sendable {
    /// The message.
    public var description: String
    /// The message (what swift-snapshot-testing prints when the value to snapshot throws it).
    public var errorDescription: String? { description }
    /// An error saying `message`.
    public init(_ message: String) { description = message }
}

/// Where, how and as what a view is rendered for a snapshot: one cell of a matrix.
public struct SnapshotEnvironment: Sendable {
    /// The device, at the scale asked for.
    public var device: Device
    /// The language, one of the app's.
    public var language: String
    /// The theme's name, one of the app's; nil for its first.
    public var theme: String?
    /// Whether the in-call status bar shows.
    public var isInCall: Bool

    /// Checks the names against Crisp's device presets and `application`'s languages and themes.
    ///
    /// - Parameters:
    ///   - device: a preset's identifier or name (`iphone3gs`, `"iPhone 4"`, `ipad`…).
    ///   - scale: 1 or 2; nil for the device's own.
    ///   - language: one of `application.languages`.
    ///   - theme: one of `application.themes`' names; nil for the first.
    ///   - callBar: whether the in-call status bar shows.
    /// - Throws: `SnapshotConfigurationError` listing the valid names.
    public init(application: any CrispApplication.Type, device: String, scale: Int? = nil, language: String = "en",
                theme: String? = nil, callBar: Bool = false) throws {
        guard var preset = Device.preset(named: device) else {
            throw SnapshotConfigurationError("unknown device \"\(device)\"; the devices are "
                                             + Device.presets.map(\.identifier).joined(separator: ", "))
        }
        if let scale {
            guard scale == 1 || scale == 2 else {
                throw SnapshotConfigurationError("scale \(scale) is not 1 or 2")
            }
            let scaled = preset.withScale(CGFloat(scale))
            deviceName = scaled.identifier == "custom" ? "\(preset.identifier)@\(scale)x" : scaled.identifier
            preset = scaled
        } else {
            deviceName = preset.identifier
        }
        if let folder = application.resourcesFolder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw SnapshotConfigurationError("the app's resources folder \(folder.path) does not exist "
                                                 + "(\(application.name).resourcesFolder names it)")
            }
        }
        let languages = application.languages.isEmpty ? ["en"] : application.languages
        guard languages.contains(language) else {
            throw SnapshotConfigurationError("unknown language \"\(language)\" for \(application.name); its languages are "
                                             + languages.joined(separator: ", "))
        }
        if let theme {
            let themes = (application.themes.isEmpty ? Theme.all : application.themes).map(\.name)
            guard themes.contains(theme) else {
                throw SnapshotConfigurationError("unknown theme \"\(theme)\" for \(application.name); its themes are "
                                                 + themes.joined(separator: ", "))
            }
        }
        self.device = preset
        self.language = language
        self.theme = theme
        isInCall = callBar
    }

    /// The cell's name in a matrix: `iphone3gs-de-call`, `ipad-en-dark`; another scale names
    /// the preset of that shape (the iPhone 4 at 1× is the `iphone3gs`), else adds `@1x`/`@2x`
    /// to the device asked for (`iphone5@1x`).
    public var name: String {
        var parts = [deviceName, language]
        if let theme { parts.append(theme) }
        if isInCall { parts.append("call") }
        return parts.joined(separator: "-")
    }

    /// The device's part of `name`.
    private var deviceName: String

    /// The configuration an app launched for this snapshot starts with (clock at 9:41, as
    /// `--snapshot` has it).
    public func configuration(screen: String?) -> AppConfiguration {
        AppConfiguration(device: device, isInCall: isInCall, language: language, fixedTime: "9:41", screen: screen,
                         theme: theme, allowsBackgroundReports: false)
    }

    /// Every combination of the arguments, devices varying slowest; each name is checked.
    ///
    /// - Throws: `SnapshotConfigurationError` for the first unknown name, listing the valid ones.
    public static func matrix(application: any CrispApplication.Type, devices: [String], scales: [Int?] = [nil],
                              languages: [String] = ["en"], themes: [String?] = [nil],
                              callBar: [Bool] = [false]) throws -> [SnapshotEnvironment] {
        var cells: [SnapshotEnvironment] = []
        for device in devices {
            for scale in scales {
                for language in languages {
                    for theme in themes {
                        for inCall in callBar {
                            cells.append(try SnapshotEnvironment(application: application, device: device, scale: scale,
                                                                 language: language, theme: theme, callBar: inCall))
                        }
                    }
                }
            }
        }
        return cells
    }
}

/// The app a bare view is snapshotted in when the test names none: Crisp's own strings and
/// themes, the view as its one screen.
public enum SnapshotHostApplication: CrispApplication {
    public static let name = "Snapshot"
    public static var screens: [AppScreen] { [] }
}

/// Renders views and screens for snapshots, and compares the results.
public enum CrispSnapshot {
    /// Launches `application` headless in `environment`, showing `screen` (one of the app's, or
    /// a screen of its own that it shows alone), and renders it as `--snapshot` does: the view's
    /// `prepareForSnapshot()`, animations finished.
    public static func render(_ screen: AppScreen, of application: any CrispApplication.Type,
                              in environment: SnapshotEnvironment) -> SnapshotImage {
        let own = application.screens.contains { $0.name == screen.name }
        let app = AppController(application: application, screens: own ? nil : [screen],
                                configuration: environment.configuration(screen: screen.name))
        (app.currentScreen as? AppScreenView)?.prepareForSnapshot()
        do {
            let host = try HeadlessHost(window: app.window)
            return SnapshotImage(try host.snapshot())
        } catch {
            return SnapshotImage(problem: "the screen could not be rendered: \(error)")
        }
    }

    /// What sets two images apart.
    public struct Difference: Equatable, Sendable {
        /// Pixels with a channel further apart than the tolerance's `maximumChannelDifference`.
        public var differingPixels: Int
        /// The largest difference of any channel of any pixel (0…255).
        public var maximumChannelDifference: Int
    }

    /// Counts the pixels of `new` that differ from `reference` (same size) beyond
    /// `tolerance.maximumChannelDifference`; with `differenceImage`, also draws them: the
    /// reference over white, faded to a fifth, where equal; opaque magenta where different.
    public static func compare(_ reference: CGImage, _ new: CGImage, tolerance: SnapshotTolerance = .exact,
                               differenceImage: Bool = false) -> (Difference, CGImage?) {
        let a = reference.pixels, b = new.pixels
        var differing = 0, largest = 0
        var drawn = differenceImage ? a : []
        for i in 0..<min(a.count, b.count) {
            if a[i] != b[i] {
                var d = 0
                for shift in stride(from: UInt32(0), to: 32, by: 8) {
                    d = max(d, abs(Int((a[i] >> shift) & 0xFF) - Int((b[i] >> shift) & 0xFF)))
                }
                largest = max(largest, d)
                if d > tolerance.maximumChannelDifference {
                    differing += 1
                    if differenceImage { drawn[i] = 0xFFFF_00FF; continue }
                }
            }
            if differenceImage {
                // Premultiplied c over white is c + 255 - alpha; faded to a fifth towards white.
                let p = a[i], alpha = p >> 24
                var out: UInt32 = 0xFF00_0000
                for shift in stride(from: UInt32(0), to: 24, by: 8) {
                    let c = min((p >> shift) & 0xFF, alpha)
                    out |= (255 - (alpha - c) / 5) << shift
                }
                drawn[i] = out
            }
        }
        let image = differenceImage && a.count == reference.width * reference.height
            ? CGImage(width: reference.width, height: reference.height, pixels: drawn) : nil
        return (Difference(differingPixels: differing, maximumChannelDifference: largest), image)
    }

    /// The folder failed snapshots go to: `SNAPSHOT_ARTIFACTS`, else the temporary folder (as
    /// swift-snapshot-testing has it).
    public static var artifactsDirectory: URL {
        URL(fileURLWithPath: ProcessInfo.processInfo.environment["SNAPSHOT_ARTIFACTS"] ?? NSTemporaryDirectory(),
            isDirectory: true)
    }

    /// The failure message for `new` against `reference`, or nil when they match within
    /// `tolerance`. A difference image goes to `artifactsDirectory/CrispSnapshotTesting/`.
    public static func failure(reference: SnapshotImage, new: SnapshotImage, tolerance: SnapshotTolerance) -> String? {
        if let problem = reference.problem { return problem.prefix(1).uppercased() + problem.dropFirst() + "; the new image is above." }
        if let problem = new.problem { return "The new snapshot has no image: \(problem)." }
        guard let old = reference.image, let image = new.image else { return "No image to compare." }
        guard old.width == image.width, old.height == image.height else {
            return "The reference is \(old.width)×\(old.height) pixels, the new image \(image.width)×\(image.height): "
                + "another device, scale or call-bar state? Record it again if the change is meant."
        }
        let (difference, _) = compare(old, image, tolerance: tolerance)
        if difference.differingPixels <= tolerance.maximumDifferingPixels { return nil }
        var message = "\(difference.differingPixels) of \(image.width * image.height) pixels differ, "
            + "by at most \(difference.maximumChannelDifference) of 255 in a channel"
        if tolerance != .exact {
            message += " (tolerance: \(tolerance.maximumDifferingPixels) pixels, \(tolerance.maximumChannelDifference) per channel)"
        }
        message += "."
        let (_, drawn) = compare(old, image, tolerance: tolerance, differenceImage: true)
        let folder = artifactsDirectory.appendingPathComponent("CrispSnapshotTesting", isDirectory: true)
        let file = folder.appendingPathComponent("difference-\(fingerprint(old.pixels, image.pixels)).png")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            guard let drawn else { throw SnapshotConfigurationError("cannot allocate the difference image") }
            try drawn.writePNG(to: file.path)
            message += "\nDifference (reference faded, differing pixels magenta):\n\"\(file.absoluteString)\""
        } catch {
            message += "\nThe difference image could not be written to \(file.path): \(error)"
        }
        return message
    }

    /// FNV-1a over both images' pixels, in hex: the difference image's name.
    static func fingerprint(_ a: [UInt32], _ b: [UInt32]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for p in a { hash = (hash ^ UInt64(p)) &* 0x100_0000_01b3 }
        for p in b { hash = (hash ^ UInt64(p)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}

extension Diffing where Value == SnapshotImage {
    /// PNG bytes, compared pixel for pixel within `tolerance`.
    public static func crispImage(tolerance: SnapshotTolerance = .exact) -> Diffing {
        .diff(toData: { $0.pngData }, fromData: { SnapshotImage(pngData: $0) }, diffV2: { reference, new in
            CrispSnapshot.failure(reference: reference, new: new, tolerance: tolerance).map { ($0, []) }
        })
    }
}

extension Snapshotting where Value == AppScreen, Format == SnapshotImage {
    /// A screen of `application` (its tab bar and status bar too) rendered headless in
    /// `environment` and compared with a PNG reference.
    public static func image(of application: any CrispApplication.Type, in environment: SnapshotEnvironment,
                             tolerance: SnapshotTolerance = .exact) -> Snapshotting {
        Snapshotting(pathExtension: "png", diffing: .crispImage(tolerance: tolerance)) { screen in
            CrispSnapshot.render(screen, of: application, in: environment)
        }
    }

    /// A screen of `application` rendered headless on `device` at `scale` (nil: the device's
    /// own), in `language` and `theme`, with or without the in-call status bar.
    ///
    /// - Throws: `SnapshotConfigurationError` listing the valid devices, languages or themes.
    public static func image(of application: any CrispApplication.Type, device: String = "iphone4", scale: Int? = nil,
                             language: String = "en", theme: String? = nil, callBar: Bool = false,
                             tolerance: SnapshotTolerance = .exact) throws -> Snapshotting {
        .image(of: application, in: try SnapshotEnvironment(application: application, device: device, scale: scale,
                                                             language: language, theme: theme, callBar: callBar),
               tolerance: tolerance)
    }
}

extension Snapshotting where Value == View, Format == SnapshotImage {
    /// A view shown alone as the screen of `application` (default: Crisp's own strings and
    /// themes), rendered headless on `device` at `scale`, in `language` and `theme`, with or
    /// without the in-call status bar, and compared with a PNG reference.
    ///
    /// - Throws: `SnapshotConfigurationError` listing the valid devices, languages or themes.
    public static func image(device: String = "iphone4", scale: Int? = nil, language: String = "en",
                             theme: String? = nil, callBar: Bool = false,
                             application: any CrispApplication.Type = SnapshotHostApplication.self,
                             tolerance: SnapshotTolerance = .exact) throws -> Snapshotting {
        let environment = try SnapshotEnvironment(application: application, device: device, scale: scale,
                                                  language: language, theme: theme, callBar: callBar)
        return Snapshotting<AppScreen, SnapshotImage>.image(of: application, in: environment, tolerance: tolerance)
            .pullback { view in AppScreen(name: "snapshot") { _ in view } }
    }
}

extension Dictionary where Key == String, Value == Snapshotting<AppScreen, SnapshotImage> {
    /// A strategy for every combination of devices, scales, languages, themes and call-bar
    /// states, named like `iphone3gs-de-call`, for `assertSnapshots(of:as:)`.
    ///
    /// - Throws: `SnapshotConfigurationError` for the first unknown name, listing the valid ones.
    public static func matrix(of application: any CrispApplication.Type, devices: [String], scales: [Int?] = [nil],
                              languages: [String] = ["en"], themes: [String?] = [nil], callBar: [Bool] = [false],
                              tolerance: SnapshotTolerance = .exact) throws -> Self {
        let cells = try SnapshotEnvironment.matrix(application: application, devices: devices, scales: scales,
                                                   languages: languages, themes: themes, callBar: callBar)
        return Dictionary(cells.map { ($0.name, .image(of: application, in: $0, tolerance: tolerance)) },
                          uniquingKeysWith: { first, _ in first })
    }
}

extension Dictionary where Key == String, Value == Snapshotting<View, SnapshotImage> {
    /// A strategy for every combination, for a view shown alone (see
    /// `Snapshotting.image(device:scale:language:theme:callBar:application:tolerance:)`).
    ///
    /// - Throws: `SnapshotConfigurationError` for the first unknown name, listing the valid ones.
    public static func matrix(devices: [String], scales: [Int?] = [nil], languages: [String] = ["en"],
                              themes: [String?] = [nil], callBar: [Bool] = [false],
                              application: any CrispApplication.Type = SnapshotHostApplication.self,
                              tolerance: SnapshotTolerance = .exact) throws -> Self {
        let screens = try Dictionary<String, Snapshotting<AppScreen, SnapshotImage>>.matrix(
            of: application, devices: devices, scales: scales, languages: languages, themes: themes,
            callBar: callBar, tolerance: tolerance)
        return screens.mapValues { strategy in strategy.pullback { view in AppScreen(name: "snapshot") { _ in view } } }
    }
}

extension CrispApplication {
    /// The screen named `name`, to snapshot.
    ///
    /// - Throws: `SnapshotConfigurationError` listing the app's screens.
    public static func screen(named name: String) throws -> AppScreen {
        guard let screen = screens.first(where: { $0.name == name }) else {
            throw SnapshotConfigurationError("\(self.name) has no screen \"\(name)\"; its screens are "
                                             + screens.map(\.name).joined(separator: ", "))
        }
        return screen
    }
}
