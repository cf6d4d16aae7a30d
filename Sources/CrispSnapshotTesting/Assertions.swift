import CrispApp
import Foundation
@_spi(Internals) import SnapshotTesting

// swift-snapshot-testing's `assertSnapshot`, `assertSnapshots` and `verifySnapshot`, with the
// same parameters, for Crisp's strategies. Being the more specific overloads (no generic
// parameters), these are the ones a call with a Crisp strategy picks; they check the folder the
// reference goes to first, so a record into a folder that cannot be written fails saying which
// folder and why (the library's message for that on Linux is "The operation could not be
// completed. (NSCocoaErrorDomain error 512.)"), then hand over to the library's functions.

/// Why the references' folder cannot be made or written, or nil when it can be.
func snapshotFolderProblem(snapshotDirectory: String?, filePath: StaticString) -> String? {
    let fileURL = URL(fileURLWithPath: "\(filePath)", isDirectory: false)
    let folder = snapshotDirectory.map { URL(fileURLWithPath: $0, isDirectory: true) }
        ?? fileURL.deletingLastPathComponent().appendingPathComponent("__Snapshots__")
        .appendingPathComponent(fileURL.deletingPathExtension().lastPathComponent)
    let manager = FileManager.default
    // The nearest part of the path that exists must be a folder we may write into (or the
    // folder itself).
    var existing = folder.standardizedFileURL
    while !manager.fileExists(atPath: existing.path), existing.path != "/" { existing.deleteLastPathComponent() }
    var isDirectory: ObjCBool = false
    _ = manager.fileExists(atPath: existing.path, isDirectory: &isDirectory)
    let prefix = "Cannot record into the snapshot folder \(folder.path): "
    guard isDirectory.boolValue else { return prefix + "\(existing.path) is a file, not a folder." }
    guard manager.isWritableFile(atPath: existing.path) else { return prefix + "\(existing.path) is not writable." }
    do {
        try manager.createDirectory(at: folder, withIntermediateDirectories: true)
    } catch {
        return prefix + "\(error)"
    }
    return nil
}

/// What every assertion below passes through to the library's `verifySnapshot`.
private struct SnapshotCall {
    var record: SnapshotTestingConfiguration.Record?
    var snapshotDirectory: String?
    var timeout: TimeInterval
    var fileID: StaticString, filePath: StaticString, testName: String, line: UInt, column: UInt
}

/// The one body of the `verifySnapshot` overloads (a screen, a view): the folder checked first,
/// then the library's comparison.
private func verify<Value>(_ value: () throws -> Value, as snapshotting: Snapshotting<Value, SnapshotImage>,
                           named name: String?, _ call: SnapshotCall) -> String? {
    if let problem = snapshotFolderProblem(snapshotDirectory: call.snapshotDirectory, filePath: call.filePath) { return problem }
    return SnapshotTesting.verifySnapshot(of: try value(), as: snapshotting, named: name, record: call.record,
                                          snapshotDirectory: call.snapshotDirectory, timeout: call.timeout,
                                          fileID: call.fileID, file: call.filePath, testName: call.testName,
                                          line: call.line, column: call.column)
}

/// The one body of the `assertSnapshot` overloads: `verify`, and a test issue on a mismatch.
private func assertOne<Value>(_ value: () throws -> Value, as snapshotting: Snapshotting<Value, SnapshotImage>,
                              named name: String?, _ call: SnapshotCall) {
    guard let message = verify(value, as: snapshotting, named: name, call) else { return }
    recordIssue(message, fileID: call.fileID, filePath: call.filePath, line: call.line, column: call.column)
}

/// The one body of the `assertSnapshots` overloads: every strategy, in the order of its key.
private func assertAll<Value>(_ value: () throws -> Value, as strategies: [String: Snapshotting<Value, SnapshotImage>],
                              _ call: SnapshotCall) {
    for (name, strategy) in strategies.sorted(by: { $0.key < $1.key }) {
        assertOne(value, as: strategy, named: name, call)
    }
}

/// Compares a screen's snapshot with its reference (or records it), as the library's
/// `verifySnapshot`; returns the failure message, or nil.
public func verifySnapshot(
    of value: @autoclosure () throws -> AppScreen, as snapshotting: Snapshotting<AppScreen, SnapshotImage>,
    named name: String? = nil, record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) -> String? {
    verify(value, as: snapshotting, named: name, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}

/// Compares a view's snapshot with its reference (or records it), as the library's
/// `verifySnapshot`; returns the failure message, or nil.
public func verifySnapshot(
    of value: @autoclosure () throws -> View, as snapshotting: Snapshotting<View, SnapshotImage>,
    named name: String? = nil, record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) -> String? {
    verify(value, as: snapshotting, named: name, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}

/// Asserts that a screen matches its reference (see the library's `assertSnapshot`): a test
/// issue (Swift Testing or XCTest) with the message on a mismatch.
public func assertSnapshot(
    of value: @autoclosure () throws -> AppScreen, as snapshotting: Snapshotting<AppScreen, SnapshotImage>,
    named name: String? = nil, record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    assertOne(value, as: snapshotting, named: name, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}

/// Asserts that a view matches its reference (see the library's `assertSnapshot`).
public func assertSnapshot(
    of value: @autoclosure () throws -> View, as snapshotting: Snapshotting<View, SnapshotImage>,
    named name: String? = nil, record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    assertOne(value, as: snapshotting, named: name, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}

/// Asserts a screen against every strategy of a matrix, each reference named by its key
/// (`[String: Snapshotting].matrix(of:devices:…)`).
public func assertSnapshots(
    of value: @autoclosure () throws -> AppScreen, as strategies: [String: Snapshotting<AppScreen, SnapshotImage>],
    record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    assertAll(value, as: strategies, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}

/// Asserts a view against every strategy of a matrix, each reference named by its key.
public func assertSnapshots(
    of value: @autoclosure () throws -> View, as strategies: [String: Snapshotting<View, SnapshotImage>],
    record: SnapshotTestingConfiguration.Record? = nil, snapshotDirectory: String? = nil,
    timeout: TimeInterval = 5, fileID: StaticString = #fileID, file filePath: StaticString = #filePath,
    testName: String = #function, line: UInt = #line, column: UInt = #column
) {
    assertAll(value, as: strategies, SnapshotCall(record: record, snapshotDirectory: snapshotDirectory,
        timeout: timeout, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column))
}
