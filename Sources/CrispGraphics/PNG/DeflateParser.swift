// The near-optimal LZ77 parse: the cheapest way, under a cost model, to spell a run of bytes
// as literals and matches.
//
// What. Given each position's matches (`DeflateMatchList`) and bit prices (`DeflateCostModel`),
// the cheapest parse of bytes [start, end) is a shortest path in a graph whose nodes are
// positions and whose edges are "a literal" (i → i + 1) and "a match of length l" (i → i + l,
// for every l from 3 up to each match's length, at the distance of the first match reaching l).
// The graph is acyclic and ordered, so one backward pass computes cost-to-end at every position
// (dynamic programming), and a forward walk along the chosen edges gives the tokens. Every
// truncation of a match is an edge, which is where the gain over greedy and lazy matching
// comes from: a shorter match that lands where a long one starts.
//
// Why "near". The prices are those of a code that the parse itself changes (see
// `DeflateCostModel`), distances are limited to one per length, and the match lists are
// bounded by the finder's search depth — the same compromises Zopfli and libdeflate's levels
// 10–12 make. The idea is Storer and Szymanski's optimal parsing, made practical for deflate
// by Zopfli (Alakuijala and Vandevenne, 2013) and libdeflate (Biggers).
//
// Rejected alternative: lazy matching with a one- or two-step lookahead (zlib's levels 4–9),
// which is what the optimizer already gets from zlib; it is an order of magnitude faster but
// is where the last ten percent is lost.

/// Shortest-path parsing over cached matches.
final class DeflateParser {
    private let data: UnsafePointer<UInt8>
    /// Per position of the current segment: cost to the end, and the chosen step.
    private var cost: [Float] = []
    private var stepLength: [UInt16] = []
    private var stepDistance: [UInt16] = []

    /// A parser of the bytes at `data` (which must stay valid while it is used).
    init(data: UnsafePointer<UInt8>) {
        self.data = data
    }

    /// The greedy parse of `range`: the longest match at each position, else a literal.
    func greedy(_ matches: DeflateMatchList, _ range: Range<Int>) -> [DeflateToken] {
        var tokens: [DeflateToken] = []
        var position = range.lowerBound
        while position < range.upperBound {
            let index = position - matches.range.lowerBound
            let first = Int(matches.starts[index]), end = Int(matches.starts[index + 1])
            let length = end > first ? min(Int(matches.lengths[end - 1]), range.upperBound - position) : 0
            if length >= DeflateAlphabet.minimumMatch {
                tokens.append(DeflateToken(length: length, distance: Int(matches.distances[end - 1])))
                position += length
            } else {
                tokens.append(DeflateToken(literal: data[position]))
                position += 1
            }
        }
        return tokens
    }

    /// The cheapest parse of `range` (within the list's range) under `model`.
    func parse(_ matches: DeflateMatchList, _ range: Range<Int>, _ model: DeflateCostModel) -> [DeflateToken] {
        let count = range.count
        if cost.count < count + 1 {
            cost = [Float](repeating: 0, count: count + 1)
            stepLength = [UInt16](repeating: 0, count: count + 1)
            stepDistance = [UInt16](repeating: 0, count: count + 1)
        }
        let base = range.lowerBound - matches.range.lowerBound
        cost.withUnsafeMutableBufferPointer { cost in
            stepLength.withUnsafeMutableBufferPointer { stepLength in
                stepDistance.withUnsafeMutableBufferPointer { stepDistance in
                    matches.starts.withUnsafeBufferPointer { starts in
                        matches.lengths.withUnsafeBufferPointer { lengths in
                            matches.distances.withUnsafeBufferPointer { distances in
                                model.literal.withUnsafeBufferPointer { literalPrice in
                                    model.length.withUnsafeBufferPointer { lengthPrice in
                                        model.distanceCode.withUnsafeBufferPointer { distancePrice in
                                            let bytes = data + range.lowerBound
                                            cost[count] = 0
                                            var i = count - 1
                                            while i >= 0 {
                                                var best = literalPrice[Int(bytes[i])] + cost[i + 1]
                                                var bestLength: UInt16 = 0, bestDistance: UInt16 = 0
                                                let remaining = count - i
                                                var shortest = DeflateAlphabet.minimumMatch
                                                var m = Int(starts[base + i])
                                                let last = Int(starts[base + i + 1])
                                                while m < last && shortest <= remaining {
                                                    let longest = min(Int(lengths[m]), remaining)
                                                    let distance = distances[m]
                                                    let distanceCost = distancePrice[DeflateAlphabet.distanceCode(Int(distance))]
                                                    var l = shortest
                                                    while l <= longest {
                                                        let c = distanceCost + lengthPrice[l] + cost[i + l]
                                                        if c < best { best = c; bestLength = UInt16(l); bestDistance = distance }
                                                        l += 1
                                                    }
                                                    shortest = longest + 1
                                                    m += 1
                                                }
                                                cost[i] = best
                                                stepLength[i] = bestLength
                                                stepDistance[i] = bestDistance
                                                i -= 1
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        var tokens: [DeflateToken] = []
        var i = 0
        while i < count {
            let length = Int(stepLength[i])
            if length == 0 {
                tokens.append(DeflateToken(literal: data[range.lowerBound + i]))
                i += 1
            } else {
                tokens.append(DeflateToken(length: length, distance: Int(stepDistance[i])))
                i += length
            }
        }
        return tokens
    }
}
