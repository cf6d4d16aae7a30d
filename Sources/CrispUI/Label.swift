import CrispGraphics
import Foundation

/// A line of text, like `UILabel` — waiting for text rendering (issue 3).
///
/// The label already has its place in layouts: it keeps its text, font size, colour, alignment
/// and orientation, repaints when they change, and sizes itself with `sizeThatFits(_:)`. Until
/// CrispGraphics can shape and draw text, it measures with `placeholderSize(of:fontSize:)`
/// (an estimate) and draws nothing, except when `drawsPlaceholders` is on (the environment
/// variable `CRISP_DEBUG_LABELS=1`, or `--debug-labels` in the demo): then it draws the box its
/// text would fill, so layouts can be checked by eye.
open class Label: View {
    /// How the text sits in the label's bounds.
    public enum Alignment: Sendable { case left, center, right }

    /// Which way the text runs.
    public enum Orientation: Sendable {
        /// Left to right.
        case horizontal
        /// Bottom to top (rotated −90°): the bounds are tall and narrow.
        case rotatedCounterClockwise
    }

    /// The text.
    public var text: String { didSet { if text != oldValue { setNeedsDisplay() } } }
    /// The font size in points (default 17).
    public var fontSize: CGFloat { didSet { if fontSize != oldValue { setNeedsDisplay() } } }
    /// Whether the text is bold.
    public var isBold = false { didSet { if isBold != oldValue { setNeedsDisplay() } } }
    /// The text colour (default black).
    public var textColor: CGColor = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// Horizontal alignment along the text's direction (default left).
    public var alignment: Alignment = .left { didSet { if alignment != oldValue { setNeedsDisplay() } } }
    /// Text direction (default horizontal).
    public var orientation: Orientation = .horizontal { didSet { if orientation != oldValue { setNeedsDisplay() } } }

    /// Whether labels draw their placeholder boxes (set from `CRISP_DEBUG_LABELS=1` at start).
    nonisolated(unsafe) public static var drawsPlaceholders = ProcessInfo.processInfo.environment["CRISP_DEBUG_LABELS"] == "1"

    /// Creates a label.
    public init(text: String = "", fontSize: CGFloat = 17, frame: CGRect = .zero) {
        self.text = text
        self.fontSize = fontSize
        super.init(frame: frame)
    }

    /// An estimate of the size of `text` on one line: 0.55 em per character, 1.2 em high.
    /// Replaced by real measuring when text rendering lands.
    public static func placeholderSize(of text: String, fontSize: CGFloat) -> CGSize {
        CGSize(width: (CGFloat(text.count) * fontSize * 0.55).rounded(.up), height: (fontSize * 1.2).rounded(.up))
    }

    /// The size the text needs along and across its direction.
    public var textSize: CGSize { Label.placeholderSize(of: text, fontSize: fontSize) }

    /// The text's size in the label's own coordinates (swapped when rotated).
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        let t = textSize
        return orientation == .horizontal ? t : CGSize(width: t.height, height: t.width)
    }

    /// The rectangle the text occupies in the bounds, by alignment (centred across).
    public var textRect: CGRect {
        let b = bounds, t = textSize
        switch orientation {
        case .horizontal:
            let x: CGFloat = switch alignment {
            case .left: b.minX
            case .center: b.midX - t.width / 2
            case .right: b.maxX - t.width
            }
            return CGRect(x: x, y: b.midY - t.height / 2, width: t.width, height: t.height)
        case .rotatedCounterClockwise:
            // Text runs upwards: "left" alignment starts at the bottom.
            let y: CGFloat = switch alignment {
            case .left: b.maxY - t.width
            case .center: b.midY - t.width / 2
            case .right: b.minY
            }
            return CGRect(x: b.midX - t.height / 2, y: y, width: t.height, height: t.width)
        }
    }

    open override func draw(_ rect: CGRect) {
        guard Label.drawsPlaceholders, !text.isEmpty, let ctx = UIGraphicsGetCurrentContext() else { return }
        let box = textRect
        ctx.setFillColor(red: 1, green: 0, blue: 1, alpha: 0.25)
        ctx.fill(box)
        ctx.setStrokeColor(red: 1, green: 0, blue: 1, alpha: 0.8)
        ctx.setLineWidth(0.5)
        ctx.stroke(box.insetBy(dx: 0.25, dy: 0.25))
    }
}
