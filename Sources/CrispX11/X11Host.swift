import CrispGraphics
import CrispUI
import CX11
import Foundation

// The X11 host (ARCHITECTURE.md, "The X11 host"). One thread, one loop:
//
//   read every queued event → merge consecutive pointer motions (keep every press and release)
//   → apply the last ConfigureNotify size (reallocate only if the size changed) → fire due
//   timers → if mapped and something is dirty: wait until the server has finished reading the
//   shared image, render the dirty region straight into it, present those rectangles → flush
//   → poll() on the connection until the next timer deadline (forever when none), so an idle
//   app uses no CPU.
//
// The window has no background (background_pixmap None) and NorthWest bit gravity, so the
// server neither clears it nor moves its content on a resize: no flicker. Nothing is presented
// before MapNotify; an Expose re-presents its area from the image without drawing again.
// Under a window manager that speaks `_NET_WM_SYNC_REQUEST` (advertised in WM_PROTOCOLS, with an
// XSync counter in `_NET_WM_SYNC_REQUEST_COUNTER`), the counter is set to a request's value only
// after the frame of the new size has been presented: the manager shows no uninitialised pixels.
//
// Bounds: the image is at most `maximumImageSide` pixels (the larger of 2048 and the X screen's
// sides) in each direction, whatever size the window is given — a window of 30000 × 30000 would
// otherwise ask for 3.6 GB; the window's area beyond the image is painted black. A lost
// connection to the server (it exited or crashed) cannot be survived with Xlib: the host reports
// it once through `Options.connectionLost` (or on standard error) and the process exits with
// status 1; no shared-memory segment outlives it (X11ImageBuffer).

/// Shows a `Window` in an X11 window, presenting frames with MIT-SHM when the server allows it
/// and `XPutImage` otherwise.
public final class X11Host: ScreenHost {
    /// How the host is set up.
    public struct Options: Sendable {
        /// Try MIT-SHM (default true); `CRISP_NO_SHM=1` in the environment also turns it off.
        public var allowsSharedMemory = true
        /// Why the application turned shared memory off (reported as the reason for `XPutImage`),
        /// e.g. the command-line flag that did it.
        public var sharedMemoryDisabledReason = "disabled by the application"
        /// The window title (`_NET_WM_NAME`, UTF-8, and `WM_NAME`).
        public var title = "Crisp"
        /// `WM_CLASS` instance name: by default the executable's name, as Xt does.
        public var instanceName = ProcessInfo.processInfo.processName
        /// `WM_CLASS` class name.
        public var className = "Crisp"
        /// The display name; nil for `$DISPLAY`.
        public var displayName: String?
        /// The smallest window the window manager should allow, in points (multiplied by the
        /// screen's scale for the size hints). Default 64 × 64.
        public var minimumPointSize = CGSize(width: 64, height: 64)
        /// Called once, with a one-line description, when the connection to the X server is lost
        /// (the server exited or crashed); the process then exits with status 1, since Xlib
        /// cannot go on without its connection. Nil: the description goes to standard error.
        public var connectionLost: (@Sendable (String) -> Void)?

        /// Creates default options.
        public init() {}
    }

    /// Why the host cannot start.
    public enum Failure: Error, CustomStringConvertible {
        /// `XOpenDisplay` failed.
        case cannotOpenDisplay(String)
        /// No visual Crisp can draw into directly.
        case unsupportedVisual(String)
        /// The window's image could not be made.
        case cannotCreateImage(String)

        public var description: String {
            switch self {
            case let .cannotOpenDisplay(name):
                "cannot open X display \"\(name)\": no X server there (is DISPLAY set?)"
            case let .unsupportedVisual(s): "no usable visual: \(s)"
            case let .cannotCreateImage(s): "cannot create the window image: \(s)"
            }
        }
    }

    public let window: CrispUI.Window
    /// Where each frame goes: shared memory or XPutImage.
    public private(set) var presentMode: X11PresentMode
    /// The server's pixel layout: Crisp's own, or 5-6-5 converted per presented rectangle.
    public let pixelFormat: X11PixelFormat
    /// The largest image side in pixels: the larger of 2048 and the X screen's sides. A bigger
    /// window shows an image of this size in its top-left corner and black beyond it.
    public let maximumImageSide: Int
    /// Why shared memory is not used (nil when it is).
    public private(set) var sharedMemoryUnavailableReason: String?
    /// Called with one line per host event ("mapped", "frame 3 640x960 2", "resize 700x900",
    /// "present shm"), for the demo's `--status-file`.
    public var statusHandler: ((String) -> Void)?

    /// The desktop's scale, read at start and followed while running (`DesktopScale`).
    public private(set) var desktopScale: DesktopScale = DesktopScale(scale: 1, dotsPerInch: 96, source: "default")
    /// Called with the new reading whenever the desktop's scale or density changes (a
    /// `PropertyNotify` on the root's `RESOURCE_MANAGER` or on the XSETTINGS manager's window).
    public var desktopScaleHandler: ((DesktopScale) -> Void)?
    /// The XSETTINGS manager's window being followed (0: none).
    var xsettingsOwner: XID = 0
    private var resourceManagerAtom: Atom = 0
    private var xsettingsSettingsAtom: Atom = 0

    let display: OpaquePointer
    let xWindow: XID
    let gc: GC
    let visual: UnsafeMutablePointer<Visual>
    let depth: Int32
    private let wmProtocols: Atom
    private let wmDeleteWindow: Atom
    private let netWMSyncRequest: Atom
    /// The XSync counter published in `_NET_WM_SYNC_REQUEST_COUNTER` (0 without the SYNC extension).
    public private(set) var syncCounter: XID = 0
    /// The value of the window manager's last `_NET_WM_SYNC_REQUEST`, not yet acknowledged.
    private var pendingSyncValue: Int64?
    /// Whether that request's ConfigureNotify has not arrived yet.
    private var syncAwaitsConfigure = false
    private let shmCompletionType: Int32
    private var buffer: X11ImageBuffer?
    private var windowWidth: Int
    private var windowHeight: Int
    private var pendingSize: (width: Int, height: Int)?
    /// The request number of the host's last `XResizeWindow` (0: none yet). A ConfigureNotify
    /// the server generated before it handled that request reports a size the host has since
    /// replaced, and is passed over (see `handle`).
    private var lastResizeRequest: UInt = 0
    private var isMapped = false
    private var isServerReading = false
    private var pendingExposure = DirtyRegion()
    private var isStopped = false
    private var frameCount = 0
    private var screenObserver: Int?
    private var isClosed = false
    private var needsClearBeyondImage = false
    private let minimumPointSize: CGSize

    /// Opens the display, checks the visual, creates (but does not map) the window.
    public init(window: CrispUI.Window, options: Options = Options()) throws {
        self.window = window
        minimumPointSize = options.minimumPointSize
        let name = options.displayName ?? ProcessInfo.processInfo.environment["DISPLAY"] ?? ""
        guard let display = XOpenDisplay(options.displayName) else { throw Failure.cannotOpenDisplay(name) }
        self.display = display
        let screenNumber = XDefaultScreen(display)
        let root = XRootWindow(display, screenNumber)

        // A TrueColor visual of depth 24 whose pixels are 0x00RRGGBB in 32 bits, else one of
        // depth 16 whose pixels are 5-6-5 in 16 bits (converted per present).
        var info = XVisualInfo()
        if XMatchVisualInfo(display, screenNumber, 24, TrueColor, &info) != 0,
           info.red_mask == 0xFF0000, info.green_mask == 0x00FF00, info.blue_mask == 0x0000FF,
           X11Host.bitsPerPixel(display, depth: 24) == 32 {
            pixelFormat = .xrgb8888
        } else if XMatchVisualInfo(display, screenNumber, 16, TrueColor, &info) != 0,
                  info.red_mask == 0xF800, info.green_mask == 0x07E0, info.blue_mask == 0x001F,
                  X11Host.bitsPerPixel(display, depth: 16) == 16 {
            pixelFormat = .rgb565
        } else {
            let defaultDepth = XDefaultDepth(display, screenNumber)
            XCloseDisplay(display)
            throw Failure.unsupportedVisual("the screen is \(defaultDepth) bits deep and has neither a 24-bit TrueColor visual with "
                + "32-bit 0x00RRGGBB pixels nor a 16-bit 5-6-5 one (run the X server at depth 24 or 16)")
        }
        visual = info.visual
        depth = info.depth
        let maxSide = max(2048, Int(XDisplayWidth(display, screenNumber)), Int(XDisplayHeight(display, screenNumber)))
        maximumImageSide = maxSide
        X11Host.installConnectionLostHandler(display: name, handler: options.connectionLost)

        windowWidth = min(window.screen.pixelWidth, maxSide)
        windowHeight = min(window.screen.pixelHeight, maxSide)
        if windowWidth != window.screen.pixelWidth || windowHeight != window.screen.pixelHeight {
            window.screen.setDevice(.custom(pixelWidth: windowWidth, pixelHeight: windowHeight, scale: window.screen.scale))
        }
        var attributes = XSetWindowAttributes()
        attributes.background_pixmap = XID(None)
        attributes.bit_gravity = NorthWestGravity
        attributes.border_pixel = 0
        attributes.colormap = XCreateColormap(display, root, visual, AllocNone)
        attributes.event_mask = ExposureMask | StructureNotifyMask | KeyPressMask | ButtonPressMask | ButtonReleaseMask
            | PointerMotionMask
        let valueMask = UInt(CWBackPixmap | CWBitGravity | CWBorderPixel | CWColormap | CWEventMask)
        xWindow = XCreateWindow(display, root, 0, 0, UInt32(windowWidth), UInt32(windowHeight), 0, depth,
                                UInt32(InputOutput), visual, valueMask, &attributes)
        gc = XCreateGC(display, xWindow, 0, nil)
        wmProtocols = XInternAtom(display, "WM_PROTOCOLS", False)
        wmDeleteWindow = XInternAtom(display, "WM_DELETE_WINDOW", False)
        netWMSyncRequest = XInternAtom(display, "_NET_WM_SYNC_REQUEST", False)
        shmCompletionType = XShmGetEventBase(display) + ShmCompletion

        presentMode = .putImage
        setTitle(options.title)
        setClass(instance: options.instanceName, className: options.className)
        var protocols = [wmDeleteWindow]
        // Tear-free resizing (_NET_WM_SYNC_REQUEST): a counter the window manager waits on; it
        // is set to the value of each sync request once the frame of the new size is presented.
        var syncEventBase: Int32 = 0, syncErrorBase: Int32 = 0, syncMajor: Int32 = 0, syncMinor: Int32 = 0
        if XSyncQueryExtension(display, &syncEventBase, &syncErrorBase) != 0,
           XSyncInitialize(display, &syncMajor, &syncMinor) != 0 {
            var zero = XSyncValue()
            XSyncIntToValue(&zero, 0)
            syncCounter = XSyncCreateCounter(display, zero)
            if syncCounter != 0 {
                var counter = [UInt(syncCounter)]
                let property = XInternAtom(display, "_NET_WM_SYNC_REQUEST_COUNTER", False)
                counter.withUnsafeMutableBytes { bytes in
                    _ = XChangeProperty(display, xWindow, property, XA_CARDINAL, 32, PropModeReplace,
                                        bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), 1)
                }
                protocols.append(netWMSyncRequest)
            }
        }
        XSetWMProtocols(display, xWindow, &protocols, Int32(protocols.count))
        updateSizeHints()

        // MIT-SHM unless disabled; the first buffer is the real test attach.
        if ProcessInfo.processInfo.environment["CRISP_NO_SHM"] == "1" {
            sharedMemoryUnavailableReason = "disabled by CRISP_NO_SHM=1"
        } else if !options.allowsSharedMemory {
            sharedMemoryUnavailableReason = options.sharedMemoryDisabledReason
        } else if XShmQueryExtension(display) == 0 {
            sharedMemoryUnavailableReason = "the X server has no MIT-SHM extension"
        } else if XImageByteOrder(display) != LSBFirst {
            sharedMemoryUnavailableReason = "the X server's image byte order is not little-endian"
        } else {
            presentMode = .sharedMemory
        }
        do {
            try allocateBuffer(width: windowWidth, height: windowHeight)
        } catch {
            close()
            throw error
        }
        screenObserver = window.screen.addObserver { [unowned self] event in
            if case .deviceDidChange = event { self.screenDidChangeDevice() }
        }
        resourceManagerAtom = XInternAtom(display, "RESOURCE_MANAGER", False)
        xsettingsSettingsAtom = XInternAtom(display, "_XSETTINGS_SETTINGS", False)
        XSelectInput(display, root, PropertyChangeMask)
        desktopScale = readDesktopScale()
    }

    /// Reads the desktop's scale again; tells `desktopScaleHandler` when it changed.
    private func desktopSettingsDidChange() {
        let reading = readDesktopScale()
        guard reading != desktopScale else { return }
        desktopScale = reading
        desktopScaleHandler?(reading)
    }

    /// The server's bits per pixel for images of `depth`, from its pixmap formats.
    private static func bitsPerPixel(_ display: OpaquePointer, depth: Int32) -> Int32? {
        var count: Int32 = 0
        guard let formats = XListPixmapFormats(display, &count) else { return nil }
        defer { XFree(formats) }
        return (0..<Int(count)).first { formats[$0].depth == depth }.map { formats[$0].bits_per_pixel }
    }

    /// Sets the window title (`_NET_WM_NAME` as UTF-8, and `WM_NAME`).
    public func setTitle(_ title: String) {
        XStoreName(display, xWindow, title)
        let utf8 = Array(title.utf8)
        let netWMName = XInternAtom(display, "_NET_WM_NAME", False)
        let utf8String = XInternAtom(display, "UTF8_STRING", False)
        utf8.withUnsafeBufferPointer { bytes in
            _ = XChangeProperty(display, xWindow, netWMName, utf8String, 8, PropModeReplace, bytes.baseAddress, Int32(bytes.count))
        }
    }

    private func setClass(instance: String, className: String) {
        guard let hint = XAllocClassHint() else { return }
        let name = strdup(instance), cls = strdup(className)
        hint.pointee.res_name = name
        hint.pointee.res_class = cls
        XSetClassHint(display, xWindow, hint)
        XFree(hint)
        free(name)
        free(cls)
    }

    /// Size hints: the screen's size as the preferred size, and the minimum in pixels.
    private func updateSizeHints() {
        guard let hints = XAllocSizeHints() else { return }
        hints.pointee.flags = PSize | PMinSize
        hints.pointee.width = Int32(window.screen.pixelWidth)
        hints.pointee.height = Int32(window.screen.pixelHeight)
        let scale = window.screen.scale
        // In landscape the app's smallest screen is on its side too.
        let minimum = window.screen.orientation.isLandscape
            ? CGSize(width: minimumPointSize.height, height: minimumPointSize.width) : minimumPointSize
        hints.pointee.min_width = Int32((minimum.width * scale).rounded(.up))
        hints.pointee.min_height = Int32((minimum.height * scale).rounded(.up))
        XSetWMNormalHints(display, xWindow, hints)
        XFree(hints)
    }

    // MARK: Buffers

    /// Makes the image for a `width × height` window, in shared memory if allowed, falling back
    /// to client memory for good when the server refuses the segment.
    private func allocateBuffer(width: Int, height: Int) throws {
        waitUntilServerFinishedReading()
        // A turned screen (or any size whose rows fit) keeps its shared-memory segment.
        if let shared = buffer as? SharedMemoryImageBuffer, let reshaped = shared.reshaped(width: width, height: height) {
            buffer = reshaped
            return
        }
        buffer?.destroy()
        buffer = nil
        if presentMode == .sharedMemory {
            do {
                buffer = try SharedMemoryImageBuffer(display: display, visual: visual, depth: depth, format: pixelFormat,
                                                     width: width, height: height)
                return
            } catch {
                presentMode = .putImage
                sharedMemoryUnavailableReason = "\(error)"
            }
        }
        do {
            buffer = try ClientImageBuffer(display: display, visual: visual, depth: depth, format: pixelFormat,
                                           width: width, height: height)
        } catch {
            throw Failure.cannotCreateImage("\(error)")
        }
    }

    /// The screen changed (a preset, a scale toggle): resize the X window to it.
    private func screenDidChangeDevice() {
        let w = window.screen.pixelWidth, h = window.screen.pixelHeight
        if w > maximumImageSide || h > maximumImageSide {
            window.screen.setDevice(.custom(pixelWidth: min(w, maximumImageSide), pixelHeight: min(h, maximumImageSide),
                                            scale: window.screen.scale))
            return
        }
        updateSizeHints()
        if w != windowWidth || h != windowHeight {
            windowWidth = w
            windowHeight = h
            lastResizeRequest = UInt(XNextRequest(display))
            XResizeWindow(display, xWindow, UInt32(w), UInt32(h))
        }
    }

    /// Blocks, handling events, until the server has read the shared image (ShmCompletion).
    private func waitUntilServerFinishedReading() {
        while isServerReading {
            var event = XEvent()
            XNextEvent(display, &event)
            handle(event)
        }
    }

    // MARK: Run loop

    /// Maps the window and runs until `stop()`, the window manager's close button, or q/Esc
    /// (through the app's quit handler calling `stop()`).
    public func run() throws {
        isStopped = false
        report("present \(presentMode.rawValue)" + (sharedMemoryUnavailableReason.map { " (\($0))" } ?? ""))
        report("pixels \(pixelFormat.rawValue)")
        report("window 0x\(String(xWindow, radix: 16))")
        XMapWindow(display, xWindow)
        XFlush(display)
        let fd = XConnectionNumber(display)
        let loop = window.eventLoop
        while !isStopped {
            processQueuedEvents()
            if isStopped { break }
            try applyPendingResize()
            loop.runDueWork()
            if isMapped { try presentIfNeeded() }
            acknowledgeSyncRequestIfPresented()
            XFlush(display)
            if XPending(display) > 0 { continue }
            if isMapped && window.needsFrame { continue }
            var timeout: Int32 = -1
            if let deadline = loop.nextDeadline() {
                let ms = ((deadline - loop.now) * 1000).rounded(.up)
                timeout = Int32(min(max(ms, 0), 60_000))
            }
            var pfds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0),
                        pollfd(fd: wakeupDescriptor, events: Int16(POLLIN), revents: 0)]
            let r = poll(&pfds, wakeupDescriptor >= 0 ? 2 : 1, timeout)
            if r < 0 && errno != EINTR { break }
            if wakeupDescriptor >= 0 && pfds[1].revents != 0 { wakeupHandler?() }
        }
        close()
    }

    /// Ends `run()` after the current iteration.
    public func stop() { isStopped = true }

    /// A file descriptor `run()` also waits on (the read end of a signal handler's pipe), and
    /// what it calls on the loop's thread when the descriptor is readable (the handler reads
    /// it empty). -1: none.
    public var wakeupDescriptor: Int32 = -1
    public var wakeupHandler: (() -> Void)?

    /// Reads every queued event and handles them, dropping a MotionNotify that another
    /// MotionNotify follows (presses and releases are never dropped or reordered). Once the app
    /// has stopped, the rest of the batch is input for nobody, except a ShmCompletion: closing
    /// waits for that one, so it must not be thrown away with the rest (the soak found a quit that
    /// hung forever that way).
    private func processQueuedEvents() {
        var batch: [XEvent] = []
        while XPending(display) > 0 {
            var event = XEvent()
            XNextEvent(display, &event)
            batch.append(event)
        }
        for (i, event) in batch.enumerated() {
            if isStopped {
                if event.type == shmCompletionType { isServerReading = false }
                continue
            }
            if event.type == MotionNotify, i + 1 < batch.count, batch[i + 1].type == MotionNotify { continue }
            handle(event)
        }
    }

    private func handle(_ event: XEvent) {
        var event = event
        switch event.type {
        case MapNotify:
            if !isMapped {
                isMapped = true
                report("mapped")
                window.invalidateEverything()
            }
        case UnmapNotify:
            isMapped = false
        case ConfigureNotify:
            let c = event.xconfigure
            if c.window == xWindow {
                syncAwaitsConfigure = false
                // An event carries the number of the last request the server had handled when
                // it made it. One made before the host's last resize request was handled reports
                // a size that request replaces (the host's own earlier resize, or a manager's
                // answer to it): taking it would make the screen a custom device of the old
                // size at the new scale. A window manager's answer to the last request, and any
                // resize after it, come later and are taken.
                if lastResizeRequest != 0 && serialPrecedes(UInt(c.serial), lastResizeRequest) { break }
                pendingSize = (Int(c.width), Int(c.height))
                // The screen follows now, before the next event of the batch: a key or a desktop
                // change handled after this one may ask for another size, and this size applied
                // after that request would make a custom device of it at the new scale (the image
                // is reallocated before the next frame).
                followPendingSize()
            }
        case PropertyNotify:
            let p = event.xproperty
            if p.atom == resourceManagerAtom || (p.window == xsettingsOwner && p.atom == xsettingsSettingsAtom) {
                desktopSettingsDidChange()
            }
        case DestroyNotify:
            // The XSETTINGS manager went away: look for another (or none).
            if event.xdestroywindow.window == xsettingsOwner {
                xsettingsOwner = 0
                desktopSettingsDidChange()
            }
        case Expose:
            let e = event.xexpose
            if Int(e.x) + Int(e.width) > (buffer?.width ?? 0) || Int(e.y) + Int(e.height) > (buffer?.height ?? 0) {
                needsClearBeyondImage = true
            }
            pendingExposure.add(CGRect(x: Int(e.x), y: Int(e.y), width: Int(e.width), height: Int(e.height)),
                                limit: CGRect(x: 0, y: 0, width: buffer?.width ?? 0, height: buffer?.height ?? 0))
        case ClientMessage:
            let m = event.xclient
            if m.message_type == wmProtocols, m.format == 32, Atom(m.data.l.0) == wmDeleteWindow {
                report("close")
                stop()
            } else if m.message_type == wmProtocols, m.format == 32, Atom(m.data.l.0) == netWMSyncRequest, syncCounter != 0 {
                // data.l[2] and [3]: the low and high 32 bits of the value to set.
                let low = UInt64(UInt32(truncatingIfNeeded: m.data.l.2)), high = UInt64(UInt32(truncatingIfNeeded: m.data.l.3))
                pendingSyncValue = Int64(bitPattern: high << 32 | low)
                syncAwaitsConfigure = true
            }
        case KeyPress:
            if let key = translateKey(&event.xkey) { window.handleKey(key) }
        case ButtonPress:
            let b = event.xbutton
            if b.button == UInt32(Button1) { window.handlePointer(.down, at: point(b.x, b.y)) }
            // Wheel notches arrive as presses of buttons 4 (up) and 5 (down).
            if b.button == UInt32(Button4) { window.handleScroll(1, at: point(b.x, b.y)) }
            if b.button == UInt32(Button5) { window.handleScroll(-1, at: point(b.x, b.y)) }
        case ButtonRelease:
            let b = event.xbutton
            if b.button == UInt32(Button1) { window.handlePointer(.up, at: point(b.x, b.y)) }
        case MotionNotify:
            let m = event.xmotion
            if m.state & UInt32(Button1Mask) != 0 { window.handlePointer(.moved, at: point(m.x, m.y)) }
        default:
            if event.type == shmCompletionType { isServerReading = false }
        }
    }

    /// A window pixel position in points.
    private func point(_ x: Int32, _ y: Int32) -> CGPoint {
        let s = window.screen.scale
        return CGPoint(x: CGFloat(x) / s, y: CGFloat(y) / s)
    }

    private func translateKey(_ event: inout XKeyEvent) -> KeyPress? {
        var bytes = [CChar](repeating: 0, count: 32)
        var keysym: KeySym = 0
        let count = XLookupString(&event, &bytes, Int32(bytes.count - 1), &keysym, nil)
        let special: KeyPress.SpecialKey? = switch keysym {
        case 0xFF1B: .escape
        case 0xFF0D, 0xFF8D: .enter
        case 0xFF09: .tab
        case 0xFE20: .backTab
        case 0xFF08: .backspace
        case 0xFFFF, 0xFF9F: .delete
        case 0xFF51: .left
        case 0xFF52: .up
        case 0xFF53: .right
        case 0xFF54: .down
        default: nil
        }
        var text = count > 0 && special == nil
            ? String(decoding: bytes[0..<Int(count)].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        // Xlib turns Ctrl+2…8 into control characters; Ctrl+digit keeps its digit here.
        if event.state & UInt32(ControlMask) != 0, (0x30...0x39).contains(keysym) {
            text = String(UnicodeScalar(UInt8(keysym)))
        }
        guard special != nil || !text.isEmpty else { return nil }
        return KeyPress(characters: text, specialKey: special, isControlDown: event.state & UInt32(ControlMask) != 0)
    }

    /// Follows the window's last reported size: a new image and a custom screen of that many
    /// pixels at the current scale. Moves and same-size configures cost nothing.
    /// Whether request number `a` comes before `b` (Xlib's serials are the server's 32-bit
    /// sequence numbers extended by the client and may wrap in 32 bits: compared as a distance).
    private func serialPrecedes(_ a: UInt, _ b: UInt) -> Bool {
        Int32(truncatingIfNeeded: UInt32(truncatingIfNeeded: a) &- UInt32(truncatingIfNeeded: b)) < 0
    }

    private func applyPendingResize() throws {
        followPendingSize()
        try reallocateIfNeeded()
    }

    /// The screen takes the window's last reported size (a custom device of that many pixels at
    /// the current scale, when it differs from the screen's own).
    private func followPendingSize() {
        guard let size = pendingSize else { return }
        pendingSize = nil
        if size.width > windowWidth || size.height > windowHeight { needsClearBeyondImage = true }
        windowWidth = size.width
        windowHeight = size.height
        let screen = window.screen
        let width = min(size.width, maximumImageSide), height = min(size.height, maximumImageSide)
        if width != screen.pixelWidth || height != screen.pixelHeight {
            screen.setDevice(.custom(pixelWidth: width, pixelHeight: height, scale: screen.scale))
        }
    }

    /// Tests: handles what the server has sent so far and applies the size it reports, as one
    /// turn of `run()`'s loop does before drawing (nothing is drawn or presented).
    @_spi(Testing) public func handleQueuedEventsForTesting() throws {
        processQueuedEvents()
        try applyPendingResize()
    }

    /// Tests: the X window's id.
    @_spi(Testing) public var xWindowForTesting: XID { xWindow }

    /// Tests: waits until the server has handled every request sent so far (`XSync`).
    @_spi(Testing) public func syncForTesting() { XSync(display, 0) }

    /// Tests: maps the window (as `run()` does first) and handles the events that follow.
    @_spi(Testing) public func mapForTesting() {
        XMapWindow(display, xWindow)
        XSync(display, 0)
        processQueuedEvents()
    }

    /// Tests: presents what needs presenting, as one turn of `run()`'s loop does after its events.
    @_spi(Testing) public func presentForTesting() throws { try presentIfNeeded() }

    /// Tests: the id of the shared-memory segment the window's image lives in (nil without MIT-SHM).
    @_spi(Testing) public var sharedMemorySegmentForTesting: Int32? { (buffer as? SharedMemoryImageBuffer)?.segmentID }

    private func reallocateIfNeeded() throws {
        let w = window.screen.pixelWidth, h = window.screen.pixelHeight
        guard let buffer, buffer.width != w || buffer.height != h else { return }
        try allocateBuffer(width: w, height: h)
        pendingExposure.removeAll()
        window.invalidateEverything()
        report("resize \(w)x\(h) \(presentMode.rawValue)")
    }

    /// Renders the dirty region into the image and presents it with any exposed area.
    private func presentIfNeeded() throws {
        try reallocateIfNeeded()
        guard window.needsFrame || !pendingExposure.isEmpty, let _ = buffer else { return }
        waitUntilServerFinishedReading()
        guard let buffer else { return }
        var rects: [CGRect] = []
        let start = MonotonicClock.seconds()
        if window.needsFrame { rects = window.renderFrame(into: buffer.context) }
        let rendered = MonotonicClock.seconds()
        for r in pendingExposure.rects where !rects.contains(where: { $0.contains(r) }) { rects.append(r) }
        pendingExposure.removeAll()
        guard !rects.isEmpty else { return }
        present(rects, from: buffer)
        if needsClearBeyondImage { clearBeyondImage(buffer) }
        window.presentedFrameObserver?(buffer.context, rects, window.eventLoop.now)
        if let observer = window.frameStatisticsObserver {
            let now = MonotonicClock.seconds()
            observer(FrameStatistics(time: window.eventLoop.now, render: rendered - start, present: now - rendered, rects: rects))
        }
        frameCount += 1
        report("frame \(frameCount) \(buffer.width)x\(buffer.height) \(rects.count)")
    }

    private func present(_ rects: [CGRect], from buffer: X11ImageBuffer) {
        for (i, r) in rects.enumerated() {
            buffer.put(r, to: xWindow, gc: gc, notify: i == rects.count - 1)
        }
        if buffer.mode == .sharedMemory { isServerReading = true }
        XFlush(display)
    }

    /// Paints the window's area beyond the image (a window larger than `maximumImageSide`) black.
    private func clearBeyondImage(_ buffer: X11ImageBuffer) {
        needsClearBeyondImage = false
        XSetForeground(display, gc, 0)
        if windowWidth > buffer.width {
            XFillRectangle(display, xWindow, gc, Int32(buffer.width), 0, UInt32(windowWidth - buffer.width), UInt32(windowHeight))
        }
        if windowHeight > buffer.height {
            XFillRectangle(display, xWindow, gc, 0, Int32(buffer.height), UInt32(buffer.width), UInt32(windowHeight - buffer.height))
        }
    }

    private func report(_ line: String) { statusHandler?(line) }

    /// Sets the sync counter to the window manager's last requested value once the window's
    /// new size has been applied and its frame presented (the request's ConfigureNotify has
    /// arrived, no size is pending and nothing is left to draw), as SDL does after its
    /// `XShmPutImage`: the server handles the counter after the image, so the window manager
    /// never shows the window at its new size before its pixels are there. Reports `sync <value>`.
    private func acknowledgeSyncRequestIfPresented() {
        guard let value = pendingSyncValue, !syncAwaitsConfigure, pendingSize == nil,
              !(isMapped && (window.needsFrame || !pendingExposure.isEmpty)) else { return }
        pendingSyncValue = nil
        var v = XSyncValue()
        XSyncIntsToValue(&v, UInt32(truncatingIfNeeded: value), Int32(truncatingIfNeeded: value >> 32))
        XSyncSetCounter(display, syncCounter, v)
        report("sync \(value)")
    }

    /// Destroys the window and the image and closes the connection (segments detach first).
    private func close() {
        guard !isClosed else { return }
        isClosed = true
        if let id = screenObserver { window.screen.removeObserver(id) }
        waitUntilServerFinishedReading()
        buffer?.destroy()
        buffer = nil
        if syncCounter != 0 { XSyncDestroyCounter(display, syncCounter) }
        XFreeGC(display, gc)
        XDestroyWindow(display, xWindow)
        XCloseDisplay(display)
    }

    deinit { close() }
}
