import CrispGraphics
import Foundation

/// The interim sample screen: a signal graph with single-polygon axes, a toggle and a battery,
/// all drawn from vectors in a flipped (y-down) point space.
enum SampleScreen {
    static func draw(in ctx: CGContext, size: CGSize) {
        ctx.setFillColor(red: 0.95, green: 0.96, blue: 0.98, alpha: 1)
        ctx.fill(CGRect(origin: .zero, size: size))
        drawAxes(in: ctx, origin: CGPoint(x: 30, y: 190), width: 270, height: 160)
        drawSignal(in: ctx, frame: CGRect(x: 36, y: 40, width: 258, height: 144))
        drawToggle(in: ctx, frame: CGRect(x: 230, y: 205, width: 60, height: 26), isOn: true)
        drawBattery(in: ctx, frame: CGRect(x: 30, y: 208, width: 40, height: 20), level: 0.7)
    }

    /// Both axes as ONE filled polygon: shafts, the protrusion past the origin and the two
    /// arrowheads in a single outline, so there is no anti-aliasing seam where they meet.
    static func drawAxes(in ctx: CGContext, origin o: CGPoint, width: CGFloat, height: CGFloat) {
        let t: CGFloat = 2, head: CGFloat = 7, protrusion: CGFloat = 6
        ctx.setFillColor(gray: 0.15, alpha: 1)
        ctx.addLines(between: [
            CGPoint(x: o.x - t / 2, y: o.y + protrusion),
            CGPoint(x: o.x - t / 2, y: o.y - height + head),
            CGPoint(x: o.x - head / 2 - 1, y: o.y - height + head),
            CGPoint(x: o.x, y: o.y - height),
            CGPoint(x: o.x + head / 2 + 1, y: o.y - height + head),
            CGPoint(x: o.x + t / 2, y: o.y - height + head),
            CGPoint(x: o.x + t / 2, y: o.y - t / 2),
            CGPoint(x: o.x + width - head, y: o.y - t / 2),
            CGPoint(x: o.x + width - head, y: o.y - head / 2 - 1),
            CGPoint(x: o.x + width, y: o.y),
            CGPoint(x: o.x + width - head, y: o.y + head / 2 + 1),
            CGPoint(x: o.x + width - head, y: o.y + t / 2),
            CGPoint(x: o.x - protrusion, y: o.y + t / 2),
            CGPoint(x: o.x - protrusion, y: o.y - t / 2),
            CGPoint(x: o.x - t / 2, y: o.y - t / 2),
        ])
        ctx.closePath()
        ctx.fillPath()
    }

    static func drawSignal(in ctx: CGContext, frame: CGRect) {
        var points: [CGPoint] = []
        for i in 0...60 {
            let u = CGFloat(i) / 60
            let v = 0.55 + 0.3 * sin(u * 9) * cos(u * 2.3) + 0.08 * sin(u * 41)
            points.append(CGPoint(x: frame.minX + u * frame.width, y: frame.maxY - v * frame.height))
        }
        // Soft area under the trace, then the trace itself with round joins.
        ctx.setFillColor(red: 0.2, green: 0.5, blue: 0.95, alpha: 0.18)
        ctx.addLines(between: [CGPoint(x: frame.minX, y: frame.maxY)] + points + [CGPoint(x: frame.maxX, y: frame.maxY)])
        ctx.closePath()
        ctx.fillPath()
        ctx.setStrokeColor(red: 0.1, green: 0.4, blue: 0.9, alpha: 1)
        ctx.setLineWidth(2)
        ctx.setLineJoin(.round)
        ctx.setLineCap(.round)
        ctx.addLines(between: points)
        ctx.strokePath()
        ctx.setStrokeColor(gray: 0.5, alpha: 0.6)
        ctx.setLineWidth(0.5)
        ctx.setLineDash(phase: 0, lengths: [3, 3])
        for k in 1...3 {
            let y = frame.maxY - CGFloat(k) * frame.height / 4
            ctx.strokeLineSegments(between: [CGPoint(x: frame.minX, y: y), CGPoint(x: frame.maxX, y: y)])
        }
        ctx.setLineDash(phase: 0, lengths: [])
    }

    static func drawToggle(in ctx: CGContext, frame: CGRect, isOn: Bool) {
        let r = frame.height / 2
        ctx.setFillColor(red: isOn ? 0.3 : 0.8, green: isOn ? 0.78 : 0.8, blue: isOn ? 0.4 : 0.82, alpha: 1)
        ctx.addPath(CGPath(roundedRect: frame, cornerWidth: r, cornerHeight: r))
        ctx.fillPath()
        let knob = CGRect(x: isOn ? frame.maxX - 2 * r + 2 : frame.minX + 2, y: frame.minY + 2, width: 2 * r - 4, height: 2 * r - 4)
        ctx.setFillColor(gray: 1, alpha: 1)
        ctx.setStrokeColor(gray: 0, alpha: 0.15)
        ctx.setLineWidth(0.5)
        ctx.addEllipse(in: knob)
        ctx.drawPath(using: .fillStroke)
    }

    static func drawBattery(in ctx: CGContext, frame: CGRect, level: CGFloat) {
        let body = frame.insetBy(dx: 1, dy: 1).offsetBy(dx: -2, dy: 0)
        ctx.setStrokeColor(gray: 0.2, alpha: 1)
        ctx.setLineWidth(1.5)
        ctx.addPath(CGPath(roundedRect: body, cornerWidth: 3, cornerHeight: 3))
        ctx.strokePath()
        ctx.setFillColor(gray: 0.2, alpha: 1)
        ctx.addPath(CGPath(roundedRect: CGRect(x: body.maxX + 1, y: body.midY - 3, width: 3, height: 6),
                           cornerWidth: 1.5, cornerHeight: 1.5))
        ctx.fillPath()
        ctx.setFillColor(red: 0.2, green: 0.7, blue: 0.3, alpha: 1)
        let inner = body.insetBy(dx: 2.5, dy: 2.5)
        ctx.fill(CGRect(x: inner.minX, y: inner.minY, width: inner.width * level, height: inner.height))
    }
}
