import Foundation
import TestSupport

/// One soak client: its own connection and random choices, checking what it gets.
final class SoakClient: @unchecked Sendable {
    // @unchecked: each client is used by the one thread it was made for.

    /// A reply that is not a frame, or a send that failed.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let json: JSONLineClient
    let binary: RawSocketClient
    let checker: SoakChecker
    var generator: SeededGenerator
    var nextID: UInt32 = 1

    init(daemon: DaemonProcess, checker: SoakChecker, seed: UInt64) throws {
        json = try daemon.connect(timeout: 10)
        binary = try RawSocketClient(path: daemon.socketPath, timeout: 10)
        self.checker = checker
        generator = SeededGenerator(seed: seed)
    }

    private func pick() -> (language: String, table: String) {
        (SoakTests.languages.randomElement(using: &generator)!, SoakTests.tables.randomElement(using: &generator)!)
    }

    func jsonLookup() throws {
        let (language, table) = pick()
        let key = SoakTests.keys.randomElement(using: &generator)!
        let reply = try json.request(["op": "lookup", "key": key, "lang": language, "table": table])
        guard let value = reply["value"] as? String, let generation = reply["generation"] as? Int,
            reply["found"] as? Bool == true
        else {
            return checker.fail("json lookup: \(reply)")
        }
        guard
            let version = checker.version(
                of: value, key: key, table: table, language: language,
                reportedLanguage: reply["lang"] as? String ?? "?",
                context: "json lookup")
        else { return }
        checker.record(
            version, language: language, table: table, generation: UInt64(generation), context: "json lookup")
        checker.answered("json lookup")
    }

    func jsonBatch() throws {
        let (language, table) = pick()
        let reply = try json.request(["op": "batch", "keys": SoakTests.keys, "lang": language, "table": table])
        guard let values = reply["values"] as? [String], values.count == SoakTests.keys.count,
            let generation = reply["generation"] as? Int
        else { return checker.fail("json batch: \(reply)") }
        try expectOneVersion(
            zip(SoakTests.keys, values).map { ($0, $1, nil) }, language: language, table: table,
            generation: UInt64(generation), context: "json batch")
    }

    func jsonTable() throws {
        let (language, table) = pick()
        let reply = try json.request(["op": "table", "lang": language, "table": table])
        guard let entries = reply["entries"] as? [String: String], let generation = reply["generation"] as? Int else {
            return checker.fail("json table: \(reply)")
        }
        let languages = reply["langs"] as? [String: String] ?? [:]
        try expectOneVersion(
            SoakTests.keys.map { ($0, entries[$0] ?? "(absent)", languages[$0] ?? "?") }, language: language,
            table: table,
            generation: UInt64(generation), context: "json table", extra: entries.count - SoakTests.keys.count)
    }

    func binaryLookupOrTable() throws {
        let (language, table) = pick()
        let id = nextID
        nextID += 1
        if id % 2 == 0 {
            let key = SoakTests.keys.randomElement(using: &generator)!
            try send(BinaryRequest.lookup(id: id, key: key, language: language, table: table))
            let payload = try readFrame()
            guard let reply = BinaryRequest.lookupReply(payload),
                Array(payload[1..<5]) == withUnsafeBytes(of: id.bigEndian, Array.init)
            else {
                return checker.fail("binary lookup: \(payload.prefix(64))")
            }
            guard
                let version = checker.version(
                    of: reply.value, key: key, table: table, language: language,
                    reportedLanguage: reply.language ?? "?",
                    context: "binary lookup")
            else { return }
            checker.record(
                version, language: language, table: table, generation: reply.generation, context: "binary lookup")
            checker.answered("binary lookup")
        } else {
            try send(BinaryRequest.table(id: id, language: language, table: table))
            let payload = try readFrame()
            guard let reply = BinaryRequest.tableReply(payload) else {
                return checker.fail("binary table: \(payload.prefix(64))")
            }
            try expectOneVersion(
                SoakTests.keys.map { ($0, reply.entries[$0]?.value ?? "(absent)", reply.entries[$0]?.language ?? "?") },
                language: language, table: table, generation: reply.generation, context: "binary table",
                extra: reply.entries.count - SoakTests.keys.count)
        }
    }

    /// Every value is right for its key and all come from the same version.
    private func expectOneVersion(
        _ answers: [(key: String, value: String, language: String?)], language: String, table: String,
        generation: UInt64,
        context: String, extra: Int = 0
    ) throws {
        guard extra == 0 else { return checker.fail("\(context): \(extra) keys too many") }
        var versions = Set<Int>()
        for answer in answers {
            guard
                let version = checker.version(
                    of: answer.value, key: answer.key, table: table, language: language,
                    reportedLanguage: answer.language,
                    context: context)
            else { return }
            versions.insert(version)
        }
        guard versions.count == 1, let version = versions.first else {
            return checker.fail("\(context): \(language)/\(table) mixes versions \(versions.sorted())")
        }
        checker.record(version, language: language, table: table, generation: generation, context: context)
        checker.answered(context, count: answers.count)
    }

    private func send(_ bytes: [UInt8]) throws {
        guard try binary.send(bytes) == .sent else { throw Failure(description: "binary send failed") }
    }

    private func readFrame() throws -> [UInt8] {
        let header = try binary.read(exactly: 6)
        guard header[0] == 0xA5, header[1] == 0x01 else { throw Failure(description: "not a frame: \(header)") }
        return try binary.read(exactly: Int(header[2...5].reduce(0) { $0 << 8 | UInt32($1) }))
    }
}
