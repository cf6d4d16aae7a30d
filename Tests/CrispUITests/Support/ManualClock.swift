import CrispGraphics
import CrispUI
import Foundation

/// A clock tests advance by hand, so timers fire without sleeping.
final class ManualClock: @unchecked Sendable {
    var now: TimeInterval = 1000

    func advance(by seconds: TimeInterval) { now += seconds }

    /// An event loop reading this clock.
    func makeLoop() -> EventLoop { EventLoop(clock: { [unowned self] in self.now }) }
}

/// A view that records what happens to it.
final class RecordingView: View {
    var log: [String] = []
    var layoutCount = 0
    var drawRects: [CGRect] = []
    var fill: CGColor?

    override func layoutSubviews() { layoutCount += 1 }

    override func draw(_ rect: CGRect) {
        drawRects.append(rect)
        if let fill, let ctx = UIGraphicsGetCurrentContext() {
            ctx.setFillColor(fill)
            ctx.fill(bounds)
        }
    }

    override func touchesBegan(_ touches: Set<Touch>) { log.append("began") }
    override func touchesMoved(_ touches: Set<Touch>) { log.append("moved") }
    override func touchesEnded(_ touches: Set<Touch>) { log.append("ended") }
    override func touchesCancelled(_ touches: Set<Touch>) { log.append("cancelled") }
}

/// A window on a small custom screen with one full-size root view.
func makeWindow(width: CGFloat = 100, height: CGFloat = 80, scale: CGFloat = 1, clock: ManualClock = ManualClock()) -> Window {
    let device = Device(identifier: "test", name: "Test", pointSize: CGSize(width: width, height: height), scale: scale)
    return Window(screen: Screen(device: device), eventLoop: clock.makeLoop())
}
