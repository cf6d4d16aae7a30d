import CZlib
import Foundation

// The lossless PNG optimizer: the smallest file that decodes to exactly the same pixels.
//
// What. A PNG's size is decided by four choices: the pixel format (colour type, bit depth,
// palette), each row's filter, the deflate parameters, and the chunks kept besides the image.
// The optimizer decodes the input without loss (`PNGRawImage`), lists the formats that hold
// it exactly (`PNGReduction`), packs the image in each, filters it with several strategies
// (`PNGFilterStrategy`), compresses the results with several zlib settings and keeps the
// smallest, in a single non-interlaced IDAT chunk. If the input's own compressed image data
// is still smaller (a file made by a stronger deflater), that data is kept as it is, so the
// output is never bigger than the input. Finally the chosen file is decoded again and compared
// with the input's pixels; on any difference nothing is returned but an error.
//
// Why this shape. Compressed size is not predictable from the filtered bytes — which is why
// every serious optimizer (pngcrush, OptiPNG, oxipng, zopflipng) tries combinations — but
// trying is expensive at zlib's best level. So from level 1 on, the candidates of images over
// 1 MiB of raw data are ranked with a fast zlib setting (level 4, a third of level 9's time)
// and only the best few are compressed with the final settings; the higher the level, the
// more finalists and settings. Smaller images send every candidate to the final settings.
//
//     level  formats     filters                              ranked by  final zlib settings (level, strategy, memLevel)
//     0      best guess  minimum sum (none below 8 bits)      —          9 default 7
//     1      best guess  none, minimum sum, entropy, bigrams  zlib 4     best 1 × 9 default 7
//     2      best guess  none, minimum sum, entropy, bigrams  zlib 4     best 1 × 9 default {6, 7}
//     3      all         every strategy but brute force       zlib 4     best 3 × 9 default {5…9}, 9 filtered 7
//     4      all         every strategy                       zlib 4     best 4 × 9 default 7
//     5      all         every strategy                       zlib 4     best 8 × 9 default 7
//     6      all         every strategy                       zlib 4     best 12 × 9 {default, filtered} {6, 7, 8}
//
// From level 4 on, Crisp's own deflate encoder (`DeflateEncoder`, near-optimal parsing)
// compresses the best candidates once more, and the smaller stream wins (it nearly always
// does, so these levels spend their time there rather than on more zlib settings; before the
// encoder, levels 4–6 tried up to 72 zlib settings per finalist):
//
//     level  candidates (best by zlib)  effort (see `strongEfforts`)
//     4      1                          chain 256, long matches skipped, 3 + 5 passes
//     5      3, ranked by level 4's     chain 32, every position searched, 1 + 3 passes
//     6      4, ranked by level 4's     chain 64, every position searched, 2 + 5 passes
//
// Level 4 is the one that matches oxipng -o 4, and two things got it there (measured on the
// goldens and demo snapshots, docs/png.md, "Figures"). Brute-force filters at every size: on the
// large screenshots it is oxipng's winning strategy and ours (retina signal screen 98 686 →
// 93 471 bytes); above 1 MiB of raw data it measures rows against a preset dictionary, which
// keeps it near half a second there (`PNGFilterStrategy`). And a deeper effort: a chain of 256
// instead of 32 made a sample of 40 goldens 1.6 % smaller for 1.6× the encoder's time, and
// 3 + 5 parse passes instead of 1 + 2 another 0.32 % over the corpus for 1.2× (5 % on
// glossy bitmap buttons, where one pass settles on poor prices).
//
// memLevel matters more than one would think: besides the hash size it sets how many symbols
// a deflate block collects before its Huffman codes are fixed (2^(memLevel + 6)), and image
// data changes character often enough that smaller blocks win. On the project's goldens
// memLevel 7 beats zlib's usual 8 and 9 by 0.7–1 % and wins (with 6) on 45 of 85 images;
// Z_FILTERED, which libpng uses, wins on few. The window is always the smallest that covers
// the data (identical output, less memory for the decoder).
//
// Rejected alternatives: the near-optimal encoder at every level — it is 4–30× zlib's time,
// so the default level (and `pngData()`) stays with zlib; a C deflater (libdeflate, Zopfli) —
// a new dependency for one command, where the algorithms fit in Swift; keeping interlacing (Adam7 data
// is larger and nothing here draws progressively); and estimating sizes from entropy instead
// of compressing (the estimates miss LZ77 matches, which dominate on rendered images).

/// Rewrites PNG files smaller without changing a single pixel.
public struct PNGOptimizer: Sendable {
    /// The effort, 0 (fastest) … 6 (slowest, smallest); default `defaultLevel`.
    public var level: Int
    /// Whether to drop the colour-space and physical-size chunks too (gAMA, cHRM, sRGB,
    /// iCCP, cICP, pHYs); default `false`. Every other ancillary chunk is always dropped.
    public var stripsMetadata: Bool
    /// The largest `width × height` accepted (about 8 bytes per pixel are held per copy of
    /// the image); default 2²⁵.
    public var maximumPixelCount: Int

    /// The level `crisp png optimize` uses unless told otherwise.
    public static let defaultLevel = 1
    /// The levels there are.
    public static let levels = 0...6

    /// Creates an optimizer.
    ///
    /// - Precondition: `level` is in `PNGOptimizer.levels`.
    public init(level: Int = PNGOptimizer.defaultLevel, stripsMetadata: Bool = false, maximumPixelCount: Int = 1 << 25) {
        precondition(Self.levels.contains(level), "PNG optimization level \(level) is not in 0...6")
        self.level = level
        self.stripsMetadata = stripsMetadata
        self.maximumPixelCount = maximumPixelCount
    }

    /// What an optimization produced.
    public struct Result: Sendable {
        /// The optimized file.
        public let data: [UInt8]
        /// The input file's size in bytes.
        public let inputByteCount: Int
        /// The pixel format written, e.g. `"indexed 2-bit (3 colours)"`.
        public let format: String
        /// How the image data was made, e.g. `"entropy filter, zlib 9 filtered"`, or
        /// `"the input's image data"` when nothing beat it.
        public let method: String
        /// How many compressed candidates were tried.
        public let trialCount: Int
    }

    /// Optimizes a PNG file held in memory, verifying the result.
    ///
    /// - Throws: the input's decoding `PNGError`; `.animatedPNGUnsupported` for an APNG;
    ///   `.verificationFailed` if the result would not decode to the input's pixels.
    public func optimize(_ png: some Collection<UInt8>) throws(PNGError) -> Result {
        let bytes = Array(png)
        let contents = try bytes.withUnsafeBufferPointer { (file) throws(PNGError) in
            try PNGContents(bytes, file, maximumPixelCount: maximumPixelCount)
        }
        if let animation = contents.chunks.first(where: { $0.type == "acTL" }) {
            let frames = animation.data.count >= 4 ? Int(bytes.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: animation.data.lowerBound) }) : 0
            throw .animatedPNGUnsupported(frames: frames)
        }
        let image = try PNGRawImage(contents)
        let kept = contents.chunks.filter { !stripsMetadata && Self.keptChunkTypes.contains($0.type) }
            .map { (type: $0.type, data: Array(bytes[$0.data])) }
        // An ICC profile is either for gray or for colour samples: stay in the input's family.
        let family: PNGColorType? = kept.contains { $0.type == "iCCP" }
            ? ([.gray, .grayAlpha].contains(contents.header.colorType) ? .gray : .rgb) : nil
        let best = bestImageData(for: image, family: family)
        var file = Self.assemble(header: best.format.header(width: image.width, height: image.height),
                                 palette: best.format.paletteChunk, transparency: best.format.transparencyChunk,
                                 ancillary: kept, imageData: best.imageData)
        var format = best.format.description, method = best.method
        let original = Self.assemble(header: contents.header, palette: contents.palette.map(Array.init),
                                     transparency: contents.transparency.map(Array.init),
                                     ancillary: kept, imageData: contents.imageData)
        if original.count <= file.count {
            file = original
            format = "\(PNGPixelFormat.describe(contents.header)) (the input's)"
            method = "the input's image data"
        }
        let check = try PNGRawImage(pngData: file, maximumPixelCount: maximumPixelCount)
        guard check == image else {
            guard check.width == image.width, check.height == image.height else {
                throw .verificationFailed("the result is \(check.width)×\(check.height), the input \(image.width)×\(image.height)")
            }
            let first = check.pixels.indices.first { check.pixels[$0] != image.pixels[$0] } ?? 0
            throw .verificationFailed("pixel (\(first % image.width), \(first / image.width)) differs")
        }
        return Result(data: file, inputByteCount: bytes.count, format: format, method: method, trialCount: best.trials)
    }

    /// Optimizes the PNG file at `input` and writes the result to `output` atomically (through
    /// a temporary file in `output`'s directory), only after it has been verified.
    ///
    /// `output` may be `input` (optimizing in place); the file then keeps its permissions.
    ///
    /// - Throws: `.readFailed`, the errors of `optimize(_:)`, or `.writeFailed`; in every
    ///   case `output` is left as it was.
    @discardableResult
    public func optimizeFile(at input: String, to output: String) throws(PNGError) -> Result {
        let result = try optimize(try PNGFile.contents(ofFileAt: input))
        var status = stat()
        let permissions = input == output && stat(input, &status) == 0 ? status.st_mode & 0o7777 : nil
        try PNGFile.writeAtomically(result.data, to: output, permissions: permissions)
        return result
    }

    /// Encodes `image` as a new PNG file (no ancillary chunks), choosing format, filters and
    /// zlib settings at this optimizer's level. Not verified; `optimize` is.
    ///
    /// - Throws: `.imageTooLarge` if `width × height` exceeds `maximumPixelCount`.
    public func encode(_ image: PNGRawImage) throws(PNGError) -> [UInt8] {
        guard image.pixels.count <= maximumPixelCount else {
            throw .imageTooLarge(width: image.width, height: image.height, limit: maximumPixelCount)
        }
        let best = bestImageData(for: image, family: nil)
        return Self.assemble(header: best.format.header(width: image.width, height: image.height),
                             palette: best.format.paletteChunk, transparency: best.format.transparencyChunk,
                             ancillary: [], imageData: best.imageData)
    }

    /// The ancillary chunks kept unless `stripsMetadata`: they change how the pixels are
    /// shown (colour space) or sized (pHYs), and none depends on the pixel format.
    static let keptChunkTypes: Set<String> = ["gAMA", "cHRM", "sRGB", "iCCP", "cICP", "pHYs"]

    // MARK: - Search

    /// One zlib configuration.
    struct DeflateSettings: Hashable {
        var level: Int32
        var strategy: Int32
        var memLevel: Int32 = 9

        var name: String {
            let strategies = [Z_DEFAULT_STRATEGY: "default", Z_FILTERED: "filtered", Z_RLE: "RLE", Z_HUFFMAN_ONLY: "Huffman only"]
            return "zlib \(level) \(strategies[strategy] ?? "\(strategy)")" + (memLevel == 9 ? "" : " memLevel \(memLevel)")
        }
    }

    /// What a level tries (see the table atop this file).
    struct Plan {
        var triesEveryFormat: Bool
        var filters: [PNGFilterStrategy]
        var ranking: DeflateSettings?
        var finalists: Int
        var finals: [DeflateSettings]
        /// Crisp's own deflate encoder, and how many of the best candidates (by their best zlib
        /// size) it compresses.
        var strongDeflate: (effort: DeflateEncoder.Effort, candidates: Int)? = nil
    }

    /// The raw image data size up to which candidates are not ranked but all compressed with
    /// the final settings.
    static let rankingThreshold = 1 << 20

    /// The plan of this optimizer's level.
    var plan: Plan {
        func settings(_ levels: ClosedRange<Int32>, _ strategies: [Int32], _ memLevels: ClosedRange<Int32>) -> [DeflateSettings] {
            levels.flatMap { level in
                strategies.flatMap { s in memLevels.map { DeflateSettings(level: level, strategy: s, memLevel: $0) } }
            }
        }
        let adaptive: [PNGFilterStrategy] = [.none, .minimumSum, .entropy, .bigrams]
        let all = PNGFilterStrategy.allCases
        let ranking = DeflateSettings(level: 4, strategy: Z_DEFAULT_STRATEGY, memLevel: 7)
        switch level {
        case 0: return Plan(triesEveryFormat: false, filters: [.minimumSum], ranking: nil, finalists: 1,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 7...7))
        case 1: return Plan(triesEveryFormat: false, filters: adaptive, ranking: ranking, finalists: 1,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 7...7))
        case 2: return Plan(triesEveryFormat: false, filters: adaptive, ranking: ranking, finalists: 1,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 6...7))
        case 3: return Plan(triesEveryFormat: true, filters: all.filter { $0 != .bruteForce }, ranking: ranking, finalists: 3,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 5...9) + settings(9...9, [Z_FILTERED], 7...7))
        case 4: return Plan(triesEveryFormat: true, filters: all, ranking: ranking, finalists: 4,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 7...7), strongDeflate: (Self.strongEfforts[0], 1))
        case 5: return Plan(triesEveryFormat: true, filters: all, ranking: ranking, finalists: 8,
                            finals: settings(9...9, [Z_DEFAULT_STRATEGY], 7...7), strongDeflate: (Self.strongEfforts[1], 3))
        default:
            return Plan(triesEveryFormat: true, filters: all, ranking: ranking, finalists: 12,
                        finals: settings(9...9, [Z_DEFAULT_STRATEGY, Z_FILTERED], 6...8), strongDeflate: (Self.strongEfforts[2], 4))
        }
    }

    /// The efforts of Crisp's own deflate encoder at levels 4, 5 and 6.
    /// (Level 4's effort also ranks the candidates at levels 5 and 6.)
    static let strongEfforts = [
        DeflateEncoder.Effort(maximumChain: 256, niceLength: 258, skipsCoveredPositions: true, segmentPasses: 3, blockPasses: 5),
        DeflateEncoder.Effort(maximumChain: 32, niceLength: 258, skipsCoveredPositions: false, segmentPasses: 1, blockPasses: 3),
        DeflateEncoder.Effort(maximumChain: 64, niceLength: 258, skipsCoveredPositions: false, segmentPasses: 2, blockPasses: 5),
    ]

    /// A packed and filtered candidate.
    private struct Candidate {
        var format: PNGPixelFormat
        var filter: PNGFilterStrategy
        var data: [UInt8]
    }

    /// The smallest compressed image data found for `image` within `family` (`nil`: any format).
    func bestImageData(for image: PNGRawImage, family: PNGColorType?)
        -> (format: PNGPixelFormat, imageData: [UInt8], method: String, trials: Int) {
        let reduction = PNGReduction(image)
        let rawGuess = reduction.candidates(family: family, exhaustive: false)[0]
            .header(width: image.width, height: image.height).decompressedByteCount
        let plan = self.plan
        let formats = reduction.candidates(family: family, exhaustive: plan.triesEveryFormat)
        // The filters each format gets. Sub-byte pixels are not samples: of the fixed filters
        // only "none" makes sense for them, and level 0's single choice is "none" for them and
        // for palettes.
        let work = formats.map { format -> (PNGPixelFormat, [PNGFilterStrategy]) in
            let bitsPerPixel = format.bitDepth * format.colorType.channels
            if plan.filters == [.minimumSum] && (bitsPerPixel < 8 || format.colorType == .indexed) { return (format, [.none]) }
            return (format, bitsPerPixel < 8 ? plan.filters.filter { PNGFilter(strategy: $0) == nil || $0 == .none } : plan.filters)
        }
        // Small images skip the ranking: every candidate gets the final settings (cheap, and
        // a fast zlib's order is least reliable on little data).
        let ranking = work.reduce(0) { $0 + $1.1.count } > plan.finalists && rawGuess > Self.rankingThreshold ? plan.ranking : nil
        let finalists = ranking == nil ? Int.max : plan.finalists
        // The finalists so far, smallest ranking size first; only they are kept in memory.
        var candidates: [(size: Int, candidate: Candidate)] = []
        var trials = 0
        for (format, filters) in work {
            let header = format.header(width: image.width, height: image.height)
            let rows = format.pack(image)
            for filter in filters {
                let data = filter.apply(to: rows, rowBytes: header.scanlineByteCount(pixels: image.width),
                                        height: image.height, distance: header.filterDistance)
                var size = 0
                if let ranking {
                    size = data.withUnsafeBufferPointer { compress($0, ranking).count } + format.chunkByteCount
                    trials += 1
                }
                let index = candidates.firstIndex { $0.size > size } ?? candidates.count
                if index < finalists {
                    candidates.insert((size, Candidate(format: format, filter: filter, data: data)), at: index)
                    if candidates.count > finalists { candidates.removeLast() }
                }
            }
        }
        var best: (format: PNGPixelFormat, imageData: [UInt8], method: String)?
        // Each finalist's whole-file size under its best zlib setting.
        var finalSizes: [(size: Int, candidate: Candidate)] = []
        for (_, candidate) in candidates {
            var smallest = Int.max
            for settings in plan.finals {
                let compressed = candidate.data.withUnsafeBufferPointer { compress($0, settings) }
                trials += 1
                // Compare whole files: a palette's PLTE and tRNS count too.
                let size = compressed.count + candidate.format.chunkByteCount
                smallest = min(smallest, size)
                if best == nil || size < best!.imageData.count + best!.format.chunkByteCount {
                    best = (candidate.format, compressed, "\(candidate.filter.description) filter, \(settings.name)")
                }
            }
            finalSizes.append((smallest, candidate))
        }
        if let strong = plan.strongDeflate {
            // zlib's favourite is not always the optimal parser's: with several candidates,
            // level 4's effort picks the one the final effort compresses.
            var ranked: [(size: Int, data: [UInt8], candidate: Candidate)] = []
            for (_, candidate) in finalSizes.sorted(by: { $0.size < $1.size }).prefix(strong.candidates) {
                let effort = strong.candidates > 1 ? Self.strongEfforts[0] : strong.effort
                let compressed = candidate.data.withUnsafeBufferPointer { DeflateEncoder(effort).zlib($0) }
                trials += 1
                ranked.append((compressed.count + candidate.format.chunkByteCount, compressed, candidate))
            }
            if let (_, quick, candidate) = ranked.min(by: { $0.size < $1.size }) {
                var compressed = quick
                if strong.candidates > 1 {
                    let final = candidate.data.withUnsafeBufferPointer { DeflateEncoder(strong.effort).zlib($0) }
                    trials += 1
                    if final.count < compressed.count { compressed = final }
                }
                if compressed.count + candidate.format.chunkByteCount < best!.imageData.count + best!.format.chunkByteCount {
                    best = (candidate.format, compressed, "\(candidate.filter.description) filter, Crisp deflate")
                }
            }
        }
        return (best!.format, best!.imageData, best!.method, trials)
    }

    /// `data` compressed with `settings` in the smallest window that covers it.
    private func compress(_ data: UnsafeBufferPointer<UInt8>, _ settings: DeflateSettings) -> [UInt8] {
        Zlib.deflate(data, level: settings.level, strategy: settings.strategy,
                     windowBits: Zlib.smallestWindowBits(for: data.count), memLevel: settings.memLevel)
    }

    // MARK: - Files

    /// A complete PNG file: IHDR, the kept ancillary chunks (all of which belong before PLTE),
    /// PLTE, tRNS, the image data in one IDAT (more only past PNG's 2³¹ − 1 chunk limit), IEND.
    static func assemble(header: PNGHeader, palette: [UInt8]?, transparency: [UInt8]?,
                         ancillary: [(type: String, data: [UInt8])], imageData: [UInt8]) -> [UInt8] {
        var file = PNGChunk.signature
        file.reserveCapacity(imageData.count + 1024)
        func append(_ type: String, _ data: [UInt8]) {
            data.withUnsafeBufferPointer { PNGChunk.append(type: type, data: $0, to: &file) }
        }
        append("IHDR", header.bytes)
        for chunk in ancillary { append(chunk.type, chunk.data) }
        if let palette { append("PLTE", palette) }
        if let transparency { append("tRNS", transparency) }
        imageData.withUnsafeBufferPointer { data in
            var start = 0
            repeat {
                let end = min(start + Int(Int32.max), data.count)
                PNGChunk.append(type: "IDAT", data: UnsafeBufferPointer(rebasing: data[start..<end]), to: &file)
                start = end
            } while start < data.count
        }
        append("IEND", [])
        return file
    }
}
