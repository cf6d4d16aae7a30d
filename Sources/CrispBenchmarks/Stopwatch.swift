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

    /// Nanoseconds of CPU time the calling thread has used. On a shared machine a thread waits
    /// for a core while others run, and wall time counts that wait: with a load of 8–10 on two
    /// cores, wall-clock medians of the raster bench came out 2–20× slow and varied run to run by
    /// as much. CPU time counts only the thread's own running (cache sharing still shows), and on
    /// a quiet machine the two agree.
    @inline(__always)
    public static func cpuNow() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Runs `body` repeatedly until at least `minimumSeconds` of the thread's CPU time have
    /// passed (and at least `minimumRuns` times), and returns the median CPU seconds per run.
    /// The benchmarks are single-threaded, so this is their time on a core of their own.
    public static func median(minimumSeconds: Double, minimumRuns: Int = 3, _ body: () -> Void) -> Double {
        var samples: [Double] = []
        let start = cpuNow()
        repeat {
            let t0 = cpuNow()
            body()
            samples.append(Double(cpuNow() - t0) / 1e9)
        } while samples.count < minimumRuns || Double(cpuNow() - start) / 1e9 < minimumSeconds
        samples.sort()
        return samples[samples.count / 2]
    }
}
