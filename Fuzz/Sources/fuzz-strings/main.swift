import CrispUI
import Foundation
import FuzzSupport

// .strings tables: parse (recovering line by line) and look every key up.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzBytes(data, size)
    let table = StringsTable(parsing: String(decoding: bytes, as: UTF8.self), fileName: "fuzz.strings")
    for key in table.entries.keys { _ = table[key] }
    for problem in table.problems { _ = problem.description }
    return 0
}
