import CrispGraphics
import Foundation

/// A line of text, like `UILabel`: measured and drawn with the bundled Roboto faces (characters
/// they lack from `FontSource.drawingFallback`, bidirectional text in visual order) through the
/// same rasterizer as every other shape, so it is as sharp as the rest at 1× and 2× and under
/// rotation.
///
/// A label sizes itself with `sizeThatFits(_:)` — the text's typographic width and the font's
/// line height, rounded up to whole points, as UIKit's `-sizeWithFont:` — and draws its line
/// box inside its bounds by `alignment`, centred across. `rotatedCounterClockwise` runs the
/// text upwards (the axis label of a vertical axis): the bounds are then tall and narrow and
/// `sizeThatFits` swaps width and height.
///
/// A label with a `localizationKey` takes its text from a `Localization` whenever the app calls
/// `View.applyLocalization(_:)` on a tree holding it.
///
/// Text longer than the bounds first shrinks, when `adjustsFontSizeToFitWidth` is on, down to
/// `minimumScaleFactor` of the font size, and is then cut at the end with "…", as UIKit's
/// default `.byTruncatingTail` (`lineBreakMode` picks the head, the middle, or clipping instead).
///
/// With `numberOfLines` other than 1 (0: as many as the bounds hold) the text wraps to the
/// bounds' width at the Unicode line break opportunities (UAX #14, `CTTypesetter`), each line
/// in its paragraph's direction; text left over ends the last line with "…" (truncating modes)
/// or is dropped. The lines are centred vertically in the bounds, as UIKit's. `sizeThatFits(_:)`
/// then wraps to the width it is given, and `textSize` to `preferredMaxLayoutWidth` (0: each
/// paragraph on one line). A rotated label is always one line.
///
/// When the bundled fonts cannot be found (`CrispResources` explains where it looked) a label
/// measures with an estimate (0.55 em per character, 1.2 em high) and draws nothing. With
/// `drawsPlaceholders` on (`CRISP_DEBUG_LABELS=1`, or `--debug-labels` in the demo) it also
/// outlines the box its text fills, so layouts can be checked by eye.
open class Label: View {
    /// How the text sits in the label's bounds.
    public enum Alignment: Sendable {
        /// Against the left edge.
        case left
        /// Centred.
        case center
        /// Against the right edge.
        case right
        /// Against the leading edge: the right one in a right-to-left layout
        /// (`effectiveUserInterfaceLayoutDirection`), as UIKit's `.natural`; in a left-to-right
        /// layout, the left one for left-to-right text and the right one for right-to-left text
        /// (the direction of each paragraph's first strong character; UIKit would keep it left).
        case natural
    }

    /// Which way the text runs.
    public enum Orientation: Sendable {
        /// Left to right.
        case horizontal
        /// Bottom to top (rotated −90°): the bounds are tall and narrow.
        case rotatedCounterClockwise
    }

    /// The text.
    public var text: String { didSet { if text != oldValue { textDidChange() } } }
    /// The key `applyLocalization(_:)` looks the text up by (nil: the text is not localized).
    public var localizationKey: String?
    /// The font size in points (default 17).
    public var fontSize: CGFloat { didSet { if fontSize != oldValue { textDidChange() } } }
    /// Whether the text is bold.
    public var isBold = false { didSet { if isBold != oldValue { textDidChange() } } }
    /// The text colour (default black).
    public var textColor: CGColor = .black { didSet { if textColor != oldValue { setNeedsDisplay() } } }
    /// Horizontal alignment along the text's direction (default left).
    public var alignment: Alignment = .left { didSet { if alignment != oldValue { setNeedsDisplay() } } }
    /// Text direction (default horizontal).
    public var orientation: Orientation = .horizontal { didSet { if orientation != oldValue { textDidChange() } } }

    /// Whether the font shrinks (down to `minimumScaleFactor`) to fit text that is too long
    /// for the bounds (default false).
    public var adjustsFontSizeToFitWidth = false { didSet { if adjustsFontSizeToFitWidth != oldValue { setNeedsDisplay() } } }
    /// The smallest fraction of `fontSize` that `adjustsFontSizeToFitWidth` may use, 0…1
    /// (default 0: the font may shrink without limit, as in UIKit; the text is cut after that).
    public var minimumScaleFactor: CGFloat = 0 { didSet { if minimumScaleFactor != oldValue { setNeedsDisplay() } } }

    /// The most lines the text wraps to; 0: as many as the bounds hold; 1 (the default): one
    /// line, cut or shrunk as `lineBreakMode` and `adjustsFontSizeToFitWidth` say.
    public var numberOfLines = 1 { didSet { if numberOfLines != oldValue { textDidChange() } } }
    /// How text that does not fit is wrapped or cut (default `.byTruncatingTail`, as UIKit's).
    public var lineBreakMode: NSLineBreakMode = .byTruncatingTail { didSet { if lineBreakMode != oldValue { textDidChange() } } }
    /// The width `textSize` wraps a multi-line label's text to (0: each paragraph on one line),
    /// as UIKit's `preferredMaxLayoutWidth`.
    public var preferredMaxLayoutWidth: CGFloat = 0 { didSet { if preferredMaxLayoutWidth != oldValue { textDidChange() } } }

    /// Whether the label wraps its text (more than one line allowed, laid out horizontally).
    public var isMultiline: Bool { numberOfLines != 1 && orientation == .horizontal }

    /// Whether labels outline their text boxes (set from `CRISP_DEBUG_LABELS=1` at start).
    nonisolated(unsafe) public static var drawsPlaceholders = ProcessInfo.processInfo.environment["CRISP_DEBUG_LABELS"] == "1"

    /// Creates a label showing `text`.
    public init(text: String = "", fontSize: CGFloat = 17, frame: CGRect = .zero) {
        self.text = text
        self.fontSize = fontSize
        super.init(frame: frame)
    }

    /// Creates a label whose text is the localization of `key` (the key itself until
    /// `applyLocalization(_:)` runs; English keys double as English text).
    public convenience init(localizationKey key: String, fontSize: CGFloat = 17) {
        self.init(text: key, fontSize: fontSize)
        localizationKey = key
    }

    /// The label's font: the bundled regular or bold face at `fontSize`, nil when the bundled
    /// fonts cannot be read.
    public var font: CTFont? { try? CTFont.uiFont(isBold ? .emphasizedSystem : .system, size: fontSize) }

    /// An estimate of the size of `text` on one line: 0.55 em per character, 1.2 em high (used
    /// only without fonts).
    public static func estimatedSize(of text: String, fontSize: CGFloat) -> CGSize {
        CGSize(width: (CGFloat(text.count) * fontSize * 0.55).rounded(.up), height: (fontSize * 1.2).rounded(.up))
    }

    /// The size of the text's line box along and across its direction, in points.
    public var textSize: CGSize {
        if let cached = cachedTextSize { return cached }
        let size: CGSize
        if isMultiline, let font {
            let width = preferredMaxLayoutWidth > 0 ? preferredMaxLayoutWidth : .infinity
            size = wrapped(width: width, height: .infinity, font: font).size
        } else {
            size = font.map { text.size(withFont: $0) } ?? Label.estimatedSize(of: text, fontSize: fontSize)
        }
        cachedTextSize = size
        return size
    }

    private var cachedTextSize: CGSize?
    private var cachedLayouts: [(size: CGSize, layout: CTTextLayout)] = []

    /// The text broken into lines `width` wide, as many as `height` and `numberOfLines` allow
    /// (the last cut by `lineBreakMode`); the last few layouts are kept.
    private func wrapped(width: CGFloat, height: CGFloat, font: CTFont) -> CTTextLayout {
        let key = CGSize(width: width, height: height)
        if let hit = cachedLayouts.first(where: { $0.size == key }) { return hit.layout }
        var limit = max(0, numberOfLines)
        if height.isFinite {
            let fitting = max(1, Int((height / font.lineHeight).rounded(.down)))
            limit = limit == 0 ? fitting : min(limit, fitting)
        }
        let layout = CTTypesetter(string: text, font: font)
            .layout(width: width > 0 ? width : .infinity, maximumNumberOfLines: limit, lineBreakMode: lineBreakMode)
        if cachedLayouts.count >= 4 { cachedLayouts.removeFirst() }
        cachedLayouts.append((key, layout))
        return layout
    }

    /// The lines a multi-line label draws in its bounds (nil for a one-line label or without
    /// fonts).
    public func fittedLayout() -> CTTextLayout? {
        guard isMultiline, let font else { return nil }
        return wrapped(width: bounds.width, height: bounds.height > 0 ? bounds.height : .infinity, font: font)
    }

    private func textDidChange() {
        let old = cachedTextSize
        cachedTextSize = nil
        cachedLayouts.removeAll()
        setNeedsDisplay()
        // A new size may move this label or its neighbours.
        if old != textSize { superview?.setNeedsLayout() }
    }

    /// The text's size in the label's own coordinates (swapped when rotated).
    open override func sizeThatFits(_ size: CGSize) -> CGSize {
        if isMultiline, let font, size.width > 0, size.width.isFinite {
            return wrapped(width: size.width, height: .infinity, font: font).size
        }
        let t = textSize
        return orientation == .horizontal ? t : CGSize(width: t.height, height: t.width)
    }

    /// The rectangle the text occupies in the bounds, by alignment (centred across), once fitted.
    public var textRect: CGRect {
        if let layout = fittedLayout() { return rect(for: layout.size) }
        return rect(for: fittedLine().size)
    }

    /// Whether `.natural` alignment puts the text on the right: in a right-to-left layout
    /// (`effectiveUserInterfaceLayoutDirection`), as UIKit's; in a left-to-right one when the
    /// text's first letter is right to left.
    private var naturalIsRight: Bool {
        if effectiveUserInterfaceLayoutDirection == .rightToLeft { return true }
        return text.unicodeScalars.first(where: { $0.properties.isAlphabetic })
            .map { (0x0590...0x08FF).contains($0.value) || (0xFB1D...0xFDFF).contains($0.value) || (0xFE70...0xFEFF).contains($0.value) } ?? false
    }

    private func rect(for t: CGSize) -> CGRect {
        let b = bounds
        switch orientation {
        case .horizontal:
            let x: CGFloat = switch alignment {
            case .left: b.minX
            case .center: b.midX - t.width / 2
            case .right: b.maxX - t.width
            case .natural: naturalIsRight ? b.maxX - t.width : b.minX
            }
            return CGRect(x: x, y: b.midY - t.height / 2, width: t.width, height: t.height)
        case .rotatedCounterClockwise:
            // Text runs upwards: "left" alignment starts at the bottom.
            let y: CGFloat = switch alignment {
            case .left, .natural: b.maxY - t.width
            case .center: b.midY - t.width / 2
            case .right: b.minY
            }
            return CGRect(x: b.midX - t.height / 2, y: y, width: t.height, height: t.width)
        }
    }

    /// What the label draws: the text, shrunk and then cut with "…" when it is longer than the
    /// bounds, its font (nil without fonts) and its line box's size along and across.
    public func fittedLine() -> (text: String, font: CTFont?, size: CGSize) {
        guard let font else { return (text, nil, textSize) }
        let available = orientation == .horizontal ? bounds.width : bounds.height
        var size = textSize
        guard size.width > available, available > 0 else { return (text, font, size) }
        var fitted = font
        if adjustsFontSizeToFitWidth {
            let scale = max(min(max(minimumScaleFactor, 0), 1), available / size.width)
            fitted = font.withSize(fontSize * scale)
            size = text.size(withFont: fitted)
            if size.width <= available { return (text, fitted, size) }
        }
        // Clipping modes draw the whole line (cut at the bounds).
        if !lineBreakMode.truncates { return (text, fitted, size) }
        // The most characters that fit with an ellipsis (binary search over characters), kept
        // at the end, the start, or both ends by the mode.
        let characters = Array(text)
        var low = 0, high = characters.count - 1
        var best = ("…", "…".size(withFont: fitted))
        let mode = lineBreakMode
        func candidate(_ k: Int) -> String { mode.truncated(characters, keeping: k) }
        while low <= high {
            let mid = (low + high) / 2
            let candidate = candidate(mid)
            let candidateSize = candidate.size(withFont: fitted)
            if candidateSize.width <= available {
                best = (candidate, candidateSize)
                low = mid + 1
            } else {
                high = mid - 1
            }
        }
        return (best.0, fitted, best.1)
    }

    open override func draw(_ rect: CGRect) {
        guard !text.isEmpty, let ctx = UIGraphicsGetCurrentContext() else { return }
        if let layout = fittedLayout() {
            let box = self.rect(for: layout.size)
            if Label.drawsPlaceholders {
                ctx.setStrokeColor(red: 1, green: 0, blue: 1, alpha: 0.8)
                ctx.setLineWidth(0.5)
                ctx.stroke(box.insetBy(dx: 0.25, dy: 0.25))
            }
            let textAlignment: NSTextAlignment = switch alignment {
            case .left: .left
            case .center: .center
            case .right: .right
            case .natural: effectiveUserInterfaceLayoutDirection == .rightToLeft ? .right : .natural
            }
            ctx.saveGState()
            if lineBreakMode == .byClipping { ctx.clip(to: bounds) }
            layout.draw(in: box, alignment: textAlignment, color: textColor, context: ctx)
            ctx.restoreGState()
            return
        }
        let line = fittedLine()
        let box = self.rect(for: line.size)
        if Label.drawsPlaceholders {
            ctx.setStrokeColor(red: 1, green: 0, blue: 1, alpha: 0.8)
            ctx.setLineWidth(0.5)
            ctx.stroke(box.insetBy(dx: 0.25, dy: 0.25))
        }
        guard let font = line.font else { return }
        switch orientation {
        case .horizontal:
            line.text.draw(at: box.origin, font: font, color: textColor, in: ctx)
        case .rotatedCounterClockwise:
            // The line box's top-left corner goes to the box's bottom-left; its "down" is right.
            ctx.saveGState()
            ctx.translateBy(x: box.minX, y: box.maxY)
            ctx.rotate(by: -.pi / 2)
            line.text.draw(at: .zero, font: font, color: textColor, in: ctx)
            ctx.restoreGState()
        }
    }

    open override func applyLocalization(_ localization: Localization) {
        if let localizationKey { text = localization.string(forKey: localizationKey) }
        super.applyLocalization(localization)
    }
}
