import CrispGraphics
import Foundation

// A recording of the presented frames as an animated PNG (`APNGWriter`), encoded off the frame
// path.
//
// The frame path (`add`) only copies the bounding box of the presented rectangles out of the
// host's bitmap (the host draws the next frame into it) and queues it, into a buffer the encoder
// has finished with when there is one: the first frame's is touched as the recording starts,
// and the encoder thread keeps four full-screen spares ready, their pages touched
// (`RecordingBuffer.prefault`), so that the frame path does not take a fresh buffer's page faults
// (a retina screen's frame is 12 MB, about 3 000 pages, which cost more than the copy). A thread
// of the recorder's own trims unchanged rows, filters, deflates and writes. When the encoder is
// behind, the newest frame is merged into the last queued one instead of growing the queue or
// stalling the app, so the recording stays a true picture of the screen with fewer in-between
// frames (`mergedFrameCount` counts them): when the queue holds more bytes than its bound (a long
// animation on a loaded machine; their union rectangle copied afresh), and when a frame of a
// megabyte or more finds no spare buffer with four frames already waiting (a full-screen fade
// at retina sizes: the frame is copied over the last queued one, in its buffer). A write error
// (a full disk) stops the encoder; `failure` reports it and the file keeps
// the frames before it (the writer's guarantee).

/// Records the frames a window presents into an APNG file.
public final class ScreenRecorder: @unchecked Sendable {
    /// The file written.
    public let path: String
    /// The canvas: the screen's size in pixels when the recording started.
    public let width: Int, height: Int

    private let writer: APNGWriter
    private let lock = NSCondition()
    private var queue: [Job] = []
    private var queuedBytes = 0
    private let queueLimit: Int
    private var isFinishing = false
    private var finishTime: Double = 0
    private var isDone = false
    private var error: Error?
    private var hasFirstFrame = false
    /// The writer's `writtenFrameCount` as the encoder thread last saw it, under `lock` (the
    /// writer itself is the encoder thread's alone while it runs).
    private var writtenFrames = 0
    /// The time each `add` took on the frame path, in seconds (for the figures in docs/performance.md).
    public private(set) var framePathSeconds: [Double] = []
    /// The CPU time of the frame path's thread each `add` took, in seconds: what the recording
    /// costs the app, without the waits for a core that a loaded machine adds to the wall time.
    public private(set) var framePathCPUSeconds: [Double] = []
    /// Pixel buffers the encoder has written, kept for the next frames (at most `maximumSpares`).
    private var spares: [RecordingBuffer] = []
    private static let maximumSpares = 6
    /// Frames merged into the one before because the encoder was behind.
    public private(set) var mergedFrameCount = 0

    private final class Job {
        var x: Int, y: Int, w: Int, h: Int
        var pixels: RecordingBuffer
        var time: Double
        init(x: Int, y: Int, w: Int, h: Int, pixels: RecordingBuffer, time: Double) {
            (self.x, self.y, self.w, self.h, self.pixels, self.time) = (x, y, w, h, pixels, time)
        }
    }

    /// Opens the file (writing its header) and starts the encoder thread.
    ///
    /// - Parameters:
    ///   - path: the file to write.
    ///   - width: the screen's width in pixels.
    ///   - height: the screen's height in pixels.
    ///   - output: where to write; default a file at `path` (a test passes one that fails).
    ///   - compressionLevel: the zlib level 0…9; default 1.
    ///   - queueLimit: bytes of frames waiting for the encoder before frames are merged.
    /// - Throws: `PNGError.writeFailed` when the file cannot be created or written.
    public init(path: String, width: Int, height: Int, output: APNGOutput? = nil, compressionLevel: Int = 1,
                queueLimit: Int = 256 << 20) throws {
        self.path = path
        self.width = width
        self.height = height
        self.queueLimit = queueLimit
        writer = try APNGWriter(width: width, height: height, output: output ?? APNGFileOutput(path: path),
                                compressionLevel: compressionLevel)
        // The first frame is the whole screen: its buffer is touched here, at the start, not on
        // the frame path (the encoder thread prepares the next ones).
        let first = RecordingBuffer(count: width * height)
        first.prefault()
        spares = [first]
        let thread = Thread { [self] in encodeLoop() }
        thread.name = "crisp-recorder"
        thread.start()
    }

    /// Queues the frame presented at `time` from `context` (native 32-bit pixels), whose
    /// changed area is `rects` (pixels from the top-left). The first frame is the whole screen.
    /// Does nothing for a context of another size (the caller stops the recording then).
    public func add(_ context: CGContext, rects: [CGRect], time: Double) {
        let started = MonotonicClock.seconds(), startedCPU = Self.threadCPUSeconds()
        defer {
            framePathSeconds.append(MonotonicClock.seconds() - started)
            framePathCPUSeconds.append(Self.threadCPUSeconds() - startedCPU)
        }
        guard context.width == width, context.height == height, let base = context.data else { return }
        var x0 = 0, y0 = 0, x1 = width, y1 = height
        if hasFirstFrame {
            guard let first = rects.first else { return }
            let box = rects.dropFirst().reduce(first) { $0.union($1) }.integral
            x0 = max(0, Int(box.minX)); y0 = max(0, Int(box.minY))
            x1 = min(width, Int(box.maxX)); y1 = min(height, Int(box.maxY))
            guard x0 < x1, y0 < y1 else { return }
        }
        hasFirstFrame = true
        let stride = context.bytesPerRow / 4
        let src = base.assumingMemoryBound(to: UInt32.self)
        /// The rectangle's rows copied into `buffer` (or a fresh one), packed.
        func copy(_ x0: Int, _ y0: Int, _ x1: Int, _ y1: Int, into buffer: RecordingBuffer?) -> RecordingBuffer {
            let w = x1 - x0
            let target = buffer ?? RecordingBuffer(count: w * (y1 - y0))
            for r in y0..<y1 { (target.pixels + (r - y0) * w).update(from: src + r * stride + x0, count: w) }
            return target
        }
        let bytes = 4 * (x1 - x0) * (y1 - y0)
        // Copied before taking the lock (except to take a spare buffer), so the encoder thread is
        // not held up by the copy.
        lock.lock()
        let spareIndex = spares.firstIndex { $0.capacity >= bytes / 4 }
        if spareIndex == nil, bytes >= Self.largeFrameBytes, queue.count >= Self.readySpares, error == nil, !isFinishing, let last = queue.last,
           x0 <= last.x, y0 <= last.y, x1 >= last.x + last.w, y1 >= last.y + last.h, last.pixels.capacity >= bytes / 4 {
            // A large frame, no buffer ready and the encoder frames behind (a fade repainting the
            // screen every frame): this frame's rectangle holds the last queued one's, so it is
            // copied over that frame in its buffer (under the lock: the encoder must not take the
            // frame half written), instead of into fresh memory whose page faults cost the frame
            // path more than the copy. (Small frames are cheap to allocate: they queue.)
            _ = copy(x0, y0, x1, y1, into: last.pixels)
            queuedBytes += bytes - 4 * last.w * last.h
            (last.x, last.y, last.w, last.h) = (x0, y0, x1 - x0, y1 - y0)
            mergedFrameCount += 1
            lock.unlock()
            return
        }
        let spare = spareIndex.map { spares.remove(at: $0) }
        lock.unlock()
        let pixels = copy(x0, y0, x1, y1, into: spare)
        lock.lock()
        defer { lock.unlock() }
        guard error == nil, !isFinishing else { return }
        if queuedBytes + bytes > queueLimit, let last = queue.last {
            // The encoder is behind: this frame replaces the last queued one over their union.
            // Where this frame's rectangle holds the last one's (a fade or a scroll repainting the
            // same area every frame), the copy just made is that union; otherwise the union is
            // copied afresh.
            let ux0 = min(x0, last.x), uy0 = min(y0, last.y)
            let ux1 = max(x1, last.x + last.w), uy1 = max(y1, last.y + last.h)
            var spare: RecordingBuffer
            if (ux0, uy0, ux1, uy1) == (x0, y0, x1, y1) {
                spare = last.pixels
                last.pixels = pixels
            } else {
                spare = pixels
                last.pixels = copy(ux0, uy0, ux1, uy1, into: nil)
            }
            queuedBytes -= 4 * last.w * last.h
            (last.x, last.y, last.w, last.h) = (ux0, uy0, ux1 - ux0, uy1 - uy0)
            queuedBytes += 4 * last.w * last.h
            mergedFrameCount += 1
            keepSpare(spare)
            return
        }
        queue.append(Job(x: x0, y: y0, w: x1 - x0, h: y1 - y0, pixels: pixels, time: time))
        queuedBytes += bytes
        lock.signal()
    }

    /// Keeps a buffer the encoder or a merge is done with for the next frames (under `lock`): at
    /// most `maximumSpares`, the largest ones.
    private func keepSpare(_ buffer: RecordingBuffer) {
        if spares.count < Self.maximumSpares {
            spares.append(buffer)
        } else if let smallest = spares.indices.min(by: { spares[$0].capacity < spares[$1].capacity }),
                  spares[smallest].capacity < buffer.capacity {
            spares[smallest] = buffer
        }
    }

    /// Frames in the file so far (complete; one more may be held until its delay is known).
    public var writtenFrameCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return writtenFrames
    }

    /// Frames queued for the encoder and not yet taken by it (tests wait on it).
    @_spi(Testing) public var queuedFrameCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return queue.count
    }

    /// The write error that stopped the recording, once the encoder has met one.
    public var failure: Error? {
        lock.lock()
        defer { lock.unlock() }
        return error
    }

    /// Waits for the queued frames to be written, writes the last frame (shown until `time`)
    /// and closes the file.
    ///
    /// - Returns: the number of frames in the file.
    /// - Throws: the write error that stopped the recording (the file holds the frames before it).
    @discardableResult
    public func finish(at time: Double) throws -> Int {
        lock.lock()
        if !isFinishing {
            isFinishing = true
            finishTime = time
            lock.broadcast()
        }
        while !isDone { lock.wait() }
        let failure = error, frames = writtenFrames
        lock.unlock()
        if let failure { throw failure }
        return frames
    }

    /// The calling thread's CPU time in seconds.
    private static func threadCPUSeconds() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Full-screen buffers the encoder keeps ready for the frame path; as many frames queued
    /// with none left, a large frame is copied over the last queued one instead of into fresh
    /// memory.
    @_spi(Testing) public static let readySpares = 4
    /// A frame this large (1 MiB) takes page faults worth avoiding when its buffer is fresh.
    @_spi(Testing) public static let largeFrameBytes = 1 << 20

    /// Tops the spares up to `readySpares` full-screen buffers, touched here, off the frame path.
    private func prepareSpares() {
        lock.lock()
        let missing = Self.readySpares - spares.filter { $0.capacity >= width * height }.count
        lock.unlock()
        guard missing > 0 else { return }
        let ready = (0..<missing).map { _ in RecordingBuffer(count: width * height) }
        for buffer in ready { buffer.prefault() }
        lock.lock()
        for buffer in ready { keepSpare(buffer) }
        lock.unlock()
    }

    private func encodeLoop() {
        while true {
            prepareSpares()
            lock.lock()
            while queue.isEmpty && !isFinishing { lock.wait() }
            if queue.isEmpty || error != nil {
                // Finishing: everything queued is written (or a write failed).
                lock.unlock()
                var failed: Error?
                do { try writer.finish(at: finishTime) } catch { failed = error }
                lock.lock()
                if let failed, error == nil { error = failed }
                writtenFrames = writer.writtenFrameCount
                isDone = true
                lock.broadcast()
                lock.unlock()
                return
            }
            let job = queue.removeFirst()
            queuedBytes -= 4 * job.w * job.h
            lock.unlock()
            do {
                _ = try writer.addFrame(job.pixels.pixels, stride: job.w, x: job.x, y: job.y, width: job.w, height: job.h, time: job.time)
                // The buffer goes back to the frame path.
                let written = writer.writtenFrameCount
                lock.lock()
                writtenFrames = written
                keepSpare(job.pixels)
                lock.unlock()
            } catch {
                lock.lock()
                self.error = error
                queue.removeAll()
                queuedBytes = 0
                lock.unlock()
            }
        }
    }
}
