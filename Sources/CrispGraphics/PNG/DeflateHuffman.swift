// Length-limited Huffman codes for deflate: optimal code lengths under a maximum length, and
// the canonical codes RFC 1951 §3.2.2 derives from them.
//
// What. Deflate limits code lengths to 15 bits (7 for the code-length code), and a plain
// Huffman tree over skewed counts can be deeper. The package-merge algorithm (Larmore and
// Hirschberg, 1990) finds the lengths that minimise Σ count × length under the limit exactly:
// each symbol is a coin of its count at every depth 1…L; pairing the cheapest coins of one
// depth into packages for the next, level by level, and taking the cheapest 2n − 2 items of the
// top list gives each symbol a length equal to the number of lists it was taken from. With at
// most 288 symbols and 15 levels this is a few thousand items, cheap beside the parse.
//
// Why not the usual heuristic. zlib and libdeflate build an unlimited tree and then move
// overlong leaves up, repairing the Kraft sum; that is fast and close, but not optimal, and
// the point of this encoder is the last fraction of a percent. Every code built here is also
// complete (Kraft sum exactly 1): a code with a single used symbol gets a second, unused
// symbol of length 1, so every inflater accepts it (zlib rejects most incomplete codes).

/// Huffman code construction for deflate.
enum DeflateHuffman {
    /// Optimal code lengths for `counts` with no length above `limit`.
    ///
    /// Symbols with a zero count get length 0, except that when fewer than two symbols are
    /// used, the first unused symbol(s) get length 1 so that the code is complete.
    ///
    /// - Precondition: `counts.count ≥ 2` and `2^limit ≥` the number of used symbols.
    static func lengths(_ counts: UnsafeBufferPointer<UInt32>, limit: Int) -> [UInt8] {
        precondition(counts.count >= 2)
        var lengths = [UInt8](repeating: 0, count: counts.count)
        var used = counts.indices.filter { counts[$0] > 0 }
        if used.count < 2 {
            for symbol in counts.indices where used.count < 2 && !used.contains(symbol) { used.append(symbol) }
            for symbol in used { lengths[symbol] = 1 }
            return lengths
        }
        precondition(1 << limit >= used.count, "\(used.count) symbols do not fit in \(limit)-bit codes")
        // Leaves in increasing count order (ties by symbol, so results are deterministic).
        used.sort { (counts[$0], $0) < (counts[$1], $1) }
        let leafWeights = used.map { UInt64(counts[$0]) }
        let n = used.count
        // leafCounts[d]: how many of the cheapest items of list d are leaves. List `limit - 1`
        // (deepest) is the leaves alone; each shallower list merges the leaves with the
        // packages (pairs) of the list below it.
        var leafCounts = [Int](repeating: 0, count: limit)
        var below = leafWeights
        var lists: [[Bool]] = Array(repeating: [], count: limit)
        lists[limit - 1] = [Bool](repeating: true, count: n)
        for depth in stride(from: limit - 2, through: 0, by: -1) {
            var merged: [UInt64] = [], isLeaf: [Bool] = []
            merged.reserveCapacity(2 * n)
            isLeaf.reserveCapacity(2 * n)
            var leaf = 0, pair = 0
            let pairs = below.count / 2
            while leaf < n || pair < pairs {
                let packageWeight = pair < pairs ? below[2 * pair] + below[2 * pair + 1] : UInt64.max
                if leaf < n && leafWeights[leaf] <= packageWeight {
                    merged.append(leafWeights[leaf]); isLeaf.append(true); leaf += 1
                } else {
                    merged.append(packageWeight); isLeaf.append(false); pair += 1
                }
            }
            below = merged
            lists[depth] = isLeaf
        }
        // Walk down from the top list: take the cheapest 2n − 2 items; its packages are the
        // cheapest 2 × (packages taken) items of the list below.
        var take = 2 * n - 2
        for depth in 0..<limit {
            var leaves = 0
            for i in 0..<take where lists[depth][i] { leaves += 1 }
            leafCounts[depth] = leaves
            take = 2 * (take - leaves)
        }
        // Each of the `leafCounts[d]` cheapest leaves gains one bit of length at depth d.
        for depth in 0..<limit {
            for i in 0..<leafCounts[depth] { lengths[used[i]] += 1 }
        }
        return lengths
    }

    /// The canonical codes (RFC 1951 §3.2.2) of `lengths`, each bit-reversed so that it can be
    /// written least significant bit first, as deflate's bit order requires.
    static func codes(_ lengths: [UInt8]) -> [UInt16] {
        var countOfLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countOfLength[Int(length)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed = 0
            for bit in 0..<Int(length) where value & (1 << bit) != 0 { reversed |= 1 << (Int(length) - 1 - bit) }
            return UInt16(reversed)
        }
    }
}
