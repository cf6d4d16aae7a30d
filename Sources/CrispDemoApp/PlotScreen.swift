import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The plot screen (seed 002, the essay on right-handed coordinates): a scatter plot of a
/// seeded data set drawn y-up in a `RightHandedView`, with its least-squares line and r².
/// Drag a point to move it, tap empty space to add one, tap a point to select it, Delete (or
/// Backspace) removes the selected point.
///
/// Identifiers: `plot`, `plot.point.<n>` (n from 0 in data order); states
/// `plot.point.<n> <x> <y>` (data units) and `plot.fit <slope> <intercept> <r2>`.
public final class PlotScreen: View, DemoScreen {
    /// The plot, filling the screen.
    public let plot = ScatterPlotView(points: PlotScreen.seededData(), xRange: 0...6, yRange: 0...4)

    public static let name = "plot"
    public static let titleKey = "Plot"
    public static let shortcuts = [
        HelpOverlayView.Shortcut(keys: "Delete", action: "Remove the selected point"),
    ]

    /// Dots scattered about a rising line, with the two axes.
    public static var tabIcon: CGPath {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 0.04, y: 0.04, width: 0.09, height: 0.92))
        p.addRect(CGRect(x: 0.04, y: 0.87, width: 0.92, height: 0.09))
        for (x, y) in [(0.3, 0.66), (0.45, 0.6), (0.58, 0.4), (0.72, 0.44), (0.86, 0.2)] as [(CGFloat, CGFloat)] {
            p.addEllipse(in: CGRect(x: x - 0.07, y: y - 0.07, width: 0.14, height: 0.14))
        }
        return p
    }

    /// Creates the screen.
    public init() {
        super.init()
        plot.accessibilityIdentifier = "plot"
        addSubview(plot)
    }

    public override func layoutSubviews() { plot.frame = bounds }

    public func handleKey(_ key: KeyPress) -> Bool {
        switch key.specialKey {
        case .delete, .backspace: plot.removeSelectedPoint()
        default: false
        }
    }

    /// The demo's data: 40 points about y = 0.45·x + 0.6 with noise, x in 0.3…5.7, from a
    /// SplitMix64 generator seeded with `seed` (the same points on every run).
    public static func seededData(count: Int = 40, seed: UInt64 = 2) -> [CGPoint] {
        var generator = SplitMix64(seed: seed)
        func next() -> CGFloat { generator.nextUnit() }
        return (0..<count).map { _ in
            let x = 0.3 + 5.4 * next()
            let y = 0.45 * x + 0.6 + (next() - 0.5) * 1.4
            return CGPoint(x: (x * 100).rounded() / 100, y: (min(max(y, 0.1), 3.9) * 100).rounded() / 100)
        }
    }
}
