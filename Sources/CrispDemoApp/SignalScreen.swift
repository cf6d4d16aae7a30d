import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The signal screen (seed 000): the signal-quality graph filling the screen. A tap or a drag
/// on the plot marks the sample under the finger; a long press is reported too.
public final class SignalScreen: View, DemoScreen {
    /// The graph, filling the screen.
    public let graph = SignalGraphView()
    /// Called with a line per gesture ("tap 120 200", "pan ended 80 190", "longpress began").
    public var eventLog: ((String) -> Void)?

    public static let name = "signal"
    public static let titleKey = "Signal"
    public static let shortcuts: [HelpOverlayView.Shortcut] = []

    /// A little line chart: two axes and a rising zigzag.
    public static var tabIcon: CGPath {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0.04, y: 0.04, width: 0.09, height: 0.92))
        p.addRect(CGRect(x: 0.04, y: 0.87, width: 0.92, height: 0.09))
        let line = CGMutablePath()
        line.addLines(between: [CGPoint(x: 0.22, y: 0.7), CGPoint(x: 0.42, y: 0.42), CGPoint(x: 0.6, y: 0.58), CGPoint(x: 0.9, y: 0.14)])
        p.addPath(line.copy(strokingWithWidth: 0.11, lineCap: .round, lineJoin: .round, miterLimit: 10))
        return p
    }

    /// Creates the screen.
    public init() {
        super.init()
        addSubview(graph)
        installGestures()
    }

    public override func layoutSubviews() { graph.frame = bounds }

    public func handleKey(_ key: KeyPress) -> Bool { false }

    private func installGestures() {
        let plot = graph.plot
        let tap = TapGestureRecognizer { [unowned self] r in
            let p = r.location(in: nil)
            self.mark(atWindowX: p.x)
            self.eventLog?("tap \(Int(p.x)) \(Int(p.y))")
        }
        let pan = PanGestureRecognizer { [unowned self] r in
            let p = r.location(in: nil)
            self.mark(atWindowX: p.x)
            let phase = switch r.state {
            case .began: "began"
            case .changed: "changed"
            case .ended: "ended"
            default: "cancelled"
            }
            self.eventLog?("pan \(phase) \(Int(p.x)) \(Int(p.y))")
        }
        // A long press anywhere opens the app's loupe (which logs `longpress began`).
        for r in [tap, pan] as [GestureRecognizer] { plot.addGestureRecognizer(r) }
    }

    private func mark(atWindowX x: CGFloat) {
        let plot = graph.plot
        plot.markedSample = plot.sample(nearestTo: plot.convert(CGPoint(x: x, y: 0), from: nil).x)
    }
}
