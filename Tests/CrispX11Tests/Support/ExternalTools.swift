import Foundation

/// Finding and running the programs the end-to-end tests need.
enum ExternalTools {
    struct Missing: Error, CustomStringConvertible {
        let tool: String, package: String
        var description: String { "\(tool) is not installed: apt-get install -y \(package)" }
    }

    /// The path of `tool` on PATH, or an error naming the Debian package to install.
    static func require(_ tool: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let candidate = "\(dir)/\(tool)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw Missing(tool: tool, package: package)
    }

    /// The crisp-demo executable built beside the test bundle.
    static func demoExecutable() throws -> String {
        let candidates = [
            URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("crisp-demo").path,
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().appendingPathComponent(".build/debug/crisp-demo").path,
        ]
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) { return found }
        struct NotBuilt: Error, CustomStringConvertible {
            var description: String { "crisp-demo is not built: run swift build first" }
        }
        throw NotBuilt()
    }

    /// Runs a program to completion; returns its exit status and its output (stdout and stderr).
    /// `environment` is added to this process's environment. `timeout` (seconds) only guards
    /// against a hang (status -1 when it passes); it is generous because a debug build on a
    /// loaded machine is slow, and it is not a speed assertion.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                    timeout: TimeInterval = 60) throws -> (status: Int32, output: String) {
        try run(executable, arguments, replacingEnvironment: ProcessInfo.processInfo.environment.merging(environment) { $1 },
                timeout: timeout)
    }

    /// Runs a program to completion with exactly `environment`; returns its exit status and its
    /// output (stdout and stderr).
    static func run(_ executable: String, _ arguments: [String], replacingEnvironment environment: [String: String],
                    timeout: TimeInterval = 60) throws -> (status: Int32, output: String) {
        let errPath = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-run-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: errPath) }
        let p = try ChildProcess(executable, arguments, environment: environment, outputPath: errPath)
        let status = p.waitForExit(timeout: timeout) ?? -1
        return (status, (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }
}

/// Waits for a condition, checking every 20 ms, up to `timeout` seconds; true when it held.
/// (Waiting for a condition, never for a fixed time.)
@discardableResult
func waitUntil(timeout: TimeInterval = 15, _ condition: () throws -> Bool) rethrows -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if try condition() { return true }
        usleep(20_000)
    }
    return try condition()
}
