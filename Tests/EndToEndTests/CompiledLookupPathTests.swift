import Foundation
import TestSupport
import Testing

/// Through the real socket, binary lookups — answered from the compiled tables once they are
/// ready, from the catalog until then — answer what JSON lookups (always the catalog) answer,
/// for every key of the examples in every table and many languages: right after start, once
/// compiled, right after a reload (the new generation's compile pending) and after it.
@Suite struct CompiledLookupPathTests {
    /// The languages asked: compiled ones, pseudo-languages, and tags the compiled tables
    /// do not hold as such (answered by the catalog).
    static let languages = ["ja", "en", "de", "fr", "Base", "zh-Hant", "pt-BR", "en-XA", "ar-XB", "zh-TW", "JA"]

    @Test func binaryLookupsAnswerWhatJSONLookupsAnswerAcrossCompilesAndAReload() throws {
        let root = try TemporaryDirectory(prefix: "l10nd-resources")
        let resources = root.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        let daemon = try DaemonProcess(resources: [resources])
        let json = try daemon.connect()
        let binary = try RawSocketClient(path: daemon.socketPath, timeout: 10)

        try compare(json: json, binary: binary, generation: 1, phase: "at start")
        Thread.sleep(forTimeInterval: 0.5)
        try compare(json: json, binary: binary, generation: 1, phase: "compiled")
        try root.write("\"設定\" = \"新しい設定\";\n\"新しい\" = \"キー\";\n", to: "Resources/ja.lproj/Localizable.strings")
        let reload = try json.request(["op": "reload"])
        let generation = try #require(reload["generation"] as? Int)
        #expect(generation > 1)
        try compare(json: json, binary: binary, generation: generation, phase: "right after a reload")
        Thread.sleep(forTimeInterval: 0.5)
        try compare(json: json, binary: binary, generation: generation, phase: "recompiled")
        let fresh = try json.request(["op": "lookup", "key": "設定", "lang": "ja"])
        #expect(fresh["value"] as? String == "新しい設定")
    }

    /// Asks every question both ways: binary lookups 64 at a time on one connection, in order.
    private func compare(json: JSONLineClient, binary: RawSocketClient, generation: Int, phase: String) throws {
        var questions: [(language: String, table: String, key: String)] = []
        let tables = ["", "Localizable", "Settings", "Menu", "Plurals", "NoSuchTable"]
        for language in Self.languages {
            for table in tables {
                let reply = try json.request(["op": "table", "lang": language, "table": table])
                let keys = (reply["entries"] as? [String: String] ?? [:]).keys.sorted() + ["nobody has this"]
                questions += keys.map { (language, table, $0) }
            }
        }
        var expected: [[String: Any]] = []
        for question in questions {
            expected.append(
                try json.request([
                    "op": "lookup", "key": question.key, "lang": question.language, "table": question.table,
                ]))
        }
        var index = 0
        while index < questions.count {
            let batch = index..<min(index + 64, questions.count)
            let frames = batch.flatMap { number in
                BinaryRequest.lookup(
                    id: UInt32(number), key: questions[number].key, language: questions[number].language,
                    table: questions[number].table)
            }
            #expect(try binary.send(frames) == .sent)
            for number in batch {
                let header = try binary.read(exactly: 6)
                let payload = try binary.read(exactly: Int(header[2...5].reduce(0) { $0 << 8 | UInt32($1) }))
                let context = "\(phase): \(questions[number])"
                let reply = try #require(BinaryRequest.lookupReply(payload), "\(context): \(payload.prefix(32))")
                #expect(
                    Array(payload[1..<5]) == withUnsafeBytes(of: UInt32(number).bigEndian, Array.init), "\(context)")
                #expect(reply.value == expected[number]["value"] as? String, "\(context)")
                #expect(reply.language == expected[number]["lang"] as? String, "\(context)")
                #expect(reply.found == expected[number]["found"] as? Bool, "\(context)")
                #expect(Int(reply.generation) == generation, "\(context)")
            }
            index = batch.upperBound
        }
    }
}
