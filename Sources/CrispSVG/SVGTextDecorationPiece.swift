import CrispGraphics
import Foundation

// The geometry of `text-decoration` lines in SVG text (SVGBuilder+Text.swift lays out the text
// and calls it for each cluster under a decorated span): solid, double, dotted, dashed and wavy
// lines as shapes in the cluster's frame.

extension SVGBuilder {
    /// One cluster's stretch of a decoration line, in the cluster's frame (x along the line from
    /// 0 to `width`; `phase` is where the cluster starts along the text, so that dots, dashes
    /// and waves continue from one cluster into the next).
    struct DecorationPiece {
        var width: CGFloat, phase: CGFloat, frame: CGAffineTransform, style: SVGTextDecorationStyle

        /// A line whose top edge is `top` above the baseline (y up, as the font's metrics give
        /// it), `thickness` thick; a double line's second line lies further from the text, in
        /// the direction `away` (−1 down, +1 up). The shapes, in thicknesses t: solid, a
        /// rectangle; double, two lines a t apart; dotted, dots t wide every 2t; dashed, dashes
        /// 3t long every 5t; wavy, a sine of amplitude t and wavelength 6t, stroked t wide.
        func line(top: CGFloat, thickness: CGFloat, away: CGFloat, into path: CGMutablePath) {
            let t = max(thickness, 0)
            guard t > 0, width > 0, t.isFinite, width.isFinite, phase.isFinite else { return }
            let y = -top   // SVG's y down
            // A stretch of more than 20 000 thicknesses (a huge textLength) is drawn solid: its
            // dots, dashes or wave would be millions of shapes.
            switch width / t > 20_000 ? .solid : style {
            case .solid:
                path.addRect(CGRect(x: 0, y: y, width: width, height: t), transform: frame)
            case .double:
                path.addRect(CGRect(x: 0, y: y, width: width, height: t), transform: frame)
                path.addRect(CGRect(x: 0, y: y - away * 2 * t, width: width, height: t), transform: frame)
            case .dotted:
                // Each dot belongs to the cluster its centre falls in.
                let period = 2 * t
                var k = ((phase - t / 2) / period).rounded(.up)
                while (k + 0.25) * period - phase < width, k.isFinite {
                    let center = (k + 0.25) * period - phase
                    if center >= 0 { path.addEllipse(in: CGRect(x: center - t / 2, y: y, width: t, height: t), transform: frame) }
                    k += 1
                }
            case .dashed:
                let period = 5 * t, dash = 3 * t
                var start = (phase / period).rounded(.down) * period - phase
                while start < width, start.isFinite {
                    let a = max(start, 0), b = min(start + dash, width)
                    if b > a { path.addRect(CGRect(x: a, y: y, width: b - a, height: t), transform: frame) }
                    start += period
                }
            case .wavy:
                let wavelength = 6 * t, amplitude = t, middle = y + t / 2
                let steps = max(2, min(4096, Int((width / wavelength * 24).rounded(.up))))
                let wave = CGMutablePath()
                for i in 0...steps {
                    let x = width * CGFloat(i) / CGFloat(steps)
                    let p = CGPoint(x: x, y: middle - amplitude * sin(2 * .pi * (phase + x) / wavelength))
                    if i == 0 { wave.move(to: p) } else { wave.addLine(to: p) }
                }
                path.addPath(wave.copy(strokingWithWidth: t, lineCap: .butt, lineJoin: .round, miterLimit: 10), transform: frame)
            }
        }
    }
}
