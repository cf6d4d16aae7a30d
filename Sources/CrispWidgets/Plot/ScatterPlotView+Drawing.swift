import CrispGraphics
import CrispUI
import Foundation

// The plot's picture, drawn in the right-handed space the base class sets up: paths are built in
// data units and mapped by `dataTransform` (so strokes keep their widths in points), text is
// drawn with the identity text matrix the base class sets, upright and left to right.

extension ScatterPlotView {
    /// Formats `value` in the plot's locale with `decimals` decimals.
    func format(_ value: CGFloat, decimals: Int) -> String {
        let f = NumberFormatter()
        f.locale = locale
        f.numberStyle = .decimal
        f.usesGroupingSeparator = false
        f.minimumFractionDigits = decimals
        f.maximumFractionDigits = decimals
        return f.string(from: NSNumber(value: Double(value))) ?? "\(value)"
    }

    /// Decimals that spell every multiple of `step` exactly (0 for whole steps, 1 for 0.5, 2 for 0.25).
    static func decimals(for step: CGFloat) -> Int {
        var d = 0
        while d < 4, abs((step * pow(10, CGFloat(d))).rounded() - step * pow(10, CGFloat(d))) > 1e-9 { d += 1 }
        return d
    }

    /// Draws the grid, the axes and the tick labels into `context`, whose user space is the
    /// right-handed one.
    func drawAxes(in context: CGContext) {
        let area = plotArea, t = dataTransform
        guard let font = try? CTFont.uiFont(.system, size: ScatterPlotView.fontSize) else { return }
        let spacing = ScatterPlotView.minimumTickSpacing
        let xStep = ScatterPlotView.tickStep(span: xRange.upperBound - xRange.lowerBound, length: area.width, spacing: spacing.x)
        let yStep = ScatterPlotView.tickStep(span: yRange.upperBound - yRange.lowerBound, length: area.height, spacing: spacing.y)
        let xTicks = ScatterPlotView.ticks(in: xRange, step: xStep), yTicks = ScatterPlotView.ticks(in: yRange, step: yStep)

        // Grid.
        let grid = CGMutablePath()
        for x in xTicks { grid.addLines(between: [CGPoint(x: x, y: yRange.lowerBound), CGPoint(x: x, y: yRange.upperBound)], transform: t) }
        for y in yTicks { grid.addLines(between: [CGPoint(x: xRange.lowerBound, y: y), CGPoint(x: xRange.upperBound, y: y)], transform: t) }
        context.setStrokeColor(gray: 0.88, alpha: 1)
        context.setLineWidth(1)
        context.addPath(grid)
        context.strokePath()

        // Axes and ticks, 4 points outside the area.
        let axes = CGMutablePath()
        axes.addLines(between: [CGPoint(x: area.minX, y: area.maxY), CGPoint(x: area.minX, y: area.minY), CGPoint(x: area.maxX, y: area.minY)])
        for x in xTicks {
            let p = CGPoint(x: x, y: 0).applying(t)
            axes.addLines(between: [CGPoint(x: p.x, y: area.minY), CGPoint(x: p.x, y: area.minY - 4)])
        }
        for y in yTicks {
            let p = CGPoint(x: 0, y: y).applying(t)
            axes.addLines(between: [CGPoint(x: area.minX, y: p.y), CGPoint(x: area.minX - 4, y: p.y)])
        }
        context.setStrokeColor(gray: 0.2, alpha: 1)
        context.setLineWidth(1)
        context.addPath(axes)
        context.strokePath()

        // Tick labels: centred below the x ticks, right-aligned left of the y ticks.
        let labelColor = CGColor(gray: 0.25, alpha: 1)
        let xDecimals = ScatterPlotView.decimals(for: xStep), yDecimals = ScatterPlotView.decimals(for: yStep)
        for x in xTicks {
            let text = format(x, decimals: xDecimals), size = text.size(withFont: font)
            let p = CGPoint(x: x, y: 0).applying(t)
            text.draw(at: CGPoint(x: p.x - size.width / 2, y: area.minY - 6 - size.height), font: font, color: labelColor, in: context)
        }
        for y in yTicks {
            let text = format(y, decimals: yDecimals), size = text.size(withFont: font)
            let p = CGPoint(x: 0, y: y).applying(t)
            text.draw(at: CGPoint(x: area.minX - 6 - size.width, y: p.y - size.height / 2), font: font, color: labelColor, in: context)
        }
    }

    /// Draws the data into `context` (right-handed user space): the regression line, the dots,
    /// the fit above the area and the dragged point's coordinates.
    func drawData(in context: CGContext) {
        let area = plotArea, t = dataTransform
        guard let font = try? CTFont.uiFont(.system, size: ScatterPlotView.fontSize) else { return }
        context.saveGState()
        context.clip(to: area.insetBy(dx: -ScatterPlotView.dotRadius - 1, dy: -ScatterPlotView.dotRadius - 1))
        // The regression line across the x range.
        if let fit {
            let line = CGMutablePath()
            let x0 = Double(xRange.lowerBound), x1 = Double(xRange.upperBound)
            line.addLines(between: [CGPoint(x: x0, y: fit.y(at: x0)), CGPoint(x: x1, y: fit.y(at: x1))], transform: t)
            context.saveGState()
            context.clip(to: area)
            context.setStrokeColor(red: 0.85, green: 0.3, blue: 0.1, alpha: 1)
            context.setLineWidth(2)
            context.addPath(line)
            context.strokePath()
            context.restoreGState()
        }
        // The dots; the selected one ringed.
        let r = ScatterPlotView.dotRadius
        context.setFillColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)
        for p in points {
            let c = p.applying(t)
            context.addEllipse(in: CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r))
        }
        context.fillPath()
        if let i = selectedIndex {
            let c = points[i].applying(t)
            context.setStrokeColor(red: 0.05, green: 0.2, blue: 0.5, alpha: 1)
            context.setLineWidth(1.5)
            context.strokeEllipse(in: CGRect(x: c.x - r - 2.5, y: c.y - r - 2.5, width: 2 * r + 5, height: 2 * r + 5))
        }
        context.restoreGState()

        // The fit above the area, left-aligned.
        if let fit {
            let text = "y = \(format(CGFloat(fit.slope), decimals: 3))x + \(format(CGFloat(fit.intercept), decimals: 3))   r² = \(format(CGFloat(fit.rSquared), decimals: 3))"
            text.draw(at: CGPoint(x: area.minX, y: area.maxY + 8), font: font.withSize(11), color: CGColor(gray: 0.1, alpha: 1), in: context)
        }

        // The dragged point's coordinates in a box beside it, kept inside the view.
        if let (text, box) = coordinateBox(font: font) {
            context.setFillColor(gray: 0.1, alpha: 0.85)
            context.fill(box)
            text.draw(at: CGPoint(x: box.minX + 4, y: box.minY + 2), font: font, color: .white, in: context)
        }
    }

    /// The dragged point's coordinates and the box they are shown in beside it (right-handed
    /// coordinates), kept inside the view; nil when no point is dragged.
    func coordinateBox(font: CTFont) -> (text: String, box: CGRect)? {
        guard let i = draggedIndex else { return nil }
        let b = bounds, p = points[i], c = p.applying(dataTransform)
        let text = "(\(format(p.x, decimals: 2)); \(format(p.y, decimals: 2)))"
        let size = text.size(withFont: font)
        var box = CGRect(x: c.x + 8, y: c.y + 8, width: size.width + 8, height: size.height + 4)
        if box.maxX > b.maxX - 2 { box.origin.x = c.x - 8 - box.width }
        if box.maxY > b.maxY - 2 { box.origin.y = c.y - 8 - box.height }
        return (text, box)
    }

    /// Where the data's changing parts are drawn (right-handed coordinates), for repainting
    /// only them when one point moves: the regression line as a few strips along it (a
    /// diagonal line's bounding box is most of the plot), point `index`'s dot with its ring,
    /// the coordinate box, and the strip above the area where the fit is written.
    func damage(movingPoint index: Int) -> [CGRect] {
        let area = plotArea, t = dataTransform, b = bounds
        var rects: [CGRect] = []
        if let fit {
            let strips = ScatterPlotView.damageStrips
            let x0 = xRange.lowerBound, width = xRange.upperBound - xRange.lowerBound
            for k in 0..<strips {
                let a = x0 + width * CGFloat(k) / CGFloat(strips), z = x0 + width * CGFloat(k + 1) / CGFloat(strips)
                let p = CGPoint(x: a, y: CGFloat(fit.y(at: Double(a)))).applying(t)
                let q = CGPoint(x: z, y: CGFloat(fit.y(at: Double(z)))).applying(t)
                let strip = CGRect(x: p.x, y: min(p.y, q.y), width: q.x - p.x, height: abs(q.y - p.y)).insetBy(dx: -3, dy: -3)
                rects.append(strip.intersection(area))
            }
        }
        let c = points[index].applying(t), reach = ScatterPlotView.dotRadius + 5
        rects.append(CGRect(x: c.x - reach, y: c.y - reach, width: 2 * reach, height: 2 * reach))
        if let font = try? CTFont.uiFont(.system, size: ScatterPlotView.fontSize), let (_, box) = coordinateBox(font: font) {
            rects.append(box.insetBy(dx: -1, dy: -1))
        }
        rects.append(CGRect(x: b.minX, y: area.maxY, width: b.width, height: b.maxY - area.maxY))
        return rects.filter { !$0.isNull && !$0.isEmpty }
    }
}
