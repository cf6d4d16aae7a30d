import Foundation

// Conveniences that connect CGImage to the PNG codec and to files.
//
// Writing goes to a temporary file in the destination's directory which is flushed, closed
// and then renamed over the destination: rename(2) within one file system is atomic, so a
// reader sees either the old file or the complete new one, and a failure leaves no partial
// file behind. (Writing in place was rejected: a crash or a full disk mid-write leaves a
// truncated PNG under the final name.)

extension CGImage {
    /// Decodes an image from the bytes of a PNG file, with `PNGDecoder`'s default limits.
    ///
    /// - Throws: a `PNGError` describing why the data is not a valid PNG.
    public convenience init(pngData: some Collection<UInt8>) throws(PNGError) {
        let image = try PNGDecoder().decode(pngData)
        self.init(width: image.width, height: image.height, pixels: image.pixels)
    }

    /// Reads and decodes the PNG file at `path`, with `PNGDecoder`'s default limits.
    ///
    /// - Throws: `PNGError.readFailed` if the file cannot be read, otherwise a decoding `PNGError`.
    public convenience init(contentsOfPNGFile path: String) throws(PNGError) {
        try self.init(pngData: try Self.readFile(at: path))
    }

    /// The image encoded as a PNG file.
    ///
    /// - Parameter colorType: the pixel format; default `.automatic` (smallest lossless).
    /// - Throws: `PNGError.emptyImage` for an image without pixels.
    public func pngData(colorType: PNGEncoder.ColorType = .automatic) throws(PNGError) -> [UInt8] {
        try PNGEncoder(colorType: colorType).encode(self)
    }

    /// Encodes the image and writes it to `path`, replacing any existing file atomically.
    ///
    /// The data goes to a temporary file in the same directory, which is then renamed to
    /// `path`; on failure the temporary file is removed and `path` is left untouched. The new
    /// file gets the default permissions (`0666` masked by the umask).
    ///
    /// - Parameter colorType: the pixel format; default `.automatic` (smallest lossless).
    /// - Throws: `PNGError.writeFailed` naming the failing step, or `.emptyImage`.
    public func writePNG(to path: String, colorType: PNGEncoder.ColorType = .automatic) throws(PNGError) {
        let data = try pngData(colorType: colorType)
        try Self.writeFileAtomically(data, to: path)
    }

    /// The whole contents of the file at `path`.
    private static func readFile(at path: String) throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return contents }
            contents += buffer[0..<count]
        }
    }

    /// Writes `data` to a temporary file beside `path`, then renames it to `path`.
    private static func writeFileAtomically(_ data: [UInt8], to path: String) throws(PNGError) {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: "creating \(temporary): \(String(cString: strerror(errno)))") }
        // Removes the temporary file; `code` is the errno of the failed step.
        func fail(_ step: String, _ code: Int32) -> PNGError {
            let reason = "\(step): \(String(cString: strerror(code)))"
            unlink(temporary)
            return .writeFailed(path: path, reason: reason)
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw fail("writing \(temporary)", code)
            }
            written += count
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw fail("flushing \(temporary)", code)
        }
        guard close(fd) == 0 else { throw fail("closing \(temporary)", errno) }
        guard rename(temporary, path) == 0 else { throw fail("renaming \(temporary) to \(path)", errno) }
    }
}
