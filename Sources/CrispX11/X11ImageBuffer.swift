import CrispGraphics
import CX11
import Foundation

// The pixels of the X11 host: an XImage whose memory a CGContext draws into directly, in the
// ZPixmap layout of a 24/32-bit TrueColor visual (0x00RRGGBB in a little-endian word: exactly
// Crisp's 0xAARRGGBB, the alpha byte ignored by the server). Two kinds:
//
// - SharedMemoryImageBuffer: the memory is a System V segment the X server maps too, so
//   presenting (XShmPutImage) copies nothing over the socket. Segments are created 0600, and
//   removed (IPC_RMID) right after the server attached, so a crash or kill -9 cannot leak them:
//   the kernel frees a removed segment when the last process detaches, and the server detaches
//   when our connection closes. The server reads the memory after the request returns, so the
//   host must not draw again until the ShmCompletion event arrives.
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

/// An XImage with a CGContext drawing into its memory.
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

/// Checks that Xlib laid the image out as Crisp draws: 32 bits per pixel, native byte order.
private func checkLayout(_ image: UnsafeMutablePointer<XImage>, width: Int) throws {
    let i = image.pointee
    guard i.bits_per_pixel == 32, Int(i.bytes_per_line) >= width * 4, i.bytes_per_line % 4 == 0 else {
        throw X11ImageBufferError.unexpectedLayout("\(i.bits_per_pixel) bits per pixel, \(i.bytes_per_line) bytes per line")
    }
}

private func makeContext(_ data: UnsafeMutableRawPointer, _ image: UnsafeMutablePointer<XImage>, _ w: Int, _ h: Int) throws -> CGContext {
    guard let ctx = CGContext(data: data, width: w, height: h, bitsPerComponent: 8, bytesPerRow: Int(image.pointee.bytes_per_line),
                              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGBitmapInfo.crispNative.rawValue) else {
        throw X11ImageBufferError.unexpectedLayout("no CGContext for \(w)×\(h), \(image.pointee.bytes_per_line) bytes per line")
    }
    return ctx
}

/// Calls the image's own destructor (`XDestroyImage` is a macro Swift cannot import).
private func destroyImage(_ image: UnsafeMutablePointer<XImage>) {
    _ = image.pointee.f.destroy_image(image)
}

/// An image in a System V shared-memory segment, presented with `XShmPutImage`.
final class SharedMemoryImageBuffer: X11ImageBuffer {
    let width: Int
    let height: Int
    let context: CGContext
    var mode: X11PresentMode { .sharedMemory }
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    private let segment: UnsafeMutablePointer<XShmSegmentInfo>
    private var isDestroyed = false

    /// Creates the segment and has the server attach it (shmget → shmat → XShmAttach → XSync →
    /// IPC_RMID). Any failure, including an X error during the attach, throws and leaves nothing
    /// behind.
    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) throws {
        self.display = display
        self.width = width
        self.height = height
        segment = .allocate(capacity: 1)
        segment.initialize(to: XShmSegmentInfo())
        guard let image = XShmCreateImage(display, visual, UInt32(depth), ZPixmap, nil, segment, UInt32(width), UInt32(height)) else {
            segment.deallocate()
            throw X11ImageBufferError.createImage(width: width, height: height)
        }
        self.image = image
        image.pointee.byte_order = LSBFirst
        do {
            try checkLayout(image, width: width)
        } catch {
            destroyImage(image)
            segment.deallocate()
            throw error
        }
        let size = Int(image.pointee.bytes_per_line) * height
        let id = shmget(key_t(0) /* IPC_PRIVATE */, size, IPC_CREAT | 0o600)
        guard id >= 0 else {
            let reason = String(cString: strerror(errno))
            destroyImage(image)
            segment.deallocate()
            throw X11ImageBufferError.sharedMemory("shmget of \(size) bytes failed: \(reason)")
        }
        guard let address = shmat(id, nil, 0), address != UnsafeMutableRawPointer(bitPattern: -1) else {
            let reason = String(cString: strerror(errno))
            shmctl(id, IPC_RMID, nil)
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
        // Removed now: the segment lives on while we and the server are attached, and dies with
        // the last detach, however we exit.
        shmctl(id, IPC_RMID, nil)
        guard attached != 0, errorCode == 0 else {
            shmdt(address)
            image.pointee.data = nil
            destroyImage(image)
            segment.deallocate()
            throw X11ImageBufferError.sharedMemory("the X server refused the shared-memory segment (XShmAttach, X error \(errorCode))")
        }
        do {
            context = try makeContext(address, image, width, height)
        } catch {
            XShmDetach(display, segment)
            XSync(display, False)
            shmdt(address)
            image.pointee.data = nil
            destroyImage(image)
            segment.deallocate()
            throw error
        }
    }

    func put(_ rect: CGRect, to drawable: Drawable, gc: GC, notify: Bool) {
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
    let context: CGContext
    var mode: X11PresentMode { .putImage }
    private let display: OpaquePointer
    private let image: UnsafeMutablePointer<XImage>
    private let memory: UnsafeMutableRawPointer
    private var isDestroyed = false

    init(display: OpaquePointer, visual: UnsafeMutablePointer<Visual>, depth: Int32, width: Int, height: Int) throws {
        self.display = display
        self.width = width
        self.height = height
        let rowBytes = width * 4
        memory = .allocate(byteCount: rowBytes * height, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: rowBytes * height)
        guard let image = XCreateImage(display, visual, UInt32(depth), ZPixmap, 0, memory.assumingMemoryBound(to: CChar.self),
                                       UInt32(width), UInt32(height), 32, Int32(rowBytes)) else {
            memory.deallocate()
            throw X11ImageBufferError.createImage(width: width, height: height)
        }
        self.image = image
        // Our words are little-endian; Xlib swaps for a big-endian server.
        image.pointee.byte_order = LSBFirst
        do {
            try checkLayout(image, width: width)
            context = try makeContext(memory, image, width, height)
        } catch {
            image.pointee.data = nil
            destroyImage(image)
            memory.deallocate()
            throw error
        }
    }

    func put(_ rect: CGRect, to drawable: Drawable, gc: GC, notify: Bool) {
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
