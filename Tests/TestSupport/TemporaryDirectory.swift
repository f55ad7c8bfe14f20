public import Foundation

/// A fresh directory under the system temp directory, removed when this value goes away.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The directory's path.
    public let path: String

    /// Creates the directory.
    public init(prefix: String = "l10nd-test") throws {
        let base = FileManager.default.temporaryDirectory.path
        let made = base + "/" + prefix + "-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: made, withIntermediateDirectories: true)
        // The real path: inotify reports real paths, and tests compare with them.
        path = URL(fileURLWithPath: made).resolvingSymlinksInPath().path
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Writes `text` as UTF-8 to `relativePath`, creating directories on the way.
    @discardableResult
    public func write(_ text: String, to relativePath: String) throws -> String {
        try write(Data(text.utf8), to: relativePath)
    }

    /// Writes `data` to `relativePath`, creating directories on the way.
    @discardableResult
    public func write(_ data: Data, to relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        let directory = (full as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        try data.write(to: URL(fileURLWithPath: full))
        return full
    }

    /// Writes `text`, by default a one-entry `.strings` table, to `relativePath`.
    @discardableResult
    public func write(_ relativePath: String, _ text: String = "\"k\" = \"v\";\n") throws -> String {
        try write(text, to: relativePath)
    }

    /// Creates `relativePath` and the directories on the way to it.
    @discardableResult
    public func makeDirectory(_ relativePath: String) throws -> String {
        let full = path + "/" + relativePath
        try FileManager.default.createDirectory(atPath: full, withIntermediateDirectories: true)
        return full
    }

    /// Removes the directory now rather than when this value goes away.
    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
