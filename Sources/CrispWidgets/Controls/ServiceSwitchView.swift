import CrispGraphics
import CrispUI
import Foundation

/// One of the bar's switches: a pill-shaped track with a round knob carrying the service's
/// symbol. On, the knob sits right on a track in the theme's accent colour; off, left on a dark
/// track; it slides between the two. A red cross over it marks an error. A tap switches it.
///
/// While on and free of errors, a `.gps` switch shows that its service is working: rings
/// radiate from the knob at 60 frames a second, each frame repainting only this view. Off or in
/// error, the display link is removed and nothing runs.
public final class ServiceSwitchView: View, ThemeFollowing {
    /// The service the switch controls.
    public let symbol: ServiceSymbol
    /// Whether the service is on; changing it repaints and calls `onChange`.
    public var isOn: Bool {
        didSet {
            guard isOn != oldValue else { return }
            knob.animate(to: isOn ? 1 : 0, duration: ServiceSwitchView.slideDuration)
            updatePulse()
            publishState(stateDescription)
            onChange?(self)
        }
    }
    /// Whether the service reports an error; the red cross fades in or out over
    /// `errorFadeDuration`.
    public var hasError: Bool {
        didSet {
            guard hasError != oldValue else { return }
            errorFade.animate(to: hasError ? 1 : 0, duration: ServiceSwitchView.errorFadeDuration)
            updatePulse()
            publishState(stateDescription)
            onChange?(self)
        }
    }
    /// The value as its state line spells it: `on` or `off`, followed by ` error` while the
    /// service reports an error.
    public var stateDescription: String { ControlState.string(isOn) + (hasError ? " error" : "") }
    /// How strongly the red cross shows now, 0…1 (on its way to `hasError`'s value).
    public var errorOpacity: CGFloat { errorFade.value }
    /// Where the knob is, 0 (off, left) … 1 (on, right); it slides over `slideDuration` when
    /// the switch flips, the track's colour following it.
    public var knobPosition: CGFloat { knob.value }
    /// Seconds the knob takes to slide to the other end.
    public static let slideDuration: TimeInterval = 0.2
    private lazy var knob = ValueAnimator<CGFloat>(isOn ? 1 : 0, owner: self)
    /// Seconds the red cross takes to fade in or out.
    public static let errorFadeDuration: TimeInterval = 0.3
    private lazy var errorFade = ValueAnimator<CGFloat>(hasError ? 1 : 0, owner: self)
    /// The colours (the track when on, the pulse).
    public var theme: Theme = .blue { didSet { if theme != oldValue, showsTheme { setNeedsDisplay() } } }
    /// Whether the theme's colours show: the track and symbol once the knob leaves the off
    /// end, the pulse while it radiates.
    public var showsTheme: Bool { knobPosition > 0 || isPulsing }
    /// Called after `isOn` or `hasError` changed.
    public var onChange: ((ServiceSwitchView) -> Void)?

    /// Where the radiating rings are in their cycle, 0…1 (they show only while pulsing).
    public var pulsePhase: CGFloat = 0 { didSet { if pulsePhase != oldValue, isPulsing { setNeedsDisplay() } } }
    /// Seconds per ring.
    public static let pulsePeriod: TimeInterval = 1.2
    private var pulseLink: DisplayLink?
    private var pulseStart: TimeInterval = 0

    /// The value its `state` lines show, now (read in the first frame: every value readable).
    public override var accessibilityValue: String? {
        get { stateDescription }
        set {}
    }

    /// Creates a switch for `symbol`.
    public init(symbol: ServiceSymbol, isOn: Bool, hasError: Bool = false) {
        self.symbol = symbol
        self.isOn = isOn
        self.hasError = hasError
        super.init()
        // The animators exist from the start, so the first change animates from the first state.
        _ = (knob, errorFade)
        addGestureRecognizer(TapGestureRecognizer { [unowned self] _ in self.isOn.toggle() })
    }

    /// Whether the service-is-active animation shows: a GPS switch that is on and free of errors.
    public var isPulsing: Bool { symbol == .gps && isOn && !hasError }

    /// Whether the display link of the pulse is installed.
    public var isAnimatingPulse: Bool { pulseLink != nil }

    public override func didMoveToWindow() { updatePulse() }

    private func updatePulse() {
        let wanted = isPulsing && window != nil
        if wanted, pulseLink == nil, let loop = window?.eventLoop {
            pulseStart = loop.animationTime
            pulseLink = loop.addDisplayLink { [unowned self] t in
                let cycles = (t - self.pulseStart) / ServiceSwitchView.pulsePeriod
                self.pulsePhase = CGFloat(cycles - cycles.rounded(.down))
            }
        } else if !wanted, let link = pulseLink {
            link.invalidate()
            pulseLink = nil
            pulsePhase = 0
            setNeedsDisplay()
        }
    }

    /// The track's rectangle: the bounds at a 2:1 aspect, centred.
    var trackRect: CGRect {
        let b = bounds
        let h = min(b.height, b.width / 2)
        return CGRect(x: b.midX - h, y: b.midY - h / 2, width: 2 * h, height: h).insetBy(dx: h * 0.06, dy: h * 0.06)
    }

    public override func draw(_ rect: CGRect) {
        guard let ctx = UIGraphicsGetCurrentContext() else { return }
        let track = trackRect
        let h = track.height, radius = h / 2
        let pill = CGPath(roundedRect: track, cornerWidth: radius, cornerHeight: radius)
        let knobRadius = radius * 0.86
        let p = knobPosition
        // Right to left the knob sits left when on, as a UISwitch's does.
        let along = (track.width - 2 * radius) * p
        let mirrored = effectiveUserInterfaceLayoutDirection == .rightToLeft
        let knobCenter = CGPoint(x: mirrored ? track.maxX - radius - along : track.minX + radius + along, y: track.midY)

        // Track: the accent when on, dark when off, with an inner shade along the top.
        ctx.saveGState()
        ctx.addPath(pill)
        ctx.clip()
        let top = CGColor(gray: 0.16, alpha: 1).interpolated(to: theme.accent.shaded(0.25), fraction: p)
        let bottom = CGColor(gray: 0.3, alpha: 1).interpolated(to: theme.accent.shaded(-0.2), fraction: p)
        ctx.drawLinearGradient(.between(top, bottom), start: CGPoint(x: track.midX, y: track.minY),
                               end: CGPoint(x: track.midX, y: track.maxY), options: [])
        if isPulsing { drawPulse(ctx, center: knobCenter, from: knobRadius, to: track.width - radius) }
        ctx.restoreGState()
        ctx.addPath(pill)
        ctx.setStrokeColor(gray: 0, alpha: 0.55)
        ctx.setLineWidth(max(h * 0.04, 0.5))
        ctx.strokePath()

        // Knob: a pearl with the symbol.
        let knob = CGRect(x: knobCenter.x - knobRadius, y: knobCenter.y - knobRadius, width: 2 * knobRadius, height: 2 * knobRadius)
        ctx.saveGState()
        ctx.addEllipse(in: knob)
        ctx.clip()
        ctx.drawLinearGradient(.between(CGColor(gray: 1, alpha: 1), CGColor(gray: 0.72, alpha: 1)),
                               start: CGPoint(x: knob.midX, y: knob.minY), end: CGPoint(x: knob.midX, y: knob.maxY), options: [])
        ctx.restoreGState()
        ctx.setStrokeColor(gray: 0.35, alpha: 0.8)
        ctx.setLineWidth(max(h * 0.03, 0.5))
        ctx.strokeEllipse(in: knob)
        let ink = CGColor(gray: 0.45, alpha: 1).interpolated(to: theme.accent.shaded(-0.45), fraction: p)
        ctx.setFillColor(ink)
        ctx.setStrokeColor(ink)
        symbol.draw(in: knob.insetBy(dx: knobRadius * 0.42, dy: knobRadius * 0.42), context: ctx)

        if errorOpacity > 0 { drawErrorCross(ctx, in: track) }
    }

    /// Two rings moving outwards from the knob, fading as they go.
    private func drawPulse(_ ctx: CGContext, center: CGPoint, from r0: CGFloat, to r1: CGFloat) {
        for offset in [0, 0.5] as [CGFloat] {
            let t = (pulsePhase + offset).truncatingRemainder(dividingBy: 1)
            let r = r0 + (r1 - r0) * t
            ctx.setStrokeColor(theme.glow.copy(alpha: 0.85 * (1 - t))!)
            ctx.setLineWidth(max(trackRect.height * 0.08 * (1 - t * 0.5), 0.5))
            ctx.strokeEllipse(in: CGRect(x: center.x - r, y: center.y - r, width: 2 * r, height: 2 * r))
        }
    }

    /// A red cross with a white rim over the track, at `errorOpacity`.
    private func drawErrorCross(_ ctx: CGContext, in track: CGRect) {
        let d = track.height * 0.42
        let c = CGPoint(x: track.midX, y: track.midY)
        let ends = [CGPoint(x: c.x - d, y: c.y - d), CGPoint(x: c.x + d, y: c.y + d),
                    CGPoint(x: c.x + d, y: c.y - d), CGPoint(x: c.x - d, y: c.y + d)]
        ctx.saveGState()
        // Fading, the rim and the cross are made translucent as one (a layer); at full strength
        // they are drawn straight, sparing the layer's canvas-sized buffer.
        let isFading = errorOpacity < 1
        if isFading {
            ctx.setAlpha(errorOpacity)
            ctx.beginTransparencyLayer(in: track.insetBy(dx: -track.height * 0.2, dy: -track.height * 0.2), auxiliaryInfo: nil)
        }
        ctx.setLineCap(.round)
        ctx.setStrokeColor(gray: 1, alpha: 0.9)
        ctx.setLineWidth(track.height * 0.3)
        ctx.strokeLineSegments(between: ends)
        ctx.setStrokeColor(red: 0.86, green: 0.08, blue: 0.06, alpha: 1)
        ctx.setLineWidth(track.height * 0.18)
        ctx.strokeLineSegments(between: ends)
        if isFading { ctx.endTransparencyLayer() }
        ctx.restoreGState()
    }
}
