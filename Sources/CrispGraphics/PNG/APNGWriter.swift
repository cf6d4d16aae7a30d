import CZlib
import Foundation

// Animated PNG (APNG) writing, incrementally, for screen recordings.
//
// File layout (APNG 1.0): signature · IHDR · acTL(frames, plays) · fcTL(seq 0) · IDAT… ·
// { fcTL(seq n) · fdAT(seq n + 1)… }… · IEND. Every frame after the first stores only the
// rectangle that changed: the caller's changed area (a dirty region's bounding box), trimmed
// here of the top and bottom rows that equal the previous frame's, with dispose_op NONE and
// blend_op SOURCE, so a player copies the rectangle over what it shows.
//
// Why the file is always valid. A frame's delay is the time until the next frame, which is
// not known when the frame arrives, so each frame is held (compressed) until the next one or
// `finish(at:)`. Then its chunks and a fresh IEND go in one positioned write over the old
// IEND, and only after that does the acTL frame count (a fixed offset near the start) get
// patched. A process killed at any moment leaves a valid APNG of the frames written so far;
// only the held frame is lost. A failed write (a full disk) truncates the file back to the
// last good end, rewrites IEND there (bytes that were already allocated), and the writer stops
// with `PNGError.writeFailed`: the file is the valid animation of the frames before it.
//
// Samples are 8-bit RGBA (colour type 6) whatever the pixels: frames after the first cannot
// change the colour type, and a screen could turn translucent. Each row's filter is the
// minimum-sum-of-absolute-differences choice, as PNGEncoder's; zlib's level is the caller's
// (1 keeps up with a 2-core machine; see docs/performance.md).

/// Where an `APNGWriter` writes: positioned writes and truncation of one file.
///
/// Implement it to test failures (a writer that fails with `ENOSPC` after some bytes).
public protocol APNGOutput: AnyObject {
    /// Writes all of `bytes` at `offset`, extending the file as needed.
    ///
    /// - Throws: a `PNGError.writeFailed` (or any error) when not every byte was written.
    func write(_ bytes: [UInt8], at offset: Int) throws
    /// Cuts the file to `length` bytes.
    func truncate(to length: Int) throws
    /// Closes the file (after the last write).
    func close()
}

/// A file written with `pwrite(2)`.
public final class APNGFileOutput: APNGOutput {
    /// The file's path.
    public let path: String
    private var fd: Int32

    /// Creates (or empties) the file at `path`.
    ///
    /// - Throws: `PNGError.writeFailed` naming the reason (a missing folder, no permission).
    public init(path: String) throws(PNGError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: String(cString: strerror(errno))) }
    }

    public func write(_ bytes: [UInt8], at offset: Int) throws {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw PNGError.writeFailed(path: path, reason: String(cString: strerror(errno)))
            }
            done += n
        }
    }

    public func truncate(to length: Int) throws {
        guard ftruncate(fd, off_t(length)) == 0 else {
            throw PNGError.writeFailed(path: path, reason: String(cString: strerror(errno)))
        }
    }

    public func close() {
        if fd >= 0 { _ = Foundation.close(fd) }
        fd = -1
    }

    deinit { close() }
}

/// Writes an animated PNG frame by frame (see the essay atop APNGWriter.swift).
///
/// Pixels are premultiplied ARGB `UInt32`s as `CGContext` holds them (`a << 24 | r << 16 |
/// g << 8 | b`); they are stored exactly (decoding gives them back bit for bit).
public final class APNGWriter {
    /// Canvas width in pixels.
    public let width: Int
    /// Canvas height in pixels.
    public let height: Int
    /// The zlib level, 0…9.
    public let compressionLevel: Int
    /// Frames in the file (written and complete).
    public private(set) var writtenFrameCount = 0
    /// Frames accepted: written plus the one held until its delay is known.
    public var frameCount: Int { writtenFrameCount + (pending == nil ? 0 : 1) }
    /// The file's size so far.
    public private(set) var byteCount = 0
    /// The error that stopped the writer, if one did; later calls do nothing.
    public private(set) var failure: Error?

    private let output: APNGOutput
    private var canvas: [UInt32]
    private var sequence: UInt32 = 0
    private var startTime: Double = 0
    private var acTLOffset = 0
    /// The end of the last complete frame: where IEND is.
    private var end = 0
    private var pending: (x: Int, y: Int, w: Int, h: Int, data: [UInt8], time: Double)?
    private var isFinished = false

    /// Starts a file: writes the signature, IHDR, acTL and IEND (a valid file of no frames
    /// until the first is added).
    ///
    /// - Parameters:
    ///   - width: the canvas width in pixels.
    ///   - height: the canvas height in pixels.
    ///   - output: where the file goes.
    ///   - compressionLevel: the zlib level 0…9; default 1 (keeps up with a screen).
    ///   - plays: times the animation plays; 0 loops forever.
    /// - Throws: `.emptyImage`, `.imageTooLarge`, or the output's error.
    public init(width: Int, height: Int, output: APNGOutput, compressionLevel: Int = 1, plays: Int = 0) throws {
        guard width >= 1, height >= 1 else { throw PNGError.emptyImage(width: width, height: height) }
        guard width <= PNGHeader.maximumDimension, height <= PNGHeader.maximumDimension, width <= (1 << 28) / height else {
            throw PNGError.imageTooLarge(width: width, height: height, limit: 1 << 28)
        }
        precondition((0...9).contains(compressionLevel), "zlib compression level \(compressionLevel) is not in 0...9")
        self.width = width
        self.height = height
        self.compressionLevel = compressionLevel
        self.output = output
        canvas = [UInt32](repeating: 0, count: width * height)
        var head = PNGChunk.signature
        let header = PNGHeader(width: width, height: height, bitDepth: 8, colorType: .rgba, isInterlaced: false)
        header.bytes.withUnsafeBufferPointer { PNGChunk.append(type: "IHDR", data: $0, to: &head) }
        acTLOffset = head.count
        Self.appendChunk("acTL", Self.acTL(frames: 0, plays: plays), to: &head)
        self.plays = plays
        end = head.count
        Self.appendChunk("IEND", [], to: &head)
        try output.write(head, at: 0)
        byteCount = head.count
    }

    private let plays: Int

    /// Adds the frame shown from `time` (seconds, any origin, not decreasing): the canvas
    /// with the pixels of `rect` (x, y, width, height, from the top-left) replaced by `pixels`
    /// (`rect`'s rows, `stride` pixels apart). The first frame must cover the whole canvas.
    /// A frame equal to the one before adds nothing (its time goes to the frame before).
    ///
    /// - Returns: whether a frame was added.
    /// - Throws: the write error that stopped the writer (the file keeps the frames before).
    @discardableResult
    public func addFrame(_ pixels: UnsafePointer<UInt32>, stride: Int, x: Int, y: Int, width w: Int, height h: Int,
                         time: Double) throws -> Bool {
        guard failure == nil, !isFinished else { return false }
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height, "frame outside the canvas")
        let isFirst = frameCount == 0
        precondition(!isFirst || (x == 0 && y == 0 && w == width && h == height), "the first frame must cover the canvas")
        // Trim unchanged rows at the top and bottom.
        var top = 0, bottom = h
        if !isFirst {
            canvas.withUnsafeBufferPointer { c in
                func same(_ r: Int) -> Bool {
                    memcmp(c.baseAddress! + (y + r) * width + x, pixels + r * stride, w * 4) == 0
                }
                while top < bottom && same(top) { top += 1 }
                while bottom > top && same(bottom - 1) { bottom -= 1 }
            }
            guard top < bottom else { return false }
        }
        canvas.withUnsafeMutableBufferPointer { c in
            for r in top..<bottom {
                (c.baseAddress! + (y + r) * width + x).update(from: pixels + r * stride, count: w)
            }
        }
        let data = Self.compress(pixels + top * stride, stride: stride, width: w, height: bottom - top, level: Int32(compressionLevel))
        if isFirst { startTime = time }
        try flushPending(until: time)
        pending = (x, y + top, w, bottom - top, data, time)
        return true
    }

    /// Writes the held frame, shown until `time`, and closes the file. Later calls do nothing.
    ///
    /// - Throws: the write error (the file keeps the frames before the failed one).
    public func finish(at time: Double) throws {
        guard !isFinished else { return }
        isFinished = true
        defer { output.close() }
        guard failure == nil else { return }
        try flushPending(until: time)
    }

    /// Milliseconds from the first frame, rounded: delays are differences of these, so their
    /// rounding never adds up.
    private func milliseconds(_ t: Double) -> Int { max(0, Int(((t - startTime) * 1000).rounded())) }

    private func flushPending(until time: Double) throws {
        guard let p = pending else { return }
        let delay = max(0, milliseconds(max(time, p.time)) - milliseconds(p.time))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(p.data.count + 128)
        // delay_num / delay_den: milliseconds while they fit 16 bits, then coarser units.
        let (num, den): (Int, Int) = delay <= 0xFFFF ? (delay, 1000) : delay / 10 <= 0xFFFF ? (delay / 10, 100) : (min(delay / 1000, 0xFFFF), 1)
        var fcTL: [UInt8] = []
        PNGChunk.appendUInt32(sequence, to: &fcTL)
        for v in [p.w, p.h, p.x, p.y] { PNGChunk.appendUInt32(UInt32(v), to: &fcTL) }
        fcTL += [UInt8(num >> 8), UInt8(num & 0xFF), UInt8(den >> 8), UInt8(den & 0xFF), 0, 0]  // dispose NONE, blend SOURCE
        Self.appendChunk("fcTL", fcTL, to: &bytes)
        var seq = sequence + 1
        var start = 0
        repeat {
            let stop = min(start + PNGEncoder.maximumIDATLength, p.data.count)
            if writtenFrameCount == 0 {
                Self.appendChunk("IDAT", Array(p.data[start..<stop]), to: &bytes)
            } else {
                var fdAT: [UInt8] = []
                PNGChunk.appendUInt32(seq, to: &fdAT)
                fdAT += p.data[start..<stop]
                Self.appendChunk("fdAT", fdAT, to: &bytes)
                seq += 1
            }
            start = stop
        } while start < p.data.count
        let frameEnd = end + bytes.count
        Self.appendChunk("IEND", [], to: &bytes)
        do {
            try output.write(bytes, at: end)
            var actl: [UInt8] = []
            Self.appendChunk("acTL", Self.acTL(frames: writtenFrameCount + 1, plays: plays), to: &actl)
            try output.write(actl, at: acTLOffset)
        } catch {
            failure = error
            pending = nil
            // Back to the last good frame: cut what was written and put IEND back where it was.
            var iend: [UInt8] = []
            Self.appendChunk("IEND", [], to: &iend)
            try? output.truncate(to: end + iend.count)
            try? output.write(iend, at: end)
            var actl: [UInt8] = []
            Self.appendChunk("acTL", Self.acTL(frames: writtenFrameCount, plays: plays), to: &actl)
            try? output.write(actl, at: acTLOffset)
            throw error
        }
        end = frameEnd
        byteCount = frameEnd + 12
        sequence = seq
        writtenFrameCount += 1
        pending = nil
    }

    private static func acTL(frames: Int, plays: Int) -> [UInt8] {
        var out: [UInt8] = []
        PNGChunk.appendUInt32(UInt32(frames), to: &out)
        PNGChunk.appendUInt32(UInt32(clamping: plays), to: &out)
        return out
    }

    private static func appendChunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        data.withUnsafeBufferPointer { PNGChunk.append(type: type, data: $0, to: &out) }
    }

    /// The zlib stream of `height` rows of `width` premultiplied pixels as filtered RGBA scanlines
    /// (the still encoder's rows: minimum-sum filters, straight samples).
    static func compress(_ pixels: UnsafePointer<UInt32>, stride: Int, width: Int, height: Int, level: Int32) -> [UInt8] {
        let header = PNGHeader(width: width, height: height, bitDepth: 8, colorType: .rgba, isInterlaced: false)
        let filtered = PNGEncoder.filteredScanlines(pixels, stride: stride, height: height, header: header)
        return filtered.withUnsafeBufferPointer { Zlib.deflate($0, level: level, strategy: Z_FILTERED) }
    }
}
