import CrispApp
import Foundation

/// Computes an asset report on a thread of its own, so the window that shows it keeps
/// responding; the screen polls `state` and a snapshot waits for it with `wait()`.
///
/// The work makes its own views and contexts on that thread (CrispGraphics' caches are locked,
/// the UIKit context stack is per thread), and nothing else touches them.
public final class AssetReportTask: @unchecked Sendable {
    /// Where the computation is.
    public enum State: Sendable, Equatable {
        /// Not started.
        case waiting
        /// Running: items done and the total (0 of 0 before the first item).
        case running(done: Int, total: Int)
        /// Done.
        case finished(AssetReport)
        /// The report could not be made; why.
        case failed(String)

        /// Whether the computation has ended.
        public var hasEnded: Bool {
            switch self {
            case .finished, .failed: true
            case .waiting, .running: false
            }
        }
    }

    /// The work: computes the report, calling its argument with the items done and the total.
    public typealias Work = @Sendable (_ progress: @escaping @Sendable (Int, Int) -> Void) throws -> AssetReport

    private let condition = NSCondition()
    private var current = State.waiting
    private let work: Work

    /// A task that will run `work` once started.
    public init(work: @escaping Work) { self.work = work }

    /// The current state.
    public var state: State {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    private func set(_ state: State) {
        condition.lock()
        current = state
        condition.broadcast()
        condition.unlock()
    }

    /// Starts the work on a new thread; does nothing once started.
    public func start() {
        condition.lock()
        guard case .waiting = current else {
            condition.unlock()
            return
        }
        current = .running(done: 0, total: 0)
        condition.unlock()
        let thread = Thread { [self] in
            do {
                let report = try work { [self] done, total in set(.running(done: done, total: total)) }
                set(.finished(report))
            } catch {
                set(.failed("\(error)"))
            }
        }
        thread.stackSize = 16 << 20
        thread.start()
    }

    /// Starts the work if needed and blocks until it has ended; returns the final state.
    @discardableResult
    public func wait() -> State {
        start()
        condition.lock()
        defer { condition.unlock() }
        while !current.hasEnded { condition.wait() }
        return current
    }
}
