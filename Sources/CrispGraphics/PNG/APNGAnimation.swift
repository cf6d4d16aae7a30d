// Animated PNG (APNG) reading: the frame structure checked, and every frame composited as a
// player shows it.
//
// The checks are those that make the animation ambiguous when broken: one acTL before the
// image data; sequence numbers of fcTL and fdAT counting 0, 1, 2, … in file order; every
// fcTL's rectangle inside the canvas and non-empty (the first frame, when it is the default
// image, the whole canvas); dispose_op 0…2 and blend_op 0…1; every frame has image data; the
// fcTL count equals acTL's. Frames are decoded with the still-image decoder's rules (colour
// type, palette and bit depth of the IHDR, inflation bounded by the frame's size).
//
// Compositing, on premultiplied pixels (APNG spec §4): before a frame whose dispose_op is
// PREVIOUS its rectangle is saved; blend SOURCE replaces the rectangle, OVER composites the
// frame over it (`d = s + d · (255 − αs) / 255`, rounded); the canvas is then one output frame;
// afterwards dispose BACKGROUND clears the rectangle to transparent black and PREVIOUS puts the
// saved pixels back (PREVIOUS on the first frame counts as BACKGROUND, as the spec says).

/// The animation of an APNG file: its frames' controls, and their composited images.
public struct APNGAnimation: Sendable {
    /// How a frame's rectangle is left before the next frame (`dispose_op`).
    public enum DisposeOp: Int, Sendable, CustomStringConvertible {
        /// Left as it is.
        case none = 0
        /// Cleared to transparent black.
        case background = 1
        /// Put back to what it was before the frame.
        case previous = 2
        /// The name `crisp png info` prints.
        public var description: String { ["none", "background", "previous"][rawValue] }
    }

    /// How a frame's pixels meet the canvas (`blend_op`).
    public enum BlendOp: Int, Sendable, CustomStringConvertible {
        /// They replace the rectangle's pixels.
        case source = 0
        /// They are composited over them.
        case over = 1
        /// The name `crisp png info` prints.
        public var description: String { ["source", "over"][rawValue] }
    }

    /// One frame's control (`fcTL`).
    public struct Frame: Sendable, Equatable {
        /// The rectangle the frame covers, in pixels from the canvas's top-left.
        public let x: Int, y: Int, width: Int, height: Int
        /// The delay's fraction of a second as stored (`delay_den` 0 means 100).
        public let delayNumerator: Int, delayDenominator: Int
        /// What happens to the rectangle after the frame.
        public let dispose: DisposeOp
        /// How the frame's pixels meet the canvas.
        public let blend: BlendOp
        /// The frame's compressed image data in bytes (IDAT or fdAT payloads, without sequence numbers).
        public let byteCount: Int
        /// How long the frame shows, in seconds.
        public var delay: Double { Double(delayNumerator) / Double(delayDenominator == 0 ? 100 : delayDenominator) }
    }

    /// Canvas width in pixels.
    public let width: Int
    /// Canvas height in pixels.
    public let height: Int
    /// Times the animation plays; 0 means forever.
    public let plays: Int
    /// The frames, in order.
    public let frames: [Frame]
    /// Whether the default image (IDAT) is the first frame (otherwise players skip it).
    public let defaultImageIsFirstFrame: Bool

    private let contents: PNGContents
    private let frameData: [[UInt8]]

    /// Reads and checks an APNG's frame structure (the image data is decoded by `forEachImage`).
    ///
    /// - Throws: the still decoder's `PNGError`s; `.missingChunk("acTL")` for a PNG that is not
    ///   animated; `.invalidChunkData` / `.misplacedChunk` naming a broken acTL, fcTL or fdAT.
    public init(pngData: some Collection<UInt8>, maximumPixelCount: Int = 1 << 28) throws(PNGError) {
        let bytes = Array(pngData)
        let contents = try bytes.withUnsafeBufferPointer { (file) throws(PNGError) in
            try PNGContents(bytes, file, maximumPixelCount: maximumPixelCount)
        }
        self.contents = contents
        width = contents.header.width
        height = contents.header.height
        func u32(_ at: Int) -> Int { Int(bytes.withUnsafeBufferPointer { PNGChunk.readUInt32($0, at: at) }) }
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        var declaredFrames: Int?
        var plays = 0
        var frames: [Frame] = []
        var data: [[UInt8]] = []
        var current: (frame: Frame, data: [UInt8], fromIDAT: Bool)?
        var expected = 0
        var seenIDAT = false
        var firstIsDefault = false
        func checkSequence(_ chunk: PNGChunk) throws(PNGError) {
            let n = u32(chunk.data.lowerBound)
            guard n == expected else {
                throw .invalidChunkData(chunk: chunk.type, reason: "sequence number \(n) at offset \(chunk.offset), \(expected) expected")
            }
            expected += 1
        }
        func close() throws(PNGError) {
            guard let c = current else { return }
            guard !c.data.isEmpty else {
                throw .invalidChunkData(chunk: "fcTL", reason: "frame \(frames.count) has no image data")
            }
            frames.append(Frame(x: c.frame.x, y: c.frame.y, width: c.frame.width, height: c.frame.height,
                                delayNumerator: c.frame.delayNumerator, delayDenominator: c.frame.delayDenominator,
                                dispose: c.frame.dispose, blend: c.frame.blend, byteCount: c.data.count))
            data.append(c.data)
            current = nil
        }
        for chunk in contents.chunks {
            let d = chunk.data
            switch chunk.type {
            case "acTL":
                guard declaredFrames == nil else { throw .misplacedChunk("acTL", reason: "a second acTL at offset \(chunk.offset)") }
                guard !seenIDAT else { throw .misplacedChunk("acTL", reason: "acTL must come before IDAT") }
                guard d.count == 8 else { throw .invalidChunkData(chunk: "acTL", reason: "length \(d.count), 8 expected") }
                let n = u32(d.lowerBound)
                guard n >= 1 else { throw .invalidChunkData(chunk: "acTL", reason: "0 frames") }
                declaredFrames = n
                plays = u32(d.lowerBound + 4)
            case "fcTL":
                guard declaredFrames != nil else { throw .misplacedChunk("fcTL", reason: "fcTL before acTL at offset \(chunk.offset)") }
                guard d.count == 26 else { throw .invalidChunkData(chunk: "fcTL", reason: "length \(d.count) at offset \(chunk.offset), 26 expected") }
                try checkSequence(chunk)
                try close()
                let b = d.lowerBound
                let w = u32(b + 4), h = u32(b + 8), x = u32(b + 12), y = u32(b + 16)
                guard w >= 1, h >= 1, x <= width, y <= height, w <= width - x, h <= height - y else {
                    throw .invalidChunkData(chunk: "fcTL", reason: "frame \(frames.count) (\(x), \(y)) \(w)×\(h) is not inside the \(width)×\(height) canvas")
                }
                if !seenIDAT && (x != 0 || y != 0 || w != width || h != height) {
                    throw .invalidChunkData(chunk: "fcTL", reason: "the first frame is the default image and must cover the whole canvas")
                }
                guard let dispose = DisposeOp(rawValue: Int(bytes[b + 24])) else {
                    throw .invalidChunkData(chunk: "fcTL", reason: "dispose_op \(bytes[b + 24]) of frame \(frames.count) is not 0, 1 or 2")
                }
                guard let blend = BlendOp(rawValue: Int(bytes[b + 25])) else {
                    throw .invalidChunkData(chunk: "fcTL", reason: "blend_op \(bytes[b + 25]) of frame \(frames.count) is not 0 or 1")
                }
                if !seenIDAT { firstIsDefault = true }
                current = (Frame(x: x, y: y, width: w, height: h, delayNumerator: u16(b + 20), delayDenominator: u16(b + 22),
                                 dispose: dispose, blend: blend, byteCount: 0), [], !seenIDAT)
            case "IDAT":
                seenIDAT = true
                if let c = current, c.fromIDAT { current!.data += bytes[d] }
            case "fdAT":
                guard seenIDAT else { throw .misplacedChunk("fdAT", reason: "fdAT before IDAT at offset \(chunk.offset)") }
                guard d.count >= 4 else { throw .invalidChunkData(chunk: "fdAT", reason: "length \(d.count) at offset \(chunk.offset)") }
                try checkSequence(chunk)
                guard let c = current, !c.fromIDAT else {
                    throw .misplacedChunk("fdAT", reason: "fdAT without its fcTL at offset \(chunk.offset)")
                }
                current!.data += bytes[(d.lowerBound + 4)..<d.upperBound]
            default:
                break
            }
        }
        try close()
        guard let declaredFrames else { throw .missingChunk("acTL") }
        guard declaredFrames == frames.count else {
            throw .invalidChunkData(chunk: "acTL", reason: "\(declaredFrames) frames declared, \(frames.count) found")
        }
        self.plays = plays
        self.frames = frames
        self.frameData = data
        defaultImageIsFirstFrame = firstIsDefault
    }

    /// Decodes and composites every frame in order, handing each canvas as a player shows it
    /// to `body` (premultiplied pixels, like `PNGDecoder`'s).
    ///
    /// - Throws: a `PNGError` from a frame's image data, or what `body` throws.
    public func forEachImage(_ body: (Int, CGImage) throws -> Void) throws {
        var canvas = [UInt32](repeating: 0, count: width * height)
        for (i, frame) in frames.enumerated() {
            let part = PNGContents(frameOf: contents, width: frame.width, height: frame.height, imageData: frameData[i])
            let pixels = try PNGDecoder.pixels(of: part)
            var saved: [UInt32] = []
            let dispose = i == 0 && frame.dispose == .previous ? .background : frame.dispose
            if dispose == .previous {
                saved.reserveCapacity(frame.width * frame.height)
                for r in 0..<frame.height {
                    let s = (frame.y + r) * width + frame.x
                    saved += canvas[s..<(s + frame.width)]
                }
            }
            for r in 0..<frame.height {
                let s = (frame.y + r) * width + frame.x, f = r * frame.width
                if frame.blend == .source {
                    canvas.replaceSubrange(s..<(s + frame.width), with: pixels[f..<(f + frame.width)])
                } else {
                    for c in 0..<frame.width { canvas[s + c] = Self.over(pixels[f + c], canvas[s + c]) }
                }
            }
            try body(i, CGImage(width: width, height: height, pixels: canvas))
            for r in 0..<frame.height {
                let s = (frame.y + r) * width + frame.x
                switch dispose {
                case .none: break
                case .background: canvas.replaceSubrange(s..<(s + frame.width), with: repeatElement(0, count: frame.width))
                case .previous:
                    let f = r * frame.width
                    canvas.replaceSubrange(s..<(s + frame.width), with: saved[f..<(f + frame.width)])
                }
            }
        }
    }

    /// Every frame's composited image, in order.
    public func images() throws -> [CGImage] {
        var out: [CGImage] = []
        try forEachImage { out.append($1) }
        return out
    }

    /// Premultiplied source over destination, each channel rounded.
    static func over(_ s: UInt32, _ d: UInt32) -> UInt32 {
        let k = 255 - (s >> 24)
        if k == 0 { return s }
        if k == 255 { return d }
        var out: UInt32 = 0
        for shift in stride(from: 0, through: 24, by: 8) as StrideThrough<UInt32> {
            let dc = (d >> shift) & 0xFF, sc = (s >> shift) & 0xFF
            let t = dc * k + 128
            out |= min(255, sc + (t + (t >> 8)) >> 8) << shift
        }
        return out
    }
}
