import CX11
import Foundation
import Testing

/// crisp-demo's plot screen in a real X server: a point dragged upward with xdotool, seen through
/// its `state` lines and the window's pixels; a click adds a point and Delete removes it.
@Suite(.serialized) struct PlotEndToEndTests {
    /// The numbers of the last `state <identifier> …` line after line `mark`.
    static func lastState(_ demo: DemoProcess, _ identifier: String, after mark: Int = 0) -> [Double]? {
        guard let line = demo.lines[mark...].last(where: { $0.hasPrefix("state \(identifier) ") }) else { return nil }
        return line.split(separator: " ").dropFirst(2).compactMap { Double($0) }
    }

    @Test func draggingAPointUpRaisesItAndMovesTheFit() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--screen", "plot"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(demo.lines.first == "screen plot")
        let origin = x.origin(of: window)
        let point = try #require(ControlsEndToEndTests.frame(demo, "plot.point.3"), "\(demo.lines.prefix(20))")
        let plot = try #require(ControlsEndToEndTests.frame(demo, "plot"))
        let cx = origin.x + point.x + point.width / 2, cy = origin.y + point.y + point.height / 2
        let before = ControlsEndToEndTests.pixels(x, window, in: plot)

        // Down on the dot, up by 30 pixels in steps; the fit follows live.
        var mark = demo.lines.count
        try demo.xdotool("mousemove", "\(cx)", "\(cy)", "mousedown", "1")
        try demo.xdotool("mousemove", "\(cx)", "\(cy - 4)")
        #expect(demo.waitForLine("state plot.fit", after: mark) != nil, "\(demo.lines.suffix(5))")
        let firstY = try #require(Self.lastState(demo, "plot.point.3", after: mark)?.last)
        let firstFit = try #require(Self.lastState(demo, "plot.fit", after: mark))
        mark = demo.lines.count
        for step in 1...6 { try demo.xdotool("mousemove", "\(cx)", "\(cy - 4 - step * 5)") }
        try demo.xdotool("mouseup", "1")
        #expect(waitUntil { (Self.lastState(demo, "plot.point.3", after: mark)?.last ?? -1) > firstY }, "\(demo.lines.suffix(5))")
        #expect(waitUntil { Self.lastState(demo, "plot.fit", after: mark).map { $0 != firstFit } ?? false })
        let moved = try #require(Self.lastState(demo, "plot.point.3", after: mark))
        #expect(moved.count == 2 && moved[1] > firstY)
        #expect(waitUntil { ControlsEndToEndTests.pixels(x, window, in: plot) != before }, "the plot is drawn again")

        // Delete removes the selected (just dragged) point: the last identifier goes, 3 is renumbered.
        mark = demo.lines.count
        try demo.xdotool("key", "Delete")
        #expect(demo.waitForLine("key Delete", after: mark) != nil)
        #expect(demo.waitForLine("state plot.fit", after: mark) != nil)

        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
