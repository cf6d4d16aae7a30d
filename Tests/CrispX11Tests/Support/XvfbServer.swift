import CX11
import Foundation

/// An Xvfb server the test starts on a free display (`-displayfd`), with or without MIT-SHM,
/// plus an Xlib connection of the test's own to read pixels and send client messages.
final class XvfbServer {
    let process: ChildProcess
    /// Like ":3".
    let displayName: String
    let display: OpaquePointer
    private var isConnected = true

    struct Failure: Error, CustomStringConvertible { let description: String }

    /// Starts Xvfb with a 1400×1300 screen `depth` bits deep; `launcher` runs it (a command and
    /// its arguments that end by exec'ing the Xvfb path and arguments appended to them, such as
    /// `unshare --ipc`).
    init(sharedMemory: Bool, depth: Int = 24, launcher: [String] = []) throws {
        let xvfb = try ExternalTools.require("Xvfb", package: "xvfb")
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") }
        defer { Glibc.close(fds[0]) }
        do {
            let command = launcher + [xvfb, "-displayfd", "1", "-screen", "0", "1400x1300x\(depth)", "-nolisten", "tcp", "-noreset"]
                + (sharedMemory ? [] : ["-extension", "MIT-SHM"])
            process = try ChildProcess(command[0], Array(command.dropFirst()), environment: ProcessInfo.processInfo.environment,
                                       stdoutFD: fds[1])
        } catch {
            Glibc.close(fds[1])
            throw error
        }
        Glibc.close(fds[1])
        // Xvfb writes the display number to fd 1 once it accepts connections.
        let fd = fds[0]
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n"), Date() < deadline {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 200) > 0 else { continue }
            var byte: UInt8 = 0
            if read(fd, &byte, 1) != 1 { break }
            text.append(Character(UnicodeScalar(byte)))
        }
        guard let number = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw Failure(description: "Xvfb did not report a display number (got \"\(text)\")")
        }
        displayName = ":\(number)"
        guard let d = XOpenDisplay(displayName) else {
            process.terminate()
            throw Failure(description: "cannot connect to Xvfb on \(displayName)")
        }
        display = d
    }

    deinit {
        if isConnected { XCloseDisplay(display) }
        process.terminate()
    }

    /// Kills the server (SIGKILL: it disappears without a goodbye), after closing the test's own
    /// connection so that this process is not the one Xlib ends.
    func kill() {
        if isConnected { XCloseDisplay(display) }
        isConnected = false
        process.send(SIGKILL)
        process.waitForExit()
    }

    /// Whether the server offers MIT-SHM.
    var hasSharedMemory: Bool { XShmQueryExtension(display) != 0 }

    /// The window's size, or nil when it is gone.
    func size(of window: XID) -> (width: Int, height: Int)? {
        var attributes = XWindowAttributes()
        guard XGetWindowAttributes(display, window, &attributes) != 0 else { return nil }
        return (Int(attributes.width), Int(attributes.height))
    }

    /// The minimum size the window asks the window manager for (`WM_NORMAL_HINTS`), or nil.
    func minimumSize(of window: XID) -> (width: Int, height: Int)? {
        guard let hints = XAllocSizeHints() else { return nil }
        defer { XFree(hints) }
        var supplied = 0
        guard XGetWMNormalHints(display, window, hints, &supplied) != 0, hints.pointee.flags & PMinSize != 0 else { return nil }
        return (Int(hints.pointee.min_width), Int(hints.pointee.min_height))
    }

    /// The window's position on the screen.
    func origin(of window: XID) -> (x: Int, y: Int) {
        var x: Int32 = 0, y: Int32 = 0
        var child: XID = 0
        XTranslateCoordinates(display, window, XDefaultRootWindow(display), 0, 0, &x, &y, &child)
        return (Int(x), Int(y))
    }

    /// The window's pixels as 0x00RRGGBB, rows from the top.
    func pixels(of window: XID) -> (width: Int, height: Int, pixels: [UInt32])? {
        guard let (w, h) = size(of: window), let image = XGetImage(display, window, 0, 0, UInt32(w), UInt32(h), UInt.max, ZPixmap) else {
            return nil
        }
        defer { _ = image.pointee.f.destroy_image(image) }
        let bytesPerRow = Int(image.pointee.bytes_per_line)
        guard image.pointee.bits_per_pixel == 32, let data = image.pointee.data else { return nil }
        var out = [UInt32](repeating: 0, count: w * h)
        let raw = UnsafeRawPointer(data)
        for y in 0..<h {
            for x in 0..<w {
                out[y * w + x] = raw.loadUnaligned(fromByteOffset: y * bytesPerRow + x * 4, as: UInt32.self) & 0x00FF_FFFF
            }
        }
        return (w, h, out)
    }

    /// The window's pixel values as the server stores them (any depth), rows from the top.
    func rawPixels(of window: XID) -> (width: Int, height: Int, bitsPerPixel: Int, pixels: [UInt32])? {
        guard let (w, h) = size(of: window), let image = XGetImage(display, window, 0, 0, UInt32(w), UInt32(h), UInt.max, ZPixmap) else {
            return nil
        }
        defer { _ = image.pointee.f.destroy_image(image) }
        var out = [UInt32](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w { out[y * w + x] = UInt32(truncatingIfNeeded: image.pointee.f.get_pixel(image, Int32(x), Int32(y))) }
        }
        return (w, h, Int(image.pointee.bits_per_pixel), out)
    }

    /// The window's `_NET_WM_NAME` (UTF-8) and `WM_CLASS`.
    func titleAndClass(of window: XID) -> (title: String, instance: String, className: String) {
        let utf8 = XInternAtom(display, "UTF8_STRING", False)
        let name = XInternAtom(display, "_NET_WM_NAME", False)
        var type: Atom = 0, format: Int32 = 0, count: UInt = 0, after: UInt = 0
        var data: UnsafeMutablePointer<UInt8>?
        var title = ""
        if XGetWindowProperty(display, window, name, 0, 1024, False, utf8, &type, &format, &count, &after, &data) == Success,
           let data {
            title = String(decoding: UnsafeBufferPointer(start: data, count: Int(count)), as: UTF8.self)
            XFree(data)
        }
        var hint = XClassHint()
        var instance = "", className = ""
        if XGetClassHint(display, window, &hint) != 0 {
            instance = String(cString: hint.res_name)
            className = String(cString: hint.res_class)
            XFree(hint.res_name)
            XFree(hint.res_class)
        }
        return (title, instance, className)
    }

    /// Sends the window a synthetic press and release of the key for `keysym` (with Shift when
    /// the keymap has it there), through the test's connection — which works while this
    /// connection grabs the server, unlike XTEST input from another client.
    func sendKey(_ keysym: KeySym, to window: XID) {
        let code = XKeysymToKeycode(display, keysym)
        let state: UInt32 = XKeycodeToKeysym(display, code, 0) == keysym ? 0 : UInt32(ShiftMask)
        for type in [KeyPress, KeyRelease] {
            var event = XEvent()
            event.xkey.type = type
            event.xkey.display = display
            event.xkey.window = window
            event.xkey.root = XDefaultRootWindow(display)
            event.xkey.keycode = UInt32(code)
            event.xkey.state = state
            event.xkey.same_screen = True
            XSendEvent(display, window, True, type == KeyPress ? KeyPressMask : KeyReleaseMask, &event)
        }
        XSync(display, False)
    }

    /// Asks the window to close the way a window manager's close button does: a WM_PROTOCOLS
    /// client message carrying WM_DELETE_WINDOW.
    func sendDeleteWindow(to window: XID) {
        var event = XEvent()
        event.xclient.type = ClientMessage
        event.xclient.window = window
        event.xclient.message_type = XInternAtom(display, "WM_PROTOCOLS", False)
        event.xclient.format = 32
        event.xclient.data.l.0 = Int(XInternAtom(display, "WM_DELETE_WINDOW", False))
        event.xclient.data.l.1 = Int(CurrentTime)
        XSendEvent(display, window, False, NoEventMask, &event)
        XFlush(display)
    }
}
