import CrispGraphics
import Foundation

/// A recorded signal-quality trace: samples in 0…1 (worst…best) at equal time steps.
public struct SignalTrace: Equatable, Sendable {
    /// The samples, oldest first, each in 0…1.
    public var samples: [Double]
    /// Seconds between samples.
    public var interval: Double

    /// Creates a trace; samples are clamped to 0…1.
    public init(samples: [Double], interval: Double) {
        self.samples = samples.map { $0.isNaN ? 0 : min(max($0, 0), 1) }
        self.interval = interval
    }

    /// A deterministic demo trace: a slow swell, a faster ripple, two fades (a tunnel, a lift)
    /// and seeded noise — the same on every run, so snapshots can be compared.
    public static func demo(count: Int = 120) -> SignalTrace {
        var generator = SplitMix64(seed: 0x5EED_CAFE)
        func noise() -> Double { Double(generator.nextUnit()) - 0.5 }
        var samples: [Double] = []
        for i in 0..<count {
            let t = Double(i)
            var v = 0.62 + 0.16 * sin(t * 0.09) + 0.07 * sin(t * 0.41 + 1.3) + 0.06 * noise()
            v -= 0.35 * exp(-pow((t - 0.3 * Double(count)) / 4, 2))
            v -= 0.22 * exp(-pow((t - 0.72 * Double(count)) / 6, 2))
            samples.append(v)
        }
        return SignalTrace(samples: samples, interval: 0.5)
    }
}
