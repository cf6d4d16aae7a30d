import Foundation

/// A running crisp-demo with a status file the test follows.
final class DemoProcess {
    let process = Process()
    let statusPath: String
    let displayName: String
    private let stderrPipe = Pipe()

    init(display: String, arguments: [String], environment: [String: String] = [:]) throws {
        displayName = display
        statusPath = FileManager.default.temporaryDirectory
            .appendingPathComponent("crisp-demo-status-\(UUID().uuidString).txt").path
        process.executableURL = URL(fileURLWithPath: try ExternalTools.demoExecutable())
        process.arguments = arguments + ["--status-file", statusPath]
        var env = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        env["DISPLAY"] = display
        process.environment = env
        process.standardOutput = FileHandle.nullDevice
        process.standardError = stderrPipe
        try process.run()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        try? FileManager.default.removeItem(atPath: statusPath)
    }

    var pid: Int32 { process.processIdentifier }

    /// The status lines so far.
    var lines: [String] {
        guard let text = try? String(contentsOfFile: statusPath, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").map(String.init)
    }

    /// Waits for a line starting with `prefix` after the first `after` lines; returns its index.
    @discardableResult
    func waitForLine(_ prefix: String, after: Int = 0, timeout: TimeInterval = 20) -> Int? {
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
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        waitUntil(timeout: timeout) { !process.isRunning }
        return process.isRunning ? nil : process.terminationStatus
    }

    /// The standard error output (after exit).
    var standardError: String {
        String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }
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
