public import Foundation
import Glibc

/// A temporary directory with a short path (a socket path must fit in 107 bytes),
/// removed when the value is released.
public final class TemporarySocketDirectory {
    /// The directory's path.
    public let path: String

    /// Creates the directory under `/tmp`.
    public init() throws {
        var template = Array("/tmp/l10nd-wire-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mkdtemp failed: errno \(errno)"])
        }
        path = String(cString: made)
    }

    /// Where a test's socket goes: `l10nd.sock` in the directory.
    public var socketPath: String { path + "/l10nd.sock" }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
