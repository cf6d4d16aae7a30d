import CrispGraphics
import CX11
import Foundation

// The pixels of the X11 host: an XImage whose memory a CGContext draws into directly, in the
// ZPixmap layout of a 24/32-bit TrueColor visual (0x00RRGGBB in a little-endian word: exactly
// Crisp's 0xAARRGGBB, the alpha byte ignored by the server); on a 16-bit screen the context has a
// canvas of its own, converted into the image per presented rectangle (X11PixelFormat). Two kinds:
//
// - SharedMemoryImageBuffer: the memory is a System V segment the X server maps too, so
//   presenting (XShmPutImage) copies nothing over the socket. Segments are created 0600 and
//   removed (IPC_RMID) as soon as we have attached them, before the server attaches (Linux lets
//   a removed segment be attached while anyone still is): from then on the kernel frees it when
//   the last process detaches, so no crash, kill -9 or lost server at any moment can leak it.
//   The server reads the memory after the request returns, so the host must not draw again until
//   the ShmCompletion event arrives.
// - The attach succeeding does not prove the server sees *our* memory: a client in another IPC
//   namespace (a container, `unshare --ipc`) names its segment by an id that, in the server's
//   namespace, may belong to some other segment the server is allowed to attach — it would then
//   show that segment's bytes. So after attaching, two pixels written here are put into a small
//   pixmap with XShmPutImage and read back through the socket with XGetImage; if they differ, the
//   segment is given up and the host falls back to XPutImage.
// - ClientImageBuffer: ordinary memory sent with XPutImage, which copies the rectangle into the
//   request buffer before it returns, so drawing may resume at once. Used when MIT-SHM is
//   missing, refused (remote display, a sandbox) or disabled with CRISP_NO_SHM=1.

/// How frames reach the X server.
public enum X11PresentMode: String, Sendable {
    /// MIT-SHM: `XShmPutImage` from a shared segment.
    case sharedMemory = "shm"
    /// Core protocol: `XPutImage` copies the pixels through the socket.
    case putImage = "putimage"
}

/// An XImage with a CGContext drawing into its memory (or into a canvas converted into it).
protocol X11ImageBuffer: AnyObject {
    var width: Int { get }
    var height: Int { get }
    var context: CGContext { get }
    var mode: X11PresentMode { get }
    /// Sends a rectangle (pixels, top-left origin) to `drawable`; `notify` asks for a
    /// completion event where the kind has one.
    func put(_ rect: CGRect, to drawable: Drawable, gc: GC, notify: Bool)
    /// Frees the image (and detaches the segment); the display must still be open, so the host
    /// calls it before closing the display (there is no deinit doing it too late).
    func destroy()
}

/// Why a buffer could not be made.
enum X11ImageBufferError: Error, CustomStringConvertible {
    case createImage(width: Int, height: Int)
    case unexpectedLayout(String)
    case sharedMemory(String)

    var description: String {
        switch self {
        case let .createImage(w, h): "cannot create a \(w)×\(h) XImage"
        case let .unexpectedLayout(s): "unexpected XImage layout: \(s)"
        case let .sharedMemory(s): s
        }
    }
}

/// Checks that Xlib laid the image out as expected: the format's bits per pixel, whole pixels
/// per line.
private func checkLayout(_ image: UnsafeMutablePointer<XImage>, width: Int, format: X11PixelFormat) throws {
    let i = image.pointee
    let bytesPerPixel = Int(format.bitsPerPixel / 8)
    guard i.bits_per_pixel == format.bitsPerPixel, Int(i.bytes_per_line) >= width * bytesPerPixel,
          Int(i.bytes_per_line) % bytesPerPixel == 0 else {
        throw X11ImageBufferError.unexpectedLayout("\(i.bits_per_pixel) bits per pixel, \(i.bytes_per_line) bytes per line")
    }
}

/// What a buffer's context draws into: the image's own memory when its pixels are Crisp's, or a
/// Crisp-native canvas that `prepare` converts into the image rectangle by rectangle.
private struct Canvas {
    let context: CGContext
    let format: X11PixelFormat

    init(image: UnsafeMutablePointer<XImage>, data: UnsafeMutableRawPointer, width: Int, height: Int,
         format: X11PixelFormat) throws {
        self.format = format
        let space = CGColorSpaceCreateDeviceRGB(), info = CGBitmapInfo.crispNative.rawValue
        let made: CGContext?
        switch format {
        case .xrgb8888:
            made = CGContext(data: data, width: width, height: height, bitsPerComponent: 8,
                             bytesPerRow: Int(image.pointee.bytes_per_line), space: space, bitmapInfo: info)
        case .rgb565:
            made = CGContext(data: nil, width: width, height: height, bitsPerComponent: 8, bytesPerRow: 0, space: space, bitmapInfo: info)
        }
        guard let made else {
            throw X11ImageBufferError.unexpectedLayout("no CGContext for \(width)×\(height), \(image.pointee.bytes_per_line) bytes per line")
        }
        context = made
    }

    /// Brings the image's pixels in `rect` up to date with the canvas (nothing to do when the
    /// context draws into the image).
    func prepare(_ rect: CGRect, in image: UnsafeMutablePointer<XImage>) {
        guard format == .rgb565, let source = context.data, let destination = image.pointee.data else { return }
        X11PixelFormat.convertToRGB565(from: source, sourceBytesPerRow: context.bytesPerRow,
                                       to: UnsafeMutableRawPointer(destination), destinationBytesPerRow: Int(image.pointee.bytes_per_line),
                                       x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height))
    }
}

/// Calls the image's own destructor (`XDestroyImage` is a macro Swift cannot import).
private func destroyImage(_ image: UnsafeMutablePointer<XImage>) {
    _ = image.pointee.f.destroy_image(image)
}

/// An image in a System V shared-memory segment, presented with `XShmPutImage`.
final class SharedMemoryImageBuffer: X11ImageBuffer {
    let width: Int
    let height: Int
    var context: CGContext { canvas.context }
    var mode: X11PresentMode { .sharedMemory }
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    private let canvas: Canvas
    private var isDestroyed = false
    /// The segment's size: a reshaped image may use up to this.
    private let segmentBytes: Int
    private let visual: UnsafeMutablePointer<Visual>
    private let depth: Int32
    private let format: X11PixelFormat
    /// The segment's id (tests check that a turned screen keeps it).
    var segmentID: Int32 { segment.pointee.shmid }

    /// Creates the segment, removes its name and has the server attach it (shmget → shmat →
    /// IPC_RMID → XShmAttach → XSync), then checks that the server sees our bytes. Any failure,
    /// including an X error during the attach, throws and leaves nothing behind.
    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, format: X11PixelFormat,
         width: Int, height: Int) throws {
        self.display = display
        self.width = width
        self.height = height
        self.visual = visual
        self.depth = depth
        self.format = format
        segment = .allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, segment, UInt32(width), UInt32(height)) else {
            segment.deallocate()
            throw X11ImageBufferError.createImage(width: width, height: height)
        }
        self.image = image
        image.pointee.byte_order = LSBFirst
        do {
            try checkLayout(image, width: width, format: format)
        } catch {
            destroyImage(image)
            segment.deallocate()
            throw error
        }
        let size = Int(image.pointee.bytes_per_line) * height
        segmentBytes = size
        let id = shmget(key_t(0) /* IPC_PRIVATE */, size, IPC_CREAT | 0o600)
        guard id >= 0 else {
            let reason = String(cString: strerror(errno))
            destroyImage(image)
            segment.deallocate()
            throw X11ImageBufferError.sharedMemory("shmget of \(size) bytes failed: \(reason)")
        }
        let attachedAddress = shmat(id, nil, 0)
        // Removed now: the segment lives on while anyone is attached and dies with the last
        // detach, however and whenever we exit.
        shmctl(id, IPC_RMID, nil)
        guard let address = attachedAddress, address != UnsafeMutableRawPointer(bitPattern: -1) else {
            let reason = String(cString: strerror(errno))
            destroyImage(image)
            segment.deallocate()
            throw X11ImageBufferError.sharedMemory("shmat failed: \(reason)")
        }
        segment.pointee.shmid = id
        segment.pointee.shmaddr = address.assumingMemoryBound(to: CChar.self)
        segment.pointee.readOnly = False
        image.pointee.data = segment.pointee.shmaddr
        let info = segment
        let (attached, errorCode) = withTrappedXErrors(display) { XShmAttach(display, info) }
        let isAttached = attached != 0 && errorCode == 0
        var failure: X11ImageBufferError?
        if !isAttached {
            failure = .sharedMemory("the X server refused the shared-memory segment (XShmAttach, X error \(errorCode))")
        } else if !SharedMemoryImageBuffer.serverSees(image, segment: segment, display: display, depth: depth, width: width) {
            failure = .sharedMemory("the X server does not see this process's shared memory (another IPC namespace or machine)")
        }
        do {
            if let failure { throw failure }
            canvas = try Canvas(image: image, data: address, width: width, height: height, format: format)
        } catch {
            if isAttached {
                XShmDetach(display, segment)
                XSync(display, False)
            }
            shmdt(address)
            image.pointee.data = nil
            destroyImage(image)
            segment.deallocate()
            throw error
        }
    }

    /// A buffer taking over this one's segment (no error path, so no cleanup to share).
    private init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, format: X11PixelFormat,
                 width: Int, height: Int, image: UnsafeMutablePointer<XImage>, segment: UnsafeMutablePointer<XShmSegmentInfo>,
                 segmentBytes: Int, canvas: Canvas) {
        self.display = display
        self.visual = visual
        self.depth = depth
        self.format = format
        self.width = width
        self.height = height
        self.image = image
        self.segment = segment
        self.segmentBytes = segmentBytes
        self.canvas = canvas
    }

    /// An image of `width` × `height` over this buffer's segment, when its rows fit in it (a
    /// turned screen keeps its pixel count): no new segment, no attach, no round trip to check
    /// it, and no fresh pages for the first frame to fault in (a new 12 MB segment cost the
    /// retina iPad's first turn frame the faults of 3,072 pages). This buffer is then spent: its
    /// image is freed and the segment belongs to the new one. Nil, leaving this buffer as it
    /// was, when the size needs more bytes or the image cannot be made. The server must have
    /// finished reading the segment (as before any drawing).
    func reshaped(width: Int, height: Int) -> SharedMemoryImageBuffer? {
        guard !isDestroyed, width > 0, height > 0,
              let next = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, segment, UInt32(width), UInt32(height)) else {
            return nil
        }
        next.pointee.byte_order = LSBFirst
        let memory = UnsafeMutableRawPointer(segment.pointee.shmaddr!)
        guard (try? checkLayout(next, width: width, format: format)) != nil,
              Int(next.pointee.bytes_per_line) * height <= segmentBytes,
              let canvas = try? Canvas(image: next, data: memory, width: width, height: height, format: format) else {
            destroyImage(next)
            return nil
        }
        next.pointee.data = segment.pointee.shmaddr
        isDestroyed = true
        image.pointee.data = nil
        destroyImage(image)
        return SharedMemoryImageBuffer(display: display, visual: visual, depth: depth, format: format, width: width,
                                       height: height, image: next, segment: segment, segmentBytes: segmentBytes, canvas: canvas)
    }

    /// Whether the server reads this process's segment: up to two pixels written into it are put
    /// into a pixmap with `XShmPutImage` and read back through the socket with `XGetImage`.
    private static func serverSees(_ image: UnsafeMutablePointer<XImage>, segment: UnsafeMutablePointer<XShmSegmentInfo>,
                                   display: OpaquePointer, depth: Int32, width: Int) -> Bool {
        let count = min(width, 2)
        let mask: UInt = depth >= 32 ? UInt(UInt32.max) : (1 << UInt(depth)) - 1
        let seed = UInt(UInt32(bitPattern: segment.pointee.shmid)) &* 0x9E37_79B9
        let pattern: [UInt] = [(seed ^ 0x5A_C3_96) & mask, (~seed ^ 0x1F_2E_3D) & mask]
        for i in 0..<count { _ = image.pointee.f.put_pixel(image, Int32(i), 0, pattern[i]) }
        let root = XDefaultRootWindow(display)
        let pixmap = XCreatePixmap(display, root, UInt32(count), 1, UInt32(depth))
        let gc = XCreateGC(display, pixmap, 0, nil)
        defer {
            XFreeGC(display, gc)
            XFreePixmap(display, pixmap)
        }
        let (readBack, errorCode) = withTrappedXErrors(display) { () -> [UInt]? in
            XShmPutImage(display, pixmap, gc, image, 0, 0, 0, 0, UInt32(count), 1, False)
            guard let copy = XGetImage(display, pixmap, 0, 0, UInt32(count), 1, UInt.max, ZPixmap) else { return nil }
            defer { destroyImage(copy) }
            return (0..<count).map { copy.pointee.f.get_pixel(copy, Int32($0), 0) & mask }
        }
        return errorCode == 0 && readBack == Array(pattern.prefix(count))
    }

    func put(_ rect: CGRect, to drawable: Drawable, gc: GC, notify: Bool) {
        canvas.prepare(rect, in: image)
        XShmPutImage(display, drawable, gc, image, Int32(rect.minX), Int32(rect.minY), Int32(rect.minX), Int32(rect.minY),
                     UInt32(rect.width), UInt32(rect.height), notify ? True : False)
    }

    /// Teardown: XShmDetach → XSync → shmdt.
    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        XShmDetach(display, segment)
        XSync(display, False)
        shmdt(segment.pointee.shmaddr)
        image.pointee.data = nil
        destroyImage(image)
        segment.deallocate()
    }
}

/// An image in ordinary memory, presented with `XPutImage`.
final class ClientImageBuffer: X11ImageBuffer {
    let width: Int
    let height: Int
    var context: CGContext { canvas.context }
    var mode: X11PresentMode { .putImage }
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    private let memory: UnsafeMutableRawPointer
    private let canvas: Canvas
    private var isDestroyed = false

    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, format: X11PixelFormat,
         width: Int, height: Int) throws {
        self.display = display
        self.width = width
        self.height = height
        // Lines padded to 32 bits, as XCreateImage's bitmap_pad says and servers expect.
        let rowBytes = (width * Int(format.bitsPerPixel / 8) + 3) & ~3
        memory = .allocate(byteCount: rowBytes * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
        guard let image = XCreateImage(display, visual, UInt32(depth), ZPixmap, 0, memory.assumingMemoryBound(to: CChar.self),
                                       UInt32(width), UInt32(height), format.bitsPerPixel, Int32(rowBytes)) else {
            memory.deallocate()
            throw X11ImageBufferError.createImage(width: width, height: height)
        }
        self.image = image
        // Our words are little-endian; Xlib swaps for a big-endian server.
        image.pointee.byte_order = LSBFirst
        do {
            try checkLayout(image, width: width, format: format)
            canvas = try Canvas(image: image, data: memory, width: width, height: height, format: format)
        } catch {
            image.pointee.data = nil
            destroyImage(image)
            memory.deallocate()
            throw error
        }
    }

    func put(_ rect: CGRect, to drawable: Drawable, gc: GC, notify: Bool) {
        canvas.prepare(rect, in: image)
        XPutImage(display, drawable, gc, image, Int32(rect.minX), Int32(rect.minY), Int32(rect.minX), Int32(rect.minY),
                  UInt32(rect.width), UInt32(rect.height))
    }

    func destroy() {
        guard !isDestroyed else { return }
        isDestroyed = true
        image.pointee.data = nil
        destroyImage(image)
        memory.deallocate()
    }
}
