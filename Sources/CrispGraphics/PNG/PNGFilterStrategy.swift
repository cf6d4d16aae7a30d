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
//     brute force   the filter whose row, compressed after the previous four filtered rows,
//                   comes out smallest: a deflate per filter per row, for small images only
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
        let scorer = Scorer(self, rowBytes: rowBytes)
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
        /// Context rows and the candidate, and the compressor measuring them (brute force).
        private var window: [UInt8] = []
        private let meter: Zlib.SizeMeter?

        init(_ strategy: PNGFilterStrategy, rowBytes: Int) {
            self.strategy = strategy
            self.rowBytes = rowBytes
            tableCount = strategy == .entropy ? 256 : strategy == .bigrams ? 65536 / 64 : 0
            table = .allocate(capacity: max(1, tableCount))
            cLogC = strategy == .entropy ? (0...rowBytes).map { $0 == 0 ? 0 : Double($0) * log2(Double($0)) } : []
            meter = strategy == .bruteForce ? Zlib.SizeMeter(level: 9, strategy: Z_DEFAULT_STRATEGY) : nil
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
                window.removeAll(keepingCapacity: true)
                window += before[(before.count - contextBytes)...]
                window.append(filter.rawValue)
                window += UnsafeBufferPointer(start: trial, count: count)
                return Double(window.withUnsafeBufferPointer { meter!.compressedSize(of: $0) })
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
