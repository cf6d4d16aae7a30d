import CrispTestSupport
import Foundation
import Testing
@_spi(Testing) @testable import CrispGraphics

/// The AVX2 source-over kernels (CCrispKernels) against the Swift SSE2 ones and the scalar
/// formula, bit for bit: every kernel, every coverage level, spans of 0…70 pixels from starts
/// at every word offset, premultiplied edge cases and arbitrary words (caller memory may hold
/// colour above alpha). Each test forces its path on its own thread only (`KernelDispatch.withPath`).
@Suite struct KernelDispatchTests {
    static let noAVX2 = "this CPU (or its OS) has no AVX2, so the AVX2 kernels were NOT tested; only the SSE2 path ran"

    /// Pixels the kernels meet: mostly premultiplied (transparent, opaque, colour = alpha), every
    /// fifth an arbitrary word.
    static func pixels(_ n: Int, _ rng: inout SplitMix64) -> [UInt32] {
        (0..<n).map { i in
            i % 5 == 4 ? UInt32(truncatingIfNeeded: rng.next()) : CompositePipelineTests.randomPixel(&rng)
        }
    }

    /// Every kernel that has an AVX2 twin, run with `path` forced: each result word against the
    /// scalar formula inside the span and against the untouched destination outside it. Returns
    /// the mismatches and every buffer the kernels left, for comparing paths.
    static func runKernels(_ path: KernelDispatch.Path) -> (mismatches: Int, buffers: [UInt32]) {
        let result = KernelDispatch.withPath(path) { runKernelsOnThisThread() }
        #expect(result != nil, "the path \(path) was refused")
        return result ?? (0, [])
    }

    private static func runKernelsOnThisThread() -> (mismatches: Int, buffers: [UInt32]) {
        var rng = SplitMix64(seed: 0xA7C2)
        let width = 96
        let destination = pixels(width, &rng), sources = pixels(width, &rng)
        var coverage = (0..<256).map { UInt8($0) }
        coverage.shuffle(using: &rng)
        coverage += [UInt8](repeating: 255, count: 20) + [UInt8](repeating: 0, count: 20) + [UInt8](repeating: 255, count: 9)
        coverage += (0..<40).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
        let colors = InPlaceKernelTests.colors + pixels(4, &rng)
        let memory = UnsafeMutablePointer<UInt32>.allocate(capacity: width)
        defer { memory.deallocate() }
        var mismatches = 0, buffers: [UInt32] = []

        /// One call: the span `count` pixels from word `offset`, `expected(i, d)` for pixel i.
        func check(count: Int, offset: Int, _ kernel: (UnsafeMutablePointer<UInt32>) -> Void,
                   _ expected: (Int, UInt32) -> UInt32) {
            memory.update(from: destination, count: width)
            kernel(memory + offset)
            for i in 0..<width {
                let inside = i >= offset && i < offset + count
                if memory[i] != (inside ? expected(i - offset, destination[i]) : destination[i]) { mismatches += 1 }
            }
            buffers.append(contentsOf: UnsafeBufferPointer(start: memory, count: width))
        }
        let over = { (s: UInt32, d: UInt32, c: UInt32) in CompositePipelineTests.reference(SourceOver.self, s, d, c) }
        // Another layout's words: alpha in the low byte or the top byte, a skipped byte set or
        // not; the colour given in the layout's order, as the compositor gives it.
        let quads: [(Bool, UInt32)] = [(true, 0), (true, 0xFF), (false, 0), (false, 0xFF00_0000)]
        func quad(_ s: UInt32, _ alphaFirst: Bool) -> UInt32 { alphaFirst ? s << 8 | s >> 24 : s }

        // One coverage: every level 1…255 with every colour; the lengths 0…70 cycle with it.
        for (k, s) in colors.enumerated() {
            for c in UInt32(1)...255 {
                let count = (Int(c) * 7 + k) % 71, offset = (Int(c) + k) % 8
                check(count: count, offset: offset, { SourceOver.blendSpan($0, count: count, source: s, coverage: c) }) {
                    over(s, $1, c)
                }
                let src = offset + 17
                sources.withUnsafeBufferPointer { row in
                    check(count: count, offset: offset,
                          { SourceOver.blendSpan($0, count: count, sources: row.baseAddress! + src, coverage: c) }) {
                        over(row[src + $0], $1, c)
                    }
                }
                let (alphaFirst, skipped) = quads[Int(c) % 4], q = quad(s, alphaFirst)
                check(count: count, offset: offset, {
                    SourceOver.blendQuadSpan($0, count: count, source: q, coverage: c, alphaFirst: alphaFirst, skipped: skipped)
                }) {
                    InPlaceKernelTests.quadReference($1, source: q, coverage: c, alphaFirst: alphaFirst, skipped: skipped)
                }
            }
        }
        // Coverage rows: every length 0…70 from every word offset, windows sliding over all 256
        // levels and the runs of 0 and 255.
        coverage.withUnsafeBufferPointer { cov in
            sources.withUnsafeBufferPointer { row in
                for (k, s) in colors.enumerated() {
                    for count in 0...70 {
                        let offset = (count + k) % 8, at = (count * 37 + k * 101) % (cov.count - 70)
                        let cv = cov.baseAddress! + at, src = (count * 3 + k) % (width - 70)
                        func c(_ i: Int) -> UInt32 { UInt32(cv[i]) }
                        check(count: count, offset: offset, { SourceOver.blendSpan($0, count: count, source: s, coverage: cv) }) {
                            over(s, $1, c($0))
                        }
                        check(count: count, offset: offset,
                              { SourceOver.blendSpan($0, count: count, sources: row.baseAddress! + src, coverage: cv) }) {
                            over(row[src + $0], $1, c($0))
                        }
                        let (alphaFirst, skipped) = quads[(count + k) % 4], q = quad(s, alphaFirst)
                        check(count: count, offset: offset, {
                            SourceOver.blendQuadSpan($0, count: count, source: q, coverage: cv, alphaFirst: alphaFirst,
                                                     skipped: skipped)
                        }) {
                            InPlaceKernelTests.quadReference($1, source: q, coverage: c($0), alphaFirst: alphaFirst,
                                                             skipped: skipped)
                        }
                    }
                }
            }
        }
        return (mismatches, buffers)
    }

    @Test func sse2KernelsMatchTheFormula() {
        let sse2 = Self.runKernels(.sse2)
        #expect(!sse2.buffers.isEmpty && sse2.mismatches == 0)
    }

    /// Fails, saying so, on a CPU without AVX2 (nothing passes untested).
    @Test func avx2KernelsMatchTheFormulaAndSSE2() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: Self.noAVX2))
            return
        }
        let avx2 = Self.runKernels(.avx2), sse2 = Self.runKernels(.sse2)
        #expect(!avx2.buffers.isEmpty && avx2.mismatches == 0)
        let differing = zip(avx2.buffers, sse2.buffers).filter { $0 != $1 }.count
        #expect(avx2.buffers.count == sse2.buffers.count && differing == 0, "the AVX2 and SSE2 kernels differ in \(differing) words")
    }

    /// The switch: SSE2 takes no span, forced AVX2 every span, and left alone AVX2 takes the
    /// spans of the measured length exactly when the CPU has it; each path holds inside its body
    /// only, and nests.
    @Test func dispatchFollowsTheSwitch() {
        KernelDispatch.prepare()
        let automatic = KernelDispatch.usesAVX2(1 << 40)
        #expect(automatic == KernelDispatch.cpuHasAVX2)
        let sse2 = KernelDispatch.withPath(.sse2) { () -> Bool in
            let inner = KernelDispatch.withPath(.automatic) { KernelDispatch.usesAVX2(1 << 40) }
            #expect(inner == KernelDispatch.cpuHasAVX2)
            return KernelDispatch.usesAVX2(1 << 40)
        }
        #expect(sse2 == false)
        #expect(KernelDispatch.usesAVX2(1 << 40) == automatic, "the thread's path is restored after the body")
        let forced = KernelDispatch.withPath(.avx2) { KernelDispatch.usesAVX2(0) && KernelDispatch.usesAVX2(1) }
        #expect((forced != nil) == KernelDispatch.cpuHasAVX2, "forcing AVX2 must be refused exactly without AVX2")
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: Self.noAVX2))
            return
        }
        #expect(forced == true)
        #expect(!KernelDispatch.usesAVX2(0), "forced AVX2 ended with its body")
    }

    /// The path is the calling thread's: a thread that forces SSE2 does not change what another
    /// thread runs at the same moment (it was once a process-wide switch, a data race).
    @Test func pathsArePerThread() {
        guard KernelDispatch.cpuHasAVX2 else {
            Issue.record(Comment(rawValue: Self.noAVX2))
            return
        }
        let entered = DispatchSemaphore(value: 0), checked = DispatchSemaphore(value: 0)
        final class Answer: @unchecked Sendable { var usesAVX2 = false }   // written before `checked`, read after
        let other = Answer()
        let thread = Thread {
            KernelDispatch.prepare()
            entered.wait()                           // the test thread is inside its SSE2 body now
            other.usesAVX2 = KernelDispatch.usesAVX2(1 << 40)
            checked.signal()
        }
        thread.start()
        KernelDispatch.withPath(.sse2) {
            #expect(!KernelDispatch.usesAVX2(1 << 40))
            entered.signal()
            checked.wait()
        }
        #expect(other.usesAVX2, "another thread lost AVX2 while this one forced SSE2")
    }
}
