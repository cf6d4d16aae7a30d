import CrispGraphics
import CrispUI
import Foundation

/// A scatter plot in data units with y up, drawn in a `RightHandedView`: grid, axes with ticks
/// and locale-formatted labels, the points, the least-squares regression line and its r².
///
/// Editing: drag a point (it follows the pointer and shows its coordinates; the line and r²
/// follow live), tap empty space to add a point, tap a point to select it, `removeSelectedPoint()`
/// removes it. Ticks are 1, 2, 2.5 or 5 times a power of ten apart, the finest that leaves room
/// for their labels, so bigger plots get more of them.
///
/// Identifiers: the view reports itself as set by its owner (`plot` in the demo); each point
/// is an invisible view `<identifier>.point.<n>` (n from 0 in data order, renumbered after a
/// removal) centred on its dot, whose state is `<x> <y>` in data units; the fit is reported as
/// `state <identifier>.fit <slope> <intercept> <r2>` (numbers as `ControlState` spells them).
///
/// Two layers, so a drag does not draw the axes again: the view itself draws the grid, axes and
/// tick labels and keeps them as cached contents (`layer.cachesContents`); `dataView`, a
/// transparent `RightHandedView` over it whose delegate is the plot, draws the line, the dots
/// and the labels that change with the data.
public final class ScatterPlotView: RightHandedView, RightHandedViewDelegate {
    /// The points, in data units.
    public private(set) var points: [CGPoint]
    /// The data shown along x (left to right).
    public let xRange: ClosedRange<CGFloat>
    /// The data shown along y (bottom to top).
    public let yRange: ClosedRange<CGFloat>
    /// The selected point's index, if any.
    public private(set) var selectedIndex: Int? { didSet { if selectedIndex != oldValue { dataView.setNeedsDisplay() } } }
    /// The index of the point being dragged, if any.
    public private(set) var draggedIndex: Int?
    /// The regression line through the points (nil with fewer than two distinct x).
    public private(set) var fit: LinearFit?
    /// The locale numbers are written in (decimal comma in German and Spanish).
    public var locale = Locale(identifier: "en") {
        didSet {
            formatters = [:]
            setNeedsDisplay()
            dataView.setNeedsDisplay()
        }
    }
    /// The layer over the axes that draws the data (the line, the dots, the fit, the dragged
    /// point's coordinates); the plot is its delegate.
    public let dataView = RightHandedView()
    /// The invisible views that carry the points' identifiers and states, in data order.
    public private(set) var pointViews: [View] = []

    /// Room around the plot area, in points: labels to the left and below, the fit above.
    static let margins = (left: CGFloat(38), right: CGFloat(14), top: CGFloat(26), bottom: CGFloat(24))
    /// A dot's radius, in points.
    static let dotRadius: CGFloat = 4
    /// How close a touch must come to a dot's centre to take it, in points.
    static let touchRadius: CGFloat = 14
    /// A touch that moves further than this (points) is a drag, not a tap.
    static let tapSlop: CGFloat = 8
    /// The smallest distance between ticks along x and along y, in points.
    static let minimumTickSpacing = (x: CGFloat(36), y: CGFloat(28))
    /// The labels' font size, in points.
    static let fontSize: CGFloat = 10

    private var touchStart: CGPoint?
    /// Number formatters in `locale`, by number of decimals (see `format(_:decimals:)`).
    var formatters: [Int: NumberFormatter] = [:]

    /// Creates a plot of `points` (data units) over the ranges given.
    public init(points: [CGPoint], xRange: ClosedRange<CGFloat>, yRange: ClosedRange<CGFloat>) {
        self.points = points
        self.xRange = xRange
        self.yRange = yRange
        super.init()
        backgroundColor = .white
        layer.cachesContents = true
        dataView.delegate = self
        dataView.isUserInteractionEnabled = false
        addSubview(dataView)
        fit = LinearFit(points: points)
        rebuildPointViews()
    }

    // MARK: Geometry

    /// The plot area (inside the axes) in the right-handed coordinates (y up), in points.
    public var plotArea: CGRect {
        let b = bounds, m = ScatterPlotView.margins
        return CGRect(x: b.minX + m.left, y: b.minY + m.bottom,
                      width: max(b.width - m.left - m.right, 1), height: max(b.height - m.top - m.bottom, 1))
    }

    /// Data units to the right-handed coordinates: a scale and a translation.
    public var dataTransform: CGAffineTransform {
        let a = plotArea
        let sx = a.width / (xRange.upperBound - xRange.lowerBound), sy = a.height / (yRange.upperBound - yRange.lowerBound)
        return CGAffineTransform(a: sx, b: 0, c: 0, d: sy, tx: a.minX - xRange.lowerBound * sx, ty: a.minY - yRange.lowerBound * sy)
    }

    /// The data point at `location` in the view's own (y-down) coordinates, unclamped.
    public func dataPoint(atViewLocation location: CGPoint) -> CGPoint {
        convertToRightHanded(location).applying(dataTransform.inverted())
    }

    /// Where the data point `p` is, in the view's own (y-down) coordinates.
    public func viewLocation(ofDataPoint p: CGPoint) -> CGPoint {
        convertToRightHanded(p.applying(dataTransform))
    }

    /// `p` moved inside the data ranges.
    func clamped(_ p: CGPoint) -> CGPoint {
        CGPoint(x: min(max(p.x, xRange.lowerBound), xRange.upperBound), y: min(max(p.y, yRange.lowerBound), yRange.upperBound))
    }

    /// The tick step for `span` data units over `length` points: the smallest of 1, 2, 2.5 and 5
    /// times a power of ten that keeps ticks `spacing` points apart.
    public static func tickStep(span: CGFloat, length: CGFloat, spacing: CGFloat) -> CGFloat {
        let minimum = span * spacing / max(length, 1)
        let power = pow(10, (log10(minimum)).rounded(.down))
        for factor: CGFloat in [1, 2, 2.5, 5, 10] where factor * power >= minimum { return factor * power }
        return 10 * power
    }

    /// The tick values in `range`, `step` apart, from the first multiple of `step`.
    public static func ticks(in range: ClosedRange<CGFloat>, step: CGFloat) -> [CGFloat] {
        let first = Int((range.lowerBound / step).rounded(.up)), last = Int((range.upperBound / step + 1e-9).rounded(.down))
        return first <= last ? (first...last).map { CGFloat($0) * step } : []
    }

    // MARK: Editing

    /// Moves point `index` to `p` (clamped to the ranges), updating the fit.
    public func movePoint(_ index: Int, to p: CGPoint) {
        let before = damage(movingPoint: index)
        points[index] = clamped(p)
        pointViews[index].frame = dotFrame(index)
        publishPoint(index)
        fit = LinearFit(points: points)
        publishFit()
        // Only what changed is repainted (the line's strips, the dot, the box, the fit's text),
        // before and after.
        for rect in before + damage(movingPoint: index) { dataView.setNeedsDisplay(convertToRightHanded(rect)) }
    }

    /// How many strips along the regression line a point move repaints.
    static let damageStrips = 6

    /// Adds a point at `p` (clamped to the ranges) at the end of the data, and selects it.
    public func addPoint(_ p: CGPoint) {
        points.append(clamped(p))
        rebuildPointViews()
        publishPoint(points.count - 1)
        selectedIndex = points.count - 1
        dataDidChange()
    }

    /// Removes the selected point (the ones after it are renumbered); returns whether there was
    /// one.
    @discardableResult
    public func removeSelectedPoint() -> Bool {
        guard let i = selectedIndex, draggedIndex == nil else { return false }
        points.remove(at: i)
        selectedIndex = nil
        rebuildPointViews()
        for j in i..<points.count { publishPoint(j) }
        dataDidChange()
        return true
    }

    /// Selects point `index`, or nothing.
    public func selectPoint(_ index: Int?) { selectedIndex = index }

    /// The index of the dot nearest to `location` (view coordinates) within the touch radius.
    public func pointIndex(near location: CGPoint) -> Int? {
        var best: (index: Int, distance: CGFloat)?
        for i in points.indices {
            let q = viewLocation(ofDataPoint: points[i])
            let d = hypot(q.x - location.x, q.y - location.y)
            if d <= ScatterPlotView.touchRadius, d < best?.distance ?? .infinity { best = (i, d) }
        }
        return best?.index
    }

    private func dataDidChange() {
        fit = LinearFit(points: points)
        publishFit()
        dataView.setNeedsDisplay()
    }

    private func rebuildPointViews() {
        for v in pointViews { v.removeFromSuperview() }
        pointViews = points.indices.map { i in
            let v = View()
            v.isUserInteractionEnabled = false
            v.accessibilityIdentifier = accessibilityIdentifier.map { "\($0).point.\(i)" }
            v.accessibilityValue = pointState(i)
            return v
        }
        for (i, v) in pointViews.enumerated() {
            v.frame = dotFrame(i)
            addSubview(v)
        }
    }

    /// Sets the identifier the view and its points report under (`<identifier>.point.<n>`,
    /// `<identifier>.fit`).
    public override var accessibilityIdentifier: String? {
        didSet { rebuildPointViews() }
    }

    private func dotFrame(_ i: Int) -> CGRect {
        let c = viewLocation(ofDataPoint: points[i]), r = ScatterPlotView.dotRadius
        return CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r)
    }

    private func publishPoint(_ i: Int) {
        pointViews[i].publishState(pointState(i))
    }

    /// Point `i`'s `state` value: its x and y in data units.
    private func pointState(_ i: Int) -> String {
        "\(ControlState.string(points[i].x)) \(ControlState.string(points[i].y))"
    }

    private func publishFit() {
        guard let identifier = accessibilityIdentifier, let sink = window?.statusSink else { return }
        let values = fit.map { [$0.slope, $0.intercept, $0.rSquared].map { ControlState.string(CGFloat($0)) }.joined(separator: " ") }
        sink("state \(identifier).fit \(values ?? "none")")
    }

    public override func layoutSubviews() {
        dataView.frame = bounds
        for i in pointViews.indices { pointViews[i].frame = dotFrame(i) }
    }

    /// Draws the grid, axes and tick labels (ScatterPlotView+Drawing.swift).
    public override func draw(_ rect: CGRect, in context: CGContext) { drawAxes(in: context) }

    /// Draws the data over the axes: `dataView`'s drawing (ScatterPlotView+Drawing.swift).
    public func drawView(_ view: RightHandedView, in rect: CGRect, context: CGContext) { drawData(in: context) }

    // MARK: Touches

    public override func touchesBegan(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        let location = touch.location(in: self)
        touchStart = location
        draggedIndex = pointIndex(near: location)
        if let i = draggedIndex {
            selectedIndex = i
            dataView.setNeedsDisplay()
        }
    }

    public override func touchesMoved(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        let location = touch.location(in: self)
        if let i = draggedIndex {
            movePoint(i, to: dataPoint(atViewLocation: location))
        } else if let start = touchStart, hypot(location.x - start.x, location.y - start.y) > ScatterPlotView.tapSlop {
            touchStart = nil
        }
    }

    public override func touchesEnded(_ touches: Set<Touch>) {
        if draggedIndex != nil {
            draggedIndex = nil
            dataView.setNeedsDisplay()
        } else if let start = touchStart, plotArea.contains(convertToRightHanded(start)) {
            addPoint(dataPoint(atViewLocation: start))
        }
        touchStart = nil
    }

    public override func touchesCancelled(_ touches: Set<Touch>) {
        draggedIndex = nil
        touchStart = nil
        dataView.setNeedsDisplay()
    }

    // MARK: Localization

    public override func applyLocalization(_ localization: Localization) {
        locale = Locale(identifier: localization.language)
        super.applyLocalization(localization)
    }
}
