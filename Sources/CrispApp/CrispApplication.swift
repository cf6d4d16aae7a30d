import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// An app to run in Crisp's iPhone / iPad emulator: its screens, resources and themes. Mark the
/// conforming type `@main` (as a `UIApplicationDelegate` with `@main`), and `main()` gives it
/// the emulator's whole command line (`--device`, `--scale`, `--call-bar`, `--language`,
/// `--screen`, `--theme`, `--snapshot`, `--status-file`, `--no-shm`, `--clock`,
/// `--asset-report`, `--bench-render`, `--help`), every key, the X11 window with its MIT-SHM
/// fallback, the headless `--snapshot`, and the status file:
///
///     @main
///     enum HelloApp: CrispApplication {
///         static let name = "Hello"
///         static var screens: [AppScreen] {
///             [AppScreen(name: "hello", title: "Hello") { _ in HelloView() }]
///         }
///     }
///
/// Only `screens` is required; every other member has a default.
public protocol CrispApplication {
    /// The app's name: the window title's first part, looked up in the strings tables.
    static var name: String { get }
    /// The carrier's name the status bar shows beside the signal bars, as a phone shows its
    /// network's (default: `name`; empty: none). Not looked up in the strings tables: a
    /// network's name is the same in every language. `--status-bar operatorName=` overrides it.
    static var carrierName: String { get }
    /// The command's name in usage lines and error messages, and the window's X11 instance
    /// name (default: the executable's file name).
    static var commandName: String { get }
    /// The one-line description `--help` prints.
    static var abstract: String { get }
    /// The paragraph `--help` prints after the options (default: the keys every app has).
    static var discussion: String { get }
    /// The screens, in tab order (a tab bar shows when there are two or more).
    static var screens: [AppScreen] { get }
    /// The app's own resources folder, holding `Strings/<language>.strings` and `Images/`;
    /// nil (the default) when the app has none and uses Crisp's `Resources` only. Its strings
    /// are looked up before Crisp's. A folder that does not exist stops the app at launch
    /// with an error naming it.
    static var resourcesFolder: URL? { get }
    /// The languages `--language` takes and `l` cycles through (default: the tables in
    /// `resourcesFolder/Strings`, English first; `["en"]` without a folder).
    static var languages: [String] { get }
    /// The themes `--theme` takes and `t` cycles through (default: `Theme.all`).
    static var themes: [Theme] { get }
    /// The smallest screen the app lays out without overlaps, in points: the window's minimum
    /// size (default 240 × 360).
    static var minimumScreenSize: CGSize { get }
    /// Lines to print as warnings (prefixed with the command's name) once the app is launched,
    /// like a missing picture it draws without (default: none).
    static func launchWarnings(_ app: AppController) -> [String]
    /// Writes `--asset-report`'s files into `directory` (which exists and is empty) for
    /// `devices`, and returns the lines to print. The default renders every screen at every
    /// device and theme as the PNGs an app drawn in bitmaps would ship (`AppAssetReport`).
    ///
    /// - Throws: `AppCommandError` with the message to print (exit status 1).
    static func writeAssetReport(to directory: String, devices: [Device]) throws -> [String]
    /// Extra columns for `--bench-render`'s header (default: none).
    static var benchmarkHeader: String { get }
    /// Measures `frames` frames of app-specific work on the screen shown by `app` and returns
    /// the text appended to its `--bench-render` line (default: nothing).
    static func benchmarkColumns(app: AppController, host: HeadlessHost, frames: Int) throws -> String
}

extension CrispApplication {
    /// The type's name.
    public static var name: String { String(describing: Self.self) }
    /// The app's name (`name`).
    public static var carrierName: String { name }
    /// The executable's file name.
    public static var commandName: String {
        let path = CommandLine.arguments.first ?? "app"
        return URL(fileURLWithPath: path).lastPathComponent
    }
    /// "<name>: vector-drawn screens on an emulated iPhone or iPad, in an X11 window."
    public static var abstract: String { "\(name): vector-drawn screens on an emulated iPhone or iPad, in an X11 window." }
    /// The keys every app has.
    public static var discussion: String {
        """
        Keys: 1–5 device presets, c in-call status bar, s 1×/2×, l language, t theme, Tab / Shift-Tab \
        screens, v loupe mode, + / - loupe zoom, f frame-time overlay, d debug overlay, Ctrl+Left / Ctrl+Right rotate, Ctrl+1 / 2 / 3 window scale pixel / point / physical, \
        Ctrl+T slow animations, Ctrl+S screenshot, Ctrl+R start / stop recording, ? help, q or Esc quit.
        Drag the window border to resize the screen freely.
        """
    }
    /// None: Crisp's `Resources` only.
    public static var resourcesFolder: URL? { nil }
    /// The tables in `resourcesFolder/Strings`, English first; `["en"]` without them.
    public static var languages: [String] {
        guard let folder = resourcesFolder,
              let names = try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("Strings").path)
        else { return ["en"] }
        let found = names.filter { $0.hasSuffix(".strings") }.map { String($0.dropLast(8)) }.sorted()
        guard !found.isEmpty else { return ["en"] }
        return found.contains("en") ? ["en"] + found.filter { $0 != "en" } : found
    }
    /// `Theme.all`.
    public static var themes: [Theme] { Theme.all }
    /// 240 × 360 points.
    public static var minimumScreenSize: CGSize { CGSize(width: 240, height: 360) }
    /// None.
    public static func launchWarnings(_ app: AppController) -> [String] { [] }
    /// Every screen as PNGs (`AppAssetReport`).
    public static func writeAssetReport(to directory: String, devices: [Device]) throws -> [String] {
        try AppAssetReport.write(application: Self.self, to: directory, devices: devices)
    }
    /// None.
    public static var benchmarkHeader: String { "" }
    /// Nothing.
    public static func benchmarkColumns(app: AppController, host: HeadlessHost, frames: Int) throws -> String { "" }

    /// Runs the app from the command line (see the protocol's summary); exits the process with
    /// the command's status.
    public static func main() {
        AppCommand.application = Self.self
        AppCommand.main()
    }

    /// Runs the app with `arguments` instead of the process's (for tests): parses them, runs,
    /// and returns the exit status a process would end with; usage errors and `--help` print
    /// as from the command line. One call at a time in a process (the command line's help
    /// texts read the app being run from a process-wide variable).
    public static func run(arguments: [String]) -> Int32 {
        AppCommand.application = Self.self
        do {
            var command = try AppCommand.parseAsRoot(arguments)
            try command.run()
            return 0
        } catch {
            let code = AppCommand.exitCode(for: error)
            if code.rawValue != 0 {
                FileHandle.standardError.write(Data((AppCommand.fullMessage(for: error) + "\n").utf8))
            } else {
                print(AppCommand.fullMessage(for: error))
            }
            return code.rawValue
        }
    }
}

extension CrispApplication {
    /// The folders the app's strings come from, in lookup order: `resourcesFolder/Strings`,
    /// then Crisp's `Resources/Strings`.
    static var stringsDirectories: [URL] {
        var result: [URL] = []
        if let folder = resourcesFolder { result.append(folder.appendingPathComponent("Strings", isDirectory: true)) }
        if let crisp = try? CrispResources.url(for: "Strings") { result.append(crisp) }
        return result
    }

    /// Finds Crisp's fonts and the app's resources folder; throws the first problem, naming
    /// every place looked at.
    @_spi(Testing) public static func checkResources() throws {
        _ = try CrispResources.url(for: "Fonts/Roboto-Regular.ttf")
        _ = try CrispResources.url(for: "Fonts/Roboto-Bold.ttf")
        _ = try CTFont.bundledFace(.system)
        _ = try CTFont.bundledFace(.emphasizedSystem)
        if resourcesFolder == nil {
            for language in languages { _ = try CrispResources.url(for: "Strings/\(language).strings") }
        }
        if let folder = resourcesFolder {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw AppCommandError("the app's resources folder \(folder.path) does not exist (\(name).resourcesFolder names it)")
            }
        }
    }

    /// The image `Images/<name>` from the app's resources folder, else from Crisp's.
    public static func image(named name: String) throws(ResourceImage.LoadError) -> CGImage {
        if let folder = resourcesFolder {
            let path = folder.appendingPathComponent("Images").appendingPathComponent(name).path
            if FileManager.default.fileExists(atPath: path) { return try ResourceImage.load(contentsOf: path) }
        }
        return try ResourceImage.load(name)
    }
}

/// A failure of the command line that ends the app with a message and exit status 1.
public struct AppCommandError: Error, CustomStringConvertible, Sendable {
    /// The message, printed after the command's name.
    public var description: String

    /// A failure saying `message`.
    public init(_ message: String) { description = message }
}
