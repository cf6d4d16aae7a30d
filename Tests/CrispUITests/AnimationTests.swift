import CrispGraphics
import CrispUI
import Foundation
import Testing

@Suite struct AnimationCurveTests {
    /// Core Animation's Béziers, solved to 1e-6 by bisection (reference values).
    @Test(arguments: [
        (AnimationCurve.easeInOut, [0.019722, 0.129162, 0.5, 0.870838, 0.980278]),
        (.easeIn, [0.017027, 0.093465, 0.315357, 0.621862, 0.839428]),
        (.easeOut, [0.160572, 0.378138, 0.684643, 0.906535, 0.982973]),
        (.linear, [0.1, 0.25, 0.5, 0.75, 0.9]),
    ] as [(AnimationCurve, [CGFloat])])
    func curveValuesAtFixedFractions(curve: AnimationCurve, expected: [CGFloat]) {
        for (t, value) in zip([0.1, 0.25, 0.5, 0.75, 0.9] as [CGFloat], expected) {
            #expect(abs(curve.value(at: t) - value) < 1e-5, "\(curve) at \(t)")
        }
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        #expect(curve.value(at: -3) == 0)
        #expect(curve.value(at: 7) == 1)
        #expect(curve.value(at: .nan) == 0)
    }

    @Test func optionsChooseTheCurve() {
        #expect(AnimationOptions().curve == .easeInOut)
        #expect(AnimationOptions.curveEaseIn.curve == .easeIn)
        #expect(AnimationOptions.curveEaseOut.curve == .easeOut)
        #expect(([.curveLinear, .allowUserInteraction] as AnimationOptions).curve == .linear)
    }
}

@Suite struct SpringTests {
    @Test func criticallyDampedSpringRisesWithoutOvershoot() {
        let spring = Spring(damping: 1, duration: 0.5)
        // 1 − e^(−ωs)(1 + ωs) + x(1)·s with ω = ln 1000.
        for (s, value) in zip([0.1, 0.25, 0.5, 0.75] as [CGFloat], [0.153396, 0.517051, 0.86311, 0.971174] as [CGFloat]) {
            #expect(abs(spring.value(at: s) - value) < 1e-5, "at \(s)")
        }
        var previous: CGFloat = 0
        for i in 1...100 {
            let v = spring.value(at: CGFloat(i) / 100)
            #expect(v >= previous && v <= 1)
            previous = v
        }
        #expect(spring.value(at: 0) == 0)
        #expect(spring.value(at: 1) == 1)
    }

    @Test func underdampedSpringOvershootsAndEndsExactly() {
        let spring = Spring(damping: 0.5, duration: 1)
        for (s, value) in zip([0.1, 0.25, 0.5, 0.75] as [CGFloat], [0.547465, 1.160556, 0.975458, 1.004017] as [CGFloat]) {
            #expect(abs(spring.value(at: s) - value) < 1e-5, "at \(s)")
        }
        #expect(spring.value(at: 1) == 1)
    }

    @Test func initialVelocityPushesTheStart() {
        let still = Spring(damping: 1, initialVelocity: 0, duration: 1)
        let pushed = Spring(damping: 1, initialVelocity: 5, duration: 1)
        let pulled = Spring(damping: 1, initialVelocity: -5, duration: 1)
        #expect(pushed.value(at: 0.02) > still.value(at: 0.02))
        #expect(pulled.value(at: 0.02) < 0)
        #expect(pushed.value(at: 1) == 1 && pulled.value(at: 1) == 1)
    }

    @Test func dampingIsClamped() {
        #expect(Spring(damping: 3, duration: 1).damping == 1)
        #expect(Spring(damping: 0, duration: 1).damping == 0.01)
        #expect(Spring(damping: .nan, duration: 1).damping == 1)
        #expect(Spring(damping: 0, duration: 1).value(at: 1) == 1)
    }
}

@Suite struct InterpolationTests {
    @Test func geometryInterpolatesLinearlyAndExactlyAtTheEnds() {
        let a = CGRect(x: 0.1, y: 0, width: 10, height: 20), b = CGRect(x: 0.3, y: 10, width: 30, height: 0)
        #expect(a.interpolated(to: b, fraction: 0) == a)
        #expect(a.interpolated(to: b, fraction: 1) == b)
        #expect(a.interpolated(to: b, fraction: 0.5).size == CGSize(width: 20, height: 10))
        #expect(CGPoint(x: 0, y: 0).interpolated(to: CGPoint(x: 10, y: -10), fraction: 1.2) == CGPoint(x: 12, y: -12))
        #expect((2.0 as Double).interpolated(to: 4, fraction: 0.25) == 2.5)
        let t = CGAffineTransform(scaleX: 3, y: 1).interpolated(to: .identity, fraction: 0.5)
        #expect(t == CGAffineTransform(scaleX: 2, y: 1))
    }

    @Test func coloursInterpolatePremultiplied() {
        // A fade from transparent keeps the hue: half-way is red at half alpha, not dark red.
        let half = CGColor.clear.interpolated(to: CGColor(red: 1, green: 0, blue: 0, alpha: 1), fraction: 0.5)
        #expect(half.components == [1, 0, 0, 0.5])
        // Opaque colours mix channel by channel.
        let mid = CGColor(red: 0, green: 0.2, blue: 1, alpha: 1).interpolated(to: CGColor(red: 1, green: 0.6, blue: 0, alpha: 1), fraction: 0.25)
        #expect(mid.components!.enumerated().allSatisfy { abs($0.element - [0.25, 0.3, 0.75, 1][$0.offset]) < 1e-12 })
        // Greys stay grey; an overshoot is clamped.
        let grey = CGColor(gray: 0.2, alpha: 1).interpolated(to: CGColor(gray: 0.8, alpha: 1), fraction: 2)
        #expect(grey.components == [1, 1])
        let end = CGColor(red: 0.3, green: 0.3, blue: 0.3, alpha: 0.3)
        #expect(CGColor.white.interpolated(to: end, fraction: 1) === end)
    }
}

/// A window with one 40×40 view at (10, 10), and its manual clock.
private func animationFixture() -> (ManualClock, Window, View) {
    let clock = ManualClock()
    let window = makeWindow(clock: clock)
    let view = View(frame: CGRect(x: 10, y: 10, width: 40, height: 40))
    window.addSubview(view)
    return (clock, window, view)
}

/// Advances the clock by `seconds` and runs the loop's due work (one frame).
private func frame(_ clock: ManualClock, _ window: Window, after seconds: TimeInterval) {
    clock.advance(by: seconds)
    window.eventLoop.runDueWork()
}

@Suite struct ValueAnimatorTests {
    @Test func animatesOnTheMonotonicClockAndStopsTheDisplayLink() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        var seen: [CGFloat] = []
        animator.onChange = { seen.append($0) }
        var completions: [Bool] = []
        #expect(!window.eventLoop.hasScheduledWork)
        animator.animate(to: 100, duration: 1, curve: .linear) { completions.append($0) }
        #expect(animator.isAnimating && animator.targetValue == 100 && animator.value == 0)
        #expect(window.eventLoop.nextDeadline() == clock.now)
        frame(clock, window, after: 0.25)
        #expect(animator.value == 25)
        frame(clock, window, after: 0.5)
        #expect(animator.value == 75)
        #expect(completions.isEmpty)
        frame(clock, window, after: 0.25)
        #expect(animator.value == 100 && !animator.isAnimating)
        #expect(completions == [true])
        #expect(seen == [25, 75, 100])
        // Idle again: nothing scheduled, so the host sleeps until input (0 CPU).
        #expect(!window.eventLoop.hasScheduledWork)
        #expect(window.eventLoop.nextDeadline() == nil)
        #expect(!window.eventLoop.isAnimating)
    }

    @Test func aSlowFrameSkipsAhead() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        animator.animate(to: 1, duration: 1, curve: .easeIn)
        frame(clock, window, after: 1.0 / 60)
        frame(clock, window, after: 0.5 - 1.0 / 60)   // a frame half a second late
        #expect(abs(animator.value - AnimationCurve.easeIn.value(at: 0.5)) < 1e-12)
        frame(clock, window, after: 3)
        #expect(animator.value == 1 && !animator.isAnimating)
    }

    @Test func interruptionStartsFromThePresentationValue() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        var first: [Bool] = [], second: [Bool] = []
        animator.animate(to: 100, duration: 1, curve: .linear) { first.append($0) }
        frame(clock, window, after: 0.5)
        animator.animate(to: 0, duration: 1, curve: .linear) { second.append($0) }
        #expect(first == [false])
        #expect(animator.value == 50 && animator.targetValue == 0)
        frame(clock, window, after: 0.5)
        #expect(animator.value == 25)
        frame(clock, window, after: 0.5)
        #expect(animator.value == 0)
        frame(clock, window, after: 1)
        #expect(first == [false] && second == [true])
        #expect(!window.eventLoop.hasScheduledWork)
    }

    @Test func setJumpsAndStopsTheAnimation() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGPoint>(.zero, owner: view)
        var completions: [Bool] = []
        animator.animate(to: CGPoint(x: 10, y: 10), duration: 1) { completions.append($0) }
        frame(clock, window, after: 0.3)
        animator.set(CGPoint(x: -5, y: 0))
        #expect(completions == [false])
        #expect(animator.value == CGPoint(x: -5, y: 0) && animator.targetValue == animator.value && !animator.isAnimating)
        #expect(!window.eventLoop.hasScheduledWork)
        frame(clock, window, after: 1)
        #expect(completions == [false] && animator.value == CGPoint(x: -5, y: 0))
    }

    @Test func springEndsAtTheTarget() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        var completions: [Bool] = []
        animator.animateSpring(to: 10, damping: 0.5, duration: 1) { completions.append($0) }
        frame(clock, window, after: 0.25)
        #expect(abs(animator.value - 11.60556) < 1e-4)   // overshoot
        frame(clock, window, after: 0.75)
        #expect(animator.value == 10 && completions == [true])
    }

    @Test func eachFrameRepaintsOnlyTheOwner() throws {
        let (clock, window, view) = animationFixture()
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        let animator = ValueAnimator<CGColor>(.black, owner: view)
        animator.animate(to: .white, duration: 0.3)
        frame(clock, window, after: 0.1)
        #expect(try host.renderFrame() == [CGRect(x: 10, y: 10, width: 40, height: 40)])
    }

    @Test func withoutAWindowTheValueJumpsToItsEnd() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        var completions: [Bool] = []
        animator.animate(to: 4, duration: 1) { completions.append($0) }
        #expect(animator.value == 4 && !animator.isAnimating && completions == [true])
    }

    @Test func completionMayChainAnotherAnimation() {
        let (clock, window, view) = animationFixture()
        let animator = ValueAnimator<CGFloat>(0, owner: view)
        animator.animate(to: 1, duration: 0.5, curve: .linear) { _ in animator.animate(to: 0, duration: 0.5, curve: .linear) }
        frame(clock, window, after: 0.5)
        #expect(animator.value == 1 && animator.isAnimating && animator.targetValue == 0)
        frame(clock, window, after: 0.25)
        #expect(animator.value == 0.5)
        frame(clock, window, after: 0.25)
        #expect(animator.value == 0 && !window.eventLoop.hasScheduledWork)
    }
}

@Suite struct ViewAnimationTests {
    @Test func frameAndAlphaAnimateAlongTheCurve() {
        let (clock, window, view) = animationFixture()
        var completions: [Bool] = []
        View.animate(withDuration: 1, options: .curveLinear, animations: {
            view.frame = CGRect(x: 50, y: 10, width: 20, height: 40)
            view.alpha = 0
        }, completion: { completions.append($0) })
        // Nothing moved yet: the properties went back to their old values.
        #expect(view.frame == CGRect(x: 10, y: 10, width: 40, height: 40) && view.alpha == 1)
        frame(clock, window, after: 0.25)
        #expect(view.frame == CGRect(x: 20, y: 10, width: 35, height: 40))
        #expect(view.alpha == 0.75)
        frame(clock, window, after: 0.75)
        #expect(view.frame == CGRect(x: 50, y: 10, width: 20, height: 40) && view.alpha == 0)
        #expect(completions == [true])
        #expect(!window.eventLoop.hasScheduledWork)
    }

    @Test func defaultCurveIsEaseInOut() {
        let (clock, window, view) = animationFixture()
        View.animate(withDuration: 2, animations: { view.center = CGPoint(x: 130, y: 30) })
        frame(clock, window, after: 0.5)
        #expect(abs(view.center.x - (30 + 100 * AnimationCurve.easeInOut.value(at: 0.25))) < 1e-9)
        #expect(view.center.y == 30)
    }

    @Test func interruptionContinuesFromWhereItIsAndReportsFalseOnce() {
        let (clock, window, view) = animationFixture()
        var first: [Bool] = [], second: [Bool] = []
        View.animate(withDuration: 1, options: .curveLinear, animations: { view.alpha = 0 }, completion: { first.append($0) })
        frame(clock, window, after: 0.5)
        #expect(view.alpha == 0.5)
        View.animate(withDuration: 1, options: .curveLinear, animations: { view.alpha = 1 }, completion: { second.append($0) })
        #expect(first == [false])
        #expect(view.alpha == 0.5)
        frame(clock, window, after: 0.5)
        #expect(view.alpha == 0.75)
        frame(clock, window, after: 0.5)
        #expect(view.alpha == 1 && first == [false] && second == [true])
    }

    @Test func aGroupCompletesOnceWhenItsLastPropertyEnds() {
        let (clock, window, view) = animationFixture()
        let other = View(frame: CGRect(x: 0, y: 0, width: 5, height: 5))
        window.addSubview(other)
        var first: [Bool] = []
        View.animate(withDuration: 1, options: .curveLinear, animations: {
            view.alpha = 0
            other.backgroundColor = .white
        }, completion: { first.append($0) })
        frame(clock, window, after: 0.5)
        // A new animation takes over one property: the group goes on with the other.
        View.animate(withDuration: 0.2, animations: { view.alpha = 1 })
        #expect(first.isEmpty)
        frame(clock, window, after: 0.5)
        #expect(first == [false])
        #expect(other.backgroundColor == .white && view.alpha == 1)
    }

    @Test func aPlainAssignmentEndsThePropertysAnimationWithoutInterrupting() {
        let (clock, window, view) = animationFixture()
        var completions: [Bool] = []
        View.animate(withDuration: 1, animations: { view.center = .zero }, completion: { completions.append($0) })
        frame(clock, window, after: 0.5)
        view.center = CGPoint(x: 200, y: 200)
        #expect(completions == [true])
        frame(clock, window, after: 0.5)
        #expect(view.center == CGPoint(x: 200, y: 200))
        #expect(!window.eventLoop.hasScheduledWork)
    }

    @Test func delayHoldsTheOldValue() {
        let (clock, window, view) = animationFixture()
        View.animate(withDuration: 1, delay: 0.5, options: .curveLinear, animations: { view.backgroundColor = .white })
        #expect(view.backgroundColor == nil)
        frame(clock, window, after: 0.4)
        #expect(view.backgroundColor == nil)
        frame(clock, window, after: 0.6)
        #expect(view.backgroundColor?.components == [1, 0.5])
        frame(clock, window, after: 0.5)
        #expect(view.backgroundColor == .white)
    }

    @Test func springOvershootsThenSettles() {
        let (clock, window, view) = animationFixture()
        View.animate(withDuration: 1, usingSpringWithDamping: 0.5, initialSpringVelocity: 0, animations: {
            view.transform = CGAffineTransform(scaleX: 2, y: 2)
        })
        frame(clock, window, after: 0.25)
        #expect(abs(view.transform.a - 2.160556) < 1e-5)
        frame(clock, window, after: 0.75)
        #expect(view.transform == CGAffineTransform(scaleX: 2, y: 2))
    }

    @Test func viewsWithoutAWindowTakeTheirValuesAtOnce() {
        let view = View(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        var completions: [Bool] = []
        View.animate(withDuration: 1, animations: { view.alpha = 0.2 }, completion: { completions.append($0) })
        #expect(view.alpha == 0.2 && completions == [true])
    }

    @Test func nothingChangedCompletesAtOnce() {
        let (clock, window, view) = animationFixture()
        defer { withExtendedLifetime(clock) {} }
        var completions: [Bool] = []
        View.animate(withDuration: 1, animations: { view.alpha = 1 }, completion: { completions.append($0) })
        #expect(completions == [true] && !window.eventLoop.hasScheduledWork)
    }

    @Test func animatingViewsAreNotHitUnlessAllowed() {
        let (clock, window, view) = animationFixture()
        let point = CGPoint(x: 20, y: 20)
        View.animate(withDuration: 1, animations: { view.alpha = 0.5 })
        #expect(window.hitTest(point) === window)
        frame(clock, window, after: 1)
        #expect(window.hitTest(point) === view)
        View.animate(withDuration: 1, options: .allowUserInteraction, animations: { view.alpha = 1 })
        #expect(window.hitTest(point) === view)
    }

    @Test func snapshotFinishesAnimations() throws {
        let (clock, window, view) = animationFixture()
        defer { withExtendedLifetime(clock) {} }
        var completions: [Bool] = []
        View.animate(withDuration: 1, animations: { view.backgroundColor = .white }, completion: { completions.append($0) })
        let image = try HeadlessHost(window: window).snapshot()
        #expect(completions == [true] && !window.eventLoop.hasScheduledWork)
        #expect(image.pixel(x: 20, y: 20) == 0xFFFF_FFFF)
    }

    @Test func aSizeAnimationLaysTheViewOutAtEveryStep() throws {
        let (clock, window, _) = animationFixture()
        let view = RecordingView(frame: CGRect(x: 0, y: 0, width: 10, height: 10))
        window.addSubview(view)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        let before = view.layoutCount
        View.animate(withDuration: 1, animations: { view.bounds.size = CGSize(width: 30, height: 30) })
        for _ in 0..<3 {
            frame(clock, window, after: 0.2)
            try host.renderFrame()
        }
        #expect(view.layoutCount - before >= 3)
    }
}

@Suite struct ViewTransformTests {
    @Test func transformScalesAboutTheCentreForDrawingHitTestingAndConversion() throws {
        let window = makeWindow(width: 100, height: 80)
        let view = RecordingView(frame: CGRect(x: 40, y: 30, width: 20, height: 20))
        view.fill = .white
        window.addSubview(view)
        view.transform = CGAffineTransform(scaleX: 2, y: 2)
        #expect(view.frame == CGRect(x: 40, y: 30, width: 20, height: 20))
        #expect(view.convert(CGPoint.zero, to: nil) == CGPoint(x: 30, y: 20))
        #expect(view.convert(CGPoint(x: 30, y: 20), from: nil) == .zero)
        #expect(window.hitTest(CGPoint(x: 32, y: 22)) === view)
        #expect(window.hitTest(CGPoint(x: 28, y: 22)) === window)
        let image = try HeadlessHost(window: window).snapshot()
        #expect(image.pixel(x: 30, y: 20) == 0xFFFF_FFFF)
        #expect(image.pixel(x: 69, y: 59) == 0xFFFF_FFFF)
        #expect(image.pixel(x: 29, y: 20) == 0xFF00_0000)
        #expect(image.pixel(x: 70, y: 59) == 0xFF00_0000)
    }

    @Test func changingTheTransformRepaintsOldAndNewArea() throws {
        let window = makeWindow(width: 200, height: 80)
        let view = View(frame: CGRect(x: 40, y: 30, width: 20, height: 20))
        window.addSubview(view)
        let host = try HeadlessHost(window: window)
        try host.renderFrame()
        view.transform = CGAffineTransform(translationX: 60, y: 0)
        #expect(try host.renderFrame() == [CGRect(x: 40, y: 30, width: 20, height: 20), CGRect(x: 100, y: 30, width: 20, height: 20)])
    }

    @Test func aRotatedSubviewConvertsThroughTheRotation() {
        let window = makeWindow(width: 100, height: 100)
        let view = View(frame: CGRect(x: 40, y: 40, width: 20, height: 20))
        window.addSubview(view)
        view.transform = CGAffineTransform(rotationAngle: .pi / 2)
        // The top-left corner turns a quarter about the centre (50, 50): y down, so it lands top-right.
        let p = view.convert(CGPoint.zero, to: nil)
        #expect(abs(p.x - 60) < 1e-9 && abs(p.y - 40) < 1e-9)
    }
}
