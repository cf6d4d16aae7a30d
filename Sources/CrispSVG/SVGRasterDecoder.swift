import CGIF
import CrispGraphics
import CTurboJPEG
import CWebP
import Foundation

// The raster formats `<image>` and `feImage` read: PNG through CrispGraphics' own decoder, JPEG
// (baseline and progressive, grey or colour) through libjpeg-turbo's TurboJPEG API, GIF (the
// first frame, on its logical screen) through giflib, WebP (lossy, lossless, with alpha; the
// first frame of an animation) through libwebp and its demuxer. The format is found from the
// bytes, never from a name or MIME type (a `.png` that holds a JPEG is drawn as the JPEG it is).
//
// Each decoder checks the dimensions before it allocates (at most `maximumPixelCount` pixels, as
// PNG), and every failure of a library is an error with the library's own reason: the caller
// skips the image with a warning. EXIF orientation is not applied, as resvg 0.44 does not apply
// it (its JPEG decoder ignores the tag; browsers apply it since 2020): the pixels are drawn in
// the order the file stores them.

enum SVGRasterFormat: String {
    case png = "PNG", jpeg = "JPEG", gif = "GIF", webp = "WebP", svg = "SVG"

    /// The format the bytes start like, or nil.
    init?(sniffing bytes: [UInt8]) {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            self = .png
        } else if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) {
            self = .gif
        } else if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else if SVGRasterFormat.looksLikeSVG(bytes) {
            self = .svg
        } else {
            return nil
        }
    }

    /// Markup after an optional byte order mark and white space: an SVG document (or gzip,
    /// which is refused later with its own reason).
    private static func looksLikeSVG(_ bytes: [UInt8]) -> Bool {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, XMLReader.isWhiteSpace(bytes[i]) { i += 1 }
        return i < bytes.count && bytes[i] == UInt8(ascii: "<")
    }
}

enum SVGRasterDecoder {
    /// Most pixels a decoded image may have (as `PNGDecoder`'s default): 2²⁸, 1 GiB of pixels.
    static let maximumPixelCount = 1 << 28

    /// Decodes PNG, JPEG, GIF or WebP bytes; the error is a reason for a warning.
    static func decode(_ bytes: [UInt8], format: SVGRasterFormat) -> Result<CGImage, DecodeError> {
        switch format {
        case .png:
            do {
                return .success(try CGImage(pngData: bytes))
            } catch {
                return .failure(DecodeError("the PNG does not decode: \(error)"))
            }
        case .jpeg: return decodeJPEG(bytes)
        case .gif: return decodeGIF(bytes)
        case .webp: return decodeWebP(bytes)
        case .svg: return .failure(DecodeError("an SVG document is not a raster image"))
        }
    }

    struct DecodeError: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    private static func checkSize(_ width: Int, _ height: Int, _ format: String) -> DecodeError? {
        guard width > 0, height > 0 else { return DecodeError("the \(format) has no pixels (\(width) × \(height))") }
        guard width <= maximumPixelCount / height else {
            return DecodeError("the \(format) is \(width) × \(height) pixels; at most \(maximumPixelCount) are decoded")
        }
        return nil
    }

    // MARK: JPEG

    /// JPEG through TurboJPEG, straight into premultiplied BGRA words (JPEG is opaque: TurboJPEG
    /// fills the alpha byte with 255). A warning of the library (a truncated file, a corrupt
    /// entropy segment) still gives the image, as browsers draw what decodes; an error does not.
    static func decodeJPEG(_ bytes: [UInt8]) -> Result<CGImage, DecodeError> {
        guard let handle = tjInitDecompress() else { return .failure(DecodeError("libturbojpeg could not start")) }
        defer { tjDestroy(handle) }
        func reason() -> String { tjGetErrorStr2(handle).map { String(cString: $0) } ?? "unknown error" }
        var w: Int32 = 0, h: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let header = bytes.withUnsafeBufferPointer {
            tjDecompressHeader3(handle, $0.baseAddress, UInt($0.count), &w, &h, &subsampling, &colorspace)
        }
        guard header == 0 else { return .failure(DecodeError("the JPEG does not decode: \(reason())")) }
        if let e = checkSize(Int(w), Int(h), "JPEG") { return .failure(e) }
        if colorspace == Int32(TJCS_CMYK.rawValue) || colorspace == Int32(TJCS_YCCK.rawValue) {
            return .failure(DecodeError("the JPEG is CMYK, which is not drawn"))
        }
        var pixels = [UInt32](repeating: 0, count: Int(w) * Int(h))
        // TJFLAG_LIMITSCANS: a progressive file with more than 500 scans is refused (a tiny file
        // could otherwise take minutes).
        let flags = Int32(TJFLAG_LIMITSCANS | TJFLAG_ACCURATEDCT)
        let status = pixels.withUnsafeMutableBytes { out in
            bytes.withUnsafeBufferPointer { source in
                tjDecompress2(handle, source.baseAddress, UInt(source.count), out.baseAddress?.assumingMemoryBound(to: UInt8.self),
                              w, 0, h, Int32(TJPF_BGRA.rawValue), flags)
            }
        }
        if status != 0 && tjGetErrorCode(handle) != Int32(TJERR_WARNING.rawValue) {
            return .failure(DecodeError("the JPEG does not decode: \(reason())"))
        }
        return .success(CGImage(width: Int(w), height: Int(h), pixels: pixels))
    }

    // MARK: GIF

    /// Where giflib's read callback takes bytes from.
    private final class GIFSource {
        let bytes: [UInt8]
        var position = 0
        init(_ bytes: [UInt8]) { self.bytes = bytes }
    }

    /// The first frame of a GIF, drawn on its logical screen (transparent where the frame does
    /// not cover it), with its transparent index; interlaced frames are put back in order.
    static func decodeGIF(_ bytes: [UInt8]) -> Result<CGImage, DecodeError> {
        let source = GIFSource(bytes)
        var error: Int32 = 0
        let read: InputFunc = { gif, buffer, count in
            guard let gif, let buffer, count > 0, let user = gif.pointee.UserData else { return 0 }
            let source = Unmanaged<GIFSource>.fromOpaque(user).takeUnretainedValue()
            let n = min(Int(count), source.bytes.count - source.position)
            guard n > 0 else { return 0 }
            source.bytes.withUnsafeBufferPointer { b in
                buffer.update(from: b.baseAddress! + source.position, count: n)
            }
            source.position += n
            return Int32(n)
        }
        let unmanaged = Unmanaged.passRetained(source)
        defer { unmanaged.release() }
        guard let gif = DGifOpen(unmanaged.toOpaque(), read, &error) else {
            return .failure(DecodeError("the GIF does not decode: \(gifReason(error))"))
        }
        defer { DGifCloseFile(gif, &error) }
        let screenWidth = Int(gif.pointee.SWidth), screenHeight = Int(gif.pointee.SHeight)
        var transparent: Int32 = -1
        while true {
            var record = UNDEFINED_RECORD_TYPE
            guard DGifGetRecordType(gif, &record) == GIF_OK else { return .failure(DecodeError("the GIF does not decode: \(gifReason(gif.pointee.Error))")) }
            switch record {
            case EXTENSION_RECORD_TYPE:
                var code: Int32 = 0
                var block: UnsafeMutablePointer<GifByteType>?
                guard DGifGetExtension(gif, &code, &block) == GIF_OK else { return .failure(DecodeError("the GIF does not decode: \(gifReason(gif.pointee.Error))")) }
                // Graphic control: byte 1 bit 0 says a transparent index follows in byte 4.
                if code == GRAPHICS_EXT_FUNC_CODE, let b = block, b[0] >= 4, b[1] & 1 != 0 { transparent = Int32(b[4]) }
                while block != nil {
                    guard DGifGetExtensionNext(gif, &block) == GIF_OK else { return .failure(DecodeError("the GIF does not decode: \(gifReason(gif.pointee.Error))")) }
                }
            case IMAGE_DESC_RECORD_TYPE:
                guard DGifGetImageDesc(gif) == GIF_OK else { return .failure(DecodeError("the GIF does not decode: \(gifReason(gif.pointee.Error))")) }
                return firstFrame(gif, screenWidth: screenWidth, screenHeight: screenHeight, transparent: transparent)
            case TERMINATE_RECORD_TYPE:
                return .failure(DecodeError("the GIF has no frame"))
            default:
                return .failure(DecodeError("the GIF does not decode: an unknown record"))
            }
        }
    }

    private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>, screenWidth: Int, screenHeight: Int,
                                   transparent: Int32) -> Result<CGImage, DecodeError> {
        let desc = gif.pointee.Image
        let fw = Int(desc.Width), fh = Int(desc.Height), left = Int(desc.Left), top = Int(desc.Top)
        // A screen of 0 × 0 (some encoders write it) is the frame's own size.
        let width = screenWidth > 0 ? screenWidth : left + fw, height = screenHeight > 0 ? screenHeight : top + fh
        if let e = checkSize(width, height, "GIF") ?? checkSize(fw, fh, "GIF frame") { return .failure(e) }
        guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let colors = map.pointee.Colors else {
            return .failure(DecodeError("the GIF has no colour table"))
        }
        var palette = [UInt32](repeating: 0xFF00_0000, count: 256)
        for k in 0..<min(256, Int(map.pointee.ColorCount)) {
            let c = colors[k]
            palette[k] = 0xFF00_0000 | UInt32(c.Red) << 16 | UInt32(c.Green) << 8 | UInt32(c.Blue)
        }
        if transparent >= 0 && transparent < 256 { palette[Int(transparent)] = 0 }
        // Rows in the order they are stored: interlaced frames in four passes.
        var order: [Int] = []
        order.reserveCapacity(fh)
        if desc.Interlace {
            for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] { order.append(contentsOf: stride(from: start, to: fh, by: step)) }
        } else {
            order = Array(0..<fh)
        }
        var pixels = [UInt32](repeating: 0, count: width * height)
        var line = [GifPixelType](repeating: 0, count: fw)
        for row in order {
            guard DGifGetLine(gif, &line, Int32(fw)) == GIF_OK else {
                // A truncated frame: what was read is drawn, as browsers do.
                break
            }
            let y = top + row
            guard y < height else { continue }
            for x in 0..<fw where left + x < width {
                pixels[y * width + left + x] = palette[Int(line[x])]
            }
        }
        return .success(CGImage(width: width, height: height, pixels: pixels))
    }

    private static func gifReason(_ code: Int32) -> String {
        GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"
    }

    // MARK: WebP

    /// WebP through libwebp: a still image decoded whole; an animation's first frame (through
    /// the demuxer) on its canvas.
    static func decodeWebP(_ bytes: [UInt8]) -> Result<CGImage, DecodeError> {
        bytes.withUnsafeBufferPointer { b -> Result<CGImage, DecodeError> in
            guard let base = b.baseAddress else { return .failure(DecodeError("the WebP is empty")) }
            var data = WebPData(bytes: base, size: b.count)
            guard let demux = WebPDemux(&data) else { return .failure(DecodeError("the WebP does not decode: not a valid WebP container")) }
            defer { WebPDemuxDelete(demux) }
            let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH)), height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
            if let e = checkSize(width, height, "WebP") { return .failure(e) }
            var frame = WebPIterator()
            guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else { return .failure(DecodeError("the WebP has no frame")) }
            defer { WebPDemuxReleaseIterator(&frame) }
            var fw: Int32 = 0, fh: Int32 = 0
            guard let decoded = WebPDecodeBGRA(frame.fragment.bytes, frame.fragment.size, &fw, &fh) else {
                return .failure(DecodeError("the WebP does not decode: libwebp refused its bitstream"))
            }
            defer { WebPFree(decoded) }
            var pixels = [UInt32](repeating: 0, count: width * height)
            let left = Int(frame.x_offset), top = Int(frame.y_offset)
            for y in 0..<Int(fh) where top + y < height {
                for x in 0..<Int(fw) where left + x < width {
                    let p = decoded + (y * Int(fw) + x) * 4
                    pixels[(top + y) * width + left + x] = premultiplied(b: p[0], g: p[1], r: p[2], a: p[3])
                }
            }
            return .success(CGImage(width: width, height: height, pixels: pixels))
        }
    }

    /// Straight 8-bit channels to a premultiplied `0xAARRGGBB` word, rounded to nearest.
    @inline(__always)
    static func premultiplied(b: UInt8, g: UInt8, r: UInt8, a: UInt8) -> UInt32 {
        func mul(_ c: UInt8) -> UInt32 {
            let t = UInt32(c) * UInt32(a) + 128
            return (t + (t >> 8)) >> 8
        }
        if a == 255 { return 0xFF00_0000 | UInt32(r) << 16 | UInt32(g) << 8 | UInt32(b) }
        return UInt32(a) << 24 | mul(r) << 16 | mul(g) << 8 | mul(b)
    }
}
