import ArgumentParser
import CrispGraphics
import Foundation

/// `crisp png`: the lossless optimizer and a file inspector.
struct PNGCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "png",
        abstract: "PNG tools: lossless optimization, file information and an APNG's frames.",
        subcommands: [PNGOptimizeCommand.self, PNGInfoCommand.self, PNGFramesCommand.self])
}

/// Exit statuses of `crisp png` (documented in the README).
enum PNGExitStatus {
    /// The input cannot be read or is not a PNG Crisp can optimize.
    static let badInput = ExitCode(1)
    /// The optimized file did not decode to the input's pixels; nothing was written.
    static let verificationFailed = ExitCode(2)
    /// The output could not be written; it is left as it was.
    static let writeFailed = ExitCode(3)

    /// Prints `error` to stderr and returns the matching exit code.
    static func report(_ error: PNGError, file: String) -> ExitCode {
        FileHandle.standardError.write("crisp png: \(file): \(error)\n".data(using: .utf8)!)
        switch error {
        case .verificationFailed: return verificationFailed
        case .writeFailed: return writeFailed
        default: return badInput
        }
    }
}

struct PNGOptimizeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "optimize",
        abstract: "Rewrite a PNG smaller without changing any pixel.",
        discussion: """
            Reduces the pixel format where it is lossless (16 → 8 bits, RGBA → RGB, colour → gray, \
            palette with tRNS, smallest bit depth), removes interlacing, tries several row-filter \
            strategies and zlib settings and keeps the smallest; keeps the input's own image data when \
            nothing beats it, so the file never grows. Keeps gAMA, cHRM, sRGB, iCCP, cICP and pHYs unless \
            --strip; drops every other ancillary chunk. Animated PNGs are refused.
            The result is decoded and compared with the input before it is written, through a temporary \
            file renamed into place. Exit status: 0 written; 1 unreadable or invalid input; 2 verification \
            failed (nothing written); 3 the output could not be written (left as it was).
            """)

    @Argument(help: "The PNG file to optimize.")
    var input: String

    @Argument(help: "Where to write the result (not with --in-place).")
    var output: String?

    @Flag(name: .long, help: "Replace the input file (only after the result is verified).")
    var inPlace = false

    @Option(name: .long, help: "Effort 0 (fastest) … 6 (smallest); default \(PNGOptimizer.defaultLevel).")
    var level = PNGOptimizer.defaultLevel

    @Flag(name: .long, help: "Drop the colour-space and pHYs chunks too.")
    var strip = false

    @Flag(name: .long, help: "Print nothing on success.")
    var quiet = false

    func validate() throws {
        if !PNGOptimizer.levels.contains(level) { throw ValidationError("--level must be in 0…6") }
        if inPlace == (output != nil) { throw ValidationError("give an output file or --in-place (not both)") }
    }

    func run() throws {
        let destination = output ?? input
        let start = Date()
        let result: PNGOptimizer.Result
        do {
            result = try PNGOptimizer(level: level, stripsMetadata: strip).optimizeFile(at: input, to: destination)
        } catch {
            throw PNGExitStatus.report(error, file: input)
        }
        guard !quiet else { return }
        let change = 100 * (Double(result.data.count) / Double(result.inputByteCount) - 1)
        print(String(format: "%@: %d → %d bytes (%+.1f %%), %@, %@, %d trials, %.2f s", destination as NSString,
                     result.inputByteCount, result.data.count, change, result.format as NSString,
                     result.method as NSString, result.trialCount, Date().timeIntervalSince(start)))
    }
}

struct PNGInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show a PNG's dimensions, format, chunks, sizes and decode time.",
        discussion: "Exit status 1 (with the reason) for a file that is not a valid PNG.")

    @Argument(help: "The PNG file to inspect.")
    var file: String

    func run() throws {
        let bytes: [UInt8]
        let info: PNGInfo
        var times: [Double] = []
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            info = try PNGInfo(pngData: bytes)
            // Median of three full decodes to premultiplied pixels.
            for _ in 0..<3 {
                let start = Date()
                _ = try CGImage(pngData: bytes)
                times.append(Date().timeIntervalSince(start))
            }
        } catch let error as PNGError {
            throw PNGExitStatus.report(error, file: file)
        } catch {
            FileHandle.standardError.write("crisp png: \(file): \(error.localizedDescription)\n".data(using: .utf8)!)
            throw PNGExitStatus.badInput
        }
        print("\(file): \(info.width)×\(info.height), \(info.colorType) (colour type \(info.colorTypeCode)), "
              + "\(info.bitDepth)-bit, \(info.isInterlaced ? "Adam7-interlaced" : "not interlaced")")
        if let frames = info.animationFrames {
            let total = frames.reduce(0.0) { $0 + $1.delay }
            print("animated (APNG): \(frames.count) frames, plays \(info.animationPlays == 0 ? "forever" : "\(info.animationPlays ?? 1) times"), "
                  + String(format: "%.3f s", total) + "; PNGDecoder shows the default image, APNGAnimation every frame")
            print("frames (x,y width×height, delay, dispose/blend, bytes):")
            for (i, f) in frames.enumerated() {
                print("  \(i): \(f.x),\(f.y) \(f.width)×\(f.height), \(f.delayNumerator)/\(f.delayDenominator) s"
                      + String(format: " (%.3f s)", f.delay) + ", \(f.dispose)/\(f.blend), \(f.byteCount) bytes")
            }
        }
        print("file \(info.fileByteCount) bytes; image data \(info.compressedByteCount) compressed, \(info.rawByteCount) raw "
              + String(format: "(%.1f %%)", 100 * Double(info.compressedByteCount) / Double(max(1, info.rawByteCount))))
        print(String(format: "decode %.2f ms (median of 3, to premultiplied 8-bit pixels)", times.sorted()[1] * 1000))
        print("chunks:")
        for chunk in info.chunks { print("  \(chunk.type) \(chunk.byteCount)") }
    }
}

/// `crisp png frames`: every frame of an APNG as a player shows it, one PNG each.
struct PNGFramesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "frames",
        abstract: "Write every frame of an animated PNG, composited as a player shows it, as PNGs (frame-0000.png, …) into a folder, and print their total size.")

    @Argument(help: "The APNG file.")
    var file: String

    @Argument(help: "The folder to write into (it must exist).")
    var folder: String

    func run() throws {
        var total = 0, count = 0
        do {
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: file)))
            let animation = try APNGAnimation(pngData: bytes)
            try animation.forEachImage { i, image in
                let data = try image.pngData()
                try FrameFile.write(data, to: (folder as NSString).appendingPathComponent(String(format: "frame-%04d.png", i)))
                total += data.count
                count += 1
            }
            print("\(file): \(count) frames, \(bytes.count) bytes as APNG; \(total) bytes as \(count) optimized PNGs "
                  + String(format: "(%.1f× the APNG)", Double(total) / Double(max(1, bytes.count))))
        } catch let error as PNGError {
            throw PNGExitStatus.report(error, file: file)
        } catch {
            FileHandle.standardError.write("crisp png: \(file): \(error.localizedDescription)\n".data(using: .utf8)!)
            throw PNGExitStatus.badInput
        }
    }
}

/// Writes whole files for `crisp png frames`.
enum FrameFile {
    static func write(_ data: [UInt8], to path: String) throws {
        do {
            try Data(data).write(to: URL(fileURLWithPath: path))
        } catch {
            throw PNGError.writeFailed(path: path, reason: error.localizedDescription)
        }
    }
}
