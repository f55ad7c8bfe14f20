import Foundation

/// A directory entry whose name is not UTF-8, found where resources are looked for.
///
/// Foundation lists such a name decoded, each bad sequence as U+FFFD, a path that names
/// nothing on disk: the file behind it can be neither read nor told apart from another that
/// decodes the same. It is skipped, and said with its bytes shown (`caf\xE9.strings`), by
/// lint, the daemon's log and its `status`.
public struct UndecodableName: Sendable, Hashable {
    /// The path as Foundation decodes it (U+FFFD for each bad sequence), as events name it.
    public var decodedPath: String
    /// The path for a person: the name's valid text escaped as ``DisplayText`` does, every
    /// byte that is not UTF-8 written `\xE9`.
    public var displayPath: String
    /// Whether the entry is a directory (else a file named like a table).
    public var isDirectory: Bool

    /// Why it is skipped, in a sentence that names it.
    public var message: String {
        isDirectory
            ? "\(displayPath): the directory's name is not UTF-8, so it is neither read nor watched (rename it)"
            : "\(displayPath): the file's name is not UTF-8, so it is not read (rename it)"
    }

    /// The entries of `directory` whose names are not UTF-8 that may hold tables: every
    /// directory, when `directory`'s subdirectories are entered, and every file named like a
    /// table (`.strings`, `.stringsdict`, `.xcstrings`). Lists the directory again, byte by
    /// byte: call it only when Foundation's listing had a U+FFFD.
    public static func entries(in directory: String, entersSubdirectories: Bool) -> [UndecodableName] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        let base = directory.hasSuffix("/") ? directory : directory + "/"
        var found: [UndecodableName] = []
        while let entry = readdir(stream) {
            let bytes = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix { $0 != 0 }) }
            guard bytes.first != UInt8(ascii: "."), String(validating: bytes, as: UTF8.self) == nil else { continue }
            var info = stat()
            let isDirectory =
                bytes.withUnsafeBufferPointer { name in
                    name.withMemoryRebound(to: CChar.self) { characters in
                        // NUL-terminated for the call.
                        (Array(characters) + [0]).withUnsafeBufferPointer {
                            fstatat(dirfd(stream), $0.baseAddress!, &info, 0)
                        }
                    }
                } == 0 && info.st_mode & S_IFMT == S_IFDIR
            let decoded = String(decoding: bytes, as: UTF8.self)
            let isTable = [".strings", ".stringsdict", ".xcstrings"].contains { decoded.hasSuffix($0) }
            guard isDirectory ? entersSubdirectories : isTable else { continue }
            found.append(
                UndecodableName(
                    decodedPath: base + decoded,
                    displayPath: DisplayText.escaped(base) + DisplayText.escaped(bytes: bytes),
                    isDirectory: isDirectory))
        }
        return found.sorted { $0.displayPath < $1.displayPath }
    }
}
