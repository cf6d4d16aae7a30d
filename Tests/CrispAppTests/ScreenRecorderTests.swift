import CrispApp
import Foundation
import Testing

/// `ScreenRecorder` from two threads: its encoder thread writes frames while the app's thread
/// queues more and asks how many are written. Under `./test.sh --sanitize=thread` this is the
/// check that `writtenFrameCount` reads nothing the encoder thread writes without the lock (it
/// read the writer's own counter once, a race ThreadSanitizer reports).
@Suite struct ScreenRecorderTests {
    @Test func framesCountedWhileTheEncoderWritesThem() throws {
        let w = 64, h = 48
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-rec-\(UUID().uuidString).apng").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let context = try #require(CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                                             space: CGColorSpaceCreateDeviceRGB(),
                                             bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue))
        let recorder = try ScreenRecorder(path: path, width: w, height: h)
        var seen: [Int] = []
        let frames = 40
        for i in 0..<frames {
            context.setFillColor(CGColor(red: CGFloat(i % 7) / 6, green: CGFloat(i % 5) / 4, blue: 0.5, alpha: 1))
            let rect = CGRect(x: i % 50, y: i % 40, width: 12, height: 8)
            context.fill(rect)
            recorder.add(context, rects: [CGRect(x: 0, y: 0, width: w, height: h)], time: Double(i) / 60)
            seen.append(recorder.writtenFrameCount)
            if i % 8 == 0 { Thread.sleep(forTimeInterval: 0.005) }  // lets the encoder catch up now and then
        }
        let written = try recorder.finish(at: Double(frames) / 60)
        #expect(written == frames, "every frame differs from the one before")
        #expect(recorder.writtenFrameCount == written)
        #expect(seen == seen.sorted() && seen.allSatisfy { $0 <= written }, "\(seen)")
        let animation = try APNGAnimation(pngData: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(animation.frames.count == frames)
    }
}
