import CrispGraphics
import Foundation

// The status lines through which tests and scripts see a running app (ARCHITECTURE.md,
// "The status file"; the lines are listed in README.md, "The status file"): views with
// an `accessibilityIdentifier` report where they are and what value they show.
//
//     layout <identifier> <x> <y> <width> <height>
//     state <identifier> <value>
//
// `layout` frames are in window pixels from the top-left: the view's bounds converted to the
// window (with transforms, their bounding box), times the screen scale, each edge rounded to
// the nearest pixel (width = round(maxX·scale) − round(minX·scale)). They are reported after
// every layout pass of the window (`layoutIfNeeded()`) and in every frame after its layout
// (views also move without layout: animations, plain frame changes), for every identified
// view in the window that is not hidden (nor below a hidden view) and whose pixel frame
// differs from the one last reported for it — so all of them the first time, and again after
// leaving and rejoining the window. A view's first `layout` line (and its first after rejoining
// the window: a screen that appears) is followed by `state <identifier> <value>` with its
// current `accessibilityValue`, when it has one: every value is readable from the first frame,
// not only once it changes.

extension View {
    /// Reports `value` for this view as a status line `state <identifier> <value>` through its
    /// window's `statusSink`; does nothing without an `accessibilityIdentifier` or a window.
    ///
    /// Controls call it whenever their value changes, by the user or by the program. Values are
    /// single tokens or short phrases: `on`/`off`, numbers with at most three decimals, names.
    public func publishState(_ value: String) {
        publishedState = value
        guard let identifier = accessibilityIdentifier, let sink = window?.statusSink else { return }
        sink("state \(identifier) \(value)")
    }
}

extension Window {
    /// The line `layout <identifier> <x> <y> <w> <h>` for a frame in window pixels.
    static func layoutLine(identifier: String, pixelFrame r: CGRect) -> String {
        "layout \(identifier) \(Int(r.minX)) \(Int(r.minY)) \(Int(r.width)) \(Int(r.height))"
    }

    /// Reports the identified views whose pixel frames changed (see the note atop this file).
    func reportLayout() {
        guard let sink = statusSink else { return }
        for sub in subviews { report(sub, toWindow: sub.transformToSuperview, sink) }
    }

    private func report(_ view: View, toWindow t: CGAffineTransform, _ sink: (String) -> Void) {
        guard !view.isHidden else { return }
        if let identifier = view.accessibilityIdentifier {
            let r = view.bounds.applying(t)
            let s = screen.scale
            let x = (r.minX * s).rounded(), y = (r.minY * s).rounded()
            let pixels = CGRect(x: x, y: y, width: (r.maxX * s).rounded() - x, height: (r.maxY * s).rounded() - y)
            // A frame at infinity or NaN is a layout bug; it gets no line rather than trapping
            // the app in the status writer.
            if pixels != view.reportedLayout, pixels.origin.x.isFinite, pixels.origin.y.isFinite,
               pixels.width.isFinite, pixels.height.isFinite {
                let isFirst = view.reportedLayout == nil
                view.reportedLayout = pixels
                sink(Window.layoutLine(identifier: identifier, pixelFrame: pixels))
                // Every value readable: the current value follows the first layout line.
                if isFirst, let value = view.accessibilityValue { sink("state \(identifier) \(value)") }
            }
        }
        for sub in view.subviews { report(sub, toWindow: sub.transformToSuperview.concatenating(t), sink) }
    }
}
