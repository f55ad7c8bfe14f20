import LocalizationCore

/// The binary-frame encoding: a six-byte ``BinaryFrameHeader``, then a payload that starts
/// with a kind byte and a 32-bit request id, followed by the kind's fields. The layout of
/// every kind is documented byte by byte in `docs/PROTOCOL.md`.
///
/// Encoders return a whole frame, header included. Decoders take the payload (as
/// ``MessageFramer`` yields it); request decoding never throws, like ``JSONLineCodec``.
///
/// ```swift
/// let frame = BinaryFrameCodec.encode(WireRequest(id: .number(7), operation: .status))
/// ```
package enum BinaryFrameCodec {
    /// The kind byte of each reply shape and of events.
    enum ReplyKind: UInt8 {
        case fields = 0x80
        case lookup = 0x81
        case batch = 0x82
        case table = 0x83
        case error = 0xEE
        case changedEvent = 0xC1
    }

    /// A lookup's has-count byte announcing `counts` rather than one count (protocol 1.3).
    static let countsListFlag: UInt8 = 3

    // MARK: Requests

    /// Encodes a request as one frame. A string id, which frames cannot carry, is sent as 0.
    package static func encode(_ request: WireRequest) -> [UInt8] {
        var writer = BinaryWriter()
        writer.write(request.operation.kind.rawValue)
        writer.write(request.id?.frameValue ?? 0)
        switch request.operation {
        case .hello, .subscribe, .reload, .status, .languages, .missing, .reset, .metrics, .map:
            break
        case .lookup(let key, let languages, let table, let plural, let arguments):
            writer.write(key)
            writer.write(languages)
            writer.write(table ?? "")
            // Has-count: 0 none, 1 an i64, 2 decimal text (protocol 1.2), 3 a list (1.3).
            switch plural {
            case .none:
                writer.writePluralCount(nil)
            case .count(let count):
                writer.writePluralCount(count)
            case .counts(let counts):
                writer.write(countsListFlag)
                writer.write(count: counts.count)
                for count in counts { writer.writePluralCount(count) }
            }
            // Protocol 1.4: the arguments as a trailing value, absent when there are none.
            if let arguments { writer.write(WireValue.array(arguments.map(WireValue.init))) }
        case .batch(let keys, let languages, let table, let arguments):
            writer.write(languages)
            writer.write(table ?? "")
            writer.write(keys)
            if let arguments {
                writer.write(WireValue.array(arguments.map { $0.map { .array($0.map(WireValue.init)) } ?? .null }))
            }
        case .table(let languages, let table), .chain(let languages, let table):
            writer.write(languages)
            writer.write(table ?? "")
        }
        return writer.finish()
    }

    /// Decodes a request payload (the bytes after the header).
    package static func decodeRequest(_ payload: [UInt8]) -> Result<WireRequest, WireRequestFailure> {
        payload.withUnsafeBufferPointer { bytes in
            var reader = BinaryReader(bytes)
            var id: WireRequestID?
            do throws(WireError) {
                let opCode = try reader.readByte("op code")
                id = .number(Int64(try reader.readUInt32("request id")))
                guard let kind = WireOperationKind(rawValue: opCode) else {
                    throw WireError(code: .unknownOp, message: "unknown op code \(opCode)")
                }
                let operation = try decodeOperation(kind, from: &reader)
                try reader.expectEnd()
                return .success(WireRequest(id: id, operation: operation))
            } catch {
                return .failure(WireRequestFailure(id: id, error: error))
            }
        }
    }

    private static func decodeOperation(
        _ kind: WireOperationKind, from reader: inout BinaryReader
    ) throws(WireError) -> WireOperation {
        if let operation = kind.argumentFreeOperation { return operation }
        switch kind {
        case .hello, .subscribe, .reload, .status, .languages, .missing, .reset, .metrics, .map:
            preconditionFailure("answered by argumentFreeOperation")
        case .lookup:
            let key = try reader.readString("key")
            let languages = try reader.readStrings("languages")
            let table = try readTable(&reader)
            let flag = try reader.readByte("count flag")
            let plural: PluralCounts
            if flag == countsListFlag {
                plural = .counts(try readCounts(&reader))
            } else {
                guard let countFlag = BinaryCountFlag(rawValue: flag) else {
                    throw WireError(code: .badRequest, message: "count flag must be 0, 1, 2 or 3")
                }
                plural = PluralCounts(try reader.readPluralCount(countFlag, "count"))
            }
            let arguments = try reader.isAtEnd ? nil : WireArguments.lookup(try readArgumentList(&reader))
            return .lookup(key: key, languages: languages, table: table, plural: plural, arguments: arguments)
        case .batch:
            let languages = try reader.readStrings("languages")
            let table = try readTable(&reader)
            let keys = try reader.readStrings("keys")
            let arguments =
                try reader.isAtEnd ? nil : WireArguments.batch(try readArgumentList(&reader), keys: keys.count)
            return .batch(keys: keys, languages: languages, table: table, arguments: arguments)
        case .table:
            let languages = try reader.readStrings("languages")
            return .table(languages: languages, table: try readTable(&reader))
        case .chain:
            let languages = try reader.readStrings("languages")
            return .chain(languages: languages, table: try readTable(&reader))
        }
    }

    /// A lookup's `counts`: a `u32` length (at most ``WireOperation/maximumCounts``), then
    /// per argument a count flag (0 none, 1 i64, 2 decimal text) and its value.
    private static func readCounts(_ reader: inout BinaryReader) throws(WireError) -> [PluralOperands?] {
        // Bounded before anything is reserved; a length the payload cannot hold then fails
        // as a truncated entry.
        let length = Int(try reader.readUInt32("counts length"))
        guard length <= WireOperation.maximumCounts else {
            throw WireError(
                code: .badRequest, message: "counts lists \(length) arguments; at most \(WireOperation.maximumCounts)")
        }
        var counts: [PluralOperands?] = []
        counts.reserveCapacity(length)
        for index in 0..<length {
            let what = "counts[\(index)]"
            guard let flag = BinaryCountFlag(rawValue: try reader.readByte("\(what) flag")) else {
                throw WireError(code: .badRequest, message: "\(what) flag must be 0, 1 or 2")
            }
            counts.append(try reader.readPluralCount(flag, what))
        }
        return counts
    }

    /// Protocol 1.4's trailing `args`: an array value, nothing else (a stray byte is refused
    /// as trailing, as before 1.4).
    private static func readArgumentList(_ reader: inout BinaryReader) throws(WireError) -> WireValue {
        let value = try reader.readValue()
        guard case .array = value else { throw reader.error("trailing bytes that are not an args array") }
        return value
    }

    private static func readTable(_ reader: inout BinaryReader) throws(WireError) -> String? {
        let table = try reader.readString("table")
        return table.isEmpty ? nil : table
    }

    // MARK: Replies and events

    /// Encodes a reply or an event as one frame.
    package static func encode(_ message: WireServerMessage) -> [UInt8] {
        var writer = BinaryWriter()
        write(message, to: &writer)
        return writer.finish()
    }

    /// Encodes a reply or an event as one frame at the end of `bytes`: a connection's output,
    /// written in place instead of built apart and copied there.
    package static func encode(_ message: WireServerMessage, appendingTo bytes: inout [UInt8]) {
        // Moved, not shared, so the writer's appends do not copy the output.
        var taken: [UInt8] = []
        swap(&taken, &bytes)
        var writer = BinaryWriter(appendingTo: consume taken)
        write(message, to: &writer)
        bytes = writer.finish()
    }

    private static func write(_ message: WireServerMessage, to writer: inout BinaryWriter) {
        switch message {
        case .event(.fileErrors(let generation, _)):
            // Binary frames carry no errors: a change of nothing, as to a JSON client that
            // does not read them.
            write(.event(.changed(generation: generation, changes: [])), to: &writer)
        case .event(.changed(let generation, let changes)):
            writer.write(ReplyKind.changedEvent.rawValue)
            writer.write(0 as UInt32)
            writer.write(generation)
            writer.write(count: changes.count)
            for change in changes {
                writer.write(change.language)
                writer.write(change.table)
            }
        case .reply(let id, let reply):
            let frameID = id?.frameValue ?? 0
            switch reply {
            case .lookup(let result):
                writer.write(ReplyKind.lookup.rawValue)
                writer.write(frameID)
                let flags: UInt8 =
                    (result.found ? 1 : 0) | (result.language != nil ? 2 : 0) | (result.formatted != nil ? 4 : 0)
                writer.write(flags)
                writer.write(result.value)
                if let language = result.language { writer.write(language) }
                writer.write(result.generation)
                if let formatted = result.formatted { writer.write(formatted) }
            case .batch(let result):
                writer.write(ReplyKind.batch.rawValue)
                writer.write(frameID)
                writer.write(result.generation)
                // A malformed result (fewer flags than values) is sent as not found.
                writer.write(count: result.values.count)
                for (index, value) in result.values.enumerated() {
                    writer.write(index < result.found.count && result.found[index])
                    writer.write(value)
                }
                // Protocol 1.4: the finished strings as a trailing list, absent without `args`.
                if let formatted = result.formatted {
                    writer.write(WireValue.array(formatted.map { $0.map(WireValue.string) ?? .null }))
                }
            case .table(let result):
                writer.write(ReplyKind.table.rawValue)
                writer.write(frameID)
                writer.write(result.generation)
                writer.write(count: result.entries.count)
                for (key, value) in result.entries {
                    writer.write(key)
                    writer.write(value)
                    writer.write(result.languages[key] ?? "")
                }
            case .fields(let fields):
                writer.write(ReplyKind.fields.rawValue)
                writer.write(frameID)
                writer.write(.object(fields.filter { !WireReply.reservedFieldNames.contains($0.key) }))
            case .error(let error):
                writer.write(ReplyKind.error.rawValue)
                writer.write(frameID)
                writer.write(error.code.rawValue)
                writer.write(error.message)
            }
        }
    }

    /// Decodes a payload the daemon sent (the bytes after the header).
    ///
    /// - Throws: ``WireError`` (`bad_request`) when the payload is not a message the protocol
    ///   defines.
    package static func decodeServerMessage(_ payload: [UInt8]) throws(WireError) -> WireServerMessage {
        let result = payload.withUnsafeBufferPointer { bytes in
            Result { () throws(WireError) -> WireServerMessage in try decodeServerMessage(BinaryReader(bytes)) }
        }
        return try result.get()
    }

    private static func decodeServerMessage(_ reader: BinaryReader) throws(WireError) -> WireServerMessage {
        var reader = reader
        do {
            let kindByte = try reader.readByte("reply kind")
            let id = WireRequestID.number(Int64(try reader.readUInt32("request id")))
            guard let kind = ReplyKind(rawValue: kindByte) else { throw reader.error("unknown reply kind \(kindByte)") }
            let message: WireServerMessage
            switch kind {
            case .changedEvent:
                let generation = try reader.readUInt64("generation")
                let count = try reader.readCount("changes", minimumItemSize: 8)
                var changes: [WireTableChange] = []
                changes.reserveCapacity(count)
                for _ in 0..<count {
                    let language = try reader.readString("language")
                    changes.append(WireTableChange(language: language, table: try reader.readString("table")))
                }
                message = .event(.changed(generation: generation, changes: changes))
            case .lookup:
                let flags = try reader.readByte("lookup flags")
                let value = try reader.readString("value")
                let language = flags & 2 != 0 ? try reader.readString("language") : nil
                let generation = try reader.readUInt64("generation")
                let result = WireLookupResult(
                    value: value, found: flags & 1 != 0, language: language, generation: generation,
                    formatted: flags & 4 != 0 ? try reader.readString("formatted") : nil)
                message = .reply(id: id, .lookup(result))
            case .batch:
                let generation = try reader.readUInt64("generation")
                let count = try reader.readCount("values", minimumItemSize: 5)
                var values: [String] = []
                var found: [Bool] = []
                values.reserveCapacity(count)
                found.reserveCapacity(count)
                for _ in 0..<count {
                    found.append(try reader.readBool("found flag"))
                    values.append(try reader.readString("value"))
                }
                let formatted = try reader.isAtEnd ? nil : WireArguments.formatted(try reader.readValue(), count: count)
                message = .reply(
                    id: id,
                    .batch(WireBatchResult(values: values, found: found, generation: generation, formatted: formatted)))
            case .table:
                let generation = try reader.readUInt64("generation")
                let count = try reader.readCount("entries", minimumItemSize: 12)
                var entries: [String: String] = [:]
                var languages: [String: String] = [:]
                entries.reserveCapacity(count)
                for _ in 0..<count {
                    let key = try reader.readString("key")
                    entries[key] = try reader.readString("value")
                    let language = try reader.readString("language")
                    if !language.isEmpty { languages[key] = language }
                }
                message = .reply(
                    id: id, .table(WireTableResult(entries: entries, languages: languages, generation: generation)))
            case .fields:
                guard case .object(let fields) = try reader.readValue() else {
                    throw reader.error("fields must be an object")
                }
                message = .reply(id: id, .fields(fields))
            case .error:
                let code = try reader.readString("error code")
                let error = WireError(
                    code: WireError.Code(rawValue: code), message: try reader.readString("error message"))
                message = .reply(id: id, .error(error))
            }
            try reader.expectEnd()
            return message
        }
    }
}
