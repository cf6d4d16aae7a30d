import Foundation

/// Monotonic timing helpers for benchmarks.
public enum Stopwatch {
    /// Nanoseconds on the monotonic clock.
    @inline(__always)
    public static func now() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Runs `body` repeatedly until at least `minimumSeconds` have passed (and at least
    /// `minimumRuns` times), and returns the median seconds per run.
    public static func median(minimumSeconds: Double, minimumRuns: Int = 3, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        let start = now()
        repeat {
            let t0 = now()
            body()
            samples.append(Double(now() - t0) / 1e9)
        } while samples.count < minimumRuns || Double(now() - start) / 1e9 < minimumSeconds
        samples.sort()
        return samples[samples.count / 2]
    }
}
