import Foundation

/// Finds files in Crisp's `Resources/` folder (fonts, `.strings` tables, images, sample data)
/// at run time, from a checkout or from an installed binary.
///
/// The folder is searched, in order:
/// 1. in `$CRISP_RESOURCES` (the `Resources` folder itself), when set;
/// 2. next to the running executable: from the directory of `/proc/self/exe`, each parent in
///    turn is tried for a `Resources/` folder (a build in `.build/debug/` finds the checkout's,
///    a binary copied beside a `Resources/` folder finds that one);
/// 3. under the executable's install prefix: `<prefix>/share/crisp/Resources` for a binary in
///    `<prefix>/bin`.
/// The first folder that holds the requested file wins. The source tree the library was compiled
/// from is deliberately *not* searched: an installed binary must not depend on (or silently read)
/// the build machine's checkout.
public enum CrispResources {
    /// Why a resource could not be found.
    public struct NotFound: Error, CustomStringConvertible, Sendable {
        /// The path asked for, relative to `Resources/`.
        public var relativePath: String
        /// Every file path tried, in order.
        public var triedPaths: [String]

        public var description: String {
            "resource '\(relativePath)' not found; tried:\n" + triedPaths.map { "  " + $0 }.joined(separator: "\n")
                + "\n(set CRISP_RESOURCES to a Resources folder: the repository's, or <prefix>/share/crisp/Resources)"
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
            let exeDirectory = (exe as NSString).deletingLastPathComponent
            var dir = exeDirectory
            while !dir.isEmpty {
                let candidate = (dir as NSString).appendingPathComponent("Resources")
                var isDirectory: ObjCBool = false
                // The executable's own folder is always named (so a failure says where to put
                // the resources); its parents only when they hold a Resources folder.
                if dir == exeDirectory
                    || FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory) && isDirectory.boolValue {
                    result.append(URL(fileURLWithPath: candidate, isDirectory: true))
                }
                let parent = (dir as NSString).deletingLastPathComponent
                if parent == dir { break }
                dir = parent
            }
            let prefix = (exeDirectory as NSString).deletingLastPathComponent
            result.append(URL(fileURLWithPath: prefix, isDirectory: true)
                .appendingPathComponent("share/crisp/Resources", isDirectory: true))
        }
        // Each folder once, where it first comes (`CRISP_RESOURCES` may name the folder the walk
        // up finds again): a failure lists each place once.
        var seen = Set<String>()
        return result.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }
}
