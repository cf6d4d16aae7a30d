import Foundation

/// The package's one clock for measuring time: `CLOCK_MONOTONIC`, which never jumps with the
/// wall clock, and the calling thread's CPU time for benchmarks on a shared machine.
public enum MonotonicClock {
    /// Nanoseconds on `CLOCK_MONOTONIC`.
    @inline(__always)
    public static func nanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }

    /// Seconds on `CLOCK_MONOTONIC` (the event loop's clock and every wall-time benchmark's).
    public static func seconds() -> TimeInterval {
        TimeInterval(nanoseconds()) / 1e9
    }

    /// Nanoseconds of CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`). On a
    /// shared machine a thread waits for a core while others run, and wall time counts that
    /// wait; CPU time counts only the thread's own running (cache sharing still shows), and on a
    /// quiet machine the two agree.
    @inline(__always)
    public static func threadCPUNanoseconds() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
    }
}

extension Array where Element: BinaryFloatingPoint {
    /// The median: the middle value, or the mean of the middle two for an even count; 0 when
    /// empty. The package's one median (benchmarks quote medians, never lone times).
    public var median: Element {
        guard !isEmpty else { return 0 }
        let s = sorted()
        return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    }
}
