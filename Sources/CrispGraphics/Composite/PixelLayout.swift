import Foundation

// Bitmap layouts other than the native one, as a load/store stage.
//
// The compositor works on native premultiplied BGRA rows only (`0xAARRGGBB` words). A context
// in another layout keeps its pixels in that layout, in its own memory or the caller's, and
// `CompositeBlitter` converts each span: it loads the destination span into a native scratch
// row, blends there, and stores the row back (an opaque solid store skips the load and writes
// the converted colour directly). Source-over of a solid colour, most translucent fills, skips
// both: in word-aligned 32-bit memory the colour is put in the layout's channel order and
// blended straight into the words (the factor read from the low byte when alpha is there);
// grey and alpha-only bytes take a byte kernel (SourceOver+Bytes.swift) at any alignment. The
// three passes cost 1.1–3.8× native (`crisp bench raster --layouts`). So the caller's bytes are
// always up to date between calls — CoreGraphics writes straight into caller memory, and a
// caller may read or write those bytes at any time — and only pixels a span touches are
// written: row padding never is.
// Rejected: a native shadow buffer converted on `makeImage` or a flush, which would double the
// memory, go stale when the caller writes into its bytes, and need a flush API CoreGraphics
// does not have. The native layout takes none of this: its spans go straight to memory.

/// How pixels are laid out in memory: 8 bits per component, premultiplied colour.
///
/// Supported (everything else returns nil, as CoreGraphics returns NULL):
///
/// | alpha info | byte order | bytes in memory |
/// |---|---|---|
/// | `premultipliedFirst`, `noneSkipFirst` | `byteOrder32Little` | B G R A (native) |
/// | `premultipliedFirst`, `noneSkipFirst` | default, `byteOrder32Big` | A R G B, X R G B |
/// | `premultipliedLast`, `noneSkipLast` | default, `byteOrder32Big` | R G B A, R G B X |
/// | `premultipliedLast`, `noneSkipLast` | `byteOrder32Little` | A B G R, X B G R |
/// | `none` in a grey colour space | default | grey, 1 byte |
/// | `alphaOnly` | default | alpha, 1 byte |
///
/// A skipped byte (X) is written as 255 and ignored when read. Native `noneSkipFirst` keeps
/// what the compositor writes into the alpha byte, as before layouts existed.
@_spi(Testing) public struct PixelLayout: Equatable, Sendable {
    /// The families of layouts, each with its own conversion loop.
    enum Kind: Equatable, Sendable {
        /// Premultiplied BGRA: no conversion.
        case native
        /// Four bytes per pixel in another order, or with a skipped alpha byte.
        case quad
        /// One byte of grey (luminance) per pixel, opaque.
        case gray
        /// One byte of alpha per pixel, no colour.
        case alphaOnly
    }

    let kind: Kind
    /// The alpha info and byte order as the caller gave them.
    let bitmapInfo: CGBitmapInfo
    /// Bit shifts of red, green, blue and alpha in the pixel's 32-bit little-endian word (quad).
    let redShift: UInt32, greenShift: UInt32, blueShift: UInt32, alphaShift: UInt32
    /// Whether a quad's alpha byte holds alpha (false: it is skipped, the pixel opaque).
    let hasAlpha: Bool

    /// Crisp's native layout.
    static let native = PixelLayout(kind: .native, bitmapInfo: .crispNative, shifts: (16, 8, 0, 24), hasAlpha: true)

    private init(kind: Kind, bitmapInfo: CGBitmapInfo, shifts: (UInt32, UInt32, UInt32, UInt32), hasAlpha: Bool) {
        self.kind = kind
        self.bitmapInfo = bitmapInfo
        (redShift, greenShift, blueShift, alphaShift) = shifts
        self.hasAlpha = hasAlpha
    }

    /// The layout CoreGraphics means by these parameters, or nil when Crisp does not support it
    /// (16-bit or float components, CMYK, non-premultiplied alpha, 16-bit byte orders).
    init?(bitsPerComponent: Int, space: CGColorSpace?, bitmapInfo: UInt32) {
        let info = CGBitmapInfo(rawValue: bitmapInfo & (CGBitmapInfo.alphaInfoMask.rawValue | CGBitmapInfo.byteOrderMask.rawValue))
        guard bitsPerComponent == 8, bitmapInfo & CGBitmapInfo.floatComponents.rawValue == 0,
              let alpha = CGImageAlphaInfo(rawValue: bitmapInfo & CGBitmapInfo.alphaInfoMask.rawValue) else { return nil }
        let order = bitmapInfo & CGBitmapInfo.byteOrderMask.rawValue
        let little = order == CGBitmapInfo.byteOrder32Little.rawValue
        guard little || order == CGBitmapInfo.byteOrder32Big.rawValue || order == 0 else { return nil }
        switch alpha {
        case .alphaOnly:
            guard order == 0 else { return nil }
            self.init(kind: .alphaOnly, bitmapInfo: info, shifts: (0, 0, 0, 0), hasAlpha: true)
        case .none:
            guard order == 0, space?.model == .monochrome else { return nil }
            self.init(kind: .gray, bitmapInfo: info, shifts: (0, 0, 0, 0), hasAlpha: false)
        case .premultipliedFirst, .noneSkipFirst:
            guard space?.model == .rgb else { return nil }
            if little {
                self.init(kind: .native, bitmapInfo: info, shifts: (16, 8, 0, 24), hasAlpha: true)
            } else {
                self.init(kind: .quad, bitmapInfo: info, shifts: (8, 16, 24, 0), hasAlpha: alpha == .premultipliedFirst)
            }
        case .premultipliedLast, .noneSkipLast:
            guard space?.model == .rgb else { return nil }
            self.init(kind: .quad, bitmapInfo: info, shifts: little ? (24, 16, 8, 0) : (0, 8, 16, 24),
                      hasAlpha: alpha == .premultipliedLast)
        case .last, .first:
            return nil
        }
    }

    /// Bytes per pixel: 4, or 1 for grey and alpha-only.
    var bytesPerPixel: Int { kind == .gray || kind == .alphaOnly ? 1 : 4 }

    /// The alpha info part of `bitmapInfo`.
    var alphaInfo: CGImageAlphaInfo {
        CGImageAlphaInfo(rawValue: bitmapInfo.rawValue & CGBitmapInfo.alphaInfoMask.rawValue) ?? .premultipliedFirst
    }

    /// The colour space pixels in this layout are in: device grey, none for alpha-only, sRGB.
    var colorSpace: CGColorSpace? {
        switch kind {
        case .gray: CGColorSpaceCreateDeviceGray()
        case .alphaOnly: nil
        case .native, .quad: CGColorSpace(name: CGColorSpace.sRGB)
        }
    }

    /// The grey level of a premultiplied native pixel: Rec. 601 luma in integers,
    /// ```
    /// grey = (77·r + 150·g + 29·b + 128) >> 8
    /// ```
    /// The weights sum to 256, so a grey pixel (r = g = b) keeps its level exactly.
    @inline(__always)
    @_spi(Testing) public static func luminance(_ p: UInt32) -> UInt32 {
        (77 &* (p >> 16 & 255) &+ 150 &* (p >> 8 & 255) &+ 29 &* (p & 255) &+ 128) >> 8
    }

    /// Converts `count` pixels at `source` (in this layout) to native pixels in `out`.
    func load(_ source: UnsafeRawPointer, count: Int, into out: UnsafeMutablePointer<UInt32>) {
        switch kind {
        case .native:
            out.update(from: source.assumingMemoryBound(to: UInt32.self), count: count)
        case .quad:
            var i = 0
            while i &+ 4 <= count {
                let w = source.loadUnaligned(fromByteOffset: i &* 4, as: SIMD4<UInt32>.self)
                UnsafeMutableRawPointer(out + i).storeBytes(of: nativeWords(w), as: SIMD4<UInt32>.self)
                i &+= 4
            }
            while i < count {
                let w = source.loadUnaligned(fromByteOffset: i &* 4, as: UInt32.self)
                out[i] = nativeWords(SIMD4(repeating: w))[0]
                i &+= 1
            }
        case .gray:
            let bytes = source.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { out[i] = 0xFF00_0000 | UInt32(bytes[i]) &* 0x01_0101 }
        case .alphaOnly:
            let bytes = source.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { out[i] = UInt32(bytes[i]) << 24 }
        }
    }

    /// Converts `count` native pixels at `source` to this layout at `destination`.
    func store(_ source: UnsafePointer<UInt32>, count: Int, to destination: UnsafeMutableRawPointer) {
        switch kind {
        case .native:
            destination.assumingMemoryBound(to: UInt32.self).update(from: source, count: count)
        case .quad:
            var i = 0
            while i &+ 4 <= count {
                let p = UnsafeRawPointer(source + i).loadUnaligned(as: SIMD4<UInt32>.self)
                (destination + i &* 4).storeBytes(of: quadWords(p), as: SIMD4<UInt32>.self)
                i &+= 4
            }
            while i < count {
                (destination + i &* 4).storeBytes(of: quadWords(SIMD4(repeating: source[i]))[0], as: UInt32.self)
                i &+= 1
            }
        case .gray:
            let bytes = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: Self.luminance(source[i])) }
        case .alphaOnly:
            let bytes = destination.assumingMemoryBound(to: UInt8.self)
            for i in 0..<count { bytes[i] = UInt8(truncatingIfNeeded: source[i] >> 24) }
        }
    }

    /// Stores one native pixel `count` times at `destination` (an opaque solid fill's fast path).
    func store(repeating pixel: UInt32, count: Int, to destination: UnsafeMutableRawPointer) {
        switch kind {
        case .native:
            destination.assumingMemoryBound(to: UInt32.self).update(repeating: pixel, count: count)
        case .quad:
            let word = quadWord(pixel)
            if Int(bitPattern: destination) & 3 == 0 {
                destination.assumingMemoryBound(to: UInt32.self).update(repeating: word, count: count)
            } else {
                for i in 0..<count { (destination + i &* 4).storeBytes(of: word, as: UInt32.self) }
            }
        // The one-byte layouts by `memset`: `update(repeating:)` on bytes is a loop of byte
        // stores, most of a 16-pixel opaque rectangle's time in grey 8 and alpha 8.
        case .gray:
            memset(destination, Int32(Self.luminance(pixel) & 255), count)
        case .alphaOnly:
            memset(destination, Int32(pixel >> 24), count)
        }
    }

    /// Four words of this quad layout (as loaded on a little-endian machine) as native pixels.
    @inline(__always)
    private func nativeWords(_ w: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let byte = SIMD4<UInt32>(repeating: 255)
        let alpha = hasAlpha ? (w &>> alphaShift) & byte : byte
        return alpha &<< 24 | ((w &>> redShift) & byte) &<< 16 | ((w &>> greenShift) & byte) &<< 8 | ((w &>> blueShift) & byte)
    }

    /// Four native pixels as words of this quad layout (to be stored on a little-endian machine).
    @inline(__always)
    private func quadWords(_ p: SIMD4<UInt32>) -> SIMD4<UInt32> {
        let byte = SIMD4<UInt32>(repeating: 255)
        let alpha = hasAlpha ? p &>> 24 : byte
        return alpha &<< alphaShift | ((p &>> 16) & byte) &<< redShift | ((p &>> 8) & byte) &<< greenShift
            | (p & byte) &<< blueShift
    }

    /// `pixel` as this quad layout's word, its alpha kept even where the layout skips it: the
    /// source colour for blending straight into the layout's words. Source-over treats the
    /// three colour bytes alike and reads alpha from its byte (the top one, or the low one when
    /// `alphaIsLowByte`), so it gives such words what it gives native pixels, channel for
    /// channel (for premultiplied colours, whose channel sums never carry). Nil for grey and
    /// alpha-only.
    func inPlaceSource(_ pixel: UInt32) -> UInt32? {
        guard kind == .quad else { return nil }
        return (pixel >> 24) << alphaShift | (pixel >> 16 & 255) << redShift | (pixel >> 8 & 255) << greenShift
            | (pixel & 255) << blueShift
    }

    /// Whether a quad word's alpha (or skipped) byte is its low byte (ARGB, ABGR, XRGB, XBGR)
    /// rather than its top byte (RGBA, RGBX).
    var alphaIsLowByte: Bool { alphaShift == 0 }

    /// A native pixel as this quad layout's 32-bit word (to be stored little-endian).
    @inline(__always)
    private func quadWord(_ p: UInt32) -> UInt32 { quadWords(SIMD4(repeating: p))[0] }
}
