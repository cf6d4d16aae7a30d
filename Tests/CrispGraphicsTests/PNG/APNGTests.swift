import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

// Tests for APNG writing (`APNGWriter`: changed rectangles, delays, a valid file at every
// step, a full disk) and reading (`APNGAnimation`: every dispose and blend op, malformed files).

/// An `APNGOutput` in memory that can run out of space: writes past `limit` bytes write what
/// fits and fail with ENOSPC's message, as a full disk does.
final class MemoryAPNGOutput: APNGOutput {
    var bytes: [UInt8] = []
    var limit = Int.max
    var isClosed = false

    func write(_ data: [UInt8], at offset: Int) throws {
        if offset > bytes.count { bytes += [UInt8](repeating: 0, count: offset - bytes.count) }
        let n = min(data.count, max(0, limit - offset))
        for i in 0..<n {
            if offset + i < bytes.count { bytes[offset + i] = data[i] } else { bytes.append(data[i]) }
        }
        if n < data.count { throw PNGError.writeFailed(path: "memory", reason: String(cString: strerror(ENOSPC))) }
    }

    func truncate(to length: Int) throws {
        if bytes.count > length { bytes.removeLast(bytes.count - length) } else { bytes += [UInt8](repeating: 0, count: length - bytes.count) }
    }

    func close() { isClosed = true }
}

@Suite struct APNGTests {
    /// A 40 × 30 canvas's frames: a gradient, then squares of colour moving over it (some frames
    /// translucent, one identical to the one before).
    static func frames() -> [(pixels: [UInt32], rect: (x: Int, y: Int, w: Int, h: Int), time: Double)] {
        let w = 40, h = 30
        var canvas = (0..<(w * h)).map { i in 0xFF00_0000 | UInt32(i % w * 6) << 16 | UInt32(i / w * 8) << 8 | 0x40 }
        var out: [(pixels: [UInt32], rect: (x: Int, y: Int, w: Int, h: Int), time: Double)] = [(canvas, (0, 0, w, h), 10.0)]
        var t = 10.0
        for k in 0..<8 {
            t += k == 3 ? 2.5 : 1.0 / 60
            // Dirty rect 10 rows tall; only the middle rows change (the writer trims the rest).
            let rect = (x: 2 + 3 * k, y: 4 + k, w: 9, h: 10)
            if k != 5 {
                for y in (rect.y + 2)..<(rect.y + 7) {
                    for x in rect.x..<(rect.x + rect.w) {
                        canvas[y * w + x] = k == 6 ? 0x8040_2010 : 0xFF00_0000 | UInt32(k * 30) << 16 | 0x00FF
                    }
                }
            }
            out.append((canvas, rect, t))
        }
        return out
    }

    static func write(_ frames: [(pixels: [UInt32], rect: (x: Int, y: Int, w: Int, h: Int), time: Double)],
                      to output: APNGOutput, finishAt end: Double?) throws -> APNGWriter {
        let writer = try APNGWriter(width: 40, height: 30, output: output)
        for f in frames {
            let r = f.rect
            try f.pixels.withUnsafeBufferPointer { p in
                _ = try writer.addFrame(p.baseAddress! + r.y * 40 + r.x, stride: 40, x: r.x, y: r.y, width: r.w, height: r.h, time: f.time)
            }
        }
        if let end { try writer.finish(at: end) }
        return writer
    }

    @Test func everyFrameReadsBackBitForBitWithTrimmedRectanglesAndRealDelays() throws {
        let frames = Self.frames()
        let output = MemoryAPNGOutput()
        let writer = try Self.write(frames, to: output, finishAt: 14.0)
        #expect(output.isClosed)
        #expect(writer.writtenFrameCount == 8, "the unchanged frame adds nothing")
        let animation = try APNGAnimation(pngData: output.bytes)
        #expect(animation.plays == 0 && animation.defaultImageIsFirstFrame)
        #expect(animation.frames.count == 8)
        let first = animation.frames[0]
        #expect(first.x == 0 && first.y == 0 && first.width == 40 && first.height == 30)
        for f in animation.frames.dropFirst() {
            #expect(f.height == 5 && f.width == 9, "trimmed to the changed rows")
            #expect(f.dispose == .none && f.blend == .source)
        }
        #expect(animation.frames[1].y == 4 + 2 && animation.frames[1].x == 2)
        // Delays: 1/60 s rounded on the absolute times; the idle 2.5 s and the unchanged frame's
        // 1/60 s go to the frame before.
        let ms = animation.frames.map { $0.delayNumerator }
        #expect(animation.frames.allSatisfy { $0.delayDenominator == 1000 })
        #expect(ms[0] == 17 && ms[1] == 16 && ms[2] == 17 && ms[3] == 2500)
        #expect(abs(animation.frames.reduce(0) { $0 + $1.delay } - 4.0) < 0.0005, "the delays add up to the recording's length")
        let expected = frames.enumerated().filter { $0.offset != 6 }.map(\.element.pixels)
        let images = try animation.images()
        #expect(images.count == 8)
        for (i, image) in images.enumerated() { #expect(image.pixels == expected[i], "frame \(i)") }
        // The still decoder shows the first frame; png info lists the frames.
        #expect(try PNGDecoder().decode(output.bytes).pixels == frames[0].pixels)
        let info = try PNGInfo(pngData: output.bytes)
        #expect(info.animationFrameCount == 8 && info.animationFrames == animation.frames)
    }

    @Test func theFileIsAValidAPNGAfterEveryFrameWithoutFinishing() throws {
        let frames = Self.frames()
        for n in 1...frames.count {
            let output = MemoryAPNGOutput()
            let writer = try Self.write(Array(frames.prefix(n)), to: output, finishAt: nil)
            // A process killed here: the held last frame is lost, the rest is a valid file.
            let written = writer.writtenFrameCount
            if written == 0 {
                #expect(throws: PNGError.self) { try APNGAnimation(pngData: output.bytes) }
                continue
            }
            let animation = try APNGAnimation(pngData: output.bytes)
            #expect(animation.frames.count == written)
            let accepted = frames.prefix(n).enumerated().filter { $0.offset != 6 }.map(\.element.pixels)
            #expect(written == accepted.count - 1)
            #expect(try animation.images().last?.pixels == accepted[written - 1])
        }
    }

    @Test func aFullDiskStopsTheWriterAndLeavesTheFramesBefore() throws {
        let frames = Self.frames()
        let whole = MemoryAPNGOutput()
        _ = try Self.write(frames, to: whole, finishAt: 14)
        // Every size the disk could fill at, from inside the first frame to the last.
        var sawFailure = false
        for limit in stride(from: 60, to: whole.bytes.count, by: 37) {
            let output = MemoryAPNGOutput()
            output.limit = limit
            let writer: APNGWriter
            do {
                writer = try APNGWriter(width: 40, height: 30, output: output)
            } catch {
                #expect(error as? PNGError == .writeFailed(path: "memory", reason: String(cString: strerror(ENOSPC))))
                continue
            }
            var failed = false
            for f in frames {
                let r = f.rect
                do {
                    try f.pixels.withUnsafeBufferPointer { p in
                        _ = try writer.addFrame(p.baseAddress! + r.y * 40 + r.x, stride: 40, x: r.x, y: r.y, width: r.w, height: r.h, time: f.time)
                    }
                } catch {
                    failed = true
                    #expect("\(error)".contains("No space left on device"))
                    break
                }
            }
            if !failed {
                do { try writer.finish(at: 14) } catch { failed = true }
            }
            guard failed else { continue }
            sawFailure = true
            #expect(writer.failure != nil)
            #expect(writer.frameCount == writer.writtenFrameCount)
            if writer.writtenFrameCount == 0 { continue }
            let animation = try APNGAnimation(pngData: output.bytes)
            #expect(animation.frames.count == writer.writtenFrameCount, "limit \(limit)")
            let images = try animation.images()
            let expected = frames.enumerated().filter { $0.offset != 6 }.map(\.element.pixels)
            for (i, image) in images.enumerated() { #expect(image.pixels == expected[i], "limit \(limit) frame \(i)") }
            // Later frames are refused quietly: the writer has stopped.
            #expect(try frames[8].pixels.withUnsafeBufferPointer { try writer.addFrame($0.baseAddress!, stride: 40, x: 0, y: 0, width: 40, height: 30, time: 20) } == false)
        }
        #expect(sawFailure)
    }

    // MARK: Reading other APNGs

    static func fcTL(_ seq: UInt32, _ w: UInt32, _ h: UInt32, _ x: UInt32, _ y: UInt32, dispose: UInt8 = 0, blend: UInt8 = 0) -> PNGBuilder.Chunk {
        var d: [UInt8] = []
        for v in [seq, w, h, x, y] { PNGChunk.appendUInt32(v, to: &d) }
        return ("fcTL", d + [0, 1, 0, 10, dispose, blend])
    }

    /// RGBA rows of `w × h` pixels of one straight colour, filter None.
    static func rgba(_ w: Int, _ h: Int, _ c: [UInt8]) -> [UInt8] {
        (0..<h).flatMap { _ in [0] + (0..<w).flatMap { _ in c } }
    }

    static func fdAT(_ seq: UInt32, _ raw: [UInt8]) -> PNGBuilder.Chunk {
        var d: [UInt8] = []
        PNGChunk.appendUInt32(seq, to: &d)
        return ("fdAT", d + PNGBuilder.zlib(raw))
    }

    static func actl(_ n: UInt32, plays: UInt32 = 1) -> PNGBuilder.Chunk {
        var d: [UInt8] = []
        PNGChunk.appendUInt32(n, to: &d)
        PNGChunk.appendUInt32(plays, to: &d)
        return ("acTL", d)
    }

    @Test func disposeAndBlendOpsCompositeAsPlayersDo() throws {
        // 4 × 2 canvas. Frame 0: all red (dispose NONE). Frame 1: half-transparent blue over the
        // left 2 × 2, blend OVER, dispose PREVIOUS. Frame 2: green 1 × 1 at (3, 1), SOURCE,
        // dispose BACKGROUND. Frame 3: white at (0, 0), SOURCE.
        let file = PNGBuilder.file([
            PNGBuilder.ihdr(width: 4, height: 2, colorType: 6), Self.actl(4, plays: 3),
            Self.fcTL(0, 4, 2, 0, 0), PNGBuilder.idat(Self.rgba(4, 2, [255, 0, 0, 255])),
            Self.fcTL(1, 2, 2, 0, 0, dispose: 2, blend: 1), Self.fdAT(2, Self.rgba(2, 2, [0, 0, 255, 128])),
            Self.fcTL(3, 1, 1, 3, 1, dispose: 1, blend: 0), Self.fdAT(4, Self.rgba(1, 1, [0, 255, 0, 255])),
            Self.fcTL(5, 1, 1, 0, 0), Self.fdAT(6, Self.rgba(1, 1, [255, 255, 255, 255])),
            PNGBuilder.iend,
        ])
        let animation = try APNGAnimation(pngData: file)
        #expect(animation.plays == 3)
        #expect(animation.frames.map(\.dispose) == [.none, .previous, .background, .none])
        #expect(animation.frames.map(\.blend) == [.source, .over, .source, .source])
        #expect(animation.frames[1].delay == 0.1)
        let images = try animation.images().map(\.pixels)
        let red: UInt32 = 0xFFFF_0000
        // Blue at alpha 128 premultiplied (0x80) over opaque red: red × 127/255 ≈ 0x7F.
        let mixed = APNGAnimation.over(0x8000_0080, red)
        #expect(mixed == 0xFF7F_0080)
        #expect(images[0] == [UInt32](repeating: red, count: 8))
        #expect(images[1] == [mixed, mixed, red, red, mixed, mixed, red, red])
        #expect(images[2] == [red, red, red, red, red, red, red, 0xFF00_FF00], "PREVIOUS put the red back")
        #expect(images[3] == [0xFFFF_FFFF, red, red, red, red, red, red, 0], "BACKGROUND cleared the green")
    }

    @Test func aDefaultImageOutsideTheAnimationIsSkipped() throws {
        let file = PNGBuilder.file([
            PNGBuilder.ihdr(width: 2, height: 1, colorType: 6), Self.actl(1),
            PNGBuilder.idat(Self.rgba(2, 1, [9, 9, 9, 255])),
            Self.fcTL(0, 1, 1, 1, 0), Self.fdAT(1, Self.rgba(1, 1, [0, 0, 0, 255])),
            PNGBuilder.iend,
        ])
        let animation = try APNGAnimation(pngData: file)
        #expect(!animation.defaultImageIsFirstFrame)
        #expect(try animation.images().map(\.pixels) == [[0, 0xFF00_0000]])
    }

    @Test func malformedAnimationsAreClearErrors() throws {
        let ihdr = PNGBuilder.ihdr(width: 4, height: 2, colorType: 6)
        let idat = PNGBuilder.idat(Self.rgba(4, 2, [1, 2, 3, 255]))
        func error(_ chunks: [PNGBuilder.Chunk]) -> String {
            do {
                _ = try APNGAnimation(pngData: PNGBuilder.file([ihdr] + chunks + [PNGBuilder.iend]))
                return "accepted"
            } catch {
                return error.description
            }
        }
        let one = Self.fdAT(2, Self.rgba(1, 1, [0, 0, 0, 255]))
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(3, 1, 1, 0, 0), one]).contains("sequence number 3 at offset"))
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 1, 1, 0, 0), Self.fdAT(5, [0, 0, 0, 0, 255])]).contains("sequence number 5"), "fdAT's own number too")
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 2, 2, 3, 0), Self.fdAT(2, [])]).contains("not inside the 4×2 canvas"))
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 0, 1, 0, 0), one]).contains("not inside"))
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 1, 1, 0xFFFF_FFFF, 0), one]).contains("not inside"))
        #expect(error([Self.actl(1), Self.fcTL(0, 2, 2, 0, 0), idat]).contains("must cover the whole canvas"))
        #expect(error([Self.actl(3), Self.fcTL(0, 4, 2, 0, 0), idat]).contains("3 frames declared, 1 found"))
        #expect(error([Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 1, 1, 0, 0)]).contains("frame 1 has no image data"))
        #expect(error([Self.actl(1), Self.fcTL(0, 4, 2, 0, 0, dispose: 3), idat]).contains("dispose_op 3"))
        #expect(error([Self.actl(1), Self.fcTL(0, 4, 2, 0, 0, blend: 2), idat]).contains("blend_op 2"))
        #expect(error([Self.actl(1), Self.fdAT(0, []), idat]).contains("fdAT before IDAT"))
        #expect(error([Self.fcTL(0, 4, 2, 0, 0), Self.actl(1), idat]).contains("fcTL before acTL"))
        #expect(error([Self.actl(1), Self.actl(1), Self.fcTL(0, 4, 2, 0, 0), idat]).contains("a second acTL"))
        #expect(error([Self.actl(1), ("fcTL", [0, 0, 0]), idat]).contains("length 3"))
        #expect(error([idat]).contains("missing acTL"))
        // A frame whose data inflates to the wrong size: the still decoder's error.
        let file = PNGBuilder.file([ihdr, Self.actl(2), Self.fcTL(0, 4, 2, 0, 0), idat, Self.fcTL(1, 1, 1, 0, 0),
                                    Self.fdAT(2, Self.rgba(2, 2, [0, 0, 0, 255])), PNGBuilder.iend])
        let animation = try APNGAnimation(pngData: file)
        #expect(throws: PNGError.decompressedDataTooLong(expected: 5)) { try animation.images() }
    }
}
