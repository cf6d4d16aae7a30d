import CZlib
import Foundation

// Choosing each scanline's filter: the five fixed choices and four adaptive heuristics.
//
// No heuristic wins on every image, which is why the optimizer tries several and keeps the
// smallest result (the idea of pngcrush, OptiPNG and oxipng):
//
//     minimum sum   the filter whose output, read as signed bytes, has the smallest sum of
//                   magnitudes (the PNG spec's and libpng's recommendation)
//     entropy       the filter whose output bytes have the lowest Shannon entropy
//                   (n·log n − Σ c·log c over the byte histogram), closer to what Huffman codes pay
//     bigrams       the filter whose output has the fewest distinct byte pairs, closer to what
//                   LZ77 matches need (oxipng's idea)
//     brute force   the filter whose row compresses smallest after the previous four
//                   filtered rows: a deflate per filter per row (LodePNG's and oxipng's idea)
//
// Brute force measures a row in one of two ways. Up to 1 MiB of raw data, the four context
// rows and the candidate are compressed together by zlib 9, and the whole size is the score:
// the Huffman codes then fit the neighbourhood, not the one row. Above that, this costs 4–11 s
// on a retina screenshot (five trials per row, each re-compressing the context), so the
// context rows become zlib's preset dictionary — hashed, not encoded — and only the candidate
// row is compressed, by zlib 6: a ninth of the time, and as good within ±0.5 % on the large
// goldens (after Crisp's deflate: retina signal screen 93 567 bytes against 93 439, controls
// 326 883 against 325 446, bubbles 843 083 against 844 228). On small images the dictionary
// measure is worse (0.7 % over a sample of 40 goldens, 7 % on a phone-sized plot, more on
// tiny images: a short row alone gets a poor Huffman code), and there the full one is cheap.
//
// Low bit depths and palettes usually do best unfiltered (their bytes are not samples, so
// differences mean little); the "none" strategy covers them.

/// How the optimizer chooses the filter of each scanline.
public enum PNGFilterStrategy: String, CaseIterable, Sendable {
    /// Every row unfiltered.
    case none
    /// Every row with the Sub filter.
    case sub
    /// Every row with the Up filter.
    case up
    /// Every row with the Average filter.
    case average
    /// Every row with the Paeth filter.
    case paeth
    /// Per row, the filter with the minimum sum of absolute differences.
    case minimumSum
    /// Per row, the filter whose output has the lowest byte entropy.
    case entropy
    /// Per row, the filter whose output has the fewest distinct byte pairs.
    case bigrams
    /// Per row, the filter whose row compresses smallest after the previous rows.
    case bruteForce

    /// Rows of context a brute-force trial compresses before the candidate row.
    static let bruteForceContextRows = 4
    /// The raw image data size above which brute force measures a row alone, with its context
    /// as a preset dictionary (see the essay above).
    static let bruteForceDictionaryThreshold = 1 << 20

    /// The filtered image data: for each of `height` rows of `rows` (`rowBytes` bytes each,
    /// unfiltered, packed), the filter-type byte and the filtered bytes.
    ///
    /// - Parameter distance: bytes per complete pixel, at least 1.
    func apply(to rows: [UInt8], rowBytes: Int, height: Int, distance: Int) -> [UInt8] {
        precondition(rows.count == rowBytes * height)
        let stride = rowBytes + 1
        var output = [UInt8](repeating: 0, count: height * stride)
        let zeros = [UInt8](repeating: 0, count: rowBytes)
        var trials = [UInt8](repeating: 0, count: 5 * rowBytes)
        let scorer = Scorer(self, rowBytes: rowBytes, usesDictionary: rows.count > Self.bruteForceDictionaryThreshold)
        rows.withUnsafeBufferPointer { rows in
            zeros.withUnsafeBufferPointer { zeros in
                trials.withUnsafeMutableBufferPointer { trials in
                    output.withUnsafeMutableBufferPointer { output in
                        for y in 0..<height {
                            let row = rows.baseAddress! + y * rowBytes
                            let prior = y == 0 ? zeros.baseAddress! : row - rowBytes
                            let line = output.baseAddress! + y * stride
                            if let fixed = PNGFilter(strategy: self) {
                                line[0] = fixed.rawValue
                                _ = fixed.filter(row, prior: prior, count: rowBytes, distance: distance, into: line + 1)
                                continue
                            }
                            var best = PNGFilter.none, bestScore = Double.infinity
                            for filter in PNGFilter.allCases {
                                let trial = trials.baseAddress! + Int(filter.rawValue) * rowBytes
                                let sum = filter.filter(row, prior: prior, count: rowBytes, distance: distance, into: trial)
                                let score = scorer.score(filter, UnsafePointer(trial), sum: sum,
                                                         before: UnsafeBufferPointer(start: output.baseAddress!, count: y * stride))
                                if score < bestScore { bestScore = score; best = filter }
                            }
                            line[0] = best.rawValue
                            (line + 1).update(from: trials.baseAddress! + Int(best.rawValue) * rowBytes, count: rowBytes)
                        }
                    }
                }
            }
        }
        return output
    }

    /// Rates one filtered candidate row for an adaptive strategy; lower is better.
    ///
    /// Its tables are raw allocations read through local constants, so the per-byte loops
    /// carry no array or class-property overhead.
    private final class Scorer {
        private let strategy: PNGFilterStrategy
        private let rowBytes: Int
        /// Byte histogram (entropy) or a bit per byte pair (bigrams).
        private let table: UnsafeMutablePointer<UInt64>
        private let tableCount: Int
        /// c · log₂ c for every count a row can have (entropy).
        private let cLogC: [Double]
        /// The bytes a brute-force trial compresses (context rows unless `usesDictionary`, then
        /// the candidate row), and the compressor measuring them.
        private var window: [UInt8] = []
        private let meter: Zlib.SizeMeter?
        /// Whether brute force passes the context rows as a preset dictionary.
        private let usesDictionary: Bool

        init(_ strategy: PNGFilterStrategy, rowBytes: Int, usesDictionary: Bool) {
            self.strategy = strategy
            self.rowBytes = rowBytes
            self.usesDictionary = usesDictionary
            tableCount = strategy == .entropy ? 256 : strategy == .bigrams ? 65536 / 64 : 0
            table = .allocate(capacity: max(1, tableCount))
            cLogC = strategy == .entropy ? (0...rowBytes).map { $0 == 0 ? 0 : Double($0) * log2(Double($0)) } : []
            meter = strategy != .bruteForce ? nil : usesDictionary
                ? Zlib.SizeMeter(level: 6, strategy: Z_DEFAULT_STRATEGY, memLevel: 8)
                : Zlib.SizeMeter(level: 9, strategy: Z_DEFAULT_STRATEGY)
        }

        deinit { table.deallocate() }

        /// The score of `trial` (filtered with `filter`, minimum-sum score `sum`), placed after
        /// the already filtered image data `before`.
        func score(_ filter: PNGFilter, _ trial: UnsafePointer<UInt8>, sum: Int, before: UnsafeBufferPointer<UInt8>) -> Double {
            let table = self.table, count = rowBytes
            switch strategy {
            case .entropy:
                table.update(repeating: 0, count: 256)
                for i in 0..<count { table[Int(trial[i])] &+= 1 }
                // Minimizing n·log n − Σ c·log c means maximizing Σ c·log c.
                return cLogC.withUnsafeBufferPointer { cLogC in
                    var total = 0.0
                    for v in 0..<256 where table[v] > 1 { total += cLogC[Int(table[v])] }
                    return -total
                }
            case .bigrams:
                table.update(repeating: 0, count: tableCount)
                var distinct = 0
                var i = 1
                while i < count {
                    let pair = Int(trial[i - 1]) << 8 | Int(trial[i])
                    let bit = UInt64(1) << (pair & 63)
                    if table[pair >> 6] & bit == 0 { table[pair >> 6] |= bit; distinct += 1 }
                    i += 1
                }
                return Double(distinct)
            case .bruteForce:
                let contextBytes = min(before.count, PNGFilterStrategy.bruteForceContextRows * (count + 1))
                let context = UnsafeBufferPointer(rebasing: before[(before.count - contextBytes)...])
                window.removeAll(keepingCapacity: true)
                if !usesDictionary { window += context }
                window.append(filter.rawValue)
                window += UnsafeBufferPointer(start: trial, count: count)
                return Double(window.withUnsafeBufferPointer {
                    meter!.compressedSize(of: $0, dictionary: usesDictionary ? context : nil)
                })
            default:
                return Double(sum)
            }
        }
    }
}

extension PNGFilter {
    /// The fixed filter a strategy applies to every row, or `nil` for an adaptive strategy.
    init?(strategy: PNGFilterStrategy) {
        switch strategy {
        case .none: self = .none
        case .sub: self = .sub
        case .up: self = .up
        case .average: self = .average
        case .paeth: self = .paeth
        case .minimumSum, .entropy, .bigrams, .bruteForce: return nil
        }
    }
}

extension PNGFilterStrategy: CustomStringConvertible {
    /// The strategy's name in prose, e.g. `"minimum sum"`.
    public var description: String {
        switch self {
        case .minimumSum: return "minimum sum"
        case .bruteForce: return "brute force"
        default: return rawValue
        }
    }
}
