import Foundation

/// Finds files in the repository's top-level `Resources/` folder (fonts, `.strings` tables,
/// sample data) at run time.
///
/// The folder is searched, in order:
/// 1. in `$CRISP_RESOURCES` (the `Resources` folder itself), when set;
/// 2. next to the running executable: from the directory of `/proc/self/exe`, each parent in
///    turn is tried for a `Resources/` folder (a build in `.build/debug/` finds the checkout's);
/// 3. in the source tree this library was compiled from (`#filePath`), for tests and
///    `swift run` from anywhere.
/// The first folder that holds the requested file wins.
public enum CrispResources {
    /// Why a resource could not be found.
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        /// The path asked for, relative to `Resources/`.
        public var relativePath: String
        /// Every file path tried, in order.
        public var triedPaths: [String]

        public var description: String {
            "resource '\(relativePath)' not found; tried:\n" + triedPaths.map { "  " + $0 }.joined(separator: "\n")
                + "\n(set CRISP_RESOURCES to the repository's Resources folder)"
        }
    }

    /// The URL of `relativePath` (e.g. `"Fonts/Roboto-Regular.ttf"`) inside `Resources/`.
    ///
    /// - Throws: `CrispResources.NotFound`, naming every path tried.
    public static func url(for relativePath: String) throws -> URL {
        var tried: [String] = []
        for directory in candidateDirectories() {
            let url = directory.appendingPathComponent(relativePath)
            if FileManager.default.fileExists(atPath: url.path) { return url }
            tried.append(url.path)
        }
        throw NotFound(relativePath: relativePath, triedPaths: tried)
    }

    /// The `Resources` folders searched, in order (some may not exist).
    public static func candidateDirectories() -> [URL] {
        var result: [URL] = []
        if let env = ProcessInfo.processInfo.environment["CRISP_RESOURCES"], !env.isEmpty {
            result.append(URL(fileURLWithPath: env, isDirectory: true))
        }
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = (exe as NSString).deletingLastPathComponent
            while !dir.isEmpty {
                let candidate = (dir as NSString).appendingPathComponent("Resources")
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), isDirectory.boolValue {
                    result.append(URL(fileURLWithPath: candidate, isDirectory: true))
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir { break }
                dir = parent
            }
        }
        // Sources/CrispGraphics/CrispResources.swift → the repository root.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        result.append(root.appendingPathComponent("Resources", isDirectory: true))
        return result
    }
}
