import CrispGraphics
import CrispUI
import Foundation

/// Plots a `SignalTrace` across its bounds: a dashed grid, the area under the trace, the trace,
/// and an optional marker on one sample (set by a tap or a drag in the demo).
public final class SignalPlotView: View {
    /// The trace shown.
    public var trace: SignalTrace { didSet { setNeedsDisplay() } }
    /// The marked sample, if any. Moving it repaints only the old and the new marker.
    public var markedSample: Int? {
        didSet {
            guard markedSample != oldValue else { return }
            if let old = oldValue { setNeedsDisplay(markerRect(for: old)) }
            if let new = markedSample { setNeedsDisplay(markerRect(for: new)) }
        }
    }
    /// The trace colour.
    public var traceColor = CGColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)
    /// The fill under the trace.
    public var areaColor = CGColor(red: 0.2, green: 0.5, blue: 0.95, alpha: 0.18)
    /// The marker colour.
    public var markerColor = CGColor(red: 0.9, green: 0.3, blue: 0.1, alpha: 1)

    /// Radius of the marker's dot, in points.
    static let markerRadius: CGFloat = 4

    /// Creates a plot of `trace` on a white background.
    public init(trace: SignalTrace = .demo()) {
        self.trace = trace
        super.init()
        backgroundColor = .white
    }

    /// Where sample `i` is plotted, in the view's coordinates.
    public func point(forSample i: Int) -> CGPoint {
        let b = bounds
        let n = max(trace.samples.count - 1, 1)
        let v = trace.samples.isEmpty ? 0 : trace.samples[min(max(i, 0), trace.samples.count - 1)]
        return CGPoint(x: b.minX + CGFloat(i) / CGFloat(n) * b.width, y: b.maxY - CGFloat(v) * b.height)
    }

    /// The sample nearest to `x` (view coordinates), clamped to the trace.
    public func sample(nearestTo x: CGFloat) -> Int? {
        guard !trace.samples.isEmpty, bounds.width > 0 else { return nil }
        let n = trace.samples.count - 1
        return min(max(Int(((x - bounds.minX) / bounds.width * CGFloat(n)).rounded()), 0), n)
    }

    /// The area the marker on sample `i` covers (its line and dot), in the view's coordinates.
    /// Both reach outside the bounds: the line's round caps by half its width at the top and the
    /// bottom, and the dot by its radius on a sample at either end of the scale.
    func markerRect(for i: Int) -> CGRect {
        let p = point(forSample: i), r = SignalPlotView.markerRadius + 1
        return CGRect(x: p.x - r, y: bounds.minY - r, width: 2 * r, height: bounds.height + 2 * r)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext(), !trace.samples.isEmpty else { return }
        let b = bounds
        // Grid: quarters each way, dashed hairlines.
        ctx.saveGState()
        ctx.setStrokeColor(gray: 0.55, alpha: 0.7)
        ctx.setLineWidth(0.5)
        ctx.setLineDash(phase: 0, lengths: [3, 3])
        var segments: [CGPoint] = []
        for k in 1...3 {
            let y = b.maxY - CGFloat(k) * b.height / 4
            segments += [CGPoint(x: b.minX, y: y), CGPoint(x: b.maxX, y: y)]
            let x = b.minX + CGFloat(k) * b.width / 4
            segments += [CGPoint(x: x, y: b.minY), CGPoint(x: x, y: b.maxY)]
        }
        ctx.strokeLineSegments(between: segments)
        ctx.restoreGState()

        let points = trace.samples.indices.map { point(forSample: $0) }
        ctx.setFillColor(areaColor)
        ctx.addLines(between: [CGPoint(x: b.minX, y: b.maxY)] + points + [CGPoint(x: b.maxX, y: b.maxY)])
        ctx.closePath()
        ctx.fillPath()

        ctx.setStrokeColor(traceColor)
        ctx.setLineWidth(2)
        ctx.setLineJoin(.round)
        ctx.setLineCap(.round)
        ctx.addLines(between: points)
        ctx.strokePath()

        if let i = markedSample {
            let p = point(forSample: i)
            ctx.setStrokeColor(markerColor)
            ctx.setLineWidth(1)
            ctx.strokeLineSegments(between: [CGPoint(x: p.x, y: b.minY), CGPoint(x: p.x, y: b.maxY)])
            ctx.setFillColor(markerColor)
            let r = SignalPlotView.markerRadius
            ctx.fillEllipse(in: CGRect(x: p.x - r, y: p.y - r, width: 2 * r, height: 2 * r))
        }
    }
}
