import CrispGraphics
import CrispUI
import Foundation

/// The status bar: signal bars and carrier on the left, the time in the middle, the battery on
/// the right (mirrored in a right-to-left layout). At 40 pt high (during a call) the whole bar turns green and its lower half reads
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
    /// The Wi-Fi strength, right of the carrier (shown when `network` is `.wifi`).
    public let wifiBars = WifiBarsView()
    /// The cellular data network, like "3G", right of the carrier (shown when `network` is `.cellular`).
    public let networkLabel = Label(text: "", fontSize: 12)
    /// The battery gauge.
    public let battery = BatteryView()
    /// "Touch to return to call", localized by that key.
    public let callLabel = Label(localizationKey: "Touch to return to call", fontSize: 12)
    /// The call's running time, like "1:05".
    public let callTimerLabel = Label(text: "0:00", fontSize: 12)

    /// What shows right of the carrier: nothing (the default), the Wi-Fi fan, or a cellular
    /// data network's name.
    public enum Network: Equatable, Sendable {
        case none, wifi
        case cellular(String)
    }

    /// The data network shown right of the carrier.
    public var network: Network = .none {
        didSet {
            guard network != oldValue else { return }
            if case .cellular(let name) = network { networkLabel.text = name }
            setNeedsLayout()
        }
    }

    /// Background of the normal bar.
    public static let normalColor = CGColor(gray: 0, alpha: 1)
    /// Background of the in-call bar.
    public static let inCallColor = CGColor(red: 0.30, green: 0.75, blue: 0.30, alpha: 1)

    /// Creates a status bar.
    public override init(frame: CGRect = .zero) {
        super.init(frame: frame)
        backgroundColor = StatusBarView.normalColor
        timeLabel.isBold = true
        networkLabel.isBold = true
        wifiBars.isHidden = true
        networkLabel.isHidden = true
        timeLabel.alignment = .center
        callLabel.alignment = .center
        callLabel.adjustsFontSizeToFitWidth = true
        callLabel.minimumScaleFactor = 0.8
        callTimerLabel.alignment = .right
        for label in [carrierLabel, networkLabel, timeLabel, callLabel, callTimerLabel] { label.textColor = .white }
        for v in [signalBars, carrierLabel, wifiBars, networkLabel, timeLabel, battery, callLabel, callTimerLabel] as [View] { addSubview(v) }
    }

    /// Whether the bar is showing the call band (it is 40 pt or more high).
    public var showsCallBand: Bool { bounds.height >= Screen.inCallStatusBarHeight }

    /// Space kept between items and at the edges, in points.
    static let spacing: CGFloat = 6

    /// Lays the items out in the top 20 points and the call band below. When the bar is too
    /// narrow for everything, items drop out as iOS's do, least important first: the carrier's
    /// name, then the signal bars, then the clock; the battery stays. In the call band the text
    /// shrinks and is cut to the room left of the timer, and the timer drops out last.
    public override func layoutSubviews() {
        // Right to left (Arabic), the bar mirrors as iOS's: signal and carrier on the right,
        // the battery on the left, the call timer on the left.
        layoutMirroredForDirection {
            let b = bounds
            let gap = StatusBarView.spacing
            let row = CGRect(x: b.minX, y: b.minY, width: b.width, height: Screen.statusBarHeight)
            let bars = SignalBarsView.preferredSize
            signalBars.frame = CGRect(x: row.minX + gap, y: row.midY - bars.height / 2, width: bars.width, height: bars.height)
            let carrier = carrierLabel.sizeThatFits(row.size)
            carrierLabel.frame = CGRect(x: signalBars.frame.maxX + 4, y: row.midY - carrier.height / 2,
                                        width: carrier.width, height: carrier.height)
            let cell = BatteryView.preferredSize
            battery.frame = CGRect(x: row.maxX - gap - cell.width, y: (row.midY - cell.height / 2).rounded(), width: cell.width, height: cell.height)
            let time = timeLabel.sizeThatFits(row.size)
            // The clock's box is 60 points wide where there is room (a steady repaint area as the
            // minutes change width), never wider than the space between the left items' edge and the battery.
            let centreRoom = 2 * min(row.midX - (row.minX + gap), battery.frame.minX - gap - row.midX)
            let timeWidth = max(time.width, min(60, centreRoom))
            timeLabel.frame = CGRect(x: (row.midX - timeWidth / 2).rounded(), y: row.midY - time.height / 2,
                                     width: timeWidth, height: time.height)
            // Centred if it fits there; otherwise the signal bars make way and the clock centres
            // in the room left of the battery; otherwise it goes too.
            let centred = row.midX - time.width / 2 - gap >= row.minX && row.midX + time.width / 2 + gap <= battery.frame.minX
            let room = CGRect(x: row.minX + gap, y: row.minY, width: battery.frame.minX - gap - (row.minX + gap), height: row.height)
            if !centred {
                timeLabel.frame = CGRect(x: (room.midX - time.width / 2).rounded(), y: row.midY - time.height / 2,
                                         width: time.width, height: time.height)
            }
            timeLabel.isHidden = !centred && time.width > room.width
            let leftLimit = timeLabel.isHidden ? battery.frame.minX - gap : row.midX - time.width / 2 - gap
            signalBars.isHidden = !centred || signalBars.frame.maxX > leftLimit
            carrierLabel.isHidden = signalBars.isHidden || carrierLabel.frame.maxX > leftLimit
            // The data network follows the carrier (or the bars when the carrier's name is empty)
            // and drops out with them.
            let networkX = (carrier.width > 0 ? carrierLabel.frame.maxX : signalBars.frame.maxX) + 4
            let fan = WifiBarsView.preferredSize, name = networkLabel.sizeThatFits(row.size)
            wifiBars.frame = CGRect(x: networkX, y: (row.midY - fan.height / 2).rounded(), width: fan.width, height: fan.height)
            networkLabel.frame = CGRect(x: networkX, y: row.midY - name.height / 2, width: name.width, height: name.height)
            let networkView: View? = switch network {
            case .none: nil
            case .wifi: wifiBars
            case .cellular: networkLabel
            }
            wifiBars.isHidden = networkView !== wifiBars || carrierLabel.isHidden || wifiBars.frame.maxX > leftLimit
            networkLabel.isHidden = networkView !== networkLabel || carrierLabel.isHidden || networkLabel.frame.maxX > leftLimit

            let inCall = showsCallBand
            backgroundColor = inCall ? StatusBarView.inCallColor : StatusBarView.normalColor
            let band = CGRect(x: b.minX, y: row.maxY, width: b.width, height: max(b.height - row.height, 0))
            let call = callLabel.sizeThatFits(band.size), timer = callTimerLabel.sizeThatFits(band.size)
            let timerWidth = max(timer.width, 40)
            callTimerLabel.frame = CGRect(x: band.maxX - gap - timerWidth, y: band.midY - timer.height / 2, width: timerWidth, height: timer.height)
            // The call text is centred on the bar, and kept clear of the timer on both sides so it stays centred.
            let showsTimer = band.width >= 160
            let callRoom = max(band.width - 2 * (showsTimer ? timerWidth + 2 * gap : gap), 0)
            let callWidth = min(call.width, callRoom)
            callLabel.frame = CGRect(x: band.midX - callWidth / 2, y: band.midY - call.height / 2, width: callWidth, height: call.height)
            callLabel.isHidden = !inCall
            callTimerLabel.isHidden = !inCall || !showsTimer
        }
    }
}
