import CrispGraphics
import Foundation
import Testing

/// crisp-demo copied out of the checkout, as an install would put it: it finds its resources
/// under the install prefix or through `CRISP_RESOURCES`, and without them it stops with a
/// message naming every place it looked (it never falls back to the build machine's checkout).
@Suite(.serialized) struct InstalledBinaryTests {
    /// A temporary `<prefix>/bin/crisp-demo`.
    private static func install() throws -> (prefix: URL, executable: String) {
        let prefix = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-install-\(UUID().uuidString)")
        let bin = prefix.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let executable = bin.appendingPathComponent("crisp-demo").path
        // Written through a close-on-exec descriptor: a process another test spawns meanwhile
        // must not inherit it open for writing, or exec'ing the copy fails with ETXTBSY.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: try ExternalTools.demoExecutable()))
        let fd = open(executable, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o755)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw POSIXError(.EIO) }
        return (prefix, executable)
    }

    /// The checkout's Resources folder (the test bundle runs from inside the checkout).
    private static func checkoutResources() throws -> URL {
        try CrispResources.url(for: "Fonts/Roboto-Regular.ttf").deletingLastPathComponent().deletingLastPathComponent()
    }

    private static let environmentWithoutOverride: [String: String] = {
        var env = ProcessInfo.processInfo.environment
        env["CRISP_RESOURCES"] = nil
        return env
    }()

    @Test func withoutResourcesItStopsNamingEveryPlace() throws {
        let (prefix, executable) = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let png = prefix.appendingPathComponent("out.png").path
        let run = try ExternalTools.run(executable, ["--snapshot", png], replacingEnvironment: Self.environmentWithoutOverride)
        #expect(run.status == 1, "\(run.output)")
        #expect(run.output.contains("not found; tried:"), "\(run.output)")
        #expect(run.output.contains(prefix.appendingPathComponent("bin/Resources/Fonts/Roboto-Regular.ttf").path), "\(run.output)")
        #expect(run.output.contains(prefix.appendingPathComponent("share/crisp/Resources/Fonts/Roboto-Regular.ttf").path),
                "\(run.output)")
        #expect(run.output.contains("CRISP_RESOURCES"))
        #expect(!FileManager.default.fileExists(atPath: png))
    }

    @Test func findsResourcesUnderTheInstallPrefix() throws {
        let (prefix, executable) = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        let share = prefix.appendingPathComponent("share/crisp")
        try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: try Self.checkoutResources(), to: share.appendingPathComponent("Resources"))
        let png = prefix.appendingPathComponent("out.png").path
        let run = try ExternalTools.run(executable, ["--snapshot", png], replacingEnvironment: Self.environmentWithoutOverride)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: png))
    }

    @Test func findsResourcesThroughTheEnvironment() throws {
        let (prefix, executable) = try Self.install()
        defer { try? FileManager.default.removeItem(at: prefix) }
        var env = Self.environmentWithoutOverride
        env["CRISP_RESOURCES"] = try Self.checkoutResources().path
        let png = prefix.appendingPathComponent("out.png").path
        let run = try ExternalTools.run(executable, ["--snapshot", png], replacingEnvironment: env)
        #expect(run.status == 0, "\(run.output)")
        #expect(FileManager.default.fileExists(atPath: png))
    }
}
