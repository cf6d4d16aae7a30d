import CrispApp

/// A greeting above a grid of tiles that reflows for the room it has: two columns on an
/// iPhone, five on an iPad, as many as fit in a resized window; the rows shrink under the
/// call bar (tiles are at most square). Tapping a tile counts.
public final class TilesView: View {
    public let greeting = Label(localizationKey: "Hello, Crisp!", fontSize: 22)
    public let counter = Label(localizationKey: "Tap a tile", fontSize: 15)
    public let tiles: [View] = (0..<12).map { _ in View() }
    public private(set) var taps = 0

    public init() {
        super.init()
        backgroundColor = CGColor(gray: 0.95, alpha: 1)
        greeting.alignment = .center
        greeting.isBold = true
        greeting.accessibilityIdentifier = "hello.greeting"
        counter.alignment = .center
        counter.accessibilityIdentifier = "hello.taps"
        counter.accessibilityValue = "0"
        addSubview(greeting)
        addSubview(counter)
        for (i, tile) in tiles.enumerated() {
            tile.backgroundColor = CGColor(red: 0.2, green: 0.4 + 0.04 * CGFloat(i), blue: 0.9, alpha: 1)
            tile.layer.cornerRadius = 10
            tile.accessibilityIdentifier = "hello.tile.\(i)"
            tile.addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.tap() })
            addSubview(tile)
        }
    }

    /// The number of columns for a width: one per 140 points, at least one.
    public static func columns(forWidth width: CGFloat) -> Int { max(1, Int(width / 140)) }

    public override func layoutSubviews() {
        let b = bounds, margin: CGFloat = 12
        greeting.frame = CGRect(x: margin, y: margin, width: max(b.width - 2 * margin, 0), height: 30)
        counter.frame = CGRect(x: margin, y: greeting.frame.maxY, width: greeting.frame.width, height: 24)
        let columns = TilesView.columns(forWidth: b.width)
        let rows = (tiles.count + columns - 1) / columns
        let top = counter.frame.maxY + margin
        let width = (b.width - margin * CGFloat(columns + 1)) / CGFloat(columns)
        let height = max(min((b.height - top - margin * CGFloat(rows)) / CGFloat(rows), width), 0)
        for (i, tile) in tiles.enumerated() {
            let column = CGFloat(i % columns), row = CGFloat(i / columns)
            tile.frame = CGRect(x: margin + column * (width + margin), y: top + row * (height + margin),
                                width: max(width, 0), height: height)
        }
    }

    private func tap() {
        taps += 1
        counter.localizationKey = nil
        counter.text = "\(taps)"
        counter.publishState("\(taps)")
    }

    /// The tab icon: four tiles.
    public static var icon: CGPath {
        let p = CGMutablePath()
        for (x, y) in [(0.05, 0.05), (0.55, 0.05), (0.05, 0.55), (0.55, 0.55)] as [(CGFloat, CGFloat)] {
            p.addRect(CGRect(x: x, y: y, width: 0.4, height: 0.4))
        }
        return p
    }
}

/// The second screen: one localized line, centred.
public final class AboutView: View {
    public let line = Label(localizationKey: "Drawn in vectors by Crisp", fontSize: 17)

    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = CGColor(gray: 0.95, alpha: 1)
        line.alignment = .center
        line.adjustsFontSizeToFitWidth = true
        line.accessibilityIdentifier = "hello.about"
        addSubview(line)
    }

    public override func layoutSubviews() {
        line.frame = CGRect(x: 12, y: bounds.midY - 15, width: max(bounds.width - 24, 0), height: 30)
    }
}
