import CX11
import Foundation
import Testing

/// The loupe in a real X server: press and hold over the plot, move, release — seen through
/// its `state` and `layout` lines and the window's pixels.
@Suite(.serialized) struct LoupeEndToEndTests {
    @Test func pressAndHoldOpensTheLoupeMoveMovesItReleaseRestoresThePixels() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--screen", "plot"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        let origin = x.origin(of: window)
        let plot = try #require(ControlsEndToEndTests.frame(demo, "plot"))
        let before = try #require(x.pixels(of: window))
        // In the lower half of the plot (the loupe, above the touch, stays over it), away from
        // every point: a press on a point selects it at once, as a touch-down should.
        let points = (0..<60).compactMap { ControlsEndToEndTests.frame(demo, "plot.point.\($0)") }
        #expect(points.count >= 10, "\(demo.lines.prefix(30))")
        let candidates = stride(from: plot.y + plot.height / 2, to: plot.y + plot.height - 30, by: 6).flatMap { y in
            stride(from: plot.x + 90, to: plot.x + plot.width - 150, by: 6).map { (x: $0, y: y) }
        }
        let spot = try #require(candidates.first { c in
            points.allSatisfy { p in abs(p.x + p.width / 2 - c.x) > 30 || abs(p.y + p.height / 2 - c.y) > 30 }
        }, "no empty spot in the plot")
        let tx = spot.x, ty = spot.y

        // Press and hold for 0.7 s: the loupe opens above the touch.
        var mark = demo.lines.count
        try demo.xdotool("mousemove", "\(origin.x + tx)", "\(origin.y + ty)", "mousedown", "1", "sleep", "0.7")
        #expect(demo.waitForLine("state loupe shown \(tx) \(ty) 2 bitmap", after: mark) != nil, "\(demo.lines.suffix(8))")
        #expect(demo.waitForLine("layout loupe", after: mark) != nil)
        let first = try #require(ControlsEndToEndTests.frame(demo, "loupe"))
        #expect(first.y + first.height <= ty, "above the touch: \(first)")
        #expect(waitUntil { ControlsEndToEndTests.pixels(x, window, in: first) != region(before, first) },
                "the window's pixels above the touch change")

        // Move 60 pixels right: the loupe follows.
        mark = demo.lines.count
        try demo.xdotool("mousemove", "\(origin.x + tx + 60)", "\(origin.y + ty)")
        #expect(demo.waitForLine("state loupe shown \(tx + 60) \(ty) 2 bitmap", after: mark) != nil, "\(demo.lines.suffix(8))")
        #expect(waitUntil { ControlsEndToEndTests.frame(demo, "loupe").map { $0.x == first.x + 60 && $0.y == first.y } ?? false },
                "\(demo.lines.suffix(4))")
        let moved = try #require(ControlsEndToEndTests.frame(demo, "loupe"))
        // The loupe's pixels moved with it: the new rectangle shows what the old one showed,
        // 60 pixels on (the same ring and glass; the magnified content differs inside the disc).
        #expect(waitUntil {
            let now = ControlsEndToEndTests.pixels(x, window, in: moved)
            return now != region(before, moved) && now != ControlsEndToEndTests.pixels(x, window, in: first)
        })

        // Release: hidden, and after the fade the window is exactly as before the press.
        mark = demo.lines.count
        try demo.xdotool("mouseup", "1")
        #expect(demo.waitForLine("state loupe hidden", after: mark) != nil)
        let restored = waitUntil { x.pixels(of: window)?.pixels == before.pixels }
        #expect(restored, "the window's pixels are those before the press: \(differences(before, x.pixels(of: window)))")

        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }

    /// Where two screenshots differ: the bounding box and count of differing pixels.
    func differences(_ a: (width: Int, height: Int, pixels: [UInt32]), _ b: (width: Int, height: Int, pixels: [UInt32])?) -> String {
        guard let b, a.width == b.width, a.height == b.height else { return "sizes differ" }
        var box = (x0: Int.max, y0: Int.max, x1: -1, y1: -1, count: 0)
        for i in a.pixels.indices where a.pixels[i] != b.pixels[i] {
            let px = i % a.width, py = i / a.width
            box = (min(box.x0, px), min(box.y0, py), max(box.x1, px), max(box.y1, py), box.count + 1)
        }
        return "\(box.count) pixels in x \(box.x0)…\(box.x1), y \(box.y0)…\(box.y1)"
    }

    /// The pixels of `all` inside `f`.
    func region(_ all: (width: Int, height: Int, pixels: [UInt32]), _ f: (x: Int, y: Int, width: Int, height: Int)) -> [UInt32] {
        (f.y..<(f.y + f.height)).flatMap { row in (f.x..<(f.x + f.width)).map { all.pixels[row * all.width + $0] } }
    }
}
