// Where to end deflate blocks: split a parse wherever two blocks with their own codes cost
// less than one block with a shared code.
//
// What. Each block pays for a header (its code lengths) and gains a code fitted to its own
// statistics; image data changes character from region to region (a flat background, text,
// a gradient), so the right number of blocks is neither one nor "every 16 k symbols" (zlib's
// rule at memLevel 8). The splitter measures: for a run of tokens it evaluates the exact size
// (`DeflateBlockCode`, the best of dynamic and fixed) of both halves at evenly spaced candidate
// split points, refines around the best one, and splits there if that saves bits; then it
// recurses into both halves. Histograms at the candidates come from one pass over the run,
// so a level costs one pass plus a few dozen code constructions.
//
// The recursive search is Zopfli's block splitter; Zopfli searches each level by repeatedly
// narrowing an interval, assuming the cost is unimodal in the split point, where this samples
// evenly and refines once — the sampled curve is not unimodal on images. Rejected alternative:
// libdeflate's rule, which ends a block when the running symbol statistics drift from the
// block's so far; it is online and fast but does not look at what the split saves.

/// Cost-based recursive splitting of a parse into deflate blocks.
enum DeflateBlockSplitter {
    /// Candidate split points tried per search round.
    static let candidates = 24

    /// The size in bits of the tokens counted in `histogram` as one block (dynamic or fixed).
    static func blockBits(_ histogram: DeflateHistogram) -> Int {
        min(DeflateBlockCode(dynamicFor: histogram).blockBits(histogram), DeflateBlockCode.fixed.blockBits(histogram))
    }

    /// The token indices (increasing, strictly inside `0 ..< tokens.count`) at which blocks
    /// should start, besides the first; blocks have at least `minimumTokens` tokens.
    static func split(_ tokens: [DeflateToken], minimumTokens: Int) -> [Int] {
        var starts: [Int] = []
        var pending: [(Range<Int>, DeflateHistogram)] = [(0..<tokens.count, DeflateHistogram(tokens))]
        while let (range, histogram) = pending.popLast() {
            guard range.count >= 2 * minimumTokens,
                  let (at, left, right) = bestSplit(tokens, range, histogram, minimumTokens: minimumTokens) else { continue }
            starts.append(at)
            pending.append((range.lowerBound..<at, left))
            pending.append((at..<range.upperBound, right))
        }
        return starts.sorted()
    }

    /// The best place to split `range` (whose histogram is `whole`), if splitting saves bits.
    private static func bestSplit(_ tokens: [DeflateToken], _ range: Range<Int>, _ whole: DeflateHistogram, minimumTokens: Int)
        -> (Int, DeflateHistogram, DeflateHistogram)? {
        let unsplit = blockBits(whole)
        var best: (bits: Int, at: Int, left: DeflateHistogram, right: DeflateHistogram)?
        // The search interval and the histogram of the tokens before it, within `range`.
        var low = range.lowerBound + minimumTokens, high = range.upperBound - minimumTokens
        var before = DeflateHistogram()
        before.counts[DeflateAlphabet.endOfBlock] = 0
        for token in tokens[range.lowerBound..<low] { before.add(token) }
        for _ in 0..<2 {
            guard low <= high else { break }
            let step = max(1, (high - low) / (candidates + 1))
            var points = Array(stride(from: low + step / 2, through: high, by: step).prefix(candidates))
            if points.isEmpty { points = [low] }
            var running = before
            var position = low
            var snapshots: [(Int, DeflateHistogram)] = []
            for point in points {
                while position < point { running.add(tokens[position]); position += 1 }
                snapshots.append((point, running))
            }
            var bestIndex = -1
            for (index, (point, counts)) in snapshots.enumerated() {
                var left = counts
                left.counts[DeflateAlphabet.endOfBlock] = 1
                let right = whole.subtracting(counts)
                let bits = blockBits(left) + blockBits(right)
                if best == nil || bits < best!.bits {
                    best = (bits, point, left, right)
                    bestIndex = index
                }
            }
            guard bestIndex >= 0 else { break }
            // Refine between the neighbours of the best point.
            if bestIndex > 0 {
                let (point, counts) = snapshots[bestIndex - 1]
                low = point + 1
                before = counts
                before.add(tokens[point])
            }
            high = bestIndex + 1 < snapshots.count ? snapshots[bestIndex + 1].0 - 1 : high
        }
        guard let best, best.bits < unsplit else { return nil }
        return (best.at, best.left, best.right)
    }
}
