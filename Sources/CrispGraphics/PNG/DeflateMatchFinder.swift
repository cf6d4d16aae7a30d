// Finding deflate's back-references: for each position, every match worth considering.
//
// What. An optimal parse needs, at each position, not one match but the list of useful ones:
// for every length the shortest distance that reaches it. Walking a hash chain (positions
// that share the next three bytes, newest first) yields exactly that list when one records
// a candidate only if it beats the longest match so far: the first candidate reaching a
// length is the nearest that does, and nearer distances never cost more bits in the usual
// case. The lists of one segment of input are cached (lengths increasing) so that the parse
// can run several times over the same matches with different costs.
//
// Why this shape. Hash chains with a bounded walk are zlib's match finder and Zopfli's too;
// the bound (`maximumChain`) caps the work per position, and a match of `niceLength` bytes
// ends the walk. Filtered image rows are full of runs (a flat colour filters to zeros), and
// inside a run the chain of its three bytes is the run's own recent positions: the walk ends
// before it reaches the row above, whose match would continue past the run's end. So, after
// Zopfli, positions are also chained by (byte, length of the run ahead), and inside a run
// that second chain is walked too: its candidates end their runs where this one does. On a
// retina screenshot's filtered rows this made the stream 3.3 % smaller (98 441 → 95 228 bytes).
//
// At the lower efforts a match of `niceLength` is also taken as the only choice at its
// position and the positions it covers are merely entered into the chains (libdeflate's
// rule), which makes flat areas cheap for the finder and the parser; but it forbids starting
// a match inside a long one, and on the same rows searching those positions too saved
// another 3 % (95 228 → 92 280 bytes) for about 8× the time, so the highest efforts do.
// Comparisons run eight bytes at a time through unaligned loads.
//
// Rejected alternative: binary trees (libdeflate's and LZMA's "bt" finders), which order
// candidates by what follows and so need no run chain, but need twice the memory and a
// harder-to-check update; with the run chain, a plain chain 32 deep found what a 1024-deep
// one did not.

/// The matches of one segment: for each position, matches of increasing length.
struct DeflateMatchList {
    /// The positions covered.
    let range: Range<Int>
    /// `starts[p − range.lowerBound] ..< starts[p − range.lowerBound + 1]` indexes the matches of `p`.
    var starts: [Int32]
    /// Match lengths (3…258) and distances (1…32768), in parallel.
    var lengths: [UInt16]
    var distances: [UInt16]
}

/// Hash-chain match finder over the whole input, run segment by segment in order.
final class DeflateMatchFinder {
    private let data: UnsafePointer<UInt8>
    private let count: Int
    private let maximumChain: Int
    private let niceLength: Int
    private let skipsCoveredPositions: Bool
    private static let hashBits = 16
    private let head: UnsafeMutablePointer<Int32>
    private let previous: UnsafeMutablePointer<Int32>
    /// The second chains: positions by (byte, run length ahead), for positions inside runs.
    private let runHead: UnsafeMutablePointer<Int32>
    private let runPrevious: UnsafeMutablePointer<Int32>
    /// The run length at the last position entered, for the next one.
    private var lastRun = 0
    /// The next position to enter into the chains.
    private var nextInsert = 0

    /// A finder over `count` bytes at `data`, which must stay valid while it is used.
    ///
    /// - Parameters:
    ///   - maximumChain: how many chain entries one position examines at most.
    ///   - niceLength: a match at least this long ends the search.
    ///   - skipsCoveredPositions: whether such a match is also its position's only one, and
    ///     the positions it covers get no matches.
    init(data: UnsafePointer<UInt8>, count: Int, maximumChain: Int, niceLength: Int, skipsCoveredPositions: Bool) {
        self.data = data
        self.count = count
        self.maximumChain = maximumChain
        self.niceLength = min(niceLength, DeflateAlphabet.maximumMatch)
        self.skipsCoveredPositions = skipsCoveredPositions
        head = .allocate(capacity: 1 << Self.hashBits)
        head.initialize(repeating: -1, count: 1 << Self.hashBits)
        previous = .allocate(capacity: DeflateAlphabet.windowSize)
        previous.initialize(repeating: -1, count: DeflateAlphabet.windowSize)
        runHead = .allocate(capacity: 1 << Self.hashBits)
        runHead.initialize(repeating: -1, count: 1 << Self.hashBits)
        runPrevious = .allocate(capacity: DeflateAlphabet.windowSize)
        runPrevious.initialize(repeating: -1, count: DeflateAlphabet.windowSize)
    }

    deinit {
        head.deallocate()
        previous.deallocate()
        runHead.deallocate()
        runPrevious.deallocate()
    }

    @inline(__always)
    private func hash(_ position: Int) -> Int {
        let p = data + position
        let key = UInt32(p[0]) | UInt32(p[1]) << 8 | UInt32(p[2]) << 16
        return Int((key &* 0x9E37_79B1) >> UInt32(32 - Self.hashBits))
    }

    /// Enters `position` into its chain, and into its run chain when a run of `run` ≥ 3 equal
    /// bytes starts there (positions whose three bytes run past the end are not entered).
    @inline(__always)
    private func insert(_ position: Int, run: Int) {
        guard position + 2 < count else { return }
        let h = hash(position)
        previous[position & (DeflateAlphabet.windowSize - 1)] = head[h]
        head[h] = Int32(position)
        if run >= 3 {
            let r = runHash(position, run)
            runPrevious[position & (DeflateAlphabet.windowSize - 1)] = runHead[r]
            runHead[r] = Int32(position)
        }
    }

    @inline(__always)
    private func runHash(_ position: Int, _ run: Int) -> Int {
        let key = UInt32(data[position]) | UInt32(min(run, 65535)) << 8
        return Int((key &* 0x9E37_79B1) >> UInt32(32 - Self.hashBits))
    }

    /// How many bytes from `position` on equal the byte at `position` (at most 65535 + 1),
    /// from the run length at the position before.
    @inline(__always)
    private func runLength(_ position: Int) -> Int {
        if lastRun > 1 && position > 0 && data[position - 1] == data[position] { return lastRun - 1 }
        var n = 1
        while position + n < count && n <= 65535 && data[position + n] == data[position] { n += 1 }
        return n
    }

    /// The length of the common prefix of the bytes at `a` and `b`, at most `limit`;
    /// `b + limit` must not pass the end.
    @inline(__always)
    private func matchLength(_ a: Int, _ b: Int, limit: Int) -> Int {
        let pa = UnsafeRawPointer(data + a), pb = UnsafeRawPointer(data + b)
        var length = 0
        while length + 8 <= limit {
            let difference = pa.loadUnaligned(fromByteOffset: length, as: UInt64.self)
                ^ pb.loadUnaligned(fromByteOffset: length, as: UInt64.self)
            if difference != 0 { return length + difference.littleEndian.trailingZeroBitCount >> 3 }
            length += 8
        }
        while length < limit && data[a + length] == data[b + length] { length += 1 }
        return length
    }

    /// Walks a chain from `candidate` for at most `maximumChain` entries, appending to `list`
    /// every match of `position` longer than `best` (up to `limit`); returns the longest length.
    @inline(__always)
    private func walk(from candidate: Int, links: UnsafeMutablePointer<Int32>, position: Int, limit: Int, best: Int,
                      into list: inout DeflateMatchList) -> Int {
        let window = DeflateAlphabet.windowSize
        var candidate = candidate, best = best, budget = maximumChain
        while candidate >= 0 && position - candidate <= window && budget > 0 {
            budget -= 1
            if data[candidate + best] == data[position + best] {
                let length = matchLength(candidate, position, limit: limit)
                if length > best {
                    best = length
                    list.lengths.append(UInt16(length))
                    list.distances.append(UInt16(position - candidate))
                    if length >= niceLength || length == limit { break }
                }
            }
            candidate = Int(links[candidate & (window - 1)])
        }
        return best
    }

    /// The matches of every position in `range`, which must start where the previous call's
    /// range ended (or at 0).
    func matches(in range: Range<Int>) -> DeflateMatchList {
        precondition(range.lowerBound == nextInsert && range.upperBound <= count)
        var list = DeflateMatchList(range: range, starts: [0], lengths: [], distances: [])
        list.starts.reserveCapacity(range.count + 1)
        list.lengths.reserveCapacity(range.count)
        list.distances.reserveCapacity(range.count)
        var skip = 0
        for position in range {
            let run = runLength(position)
            lastRun = run
            defer {
                insert(position, run: run)
                list.starts.append(Int32(list.lengths.count))
            }
            if skip > 0 { skip -= 1; continue }
            let limit = min(DeflateAlphabet.maximumMatch, count - position)
            guard limit >= DeflateAlphabet.minimumMatch else { continue }
            var best = walk(from: Int(head[hash(position)]), links: previous, position: position, limit: limit,
                            best: DeflateAlphabet.minimumMatch - 1, into: &list)
            // Inside a run, the first chain holds the run's own positions; candidates with
            // the same run length ahead (Zopfli's second hash) continue past its end.
            if run >= 3 && best < niceLength && best < limit {
                best = walk(from: Int(runHead[runHash(position, run)]), links: runPrevious, position: position, limit: limit,
                            best: best, into: &list)
            }
            if best >= niceLength && skipsCoveredPositions { skip = best - 1 }
        }
        nextInsert = range.upperBound
        return list
    }
}
