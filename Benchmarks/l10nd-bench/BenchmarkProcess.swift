import Foundation

/// Running the benchmark's small C programs: compiling one from `Benchmarks/` with `cc`,
/// running it, and reading the `name=value` fields of the one line it prints.
enum BenchmarkProcess {
    /// Compiles `Benchmarks/<source>` with `cc -O2` into a temp file named after `name` and
    /// this process; the path, or `nil` when there is no compiler or the source does not build.
    static func compileC(_ source: String, into name: String) -> String? {
        let benchmarks = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        let path = benchmarks.appendingPathComponent(source).path
        let target = FileManager.default.temporaryDirectory.path + "/l10nd-bench-\(name)-\(getpid())"
        guard FileManager.default.fileExists(atPath: path),
            output(of: "/usr/bin/cc", ["-O2", "-o", target, path]) != nil,
            FileManager.default.isExecutableFile(atPath: target)
        else { return nil }
        return target
    }

    /// What `path` printed on standard output, trimmed; `nil` when it could not run or failed.
    static func output(of path: String, _ arguments: [String]) -> String? {
        guard FileManager.default.isExecutableFile(atPath: path) else { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The numeric `name=value` fields of a line such as `pingpong round_trips=N seconds=S`.
    static func fields(of line: String) -> [String: Double] {
        Dictionary(
            line.split(separator: " ").compactMap { part -> (String, Double)? in
                let pair = part.split(separator: "=")
                guard pair.count == 2, let value = Double(pair[1]) else { return nil }
                return (String(pair[0]), value)
            }, uniquingKeysWith: { _, last in last })
    }
}
