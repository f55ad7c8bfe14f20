import Foundation

/// The example resources shipped in `Examples/Resources`, read from the source tree.
///
/// Tests read the real files a user would start from, so a broken example fails a test.
enum ExampleResourceFile {
    /// `Examples/Resources` of this package, found from this file's own path.
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .deletingLastPathComponent()
        .appending(path: "Examples/Resources")

    /// The bytes of `relativePath` under `Examples/Resources`.
    static func bytes(_ relativePath: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appending(path: relativePath)))
    }
}
