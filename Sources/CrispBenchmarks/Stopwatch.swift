import CrispGraphics
import Foundation

/// Timing loops for benchmarks (the clock is `MonotonicClock`).
public enum Stopwatch {
    /// Runs `body` repeatedly until at least `minimumSeconds` of the thread's CPU time have
    /// passed (and at least `minimumRuns` times), and returns the median CPU seconds per run.
    /// The benchmarks are single-threaded, so this is their time on a core of their own. (With a
    /// load of 8–10 on two cores, wall-clock medians of the raster bench came out 2–20× slow and
    /// varied run to run by as much; CPU-time medians agree within a few per cent.)
    public static func median(minimumSeconds: Double, minimumRuns: Int = 3, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        let start = MonotonicClock.threadCPUNanoseconds()
        repeat {
            let t0 = MonotonicClock.threadCPUNanoseconds()
            body()
            samples.append(Double(MonotonicClock.threadCPUNanoseconds() - t0) / 1e9)
        } while samples.count < minimumRuns || Double(MonotonicClock.threadCPUNanoseconds() - start) / 1e9 < minimumSeconds
        return samples.median
    }
}
