import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// The signal plot's marker repaints only its own rectangle, and that rectangle holds all of it.
@Suite struct SignalPlotViewTests {
    /// A plot inset in a canvas, on a trace whose first, middle and last samples are at the top,
    /// the bottom and the top: their markers' dots reach half outside the plot's bounds.
    private static func canvas(marked: Int?) throws -> (ControlCanvas, SignalPlotView) {
        let plot = SignalPlotView(trace: SignalTrace(samples: [1, 0.5, 0.2, 0, 0.7, 0.4, 1], interval: 1))
        plot.markedSample = marked
        return (try ControlCanvas(size: CGSize(width: 80, height: 60), scale: 2, views: [(plot, CGRect(x: 10, y: 10, width: 60, height: 40))]), plot)
    }

    /// Found by the X11 end-to-end test of the debug overlays: a tap on a sample at the top of the
    /// demo's graph left two pixels of the dot's top above the plot unpainted (the repainted
    /// rectangle ended at the plot's bounds), so the window differed from a full render.
    @Test(arguments: [0, 3, 6])
    func markingASampleRepaintsTheWholeMarker(sample: Int) throws {
        let (canvas, plot) = try Self.canvas(marked: nil)
        _ = try canvas.host.renderFrame()
        plot.markedSample = sample
        _ = try canvas.host.renderFrame()
        let incremental = try #require(canvas.host.context.makeImage())
        let full = try Self.canvas(marked: sample).0.snapshot()
        let differing = (0..<full.height).flatMap { y in
            (0..<full.width).filter { incremental.pixel(x: $0, y: y) != full.pixel(x: $0, y: y) }
                .map { "(\($0), \(y)): \(String(incremental.pixel(x: $0, y: y), radix: 16)) for \(String(full.pixel(x: $0, y: y), radix: 16))" }
        }
        #expect(differing.isEmpty, "sample \(sample): \(differing.count) pixels differ from a full render: \(differing.prefix(4))")

        // And moving it away erases all of it.
        plot.markedSample = 2
        _ = try canvas.host.renderFrame()
        let moved = try #require(canvas.host.context.makeImage())
        let fullMoved = try Self.canvas(marked: 2).0.snapshot()
        #expect(moved.pixels == fullMoved.pixels ? true : false, "sample \(sample) → 2: the moved marker differs from a full render")
    }
}
