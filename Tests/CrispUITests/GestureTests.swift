import CrispGraphics
import CrispUI
import Foundation
import Testing

/// Gesture state machines driven by synthetic pointer events and a manual clock.
@Suite struct GestureTests {
    let clock = ManualClock()
    let window: Window
    let target: RecordingView

    init() {
        window = makeWindow(width: 300, height: 300, clock: clock)
        target = RecordingView(frame: CGRect(x: 50, y: 50, width: 200, height: 200))
        window.addSubview(target)
    }

    func states<R: GestureRecognizer>(of recognizer: R) -> () -> [GestureRecognizer.State] {
        var log: [GestureRecognizer.State] = []
        recognizer.addAction { log.append($0.state) }
        return { log }
    }

    @Test func touchesGoToTheHitViewAndKeepGoingThereOutsideIt() {
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.moved, at: CGPoint(x: 5, y: 5))
        window.handlePointer(.up, at: CGPoint(x: -20, y: 400))
        #expect(target.log == ["began", "moved", "ended"])
    }

    @Test func unhandledTouchesGoUpTheResponderChain() {
        let child = View(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        target.addSubview(child)
        window.handlePointer(.down, at: CGPoint(x: 65, y: 65))
        window.handlePointer(.up, at: CGPoint(x: 65, y: 65))
        #expect(target.log == ["began", "ended"])
    }

    @Test func motionWithoutAPressIsIgnored() {
        window.handlePointer(.moved, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        #expect(target.log.isEmpty)
    }

    @Test func tapIsRecognizedAndCancelsTheViewsTouch() {
        let tap = TapGestureRecognizer()
        let log = states(of: tap)
        target.addGestureRecognizer(tap)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.moved, at: CGPoint(x: 64, y: 63))
        window.handlePointer(.up, at: CGPoint(x: 64, y: 63))
        #expect(log() == [.recognized])
        #expect(target.log == ["began", "moved", "cancelled"])
        #expect(tap.state == .possible, "reset after the touch sequence")
    }

    @Test func tapFailsWhenTheTouchWanders() {
        let tap = TapGestureRecognizer()
        let log = states(of: tap)
        target.addGestureRecognizer(tap)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.moved, at: CGPoint(x: 60, y: 75))
        #expect(tap.state == .failed)
        window.handlePointer(.up, at: CGPoint(x: 60, y: 75))
        #expect(log().isEmpty)
        #expect(target.log == ["began", "moved", "ended"])
    }

    @Test func doubleTapNeedsTheSecondTapInTime() {
        let tap = TapGestureRecognizer()
        tap.numberOfTapsRequired = 2
        let log = states(of: tap)
        target.addGestureRecognizer(tap)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 0.2)
        window.eventLoop.runDueWork()
        window.handlePointer(.down, at: CGPoint(x: 61, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 61, y: 60))
        #expect(log() == [.recognized])

        // Too slow: the wait timer fails it, and the next tap starts a new count.
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 0.5)
        window.eventLoop.runDueWork()
        #expect(tap.state == .possible && tap.tapCount == 0)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        #expect(log() == [.recognized])
    }

    @Test func longPressBeginsAfterTheMinimumDuration() {
        let press = LongPressGestureRecognizer()
        let log = states(of: press)
        target.addGestureRecognizer(press)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 0.49)
        window.eventLoop.runDueWork()
        #expect(press.state == .possible)
        clock.advance(by: 0.01)
        window.eventLoop.runDueWork()
        #expect(press.state == .began)
        #expect(target.log == ["began", "cancelled"])
        window.handlePointer(.moved, at: CGPoint(x: 90, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 90, y: 60))
        #expect(log() == [.began, .changed, .ended])
        #expect(target.log == ["began", "cancelled"])
    }

    @Test func longPressDurationIsConfigurable() {
        let press = LongPressGestureRecognizer()
        press.minimumPressDuration = 1.5
        target.addGestureRecognizer(press)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 1)
        window.eventLoop.runDueWork()
        #expect(press.state == .possible)
        clock.advance(by: 0.5)
        window.eventLoop.runDueWork()
        #expect(press.state == .began)
    }

    @Test func longPressFailsWhenReleasedEarlyOrMoved() {
        let press = LongPressGestureRecognizer()
        let log = states(of: press)
        target.addGestureRecognizer(press)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 0.3)
        window.eventLoop.runDueWork()
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        clock.advance(by: 1)
        window.eventLoop.runDueWork()
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.moved, at: CGPoint(x: 80, y: 60))
        clock.advance(by: 1)
        window.eventLoop.runDueWork()
        window.handlePointer(.up, at: CGPoint(x: 80, y: 60))
        #expect(log().isEmpty)
        #expect(!window.eventLoop.hasScheduledWork)
    }

    @Test func panBeginsPastTheThresholdAndTracksTranslation() {
        let pan = PanGestureRecognizer()
        let log = states(of: pan)
        var translations: [CGPoint] = []
        pan.addAction { translations.append(($0 as! PanGestureRecognizer).translation(in: nil)) }
        target.addGestureRecognizer(pan)
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        window.handlePointer(.moved, at: CGPoint(x: 105, y: 100))
        #expect(pan.state == .possible)
        clock.advance(by: 0.1)
        window.handlePointer(.moved, at: CGPoint(x: 112, y: 100))
        clock.advance(by: 0.1)
        window.handlePointer(.moved, at: CGPoint(x: 132, y: 90))
        let v = pan.velocity(in: nil)
        #expect(abs(v.x - 200) < 1e-6 && abs(v.y + 100) < 1e-6)
        window.handlePointer(.up, at: CGPoint(x: 132, y: 90))
        #expect(log() == [.began, .changed, .ended])
        #expect(translations == [CGPoint(x: 12, y: 0), CGPoint(x: 32, y: -10), CGPoint(x: 32, y: -10)])
        #expect(target.log == ["began", "moved", "cancelled"])
    }

    /// Through a view scaled 2× and turned a quarter turn (x axis pointing down the screen), a
    /// 20-point drag to the right reads (0, −10) in the view's coordinates.
    @Test func panTranslationAndVelocityFollowTheViewsTransform() {
        target.transform = CGAffineTransform(rotationAngle: .pi / 2).scaledBy(x: 2, y: 2)
        let pan = PanGestureRecognizer()
        window.addGestureRecognizer(pan)
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        clock.advance(by: 0.5)
        window.handlePointer(.moved, at: CGPoint(x: 120, y: 100))
        let t = pan.translation(in: target), v = pan.velocity(in: target)
        #expect(abs(t.x) < 1e-9 && abs(t.y + 10) < 1e-9)
        #expect(abs(v.x) < 1e-9 && abs(v.y + 20) < 1e-9)
        #expect(pan.translation(in: nil) == CGPoint(x: 20, y: 0))
        pan.setTranslation(.zero, in: target)
        #expect(abs(pan.translation(in: nil).x) < 1e-9)
        window.handlePointer(.up, at: CGPoint(x: 120, y: 100))
    }

    @Test func panThatNeverStartsFailsAndLeavesTheViewAlone() {
        let pan = PanGestureRecognizer()
        let log = states(of: pan)
        target.addGestureRecognizer(pan)
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        window.handlePointer(.moved, at: CGPoint(x: 103, y: 103))
        window.handlePointer(.up, at: CGPoint(x: 103, y: 103))
        #expect(log().isEmpty)
        #expect(target.log == ["began", "moved", "ended"])
    }

    @Test func oneRecognizerWinsTheOthersFail() {
        let tap = TapGestureRecognizer(), press = LongPressGestureRecognizer(), pan = PanGestureRecognizer()
        let tapLog = states(of: tap), pressLog = states(of: press), panLog = states(of: pan)
        for r in [tap, press, pan] as [GestureRecognizer] { target.addGestureRecognizer(r) }
        // A drag: pan wins, tap and long press fail.
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        window.handlePointer(.moved, at: CGPoint(x: 130, y: 100))
        clock.advance(by: 1)
        window.eventLoop.runDueWork()
        window.handlePointer(.up, at: CGPoint(x: 130, y: 100))
        #expect(panLog() == [.began, .changed, .ended] || panLog() == [.began, .ended])
        #expect(tapLog().isEmpty && pressLog().isEmpty)
        // A hold: long press wins over tap.
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        clock.advance(by: 0.6)
        window.eventLoop.runDueWork()
        window.handlePointer(.up, at: CGPoint(x: 100, y: 100))
        #expect(pressLog() == [.began, .ended])
        #expect(tapLog().isEmpty)
        // A quick click: tap.
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        window.handlePointer(.up, at: CGPoint(x: 100, y: 100))
        #expect(tapLog() == [.recognized])
    }

    @Test func targetActionHoldsTheTargetWeakly() {
        final class Controller {
            var taps = 0
            func handleTap(_ r: GestureRecognizer) { taps += 1 }
        }
        var controller: Controller? = Controller()
        let tap = TapGestureRecognizer()
        tap.addTarget(controller!, action: Controller.handleTap)
        target.addGestureRecognizer(tap)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
        #expect(controller?.taps == 1)
        weak let gone = controller
        controller = nil
        #expect(gone == nil)
        window.handlePointer(.down, at: CGPoint(x: 60, y: 60))
        window.handlePointer(.up, at: CGPoint(x: 60, y: 60))
    }

    @Test func recognizerOnAnAncestorSeesTouchesOnSubviews() {
        let child = RecordingView(frame: CGRect(x: 10, y: 10, width: 20, height: 20))
        target.addSubview(child)
        let tap = TapGestureRecognizer()
        let log = states(of: tap)
        target.addGestureRecognizer(tap)
        window.handlePointer(.down, at: CGPoint(x: 65, y: 65))
        window.handlePointer(.up, at: CGPoint(x: 65, y: 65))
        #expect(log() == [.recognized])
        #expect(child.log == ["began", "cancelled"])
    }

    @Test func removingTheTouchedViewCancelsTheTouch() {
        let pan = PanGestureRecognizer()
        let log = states(of: pan)
        target.addGestureRecognizer(pan)
        window.handlePointer(.down, at: CGPoint(x: 100, y: 100))
        window.handlePointer(.moved, at: CGPoint(x: 130, y: 100))
        target.removeFromSuperview()
        #expect(log() == [.began, .cancelled])
        window.handlePointer(.up, at: CGPoint(x: 130, y: 100))
        #expect(log() == [.began, .cancelled])
    }
}
