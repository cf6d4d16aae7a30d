import Foundation

/// A child process started with `posix_spawn` and a cleared signal mask.
///
/// Foundation's `Process` spawns from a libdispatch thread that blocks every signal, and the
/// child inherits that mask: an Xvfb started that way ignores SIGTERM and never exits. Here the
/// child gets an empty mask and default handlers.
final class ChildProcess {
    let pid: pid_t
    private var exitStatus: Int32?

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Starts `executable` with `arguments`; stdout goes to `stdoutFD`, or to `outputPath`
    /// together with stderr, or to /dev/null; stderr to `stderrPath` (or /dev/null).
    init(_ executable: String, _ arguments: [String], environment: [String: String], stdoutFD: Int32? = nil,
         outputPath: String? = nil, stderrPath: String? = nil) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        if let stdoutFD {
            posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1)
        } else if let outputPath {
            posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        } else {
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        }
        if outputPath != nil {
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        } else {
            posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t(), all = sigset_t()
        sigemptyset(&empty)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var child: pid_t = 0
        // ETXTBSY: a program just copied (InstalledBinaryTests) is still open for writing in a
        // child another thread forked while the copy was being written — close-on-exec closes
        // it only when that child execs — so try again, for up to 2 s (seen once in the suite).
        var r = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        for _ in 0..<100 where r == ETXTBSY {
            usleep(20_000)
            r = posix_spawn(&child, executable, &actions, &attributes, argv, envp)
        }
        guard r == 0 else { throw Failure(description: "cannot start \(executable): \(String(cString: strerror(r)))") }
        pid = child
    }

    /// Whether the process has not exited yet (reaps it once it has).
    var isRunning: Bool {
        if exitStatus != nil { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return false
        }
        return true
    }

    /// The exit code (or 128 + signal), once exited.
    var terminationStatus: Int32? {
        guard !isRunning, let s = exitStatus else { return nil }
        let signal = s & 0x7F
        return signal == 0 ? (s >> 8) & 0xFF : 128 + signal
    }

    /// Sends `signal`.
    func send(_ signal: Int32) { kill(pid, signal) }

    /// Waits up to `timeout` seconds for the exit; returns the status or nil.
    @discardableResult
    func waitForExit(timeout: TimeInterval = 20) -> Int32? {
        waitUntil(timeout: timeout) { !isRunning }
        return terminationStatus
    }

    /// Ends the process: SIGTERM, then SIGKILL if it has not exited within 5 s.
    func terminate() {
        guard isRunning else { return }
        send(SIGTERM)
        if waitForExit(timeout: 5) == nil {
            send(SIGKILL)
            waitForExit(timeout: 5)
        }
    }
}
