import CrispGraphics
import CrispUI
import Foundation

// The frame-time overlay: the last 120 frames' render and present times as bars, the dirty
// area of the last frame, and frames per second while something animates.
//
// It must not distort what it measures. It draws only in its own rectangle, and a frame that
// repainted nothing but that rectangle is its own: such frames are left out of the graph and
// their cost is shown apart ("HUD"), and they never ask for another frame — otherwise showing
// the last frame's cost would make a frame, whose cost would make a frame, forever. The
// overlay repaints once after each frame of the app's own.

/// A small vector overlay of frame times, fed by `Window.frameStatisticsObserver`.
public final class FrameTimeHUD: View {
    /// How many frames the graph shows.
    public static let capacity = 120
    /// The overlay's size, in points.
    public static let size = CGSize(width: 184, height: 74)
    /// The frame time at the top of the graph (one frame at 60 Hz).
    static let fullScale: TimeInterval = 1.0 / 60

    /// The app's frames, oldest first (at most `capacity`).
    public private(set) var frames: [FrameStatistics] = []
    /// What the overlay's own last frame cost (render plus present), in seconds.
    public private(set) var ownCost: TimeInterval = 0

    private let timesLabel = Label(text: "", fontSize: 9)
    private let areaLabel = Label(text: "", fontSize: 9)

    /// Creates a hidden overlay.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        accessibilityIdentifier = "hud"
        isHidden = true
        isUserInteractionEnabled = false
        for label in [timesLabel, areaLabel] {
            label.textColor = .white
            addSubview(label)
        }
    }

    /// Follows `window`'s frames (replacing any other observer).
    public func observe(_ window: Window) {
        window.frameStatisticsObserver = { [weak self] in self?.record($0) }
    }

    /// Adds one frame: the app's own go into the graph (and the overlay repaints); a frame that
    /// only repainted the overlay is its own cost.
    public func record(_ statistics: FrameStatistics) {
        guard !isHidden, let window else { return }
        let s = window.screen.scale
        let own = convert(bounds, to: window)
        let mine = CGRect(x: own.minX * s, y: own.minY * s, width: own.width * s, height: own.height * s).integral
        if statistics.rects.allSatisfy({ mine.contains($0) }) {
            ownCost = statistics.render + statistics.present
            return
        }
        frames.append(statistics)
        if frames.count > Self.capacity { frames.removeFirst(frames.count - Self.capacity) }
        updateLabels()
        setNeedsDisplay()
    }

    /// Frames per second over the second before the last frame; nil when fewer than two frames
    /// fell in it (nothing animating).
    public var framesPerSecond: Double? {
        guard let last = frames.last else { return nil }
        let recent = frames.filter { $0.time > last.time - 1 }
        guard recent.count >= 2, let first = recent.first, last.time > first.time else { return nil }
        return Double(recent.count - 1) / (last.time - first.time)
    }

    private func updateLabels() {
        guard let last = frames.last else { return }
        timesLabel.text = String(format: "render %.2f  present %.2f ms  HUD %.2f", last.render * 1000, last.present * 1000, ownCost * 1000)
        let fps = framesPerSecond.map { String(format: "%.0f fps", $0) } ?? "idle"
        areaLabel.text = "dirty \(last.dirtyPixels) px  \(fps)"
    }

    public override func layoutSubviews() {
        let b = bounds
        timesLabel.frame = CGRect(x: b.minX + 6, y: b.maxY - 26, width: b.width - 12, height: 12)
        areaLabel.frame = CGRect(x: b.minX + 6, y: b.maxY - 14, width: b.width - 12, height: 12)
    }

    /// The graph's area, in the overlay's coordinates.
    var graphRect: CGRect {
        let b = bounds
        return CGRect(x: b.minX + 4, y: b.minY + 4, width: b.width - 8, height: b.height - 34)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        ctx.setFillColor(CGColor(gray: 0.05, alpha: 0.8))
        ctx.addPath(CGPath(roundedRect: bounds, cornerWidth: 6, cornerHeight: 6, transform: nil))
        ctx.fillPath()
        let g = graphRect
        let barWidth = g.width / CGFloat(Self.capacity)
        let start = Self.capacity - frames.count
        // Render (green) with present (orange) stacked on it; above full scale the bar is clipped.
        ctx.saveGState()
        ctx.clip(to: g)
        for (i, f) in frames.enumerated() {
            let x = g.minX + CGFloat(start + i) * barWidth
            let render = CGFloat(f.render / Self.fullScale) * g.height
            let present = CGFloat(f.present / Self.fullScale) * g.height
            ctx.setFillColor(CGColor(red: 0.35, green: 0.85, blue: 0.4, alpha: 1))
            ctx.fill(CGRect(x: x, y: g.maxY - render, width: barWidth, height: render))
            ctx.setFillColor(CGColor(red: 1, green: 0.6, blue: 0.2, alpha: 1))
            ctx.fill(CGRect(x: x, y: g.maxY - render - present, width: barWidth, height: present))
        }
        ctx.restoreGState()
        // Lines at 16.7 ms (top) and 8.3 ms.
        ctx.setStrokeColor(CGColor(gray: 1, alpha: 0.35))
        ctx.setLineWidth(0.5)
        ctx.stroke(g)
        ctx.move(to: CGPoint(x: g.minX, y: g.midY))
        ctx.addLine(to: CGPoint(x: g.maxX, y: g.midY))
        ctx.strokePath()
    }
}
