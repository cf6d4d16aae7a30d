import CX11
import Foundation

// When the X server goes away (it exited, crashed or was killed), Xlib notices on its next read
// or write and calls the process-wide I/O error handler; whatever that handler does, Xlib then
// ends the process (its default prints "XIO: fatal IO error …" and exits with status 1), because
// the connection's state cannot be recovered. The host's handler turns that into one clear line
// — through the application's `Options.connectionLost`, so an application can also record it —
// and exits with status 1 itself. Nothing is left behind: shared-memory segments are removed as
// soon as they are made (X11ImageBuffer), so the kernel frees them with the process.
//
// The handler is a plain C function pointer and cannot capture: what it needs lives in globals,
// set once per host on the thread that runs it.

/// The display name and the application's callback for the I/O error handler.
nonisolated(unsafe) private var lostDisplayName = ""
nonisolated(unsafe) private var lostConnectionCallback: (@Sendable (String) -> Void)?

extension X11Host {
    /// The line reported when the connection to `displayName` is lost.
    static func connectionLostDescription(_ displayName: String) -> String {
        "lost the connection to the X server \"\(displayName)\" (it exited, crashed or closed the connection)"
    }

    /// Installs the I/O error handler that reports a lost connection and exits with status 1.
    static func installConnectionLostHandler(display: String, handler: (@Sendable (String) -> Void)?) {
        lostDisplayName = display
        lostConnectionCallback = handler
        XSetIOErrorHandler { _ in
            let line = X11Host.connectionLostDescription(lostDisplayName)
            if let callback = lostConnectionCallback {
                callback(line)
            } else {
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
            exit(1)
        }
    }
}
