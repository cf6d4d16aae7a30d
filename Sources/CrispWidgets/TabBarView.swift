import CrispGraphics
import CrispUI
import Foundation

/// An iOS-style tab bar drawn in vectors: a dark glossy strip along the bottom with one button
/// per item — an icon from a path above a localized title. The selected item sits on a faint
/// rounded plate, its icon filled with a gradient in the theme's tint and its title tinted; the
/// others are grey. A tap selects an item.
public final class TabBarView: View, ThemeFollowing {
    /// One tab.
    public struct Item {
        /// A short name (the tab's accessibility identifier is `tab.<name>`).
        public var name: String
        /// The title's localization key.
        public var titleKey: String
        /// The icon in a unit square (origin top-left, y down), filled non-zero.
        public var icon: CGPath

        /// Creates an item.
        public init(name: String, titleKey: String, icon: CGPath) {
            self.name = name
            self.titleKey = titleKey
            self.icon = icon
        }
    }

    /// The tabs, left to right.
    public let items: [Item]
    /// The tabs' title labels, in item order.
    public let titleLabels: [Label]
    /// One transparent view per tab over its area, identified `tab.<name>` (where tests and
    /// scripts find the tabs); taps go to the bar.
    public let itemViews: [View]
    /// The index of the selected tab; changing it repaints.
    public var selectedIndex: Int {
        didSet { if selectedIndex != oldValue { updateTitleColours(); setNeedsDisplay() } }
    }
    /// The colours (the tint).
    public var theme: Theme = .blue { didSet { if theme != oldValue { updateTitleColours(); setNeedsDisplay() } } }
    /// Called when the user taps a tab, with its index.
    public var onSelect: ((Int) -> Void)?

    /// The bar's height, in points (UIKit's is 49).
    public static let height: CGFloat = 49

    /// Creates a bar with `items`, the first selected.
    public init(items: [Item]) {
        precondition(!items.isEmpty, "a tab bar needs at least one item")
        self.items = items
        titleLabels = items.map { Label(localizationKey: $0.titleKey, fontSize: 10) }
        itemViews = items.map { _ in View() }
        selectedIndex = 0
        super.init()
        for (item, view) in zip(items, itemViews) {
            view.accessibilityIdentifier = "tab.\(item.name)"
            view.isUserInteractionEnabled = false
            addSubview(view)
        }
        backgroundColor = .black
        for label in titleLabels {
            label.isBold = true
            label.alignment = .center
            label.adjustsFontSizeToFitWidth = true
            label.minimumScaleFactor = 0.7
            label.isUserInteractionEnabled = false
            addSubview(label)
        }
        updateTitleColours()
        addGestureRecognizer(TapGestureRecognizer { [unowned self] r in
            if let i = self.itemIndex(at: r.location(in: self)) { self.onSelect?(i) }
        })
    }

    /// The rectangle of tab `index`: the first tab on the left, or on the right in a
    /// right-to-left layout (as UITabBar orders them).
    public func itemRect(_ index: Int) -> CGRect {
        let b = bounds
        let maxWidth: CGFloat = 110
        let width = min(b.width / CGFloat(items.count), maxWidth)
        let x0 = b.midX - width * CGFloat(items.count) / 2
        return directionalFrame(CGRect(x: (x0 + CGFloat(index) * width).rounded(), y: b.minY, width: width.rounded(), height: b.height))
    }

    /// The tab under `point` (bar coordinates), or nil.
    public func itemIndex(at point: CGPoint) -> Int? {
        items.indices.first { itemRect($0).contains(point) }
    }

    /// The icon's square in tab `index`.
    public func iconRect(_ index: Int) -> CGRect {
        let r = itemRect(index)
        let side = min(r.height * 0.5, 26)
        return CGRect(x: r.midX - side / 2, y: r.minY + r.height * 0.1, width: side, height: side)
    }

    private func updateTitleColours() {
        for (i, label) in titleLabels.enumerated() {
            label.textColor = i == selectedIndex ? theme.tint : CGColor(gray: 0.6, alpha: 1)
        }
    }

    public override func layoutSubviews() {
        for (i, view) in itemViews.enumerated() { view.frame = itemRect(i) }
        for (i, label) in titleLabels.enumerated() {
            let r = itemRect(i)
            let h = label.sizeThatFits(r.size).height
            label.frame = CGRect(x: r.minX + 2, y: r.maxY - h - 2, width: max(r.width - 4, 0), height: h)
        }
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let b = bounds
        // The strip: a lighter upper half (the gloss) over black, and a hairline on top.
        ctx.drawLinearGradient(.between(CGColor(gray: 0.24, alpha: 1), CGColor(gray: 0.1, alpha: 1)),
                               start: CGPoint(x: 0, y: b.minY), end: CGPoint(x: 0, y: b.midY), options: [])
        ctx.setFillColor(gray: 0.38, alpha: 1)
        ctx.fill(CGRect(x: b.minX, y: b.minY, width: b.width, height: 0.5))

        for (i, item) in items.enumerated() {
            if i == selectedIndex {
                let plate = itemRect(i).insetBy(dx: 3, dy: 2)
                ctx.addPath(CGPath(roundedRect: plate, cornerWidth: 4, cornerHeight: 4))
                ctx.setFillColor(gray: 1, alpha: 0.12)
                ctx.fillPath()
            }
            TabBarView.drawIcon(item.icon, in: iconRect(i), isSelected: i == selectedIndex, theme: theme, context: ctx)
        }
    }

    /// Fills `icon` (a unit-square path, y down) into `rect`: a gradient of the theme's tint
    /// when selected, grey otherwise.
    public static func drawIcon(_ icon: CGPath, in rect: CGRect, isSelected: Bool, theme: Theme, context ctx: CGContext) {
        let path = CGMutablePath()
        path.addPath(icon, transform: CGAffineTransform(a: rect.width, b: 0, c: 0, d: rect.height, tx: rect.minX, ty: rect.minY))
        if isSelected {
            ctx.saveGState()
            ctx.addPath(path)
            ctx.clip()
            ctx.drawLinearGradient(.between(theme.tint.shaded(0.5), theme.tint.shaded(-0.15)),
                                   start: CGPoint(x: 0, y: rect.minY), end: CGPoint(x: 0, y: rect.maxY), options: [])
            ctx.restoreGState()
        } else {
            ctx.addPath(path)
            ctx.setFillColor(gray: 0.55, alpha: 1)
            ctx.fillPath()
        }
    }
}
