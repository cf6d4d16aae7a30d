import CX11
import Foundation

/// An Xvfb server the test starts on a free display (`-displayfd`), with or without MIT-SHM,
/// plus an Xlib connection of the test's own to read pixels and send client messages.
final class XvfbServer {
    let process: ChildProcess
    /// Like ":3".
    let displayName: String
    let display: OpaquePointer

    struct Failure: Error, CustomStringConvertible { let description: String }

    init(sharedMemory: Bool) throws {
        let xvfb = try ExternalTools.require("Xvfb", package: "xvfb")
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw Failure(description: "pipe failed") }
        defer { Glibc.close(fds[0]) }
        do {
            process = try ChildProcess(xvfb, ["-displayfd", "1", "-screen", "0", "1400x1300x24", "-nolisten", "tcp", "-noreset"]
                + (sharedMemory ? [] : ["-extension", "MIT-SHM"]), environment: ProcessInfo.processInfo.environment, stdoutFD: fds[1])
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
        XCloseDisplay(display)
        process.terminate()
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
