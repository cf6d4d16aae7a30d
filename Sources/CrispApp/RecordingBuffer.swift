/// The pixels of one recorded frame. `prefault()` touches every page, so that the copy into
/// it on the frame path does not take the page faults (a retina iPad's 12 MB frame is about
/// 3 000 pages: the faults cost more than the copy; docs/performance.md, "Screen recordings").
/// Allocated with `malloc`, whose freed large blocks the next ones reuse already faulted in.
final class RecordingBuffer: @unchecked Sendable {
    /// The first pixel; `capacity` pixels may be written.
    let pixels: UnsafeMutablePointer<UInt32>
    let capacity: Int

    /// A buffer of `count` pixels (at least one).
    init(count: Int) {
        capacity = max(count, 1)
        pixels = UnsafeMutablePointer<UInt32>.allocate(capacity: capacity)
    }

    /// Touches every page.
    func prefault() {
        var i = 0
        while i < capacity {
            pixels[i] = 0
            i += 1024
        }
    }

    deinit { pixels.deallocate() }
}
