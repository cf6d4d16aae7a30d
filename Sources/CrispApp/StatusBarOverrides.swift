import CrispUI
import CrispWidgets
import Foundation

/// What the status bar shows instead of its defaults, by the names `xcrun simctl status_bar
/// override` uses (the command line's `--status-bar`, like
/// `time=9:41,cellularBars=2,dataNetwork=lte,batteryState=charging,batteryLevel=50`).
public struct StatusBarOverrides: Equatable, Sendable {
    /// The battery's charging state.
    public enum BatteryState: String, CaseIterable, Sendable {
        /// Plugged in and charging (a bolt beside the battery).
        case charging
        /// Plugged in and full.
        case charged
        /// On battery.
        case discharging
    }
    /// The data network shown right of the carrier (`hide`: none).
    public enum DataNetwork: String, CaseIterable, Sendable {
        /// Wi-Fi.
        case wifi
        /// 3G.
        case threeG = "3g"
        /// 4G.
        case fourG = "4g"
        /// LTE.
        case lte
        /// No data network shown.
        case hide
    }

    /// The time of day, like "9:41" (also freezes the call timer, as `--clock`).
    public var time: String?
    /// The carrier's name (empty: none).
    public var operatorName: String?
    /// Cellular signal, 0…4 (4: every bar).
    public var cellularBars: Int?
    /// Wi-Fi signal, 0…3 (shows the Wi-Fi fan unless `dataNetwork` says otherwise).
    public var wifiBars: Int?
    /// Charging, charged (a full gauge unless `batteryLevel` says otherwise) or discharging.
    public var batteryState: BatteryState?
    /// The battery's charge in percent, 0…100.
    public var batteryLevel: Int?
    /// The data network right of the carrier.
    public var dataNetwork: DataNetwork?

    /// The names, as `--status-bar` takes them.
    public static let names = ["time", "operatorName", "cellularBars", "wifiBars", "batteryState", "batteryLevel", "dataNetwork"]

    /// A bad `--status-bar` value: `description` names what was wrong and what is valid.
    public struct ParseError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// No overrides.
    public init() {}

    /// Reads `name=value` pairs separated by commas; names are matched without regard to case.
    /// An unknown name, a pair without `=`, a value out of range or a name given twice throws
    /// an error that lists the valid names or values.
    public init(parsing text: String) throws(ParseError) {
        var seen: Set<String> = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let pair = item.trimmingCharacters(in: .whitespaces)
            guard let eq = pair.firstIndex(of: "=") else {
                throw ParseError(description: "--status-bar takes name=value pairs separated by commas, not '\(pair)'; names: \(Self.names.joined(separator: ", "))")
            }
            let key = String(pair[..<eq]), value = String(pair[pair.index(after: eq)...])
            guard let name = Self.names.first(where: { $0.lowercased() == key.lowercased() }) else {
                throw ParseError(description: "unknown --status-bar name '\(key)'; use one of \(Self.names.joined(separator: ", "))")
            }
            guard seen.insert(name).inserted else { throw ParseError(description: "--status-bar names \(name) twice") }
            func number(_ range: ClosedRange<Int>) throws(ParseError) -> Int {
                guard let n = Int(value), range.contains(n) else {
                    throw ParseError(description: "--status-bar \(name)=\(value): use a whole number \(range.lowerBound)…\(range.upperBound)")
                }
                return n
            }
            func choice<T: RawRepresentable & CaseIterable>(_: T.Type) throws(ParseError) -> T where T.RawValue == String {
                guard let c = T(rawValue: value.lowercased()) else {
                    throw ParseError(description: "--status-bar \(name)=\(value): use one of \(T.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                return c
            }
            switch name {
            case "time":
                guard !value.isEmpty, value.count <= 12 else {
                    throw ParseError(description: "--status-bar time=\(value): give the time to show, 1 to 12 characters, like 9:41")
                }
                time = value
            case "operatorName":
                guard value.count <= 32 else { throw ParseError(description: "--status-bar operatorName: at most 32 characters") }
                operatorName = value
            case "cellularBars": cellularBars = try number(0...4)
            case "wifiBars": wifiBars = try number(0...3)
            case "batteryLevel": batteryLevel = try number(0...100)
            case "batteryState": batteryState = try choice(BatteryState.self)
            default: dataNetwork = try choice(DataNetwork.self)
            }
        }
    }

    /// Whether nothing is overridden.
    public var isEmpty: Bool { self == StatusBarOverrides() }

    /// Shows the overrides in `bar` (all but `time`, which the app's clock shows).
    public func apply(to bar: StatusBarView) {
        if let operatorName { bar.carrierLabel.text = operatorName }
        // Four simctl bars over the bar's five: 4 fills every one, 0 none.
        if let cellularBars { bar.signalBars.strength = [0, 1, 3, 4, 5][cellularBars] }
        if let wifiBars { bar.wifiBars.strength = wifiBars }
        switch dataNetwork {
        case .wifi: bar.network = .wifi
        case .threeG: bar.network = .cellular("3G")
        case .fourG: bar.network = .cellular("4G")
        case .lte: bar.network = .cellular("LTE")
        case .hide: bar.network = .none
        case nil: if wifiBars != nil { bar.network = .wifi }
        }
        if let batteryState { bar.battery.isCharging = batteryState != .discharging }
        if let batteryLevel {
            bar.battery.level = CGFloat(batteryLevel) / 100
        } else if batteryState == .charged {
            bar.battery.level = 1
        }
    }
}
