import Foundation

// Whole-file reads and atomic writes for the PNG codec and the optimizer.
//
// Writing goes to a temporary file in the destination's directory which is flushed, closed
// and then renamed over the destination: rename(2) within one file system is atomic, so a
// reader sees either the old file or the complete new one, and a failure leaves no partial
// file behind. (Writing in place was rejected: a crash or a full disk mid-write leaves a
// truncated PNG under the final name.)

/// Reading and atomically writing files.
enum PNGFile {
    /// The whole contents of the file at `path`.
    static func contents(ofFileAt path: String) throws(PNGError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .readFailed(path: path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        var contents: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw .readFailed(path: path, reason: String(cString: strerror(errno)))
            }
            if count == 0 { return contents }
            contents += buffer[0..<count]
        }
    }

    /// Writes `data` to a temporary file beside `path`, then renames it to `path`.
    ///
    /// - Parameter permissions: the new file's mode; default `0666` masked by the umask.
    static func writeAtomically(_ data: [UInt8], to path: String, permissions: mode_t? = nil) throws(PNGError) {
        let temporary = "\(path).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        guard fd >= 0 else { throw .writeFailed(path: path, reason: "creating \(temporary): \(String(cString: strerror(errno)))") }
        // Removes the temporary file; `code` is the errno of the failed step.
        func fail(_ step: String, _ code: Int32) -> PNGError {
            let reason = "\(step): \(String(cString: strerror(code)))"
            unlink(temporary)
            return .writeFailed(path: path, reason: reason)
        }
        var written = 0
        while written < data.count {
            let count = data.withUnsafeBytes { write(fd, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                close(fd)
                throw fail("writing \(temporary)", code)
            }
            written += count
        }
        if let permissions, fchmod(fd, permissions) != 0 {
            let code = errno
            close(fd)
            throw fail("setting the permissions of \(temporary)", code)
        }
        guard fsync(fd) == 0 else {
            let code = errno
            close(fd)
            throw fail("flushing \(temporary)", code)
        }
        guard close(fd) == 0 else { throw fail("closing \(temporary)", errno) }
        guard rename(temporary, path) == 0 else { throw fail("renaming \(temporary) to \(path)", errno) }
    }
}
