import CrispGraphics
import Foundation

// The pixel layouts the X11 host can present. Crisp draws 32-bit premultiplied BGRA, which is
// exactly the ZPixmap layout of a depth-24/32 TrueColor visual (0x00RRGGBB in a little-endian
// word, the server ignoring the top byte): that path has no conversion at all, the context draws
// into the XImage's memory. A 16-bit-deep screen (RGB565: old hardware, `Xvfb … x16`, some VNC
// servers) has no such visual, so there the context draws into a canvas of its own and each
// presented rectangle is converted into the 16-bit image just before it is sent — only the
// rectangles that changed, only on that screen.
//
// Each channel goes to the nearest of its 31 or 63 steps, `(c · 31 + 127) / 255`, so no channel
// is more than half a step off. Rejected: plain truncation (`c >> 3`), one step darker on average
// and up to a whole step off; and ordered dithering, which would make exact pixel checks of a
// frame depend on its position and is not what the rest of the desktop does at this depth. The
// frame is opaque, so the alpha byte is dropped as the 24-bit path drops it.

/// How a window's pixels are laid out in the X server's images.
public enum X11PixelFormat: String, Sendable {
    /// 32 bits per pixel, 0x00RRGGBB: Crisp's own layout, drawn into directly.
    case xrgb8888
    /// 16 bits per pixel, 5-6-5: drawn in Crisp's layout, converted per presented rectangle.
    case rgb565

    /// Bits per pixel in the server's ZPixmap images.
    var bitsPerPixel: Int32 {
        switch self {
        case .xrgb8888: 32
        case .rgb565: 16
        }
    }

    /// Copies `rect` (whole pixels, top-left origin, inside both images) from a Crisp-native
    /// image to a 5-6-5 image, each channel rounded to the nearest step.
    static func convertToRGB565(from source: UnsafeRawPointer, sourceBytesPerRow: Int,
                                to destination: UnsafeMutableRawPointer, destinationBytesPerRow: Int,
                                x: Int, y: Int, width: Int, height: Int) {
        for row in y..<(y + height) {
            let s = (source + row * sourceBytesPerRow).assumingMemoryBound(to: UInt32.self) + x
            let d = (destination + row * destinationBytesPerRow).assumingMemoryBound(to: UInt16.self) + x
            for i in 0..<width {
                let p = s[i]
                let r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
                let r5 = (r &* 31 &+ 127) / 255, g6 = (g &* 63 &+ 127) / 255, b5 = (b &* 31 &+ 127) / 255
                d[i] = UInt16(truncatingIfNeeded: r5 << 11 | g6 << 5 | b5)
            }
        }
    }
}
