import CSharedMemory
import Foundation
import Glibc
import TestSupport
import Testing

/// Where `l10nctl report --html PATH` puts the page when PATH is not a plain file name (an
/// outside tester's finds: a FIFO, a device and a symlink were renamed over, `-` and `.`
/// crashed, `a.html/` wrote `a.html`).
@Suite struct ReportOutputTests {
    let l10nctl = PackagePaths.executable("l10nctl")
    let resources = PackagePaths.exampleResources

    func report(_ path: String, in directory: TemporaryDirectory) throws -> ProcessOutput {
        try ProcessRunner.run(
            l10nctl, ["report", "--html", path, resources],
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": directory.path + "/none"])
    }

    /// A FIFO is written to as a stream, read by its reader, and is still a FIFO after.
    @Test func aFIFOIsWrittenToAndStaysAFIFO() throws {
        let directory = try TemporaryDirectory(prefix: "l10nctl-report-fifo")
        let fifo = directory.path + "/page"
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Received()
        // A blocking open and reads to EOF, as `cat` does (Foundation's reader returns at once).
        let reader = Thread {
            var page = Data()
            let descriptor = open(fifo, O_RDONLY)
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while descriptor >= 0 {
                let count = read(descriptor, &buffer, buffer.count)
                guard count > 0 else { break }
                page.append(contentsOf: buffer[..<count])
            }
            if descriptor >= 0 { close(descriptor) }
            received.set(page)
        }
        reader.start()
        let output = try report(fifo, in: directory)
        #expect(output.status == 0, "\(output)")
        // Had l10nctl never opened the FIFO, this releases the reader (EOF) instead of a hang.
        let release = open(fifo, O_WRONLY | O_NONBLOCK)
        if release >= 0 { close(release) }
        let page = try #require(received.wait(), "the reader got nothing")
        #expect(String(decoding: page, as: UTF8.self).hasPrefix("<!DOCTYPE html>"))
        var status = stat()
        #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO, "no longer a FIFO")
    }

    /// A symlink's target is replaced; the link stays a link to it.
    @Test func aSymlinksTargetIsWrittenAndTheLinkStays() throws {
        let directory = try TemporaryDirectory(prefix: "l10nctl-report-link")
        let target = try directory.write("old", to: "pages/report.html")
        let link = directory.path + "/latest.html"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "pages/report.html")
        let output = try report(link, in: directory)
        #expect(output.status == 0, "\(output)")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == "pages/report.html")
        #expect(try String(contentsOfFile: target, encoding: .utf8).hasPrefix("<!DOCTYPE html>"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path + "/pages") == ["report.html"])
        // A link to nothing is refused, not replaced by a file.
        let dangling = directory.path + "/dangling.html"
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: "missing/x.html")
        let refused = try report(dangling, in: directory)
        #expect(refused.status == 1, "\(refused)")
        #expect(
            refused.stderr
                == "l10nctl: error: cannot write the report to \(dangling): it is a symbolic link to missing/x.html, which does not exist\n"
        )
    }

    /// A character device is written to, never replaced (/dev/null stays a device).
    @Test func aCharacterDeviceIsWrittenToNotReplaced() throws {
        let directory = try TemporaryDirectory(prefix: "l10nctl-report-dev")
        let output = try report("/dev/null", in: directory)
        #expect(output.status == 0, "\(output)")
        // `/dev/stdout` on a pipe (a link to `pipe:[…]`, no path) is written to as well.
        let piped = try report("/dev/stdout", in: directory)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stdout.hasPrefix("<!DOCTYPE html>"), "\(piped.stdout.prefix(200))")
        #expect(piped.stdout.hasSuffix("</html>\n") && piped.stderr.contains(" languages, "), "summary on stderr")
        var status = stat()
        #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
    }

    /// `-` is standard output (the summary goes to standard error); `.` and `a.html/` name
    /// directories: exit 1 with the path, as the other paths report cannot write to.
    @Test func dashIsStandardOutputAndDirectoriesAreErrors() throws {
        let directory = try TemporaryDirectory(prefix: "l10nctl-report-dash")
        let output = try report("-", in: directory)
        #expect(output.status == 0, "\(output.stderr)")
        #expect(output.stdout.hasPrefix("<!DOCTYPE html>") && output.stdout.hasSuffix("</html>\n"), "\(output.stdout)")
        #expect(
            output.stderr.hasPrefix("standard output: ") && output.stderr.contains(" languages, "), "\(output.stderr)")
        for path in [".", directory.path + "/a.html/", "a.html/"] {
            let refused = try ProcessRunner.run(
                l10nctl, ["report", "--html", path, resources], currentDirectory: directory.path)
            #expect(refused.status == 1, "\(path): \(refused)")
            #expect(
                refused.stderr
                    == "l10nctl: error: cannot write the report to \(path): it is a directory (give --html a file name)\n"
            )
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "none" } == [])
    }
}

/// What the FIFO's reader thread read, handed to the test.
private final class Received: @unchecked Sendable {
    private let condition = NSCondition()
    private var data: Data?

    func set(_ value: Data) {
        condition.lock()
        data = value
        condition.signal()
        condition.unlock()
    }

    func wait() -> Data? {
        condition.lock()
        defer { condition.unlock() }
        let deadline = Date(timeIntervalSinceNow: 30)
        while data == nil, condition.wait(until: deadline) {}
        return data
    }
}
