import CrispGraphics
import CrispUI
import Foundation

/// The signal graph screen's content: a left axis, a bottom axis and the plot, with the axis
/// labels, laid out in `layoutSubviews` so the plot takes all the flexible space.
///
/// Layout, in points, from the edges inwards: the insets, the axis labels (the left one rotated
/// −90°, each sized by its measured text), a spacing, the other axis' stub, the shafts. The
/// axis origin is rounded to a whole point so the 2-pt shafts fall on pixel boundaries. The plot
/// fills the rest, leaving room for the arrowheads; so it grows on a taller screen and when the
/// in-call status bar goes away, and shrinks when it comes.
public final class SignalGraphView: View {
    /// The vertical axis (signal quality).
    public let leftAxis = AxisView(direction: .up)
    /// The horizontal axis (time).
    public let bottomAxis = AxisView(direction: .right)
    /// The plot.
    public let plot: SignalPlotView
    /// The vertical axis' label, rotated −90°, localized by the key "signal quality".
    public let leftAxisLabel = Label(localizationKey: "signal quality", fontSize: 13)
    /// The horizontal axis' label, localized by the key "time".
    public let bottomAxisLabel = Label(localizationKey: "time", fontSize: 13)

    /// Space between the view's edges and its content, in points.
    public var insets = (top: CGFloat(14), left: CGFloat(8), bottom: CGFloat(8), right: CGFloat(14)) {
        didSet { setNeedsLayout() }
    }
    /// Space between a label and its axis, in points.
    public var labelSpacing: CGFloat = 4 { didSet { setNeedsLayout() } }

    /// Creates the graph of `trace`.
    public init(trace: SignalTrace = .demo()) {
        plot = SignalPlotView(trace: trace)
        super.init()
        backgroundColor = CGColor(red: 0.95, green: 0.96, blue: 0.98, alpha: 1)
        leftAxisLabel.orientation = .rotatedCounterClockwise
        leftAxisLabel.alignment = .center
        bottomAxisLabel.alignment = .center
        for v in [plot, leftAxisLabel, bottomAxisLabel, leftAxis, bottomAxis] as [View] { addSubview(v) }
    }

    /// The axes' origin for the current bounds and label sizes, in the view's coordinates.
    public var axisOrigin: CGPoint {
        let b = bounds
        let left = leftAxisLabel.sizeThatFits(b.size), bottom = bottomAxisLabel.sizeThatFits(b.size)
        let h = leftAxis.thickness / 2
        return CGPoint(x: (b.minX + insets.left + left.width + labelSpacing + leftAxis.protrusion + h).rounded(),
                       y: (b.maxY - insets.bottom - bottom.height - labelSpacing - bottomAxis.protrusion - h).rounded())
    }

    public override func layoutSubviews() {
        let b = bounds
        let o = axisOrigin
        let h = leftAxis.thickness / 2
        let top = b.minY + insets.top, right = b.maxX - insets.right
        leftAxis.frame = leftAxis.frame(origin: o, end: top)
        bottomAxis.frame = bottomAxis.frame(origin: o, end: right)
        // The plot starts at the shafts' inner edges and stops short of the arrowheads.
        let plotTop = top + leftAxis.headLength + 2
        let plotRight = right - bottomAxis.headLength - 2
        plot.frame = CGRect(x: o.x + h, y: plotTop, width: max(plotRight - (o.x + h), 0), height: max(o.y - h - plotTop, 0))
        let left = leftAxisLabel.sizeThatFits(b.size), bottom = bottomAxisLabel.sizeThatFits(b.size)
        leftAxisLabel.frame = CGRect(x: b.minX + insets.left, y: plot.frame.minY, width: left.width, height: plot.frame.height)
        bottomAxisLabel.frame = CGRect(x: plot.frame.minX, y: o.y + h + bottomAxis.protrusion + labelSpacing,
                                       width: plot.frame.width, height: bottom.height)
    }
}
