import Foundation

// Each harness is an executable whose one function is `LLVMFuzzerTestOneInput`, exported with
// `@_cdecl`: built with `swift build --sanitize fuzzer`, SwiftPM compiles executables as
// libraries and links libFuzzer, whose own `main` parses the libFuzzer flags and calls that
// function once per input. Run with `SWIFT_BACKTRACE=enable=no`, or Swift's backtracer catches
// a trap before libFuzzer can save the crashing input (`run.sh` does).

/// The bytes libFuzzer hands a harness, as an array.
public func fuzzBytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// A cursor that turns fuzz bytes into values, for harnesses that build calls from bytes.
public struct FuzzReader {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { offset >= bytes.count }

    /// The next byte (0 once the input is used up).
    public mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// A number below `bound` (> 0).
    public mutating func below(_ bound: Int) -> Int { Int(byte()) % bound }

    /// Eight bytes as a Double: any bit pattern, NaN, infinities and subnormals included.
    public mutating func anyDouble() -> Double {
        var bits: UInt64 = 0
        for _ in 0..<8 { bits = bits << 8 | UInt64(byte()) }
        return Double(bitPattern: bits)
    }

    /// A coordinate: usually moderate (−64…192 in 1/4 steps), sometimes extreme (any Double).
    public mutating func coordinate() -> Double {
        byte() < 224 ? Double(Int(byte()) - 64) + Double(byte() & 3) / 4 : anyDouble()
    }

    /// The rest of the input.
    public mutating func rest() -> [UInt8] {
        defer { offset = bytes.count }
        return offset < bytes.count ? Array(bytes[offset...]) : []
    }
}
