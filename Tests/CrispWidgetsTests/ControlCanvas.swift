import CrispGraphics
import CrispUI
import Foundation

/// A small window for drawing controls in tests: `size` points at `scale`, a dark background
/// like the controls screen's, and the views placed at the frames given.
struct ControlCanvas {
    let window: Window
    let host: HeadlessHost

    init(size: CGSize, scale: CGFloat, views: [(View, CGRect)], clock: (() -> TimeInterval)? = nil) throws {
        let device = Device(identifier: "canvas", name: "canvas", pointSize: size, scale: scale)
        window = Window(screen: Screen(device: device), eventLoop: clock.map { EventLoop(clock: $0) } ?? EventLoop())
        window.backgroundColor = CGColor(gray: 0.07, alpha: 1)
        for (view, frame) in views {
            view.frame = frame
            window.addSubview(view)
        }
        host = try HeadlessHost(window: window)
    }

    /// The views laid side by side, `cell` points apart, with `inset` around each.
    init(cell: CGSize, inset: CGFloat = 4, scale: CGFloat, views: [View]) throws {
        let size = CGSize(width: CGFloat(views.count) * (cell.width + inset) + inset, height: cell.height + 2 * inset)
        let placed = views.enumerated().map { i, v in
            (v, CGRect(x: inset + CGFloat(i) * (cell.width + inset), y: inset, width: cell.width, height: cell.height))
        }
        try self.init(size: size, scale: scale, views: placed)
    }

    /// Renders and returns the picture.
    func snapshot() throws -> CGImage { try host.snapshot() }
}
