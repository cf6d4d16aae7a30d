@_spi(Testing) import CrispApp
import CrispGraphics
import Dispatch
import Foundation
import Testing

/// An in-memory `APNGOutput` whose writes block, once `hold()` is called, until `release()`:
/// it stops the recorder's encoder in the middle of a frame, so the frames after it queue up.
private final class GateOutput: APNGOutput, @unchecked Sendable {
    private let lock = NSCondition()
    private var held = false
    private(set) var bytes: [UInt8] = []
    /// Signalled each time a write starts waiting at the gate.
    let waiting = DispatchSemaphore(value: 0)

    func hold() { lock.lock(); held = true; lock.unlock() }
    func release() { lock.lock(); held = false; lock.broadcast(); lock.unlock() }

    func write(_ data: [UInt8], at offset: Int) throws {
        lock.lock()
        if held { waiting.signal() }
        while held { lock.wait() }
        if offset + data.count > bytes.count { bytes += [UInt8](repeating: 0, count: offset + data.count - bytes.count) }
        bytes.replaceSubrange(offset..<(offset + data.count), with: data)
        lock.unlock()
    }
    func truncate(to length: Int) throws {
        lock.lock()
        if bytes.count > length { bytes.removeLast(bytes.count - length) }
        lock.unlock()
    }
    func close() {}
}

/// `ScreenRecorder`'s bounded queue: when the encoder is behind, a new frame is merged into the
/// last queued one (no frame path stall, no unbounded memory), and the merged frame is still a
/// true picture of the screen, whether the new frame's rectangle holds the last one's (a fade:
/// the copy already made is reused) or not (the union is copied afresh).
@Suite struct ScreenRecorderMergeTests {
    /// `beside`: the last frame's rectangle lies beside the queued one's (else it is the same).
    @Test(arguments: [false, true])
    func framesMergedWhileTheEncoderIsBehindPlayBackAsTheScreenWas(beside: Bool) throws {
        let size = 16
        let context = try #require(CGContext(width: size, height: size))
        func paint(_ rect: CGRect, red: CGFloat) {
            context.setFillColor(red: red, green: 0.5, blue: 1 - red, alpha: 1)
            // Pixels from the top-left, as the recorder's rectangles are.
            context.fill(CGRect(x: rect.minX, y: CGFloat(size) - rect.maxY, width: rect.width, height: rect.height))
        }
        let output = GateOutput()
        // A queue of at most one small frame: the third frame on is merged while the encoder waits.
        let recorder = try ScreenRecorder(path: "memory", width: size, height: size, output: output, queueLimit: 4 * 8 * 8)

        paint(CGRect(x: 0, y: 0, width: size, height: size), red: 0)
        recorder.add(context, rects: [], time: 0)
        // The encoder takes frame 1 and holds it until frame 2's time is known.
        let deadline = Date().addingTimeInterval(20)
        while recorder.queuedFrameCount > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        try #require(recorder.queuedFrameCount == 0, "the encoder never took the first frame")
        let left = CGRect(x: 0, y: 0, width: 8, height: 8)
        paint(left, red: 0.2)
        output.hold()
        recorder.add(context, rects: [left], time: 0.1)
        // Frame 2 makes the encoder write frame 1: it waits at the gate there.
        try #require(output.waiting.wait(timeout: .now() + 20) == .success, "the encoder never wrote")

        paint(left, red: 0.4)
        recorder.add(context, rects: [left], time: 0.2)  // queued: the queue was empty
        paint(left, red: 0.6)
        recorder.add(context, rects: [left], time: 0.3)  // merged: the same rectangle
        let lower = CGRect(x: 4, y: 8, width: 12, height: 8)
        if beside {
            paint(lower, red: 0.8)
            recorder.add(context, rects: [lower], time: 0.4)  // merged: a rectangle beside it, the union copied
        }
        #expect(recorder.mergedFrameCount == (beside ? 2 : 1))
        let final = try #require(context.makeImage())

        output.release()
        #expect(try recorder.finish(at: 0.5) == 3)
        let animation = try APNGAnimation(pngData: output.bytes)
        #expect(animation.frames.count == 3)
        let images = try animation.images()
        #expect(images.last?.pixels == final.pixels, "the merged frame shows the screen as it was at the last frame")
        // The merged frame covers its frames' rectangles.
        let merged = try #require(animation.frames.last)
        let expected = beside ? CGRect(x: 0, y: 0, width: 16, height: 16) : left
        #expect(CGRect(x: merged.x, y: merged.y, width: merged.width, height: merged.height) == expected, "\(merged)")
    }

    /// Large frames while the encoder is stuck: once the spare buffers are used (the first
    /// frame's, the encoder's ready ones) and `readySpares` frames wait, each new full-screen frame
    /// is copied over the last queued one instead of into fresh memory; the queue stops growing
    /// long before its byte bound, and the merged frame plays back as the screen was.
    @Test func largeFramesWithNoSpareBufferAreCopiedOverTheLastQueuedOne() throws {
        let size = 512  // 1 MiB a frame: ScreenRecorder.largeFrameBytes
        #expect(4 * size * size >= ScreenRecorder.largeFrameBytes)
        let context = try #require(CGContext(width: size, height: size))
        let whole = CGRect(x: 0, y: 0, width: size, height: size)
        func paint(_ red: CGFloat) {
            context.setFillColor(red: red, green: 0.5, blue: 1 - red, alpha: 1)
            context.fill(whole)
        }
        let output = GateOutput()
        let recorder = try ScreenRecorder(path: "memory", width: size, height: size, output: output)
        paint(0)
        recorder.add(context, rects: [], time: 0)
        let deadline = Date().addingTimeInterval(20)
        while recorder.queuedFrameCount > 0 && Date() < deadline { Thread.sleep(forTimeInterval: 0.001) }
        try #require(recorder.queuedFrameCount == 0, "the encoder never took the first frame")
        output.hold()
        paint(0.1)
        recorder.add(context, rects: [whole], time: 0.1)
        try #require(output.waiting.wait(timeout: .now() + 20) == .success, "the encoder never wrote")
        // The encoder is stuck writing frame 1 and holds frame 2; 12 more frames come.
        for k in 2..<14 {
            paint(CGFloat(k) / 14)
            recorder.add(context, rects: [whole], time: Double(k) / 10)
        }
        #expect(recorder.queuedFrameCount == ScreenRecorder.readySpares, "queued: \(recorder.queuedFrameCount)")
        #expect(recorder.mergedFrameCount == 12 - ScreenRecorder.readySpares)
        let final = try #require(context.makeImage())
        output.release()
        #expect(try recorder.finish(at: 2) == 2 + ScreenRecorder.readySpares)
        let images = try APNGAnimation(pngData: output.bytes).images()
        #expect(images.last?.pixels == final.pixels, "the last frame shows the screen as it was")
    }
}
