import CrispGraphics
import CrispUI
import Foundation

/// The status bar: signal bars and carrier on the left, the time in the middle, the battery on
/// the right. At 40 pt high (during a call) the whole bar turns green and its lower half reads
/// "Touch to return to call" with the call's running time.
///
/// The view follows its frame: the window gives it `Screen.statusBarFrame`, so it shows the call
/// band whenever it is at least `Screen.inCallStatusBarHeight` high.
public final class StatusBarView: View {
    /// Signal strength.
    public let signalBars = SignalBarsView()
    /// The carrier's name.
    public let carrierLabel = Label(text: "Crisp", fontSize: 12)
    /// The time of day, like "9:41".
    public let timeLabel = Label(text: "9:41", fontSize: 12)
    /// The battery gauge.
    public let battery = BatteryView()
    /// "Touch to return to call", localized by that key.
    public let callLabel = Label(localizationKey: "Touch to return to call", fontSize: 12)
    /// The call's running time, like "1:05".
    public let callTimerLabel = Label(text: "0:00", fontSize: 12)

    /// Background of the normal bar.
    public static let normalColor = CGColor(gray: 0, alpha: 1)
    /// Background of the in-call bar.
    public static let inCallColor = CGColor(red: 0.30, green: 0.75, blue: 0.30, alpha: 1)

    /// Creates a status bar.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = StatusBarView.normalColor
        timeLabel.isBold = true
        timeLabel.alignment = .center
        callLabel.alignment = .center
        callTimerLabel.alignment = .right
        for label in [carrierLabel, timeLabel, callLabel, callTimerLabel] { label.textColor = .white }
        for v in [signalBars, carrierLabel, timeLabel, battery, callLabel, callTimerLabel] as [View] { addSubview(v) }
    }

    /// Whether the bar is showing the call band (it is 40 pt or more high).
    public var showsCallBand: Bool { bounds.height >= Screen.inCallStatusBarHeight }

    public override func layoutSubviews() {
        let b = bounds
        let row = CGRect(x: b.minX, y: b.minY, width: b.width, height: Screen.statusBarHeight)
        let bars = SignalBarsView.preferredSize
        signalBars.frame = CGRect(x: row.minX + 6, y: row.midY - bars.height / 2, width: bars.width, height: bars.height)
        let carrier = carrierLabel.sizeThatFits(row.size)
        carrierLabel.frame = CGRect(x: signalBars.frame.maxX + 4, y: row.midY - carrier.height / 2,
                                    width: carrier.width, height: carrier.height)
        let time = timeLabel.sizeThatFits(row.size)
        let timeWidth = max(time.width, 60)
        timeLabel.frame = CGRect(x: (row.midX - timeWidth / 2).rounded(), y: row.midY - time.height / 2,
                                 width: timeWidth, height: time.height)
        let cell = BatteryView.preferredSize
        battery.frame = CGRect(x: row.maxX - 6 - cell.width, y: (row.midY - cell.height / 2).rounded(), width: cell.width, height: cell.height)

        let inCall = showsCallBand
        backgroundColor = inCall ? StatusBarView.inCallColor : StatusBarView.normalColor
        callLabel.isHidden = !inCall
        callTimerLabel.isHidden = !inCall
        let band = CGRect(x: b.minX, y: row.maxY, width: b.width, height: max(b.height - row.height, 0))
        let call = callLabel.sizeThatFits(band.size), timer = callTimerLabel.sizeThatFits(band.size)
        callLabel.frame = CGRect(x: band.midX - call.width / 2, y: band.midY - call.height / 2, width: call.width, height: call.height)
        let timerWidth = max(timer.width, 40)
        callTimerLabel.frame = CGRect(x: band.maxX - 6 - timerWidth, y: band.midY - timer.height / 2, width: timerWidth, height: timer.height)
    }
}
