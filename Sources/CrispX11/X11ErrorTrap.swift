import CX11

// Xlib reports protocol errors asynchronously, to a process-wide handler whose default prints
// and exits. To try something that may fail (an MIT-SHM attach on a remote or restricted
// server), sync first so older errors are not caught, install a handler that records the code,
// do it, sync again so its error (if any) has arrived, and put the old handler back.
//
// An error handler is a plain C function pointer, so it cannot capture state: the code it
// records goes to a global (ARCHITECTURE.md, "The X11 host"). Only one trap is active at a time, on the thread
// that runs the X11 host.

/// The error code the trap's handler saw last (0: none).
nonisolated(unsafe) private var trappedErrorCode: UInt8 = 0

/// Runs `body` with X errors recorded instead of fatal; returns its result and the first error
/// code (0 when there was none).
func withTrappedXErrors<T>(_ display: OpaquePointer, _ body: () -> T) -> (result: T, errorCode: UInt8) {
    XSync(display, False)
    trappedErrorCode = 0
    let previous = XSetErrorHandler { _, event in
        if trappedErrorCode == 0, let event { trappedErrorCode = event.pointee.error_code }
        return 0
    }
    let result = body()
    XSync(display, False)
    XSetErrorHandler(previous)
    return (result, trappedErrorCode)
}
