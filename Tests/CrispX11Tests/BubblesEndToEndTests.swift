import CX11
import Foundation
import Testing

/// crisp-demo's bubbles screen in a real X server: a bubble dragged upward with xdotool, seen
/// through its `state` lines and the window's pixels — its own pixels change, a far-away
/// bubble's stay exactly the same; a click shows the callout.
@Suite(.serialized) struct BubblesEndToEndTests {
    @Test func draggingABubbleUpRaisesItsValueAndRepaintsOnlyNearIt() throws {
        let x = try XvfbServer(sharedMemory: true)
        let demo = try DemoProcess(display: x.displayName, arguments: ["--device", "iphone3gs", "--clock", "9:41", "--screen", "bubbles"])
        try #require(demo.waitForLine("frame 1") != nil, "no first frame; stderr: \(demo.standardError)")
        let window = try #require(demo.windowID.map { XID($0) })
        #expect(demo.lines.first == "screen bubbles")
        let origin = x.origin(of: window)
        let dragged = try #require(ControlsEndToEndTests.frame(demo, "bubble.4"), "\(demo.lines.prefix(20))")
        // The shown bubble farthest from the dragged one.
        let others = (0..<60).compactMap { i in ControlsEndToEndTests.frame(demo, "bubble.\(i)").map { (i, $0) } }
        func distance(_ f: (x: Int, y: Int, width: Int, height: Int)) -> Int {
            let dx = f.x + f.width / 2 - dragged.x - dragged.width / 2, dy = f.y + f.height / 2 - dragged.y - dragged.height / 2
            return dx * dx + dy * dy
        }
        let far = try #require(others.max { distance($0.1) < distance($1.1) })
        let farBefore = ControlsEndToEndTests.pixels(x, window, in: far.1)
        let draggedBefore = ControlsEndToEndTests.pixels(x, window, in: dragged)
        #expect(!farBefore.isEmpty && !draggedBefore.isEmpty)

        // Down on the bubble, up by 40 pixels in steps: the value rises live.
        let cx = origin.x + dragged.x + dragged.width / 2, cy = origin.y + dragged.y + dragged.height / 2
        var mark = demo.lines.count
        try demo.xdotool("mousemove", "\(cx)", "\(cy)", "mousedown", "1")
        try demo.xdotool("mousemove", "\(cx)", "\(cy - 8)")
        #expect(demo.waitForLine("state bubble.4", after: mark) != nil, "\(demo.lines.suffix(5))")
        let first = try #require(PlotEndToEndTests.lastState(demo, "bubble.4", after: mark)?.first)
        mark = demo.lines.count
        for step in 1...8 { try demo.xdotool("mousemove", "\(cx)", "\(cy - 8 - step * 4)") }
        try demo.xdotool("mouseup", "1")
        #expect(waitUntil { (PlotEndToEndTests.lastState(demo, "bubble.4", after: mark)?.first ?? -1) > first }, "\(demo.lines.suffix(5))")
        #expect(waitUntil { ControlsEndToEndTests.pixels(x, window, in: dragged) != draggedBefore }, "the dragged bubble is drawn again")
        // The animation has settled once the bubble's frame stops changing; the far bubble is untouched.
        #expect(waitUntil { ControlsEndToEndTests.frame(demo, "bubble.4").map { $0.width > dragged.width } ?? false })
        #expect(ControlsEndToEndTests.pixels(x, window, in: far.1) == farBefore, "bubble.\(far.0) far away changed")

        // A click on the far bubble shows the callout for it.
        mark = demo.lines.count
        let fx = origin.x + far.1.x + far.1.width / 2, fy = origin.y + far.1.y + far.1.height / 2
        try demo.xdotool("mousemove", "\(fx)", "\(fy)", "click", "1")
        #expect(demo.waitForLine("state bubble.callout \(far.0)", after: mark) != nil, "\(demo.lines.suffix(5))")

        try demo.xdotool("key", "q")
        #expect(demo.waitForExit() == 0)
    }
}
