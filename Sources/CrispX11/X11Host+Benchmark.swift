import CrispGraphics
import CrispUI
import CX11
import Foundation

extension X11Host {
    /// Measures presenting a full frame both ways: for each mode (shared memory only when the
    /// server allows it), maps the window, draws the screen once, then times `frames` presents
    /// of the whole image, each followed by `XSync` so the time includes the server's copy.
    /// Returns the median seconds per present for each mode.
    public func benchmarkPresent(frames: Int) throws -> [(mode: X11PresentMode, median: TimeInterval)] {
        XMapWindow(display, xWindow)
        var event = XEvent()
        repeat { XNextEvent(display, &event) } while event.type != MapNotify
        let w = window.screen.pixelWidth, h = window.screen.pixelHeight
        var modes: [X11PresentMode] = [.putImage]
        if presentMode == .sharedMemory { modes.insert(.sharedMemory, at: 0) }
        var results: [(X11PresentMode, TimeInterval)] = []
        for mode in modes {
            let buffer: X11ImageBuffer = mode == .sharedMemory
                ? try SharedMemoryImageBuffer(display: display, visual: visual, depth: depth, format: pixelFormat, width: w, height: h)
                : try ClientImageBuffer(display: display, visual: visual, depth: depth, format: pixelFormat, width: w, height: h)
            window.invalidateEverything()
            window.renderFrame(into: buffer.context)
            let full = CGRect(x: 0, y: 0, width: w, height: h)
            var times: [TimeInterval] = []
            for _ in 0..<frames {
                let t0 = MonotonicClock.seconds()
                buffer.put(full, to: xWindow, gc: gc, notify: false)
                XSync(display, False)
                times.append(MonotonicClock.seconds() - t0)
            }
            buffer.destroy()
            results.append((mode, times.median))
        }
        return results
    }
}
