import Foundation

/// A running crisp-demo with a status file the test follows.
final class DemoProcess {
    let process: ChildProcess
    let statusPath: String
    let stderrPath: String
    let displayName: String

    /// Starts crisp-demo on `display`; `launcher` runs it (a command that execs the demo path and
    /// arguments appended to it, such as `unshare --ipc`).
    init(display: String, arguments: [String], environment: [String: String] = [:], launcher: [String] = []) throws {
        displayName = display
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-demo-\(UUID().uuidString)").path
        statusPath = base + ".status"
        stderrPath = base + ".stderr"
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["DISPLAY"] = display
        let command = launcher + [try ExternalTools.demoExecutable()] + arguments + ["--status-file", statusPath]
        process = try ChildProcess(command[0], Array(command.dropFirst()), environment: env, stderrPath: stderrPath)
    }

    deinit {
        if process.isRunning {
            process.send(SIGKILL)
            process.waitForExit()
        }
        try? FileManager.default.removeItem(atPath: statusPath)
        try? FileManager.default.removeItem(atPath: stderrPath)
    }

    var pid: Int32 { process.pid }

    /// The status lines so far.
    var lines: [String] {
        guard let text = try? String(contentsOfFile: statusPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits for a line starting with `prefix` after the first `after` lines; returns its index.
    /// The limit is generous (60 s): the wait ends as soon as the line comes, and in a full run
    /// the demo starts beside dozens of other X tests on two cores (a first frame under a window
    /// manager once took more than 20 s there, and under 1 s alone).
    @discardableResult
    func waitForLine(_ prefix: String, after: Int = 0, timeout: TimeInterval = 60) -> Int? {
        var found: Int?
        waitUntil(timeout: timeout) {
            let l = lines
            found = l.indices.first { $0 >= after && l[$0].hasPrefix(prefix) }
            return found != nil || !process.isRunning
        }
        if found == nil {
            let l = lines
            found = l.indices.first { $0 >= after && l[$0].hasPrefix(prefix) }
        }
        return found
    }

    /// The X window id the demo reported.
    var windowID: UInt? {
        guard let line = lines.first(where: { $0.hasPrefix("window 0x") }) else { return nil }
        return UInt(line.dropFirst("window 0x".count), radix: 16)
    }

    /// Runs xdotool against the demo's display.
    func xdotool(_ arguments: String...) throws {
        let tool = try ExternalTools.require("xdotool", package: "xdotool")
        try ExternalTools.run(tool, arguments, environment: ["DISPLAY": displayName])
    }

    /// Waits for the process to exit; its status, or nil on timeout.
    func waitForExit(timeout: TimeInterval = 20) -> Int32? { process.waitForExit(timeout: timeout) }

    /// What the demo wrote to standard error so far.
    var standardError: String { (try? String(contentsOfFile: stderrPath, encoding: .utf8)) ?? "" }
}

/// Shared-memory segments created by `pid` (from `ipcs -m -p`).
func sharedMemorySegments(createdBy pid: Int32) throws -> [String] {
    let ipcs = try ExternalTools.require("ipcs", package: "util-linux")
    let output = try ExternalTools.run(ipcs, ["-m", "-p"]).output
    return output.split(separator: "\n").compactMap { line in
        let fields = line.split(separator: " ", omittingEmptySubsequences: true)
        return fields.count >= 4 && Int(fields[0]) != nil && fields[2] == "\(pid)" ? String(line) : nil
    }
}
