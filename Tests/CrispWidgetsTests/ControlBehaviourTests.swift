import CrispGraphics
import CrispUI
import CrispWidgets
import Foundation
import Testing

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    var now: TimeInterval = 100
}

/// The controls under touches, keys and time: values, animations that end, idle afterwards.
@Suite struct ControlBehaviourTests {
    /// A canvas holding `view` at `frame` on a manual clock.
    func canvas(_ view: View, _ frame: CGRect, clock: TestClock = TestClock()) throws -> ControlCanvas {
        try ControlCanvas(size: CGSize(width: frame.maxX + 10, height: frame.maxY + 10), scale: 1, views: [(view, frame)],
                          clock: { clock.now })
    }

    /// Runs the loop in 1/60 s steps for `seconds`.
    func run(_ canvas: ControlCanvas, _ clock: TestClock, for seconds: TimeInterval) {
        let end = clock.now + seconds
        while clock.now < end {
            clock.now += 1.0 / 60
            canvas.window.eventLoop.runDueWork()
        }
    }

    func tap(_ window: Window, _ view: View, at point: CGPoint? = nil) {
        let p = view.convert(point ?? CGPoint(x: view.bounds.midX, y: view.bounds.midY), to: nil)
        window.handlePointer(.down, at: p)
        window.handlePointer(.up, at: p)
    }

    func drag(_ window: Window, from a: CGPoint, to b: CGPoint, steps: Int = 8) {
        window.handlePointer(.down, at: a)
        for i in 1...steps {
            let t = CGFloat(i) / CGFloat(steps)
            window.handlePointer(.moved, at: CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t))
        }
        window.handlePointer(.up, at: b)
    }

    @Test func checkBoxTapToggles() throws {
        let box = CheckBox()
        let c = try canvas(box, CGRect(x: 10, y: 10, width: 28, height: 28))
        #expect(box.checked)
        tap(c.window, box)
        #expect(!box.checked)
        tap(c.window, box)
        #expect(box.checked)
    }

    @Test func toggleAndServiceSwitchTapsFlipThem() throws {
        let toggle = ToggleButtonView(icon: .star)
        let sound = ServiceSwitchView(symbol: .sound, isOn: false)
        let c = try ControlCanvas(size: CGSize(width: 200, height: 60), scale: 1,
                                  views: [(toggle, CGRect(x: 5, y: 5, width: 36, height: 36)), (sound, CGRect(x: 60, y: 10, width: 56, height: 28))])
        tap(c.window, toggle)
        tap(c.window, sound)
        #expect(toggle.isActive && sound.isOn)
    }

    @Test func uiSwitchTapFlipsAndTheKnobSpringsToTheEndThenRests() throws {
        let clock = TestClock()
        let s = SwitchView()
        let c = try canvas(s, CGRect(x: 10, y: 10, width: 79, height: 27), clock: clock)
        tap(c.window, s)
        #expect(s.isOn)
        #expect(s.knobPosition < 0.01, "the knob starts where it was")
        var peak: CGFloat = 0
        let end = clock.now + SwitchView.snapDuration + 0.1
        while clock.now < end {
            clock.now += 1.0 / 60
            c.window.eventLoop.runDueWork()
            peak = max(peak, s.knobPosition)
        }
        #expect(peak > 1, "a spring overshoots")
        #expect(s.knobPosition == 1)
        #expect(!c.window.eventLoop.hasScheduledWork, "nothing runs once the knob rests")
    }

    @Test func uiSwitchKnobDraggedPastHalfWayTurnsItOn() throws {
        let s = SwitchView()
        let c = try canvas(s, CGRect(x: 10, y: 10, width: 79, height: 27))
        let knob = s.convert(CGPoint(x: 13, y: 13), to: nil)
        drag(c.window, from: knob, to: CGPoint(x: knob.x + 40, y: knob.y))
        #expect(s.isOn)
        // Dragged only a little: back to off.
        let on = s.convert(CGPoint(x: 66, y: 13), to: nil)
        drag(c.window, from: on, to: CGPoint(x: on.x - 12, y: on.y))
        #expect(s.isOn)
        drag(c.window, from: on, to: CGPoint(x: on.x - 45, y: on.y))
        #expect(!s.isOn)
    }

    @Test func batteryFollowsADragAndClamps() throws {
        let battery = BatteryGaugeView(level: 80)
        let c = try canvas(battery, CGRect(x: 10, y: 10, width: 150, height: 42))
        var levels: [CGFloat] = []
        battery.onChange = { levels.append($0.level) }
        let y = battery.convert(CGPoint(x: 0, y: 20), to: nil).y
        drag(c.window, from: CGPoint(x: 100, y: y), to: CGPoint(x: 20, y: y))
        #expect(battery.level < 10)
        #expect(levels.count >= 2)
        drag(c.window, from: CGPoint(x: 20, y: y), to: CGPoint(x: 400, y: y))
        #expect(battery.level == 100)
        battery.level = .nan
        #expect(battery.level == 0)
    }

    @Test func batteryRunGoesDownToZeroAndBackInFourSeconds() throws {
        let clock = TestClock()
        let battery = BatteryGaugeView(level: 50)
        let c = try canvas(battery, CGRect(x: 10, y: 10, width: 150, height: 42), clock: clock)
        battery.runDischargeAndCharge()
        #expect(battery.level == 100)
        run(c, clock, for: 2)
        #expect(battery.level < 2)
        run(c, clock, for: 2.1)
        #expect(battery.level == 100)
        #expect(!battery.isRunning)
        #expect(!c.window.eventLoop.hasScheduledWork)
    }

    @Test func batteryColourIsRedAtTwentyAndBelowGreenFromThirty() {
        #expect(BatteryGaugeView.fillColor(forLevel: 20) == BatteryGaugeView.lowColor)
        #expect(BatteryGaugeView.fillColor(forLevel: 3) == BatteryGaugeView.lowColor)
        #expect(BatteryGaugeView.fillColor(forLevel: 30) == BatteryGaugeView.chargedColor)
        let mid = BatteryGaugeView.fillColor(forLevel: 25)
        #expect(mid != BatteryGaugeView.lowColor && mid != BatteryGaugeView.chargedColor)
    }

    @Test func compassDragSetsTheInaccuracyAndTheNeedleSwingsThenRests() throws {
        let clock = TestClock()
        let compass = CompassView(inaccuracy: 12)
        let c = try canvas(compass, CGRect(x: 10, y: 10, width: 180, height: 120), clock: clock)
        let p = compass.convert(CGPoint(x: 90, y: 50), to: nil)
        drag(c.window, from: p, to: CGPoint(x: p.x + 60, y: p.y))
        #expect(compass.inaccuracy == 42)
        #expect(compass.valueText == "±42°")
        var peak: CGFloat = 0
        for _ in 0..<120 {
            clock.now += 1.0 / 60
            c.window.eventLoop.runDueWork()
            peak = max(peak, compass.needleAngle)
        }
        #expect(peak > 42, "the needle overshoots")
        #expect(compass.needleAngle == 42)
        #expect(!c.window.eventLoop.hasScheduledWork)
        compass.inaccuracy = 200
        #expect(compass.inaccuracy == 90)
    }

    @Test func gpsPulsesOnlyWhileOnAndFreeOfErrorsRepaintingOnlyItself() throws {
        let clock = TestClock()
        let gps = ServiceSwitchView(symbol: .gps, isOn: true, hasError: true)
        let c = try canvas(gps, CGRect(x: 20, y: 20, width: 56, height: 28), clock: clock)
        try c.host.renderFrame()
        #expect(!gps.isAnimatingPulse)
        gps.hasError = false
        #expect(gps.isAnimatingPulse)
        run(c, clock, for: 0.5)
        let rects = try c.host.renderFrame()
        #expect(rects == [CGRect(x: 20, y: 20, width: 56, height: 28)])
        #expect(gps.pulsePhase > 0)
        gps.isOn = false
        run(c, clock, for: 0.5)
        #expect(!gps.isAnimatingPulse)
        #expect(!c.window.eventLoop.hasScheduledWork, "off: nothing runs (0 CPU)")
    }

    @Test func serviceSwitchKnobSlidesToTheOtherEnd() throws {
        let clock = TestClock()
        let sound = ServiceSwitchView(symbol: .sound, isOn: false)
        let c = try canvas(sound, CGRect(x: 10, y: 10, width: 56, height: 28), clock: clock)
        tap(c.window, sound)
        #expect(sound.isOn)
        #expect(sound.knobPosition == 0, "the knob starts where it was")
        run(c, clock, for: ServiceSwitchView.slideDuration / 2)
        #expect(sound.knobPosition > 0.2 && sound.knobPosition < 0.8)
        run(c, clock, for: ServiceSwitchView.slideDuration)
        #expect(sound.knobPosition == 1)
        #expect(!c.window.eventLoop.hasScheduledWork, "a sound switch does not pulse")
    }

    @Test func errorCrossFadesInAndOut() throws {
        let clock = TestClock()
        let network = ServiceSwitchView(symbol: .network, isOn: true, hasError: true)
        let c = try canvas(network, CGRect(x: 10, y: 10, width: 56, height: 28), clock: clock)
        #expect(network.errorOpacity == 1)
        network.hasError = false
        run(c, clock, for: ServiceSwitchView.errorFadeDuration / 2)
        #expect(network.errorOpacity > 0.1 && network.errorOpacity < 0.9)
        run(c, clock, for: ServiceSwitchView.errorFadeDuration)
        #expect(network.errorOpacity == 0)
    }

    @Test func sliderAndWheelSetTheZoom() throws {
        let panel = ZoomPanelView()
        let c = try canvas(panel, CGRect(x: 0, y: 0, width: 150, height: 150))
        c.window.layoutIfNeeded()
        let row = panel.slider.convert(panel.slider.bounds, to: nil)
        c.window.handlePointer(.down, at: CGPoint(x: row.maxX - 1, y: row.midY))
        c.window.handlePointer(.up, at: CGPoint(x: row.maxX - 1, y: row.midY))
        #expect(panel.zoom == 8)
        #expect(panel.factorLabel.text == "8×")
        c.window.handleScroll(-1, at: CGPoint(x: 75, y: 50))
        #expect(panel.zoom == 6.4)
        for _ in 0..<20 { c.window.handleScroll(-1, at: CGPoint(x: 75, y: 50)) }
        #expect(panel.zoom == 1)
        c.window.handleScroll(1, at: CGPoint(x: 75, y: 50))
        #expect(panel.zoom == 1.3)
        // The magnified toggle grows with the factor: drawn again from its vectors, not scaled.
        c.window.layoutIfNeeded()
        #expect(panel.toggle.frame.width == (panel.baseHeight * 1.3 * 0.8))
    }

    @Test func themesCycleAndAreFoundByName() {
        #expect(Theme.all.map(\.name) == ["blue", "red", "green", "gold"])
        #expect(Theme.blue.next == .red && Theme.gold.next == .blue)
        #expect(Theme.named("GOLD") == .gold && Theme.named("purple") == nil)
        let half = Theme.blue.interpolated(to: .red, fraction: 0.5)
        #expect(half.name == "red" && half.barTop != Theme.blue.barTop && half.barTop != Theme.red.barTop)
        #expect(Theme.blue.interpolated(to: .red, fraction: 1) == .red)
    }

    @Test func stateValuesHaveAtMostThreeDecimals() {
        #expect(ControlState.string(true) == "on" && ControlState.string(false) == "off")
        #expect(ControlState.string(12) == "12")
        #expect(ControlState.string(3.7) == "3.7")
        #expect(ControlState.string(0.12345) == "0.123")
        #expect(ControlState.string(-0.0001) == "0")
    }

    @Test func aMissingOrCorruptImageSaysWhichFile() throws {
        #expect(throws: ResourceImage.LoadError.self) { try ResourceImage.load("no-such-picture.png") }
        do {
            _ = try ResourceImage.load("no-such-picture.png")
        } catch {
            #expect(error.description.contains("Resources/Images/no-such-picture.png"))
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("crisp-corrupt-\(UUID().uuidString).png").path
        try Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2]).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try ResourceImage.load(contentsOf: path)
            Issue.record("a corrupt PNG loaded")
        } catch {
            #expect(error.file == path)
            #expect(!error.reason.isEmpty)
        }
        // Without its picture, the button still draws its frame.
        let button = BitmapButtonView(image: nil)
        let c = try canvas(button, CGRect(x: 5, y: 5, width: 64, height: 64))
        let image = try c.snapshot()
        #expect(image.pixel(x: 37, y: 10) != image.pixel(x: 1, y: 1))
    }

    @Test func bitmapButtonIsPressedWhileTheFingerIsOnIt() throws {
        let button = BitmapButtonView(image: nil)
        let c = try canvas(button, CGRect(x: 10, y: 10, width: 64, height: 64))
        var taps = 0
        button.onTap = { taps += 1 }
        let p = button.convert(CGPoint(x: 32, y: 32), to: nil)
        c.window.handlePointer(.down, at: p)
        #expect(button.isPressed)
        c.window.handlePointer(.moved, at: CGPoint(x: p.x + 200, y: p.y))
        #expect(!button.isPressed, "dragged off: not pressed")
        c.window.handlePointer(.up, at: CGPoint(x: p.x + 200, y: p.y))
        #expect(taps == 0)
        tap(c.window, button)
        #expect(taps == 1 && !button.isPressed)
    }
}

/// A value set by the program (not a touch) animates from the first state too: each control's
/// animator exists from the start.
@Suite struct FirstChangeAnimatesTests {
    @Test func programmaticChangesAnimateFromTheStartingState() throws {
        let clock = TestClock()
        let compass = CompassView(inaccuracy: 12), uiSwitch = SwitchView(), gps = ServiceSwitchView(symbol: .gps, isOn: false, hasError: true)
        let canvas = try ControlCanvas(size: CGSize(width: 300, height: 200), scale: 1,
                              views: [(compass, CGRect(x: 0, y: 0, width: 100, height: 100)), (uiSwitch, CGRect(x: 120, y: 0, width: 79, height: 27)),
                                      (gps, CGRect(x: 120, y: 40, width: 56, height: 28))], clock: { clock.now })
        compass.inaccuracy = 60
        uiSwitch.isOn = true
        gps.isOn = true
        gps.hasError = false
        #expect(compass.needleAngle == 12)
        #expect(uiSwitch.knobPosition == 0)
        #expect(gps.knobPosition == 0 && gps.errorOpacity == 1)
        #expect(canvas.window.eventLoop.hasScheduledWork, "the animations run")
    }
}
