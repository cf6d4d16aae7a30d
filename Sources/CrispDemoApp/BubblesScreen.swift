import CrispApp
import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation

/// The bubbles screen (seed 003, the essay on embossed data-visualization circles): a seeded
/// data set drawn as `BubbleView`s — colour (red → green) and size from each value — packed to
/// fill the screen, and packed again whenever the screen changes shape.
///
/// Drag a bubble up or down: its value rises or falls live (its hue and size animate). Tap a
/// bubble: a callout shows its value as a locale-formatted percent; tap elsewhere to hide it.
/// Up and Down change the called-out bubble's value by 5 %, `r` resets every value.
///
/// How many bubbles show depends on the room: one per 4400 square points, 20 to 60 (about 30 on
/// an iPhone, 60 on an iPad). Identifiers `bubbles` (the screen), `bubble.<n>` (n from 0 in the
/// data set's order) and `bubble.callout`; states, when they change, `bubble.<n> <value>`
/// (0…1, three decimals) and `bubble.callout <n>` or `bubble.callout none`.
public final class BubblesScreen: View, DemoScreen {
    /// The data set: the values 0…1 of all bubbles, shown or not.
    public private(set) var values: [CGFloat]
    /// One bubble per value, in data order (those beyond `visibleCount` are hidden).
    public let bubbles: [BubbleView]
    /// The callout of the tapped bubble.
    public let callout = BubbleCalloutView()
    /// The bubble whose callout shows, if any.
    public private(set) var calloutIndex: Int?
    /// How many bubbles the current layout shows.
    public private(set) var visibleCount = 0
    /// The bubble being dragged, if any.
    public private(set) var draggedIndex: Int?
    /// The locale percentages are written in.
    public var locale = Locale(identifier: "en") { didSet { updateCallout() } }

    public static let name = "bubbles"
    public static let titleKey = "Bubbles"
    public static let shortcuts = [
        HelpOverlayView.Shortcut(keys: "Up/Down", action: "Tapped bubble: value up or down"),
        HelpOverlayView.Shortcut(keys: "r", action: "Reset the bubbles' values"),
    ]

    /// The fewest and most bubbles shown, and the square points of screen per bubble.
    public static let countRange = 20...60
    static let pointsPerBubble: CGFloat = 4400
    /// Points of vertical drag for the whole value range.
    public static let dragPointsPerUnit: CGFloat = 160
    /// Seconds a value change takes to show (hue and size).
    public static let animationDuration: TimeInterval = 0.15
    /// Drag distance, in points, below which a touch is a tap.
    static let tapSlop: CGFloat = 4

    private let seededValues: [CGFloat]
    private var animators: [ValueAnimator<CGFloat>] = []
    /// Points per unit of `BubblesScreen.radius(for:)`, from the last packing.
    private var radiusScale: CGFloat = 0
    /// The bubbles' centres from the last packing (superview: this screen).
    private var centers: [CGPoint] = []
    private var touchStart: (index: Int?, location: CGPoint, value: CGFloat)?
    private var isDragging = false

    /// Creates the screen with the seeded data set.
    public init(values: [CGFloat] = BubblesScreen.seededValues()) {
        seededValues = values
        self.values = values
        bubbles = values.map { BubbleView(percentValue: $0) }
        super.init()
        accessibilityIdentifier = "bubbles"
        backgroundColor = CGColor(gray: 0.93, alpha: 1)
        for (i, bubble) in bubbles.enumerated() {
            bubble.accessibilityIdentifier = "bubble.\(i)"
            bubble.accessibilityValue = ControlState.string(values[i])
            addSubview(bubble)
            let animator = ValueAnimator(values[i], owner: bubble)
            animator.onChange = { [unowned self] in self.show(i, value: $0) }
            animators.append(animator)
        }
        callout.accessibilityIdentifier = "bubble.callout"
        callout.accessibilityValue = "none"
        addSubview(callout)
    }

    /// A bubble's radius, in units the packing scales: its area grows with the value, and a
    /// value of 0 still shows (area ∝ 0.25 + value).
    public static func radius(for value: CGFloat) -> CGFloat { (0.25 + min(max(value, 0), 1)).squareRoot() }

    /// How many bubbles a screen area of `size` points shows.
    public static func count(for size: CGSize) -> Int {
        min(max(Int(size.width * size.height / pointsPerBubble), countRange.lowerBound), countRange.upperBound)
    }

    /// The data set: 60 values in 0.05…0.95 from a SplitMix64 generator seeded with `seed`,
    /// rounded to 0.01 (the same on every run).
    public static func seededValues(count: Int = 60, seed: UInt64 = 3) -> [CGFloat] {
        var generator = SplitMix64(seed: seed)
        func next() -> CGFloat { generator.nextUnit() }
        return (0..<count).map { _ in ((0.05 + 0.9 * next()) * 100).rounded() / 100 }
    }

    /// Bubbles in a cluster: one big, two smaller.
    public static var tabIcon: CGPath {
        let p = CGMutablePath()
        p.addEllipse(in: CGRect(x: 0.02, y: 0.22, width: 0.6, height: 0.6))
        p.addEllipse(in: CGRect(x: 0.6, y: 0.08, width: 0.36, height: 0.36))
        p.addEllipse(in: CGRect(x: 0.6, y: 0.56, width: 0.3, height: 0.3))
        return p
    }

    // MARK: Layout

    public override func layoutSubviews() {
        let b = bounds
        visibleCount = min(BubblesScreen.count(for: b.size), values.count)
        let radii = values.prefix(visibleCount).map { BubblesScreen.radius(for: $0) }
        // Room for the drop shadows at the edges, and a gap between bubbles.
        let packing = BubblePacking.pack(radii: Array(radii), in: b, gap: 0.08, margin: 6)
        radiusScale = packing.scale
        centers = packing.centers
        for (i, bubble) in bubbles.enumerated() {
            bubble.isHidden = i >= visibleCount
            if i < visibleCount { bubble.frame = frame(ofBubble: i, value: animators[i].value) }
        }
        if let i = calloutIndex, i >= visibleCount { calloutIndex = nil }
        updateCallout()
    }

    /// Bubble `i`'s frame for `value`: a square around its packed centre, on whole points (so
    /// its cached contents land on whole pixels at every scale).
    func frame(ofBubble i: Int, value: CGFloat) -> CGRect {
        guard i < centers.count else { return .zero }
        let d = max((2 * BubblesScreen.radius(for: value) * radiusScale).rounded(), 2)
        let c = centers[i]
        return CGRect(x: (c.x - d / 2).rounded(), y: (c.y - d / 2).rounded(), width: d, height: d)
    }

    /// Shows bubble `i` at `value` (an animation frame): its hue, its size around its centre.
    private func show(_ i: Int, value: CGFloat) {
        bubbles[i].percentValue = value
        if i < visibleCount { bubbles[i].frame = frame(ofBubble: i, value: value) }
        if calloutIndex == i { updateCallout() }
    }

    // MARK: Values

    /// Sets bubble `i`'s value (clamped to 0…1, rounded to 0.001), animating its hue and size,
    /// and reports `state bubble.<i> <value>`.
    public func setValue(_ value: CGFloat, ofBubble i: Int, animated: Bool = true) {
        guard values.indices.contains(i), value.isFinite else { return }
        let v = (min(max(value, 0), 1) * 1000).rounded() / 1000
        guard v != values[i] else { return }
        values[i] = v
        if animated {
            animators[i].animate(to: v, duration: BubblesScreen.animationDuration, curve: .easeOut)
        } else {
            animators[i].set(v)
        }
        bubbles[i].publishState(ControlState.string(v))
        if calloutIndex == i { updateCallout() }
    }

    /// Shows bubble `i`'s callout, or hides it for nil.
    public func showCallout(for i: Int?) {
        calloutIndex = i.flatMap { $0 < visibleCount ? $0 : nil }
        callout.publishState(calloutIndex.map(String.init) ?? "none")
        updateCallout()
    }

    private func updateCallout() {
        guard let i = calloutIndex else {
            callout.isHidden = true
            return
        }
        let f = bubbles[i].frame
        callout.show(BubbleCalloutView.text(for: values[i], locale: locale), above: CGPoint(x: f.midX, y: f.minY), in: bounds)
        bringSubviewToFront(callout)
    }

    // MARK: Touches (bubbles pass theirs up to the screen)

    public override func touchesBegan(_ touches: Set<Touch>) {
        guard let touch = touches.first else { return }
        let index = bubbles.firstIndex { $0 === touch.view }
        touchStart = (index, touch.location(in: self), index.map { values[$0] } ?? 0)
        isDragging = false
    }

    public override func touchesMoved(_ touches: Set<Touch>) {
        guard let touch = touches.first, let start = touchStart else { return }
        let dy = touch.location(in: self).y - start.location.y
        if !isDragging, abs(dy) > BubblesScreen.tapSlop, start.index != nil { isDragging = true }
        guard isDragging, let i = start.index else { return }
        draggedIndex = i
        setValue(start.value - dy / BubblesScreen.dragPointsPerUnit, ofBubble: i)
    }

    public override func touchesEnded(_ touches: Set<Touch>) {
        if let start = touchStart, !isDragging {
            showCallout(for: start.index.flatMap { $0 == calloutIndex ? nil : $0 })
        }
        endTouch()
    }

    public override func touchesCancelled(_ touches: Set<Touch>) { endTouch() }

    private func endTouch() {
        touchStart = nil
        isDragging = false
        draggedIndex = nil
    }

    // MARK: Keys and language

    public func handleKey(_ key: KeyPress) -> Bool {
        switch key.specialKey {
        case .up, .down:
            guard let i = calloutIndex else { return false }
            setValue(values[i] + (key.specialKey == .up ? 0.05 : -0.05), ofBubble: i)
            return true
        default:
            guard key.characters == "r" else { return false }
            for i in values.indices { setValue(seededValues[i], ofBubble: i) }
            return true
        }
    }

    public override func applyLocalization(_ localization: Localization) {
        super.applyLocalization(localization)
        locale = Locale(identifier: localization.language)
    }
}
