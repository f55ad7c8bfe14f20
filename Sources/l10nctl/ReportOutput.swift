import Foundation
import Glibc

/// Where `report --html PATH` puts the page, in the way `cat > PATH` users expect: a regular
/// file (or none yet) is replaced atomically, a symbolic link's target is replaced and the link
/// stays, a FIFO or character device (`/dev/stdout`, `/dev/null`) is written to as a stream,
/// and `-` is standard output. Anything else is refused: never renamed over (an outside
/// tester's find: as root it replaced `/dev/full` and a FIFO with regular files, exit 0).
enum ReportOutput {
    /// Writes `page` to `path`, or fails in l10nctl's words: the path and the reason.
    /// Whether the page went to standard output (`-`, or `/dev/stdout` and the like): the
    /// summary line then goes to standard error, not after the page.
    @discardableResult
    static func write(_ page: String, to path: String) throws -> Bool {
        func failure(_ reason: String) -> CommandFailure {
            CommandFailure("cannot write the report to \(path): \(reason)")
        }
        let bytes = Array(page.utf8)
        if path == "-" {
            try writeAll(bytes, to: STDOUT_FILENO).map { throw failure($0) }
            return true
        }
        let isDirectory = failure("it is a directory (give --html a file name)")
        // `a.html/` names a directory: never write `a.html` in its place.
        if path.hasSuffix("/") { throw isDirectory }
        var link = stat()
        guard lstat(path, &link) == 0 else {
            guard errno == ENOENT else { throw failure(reason(errno)) }
            try replace(path, with: bytes, failure: failure)
            return false
        }
        var status = link
        var target = path
        if link.st_mode & S_IFMT == S_IFLNK {
            guard stat(path, &status) == 0 else {
                throw failure("it is a symbolic link to \(destination(of: path)), which \(reason(errno))")
            }
            // Only a file is resolved: `/dev/stdout` on a pipe resolves to no path (`pipe:[…]`).
            if status.st_mode & S_IFMT == S_IFREG {
                guard let resolved = realpath(path, nil) else { throw failure(reason(errno)) }
                target = String(cString: resolved)
                free(resolved)
            }
        }
        switch status.st_mode & S_IFMT {
        case S_IFREG:
            try replace(target, with: bytes, failure: failure)
            return false
        case S_IFDIR: throw isDirectory
        // Opened by the path given (a `/proc/self/fd` link reopens its pipe), never created or truncated.
        case S_IFIFO, S_IFCHR:
            try stream(bytes, to: path).map { throw failure($0) }
            var output = stat()
            return fstat(STDOUT_FILENO, &output) == 0 && output.st_dev == status.st_dev
                && output.st_ino == status.st_ino
        default: throw failure("it is neither a regular file, a FIFO nor a character device")
        }
    }

    /// Writes beside `path` and renames over it, keeping an existing file's permissions.
    private static func replace(
        _ path: String, with bytes: [UInt8], failure: (String) -> CommandFailure
    ) throws {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var info = stat()
        guard stat(directory, &info) == 0 else {
            throw failure(errno == ENOENT ? "the directory \(directory) does not exist" : reason(errno))
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw failure("\(directory) is not a directory") }
        let mask = umask(0)
        umask(mask)
        let mode = stat(path, &info) == 0 ? info.st_mode & 0o7777 : 0o666 & ~mask
        var template = Array("\(directory)/.\(name).XXXXXX".utf8CString)
        let descriptor = mkstemp(&template)
        guard descriptor >= 0 else { throw failure(reason(errno)) }
        let temporary = String(cString: template)
        var problem = fchmod(descriptor, mode) == 0 ? writeAll(bytes, to: descriptor) : reason(errno)
        if close(descriptor) != 0, problem == nil { problem = reason(errno) }
        if problem == nil, rename(temporary, path) != 0 { problem = reason(errno) }
        if let problem {
            unlink(temporary)
            throw failure(problem)
        }
    }

    /// Writes to a FIFO or character device as `cat > path` does: no O_CREAT, no O_TRUNC.
    private static func stream(_ bytes: [UInt8], to path: String) -> String? {
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return reason(errno) }
        var problem = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, problem == nil { problem = reason(errno) }
        return problem
    }

    /// All of `bytes`, or the system's reason they could not be written.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return reason(errno)
            }
            offset += written
        }
        return nil
    }

    private static func destination(of link: String) -> String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: link)) ?? "a missing file"
    }

    private static func reason(_ code: Int32) -> String {
        if code == ENOENT { return "does not exist" }
        return String(cString: strerror(code))
    }
}
