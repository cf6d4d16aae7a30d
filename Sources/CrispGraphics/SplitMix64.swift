import Foundation

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny deterministic random number generator, so
/// seeded data — the demo's data sets, the benchmarks' shapes, the tests' corpora — is the same
/// on every run and every machine. The package's one copy.
public struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    /// A generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// The next number in 0..<1, from the top 53 bits: `Double(next() >> 11) / 2⁵³`.
    public mutating func nextUnit() -> CGFloat { CGFloat(next() >> 11) / CGFloat(1 << 53) }
}
