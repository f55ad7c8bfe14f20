import Foundation
import Glibc
import Localization

/// The edit-latency probe (`scripts/edit-latency`): `l10nd-bench --poll-process SOCKET MODE
/// LANGUAGE KEY` looks `KEY` up in `LANGUAGE` through `Language.localized` as fast as it
/// can (a pause of 0.2 ms between looks, so two of them leave a busy host some room), in
/// `MODE`, and prints `CLOCK_MONOTONIC nanoseconds value` each time the value it
/// sees changes (the first one included), until its standard input closes. Two of them, a
/// direct-mode and a default-mode one, beside a rename show how much later the default mode
/// sees an edit.
func runPollProcess(_ arguments: [String]) -> Never {
    guard arguments.count == 4, let mode = LookupMode(rawValue: arguments[1]) else {
        print("usage: l10nd-bench --poll-process SOCKET MODE LANGUAGE KEY")
        exit(2)
    }
    Localizer.shared.useDaemon(socketPath: arguments[0], mode: mode, timeout: 5)
    let language = Language(arguments[3], identifier: arguments[2])
    let done = Thread {
        _ = FileHandle.standardInput.readDataToEndOfFile()
        exit(0)
    }
    done.start()
    var last = ""
    while true {
        let value = language.localized
        if value != last {
            last = value
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            FileHandle.standardOutput.write(Data("\(Int(now.tv_sec) * 1_000_000_000 + now.tv_nsec) \(value)\n".utf8))
        }
        usleep(200)
    }
}
