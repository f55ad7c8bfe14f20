import LocalizationCore

/// The JSON-lines encoding: one compact JSON object per line.
///
/// Encoders return the bytes of a whole line, newline included. Decoders take one line
/// without its newline (as ``MessageFramer`` yields it) and never throw: a malformed
/// request becomes a ``WireRequestFailure`` carrying a `bad_request` or `unknown_op` error,
/// with the request's id when it could be read.
///
/// ```swift
/// let line = JSONLineCodec.encode(.reply(id: .number(1), .ok))   // {"id":1,"ok":true}\n
/// ```
package enum JSONLineCodec {
    // MARK: Requests

    /// Encodes a request as one line.
    package static func encode(_ request: WireRequest) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.append(UInt8(ascii: "{"))
        var first = true
        if let id = request.id {
            writer.writeMember("id", first: &first)
            writeID(id, into: &writer)
        }
        writer.writeMember("op", first: &first)
        writer.write(request.operation.name)
        switch request.operation {
        case .hello, .subscribe, .reload, .status, .languages, .missing, .reset, .metrics, .map:
            break
        case .lookup(let key, let languages, let table, let plural, let arguments):
            writer.writeMember("key", first: &first)
            writer.write(key)
            writeLanguagesAndTable(languages, table, into: &writer, first: &first)
            switch plural {
            case .none:
                break
            case .count(let count):
                writer.writeMember("count", first: &first)
                writer.writePluralCount(count)
            case .counts(let counts):
                writer.writeMember("counts", first: &first)
                writer.bytes.append(UInt8(ascii: "["))
                for (index, count) in counts.enumerated() {
                    if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                    if let count { writer.writePluralCount(count) } else { writer.writeRaw("null") }
                }
                writer.bytes.append(UInt8(ascii: "]"))
            }
            if let arguments {
                writer.writeMember("args", first: &first)
                writer.write(WireValue.array(arguments.map(WireValue.init)))
            }
        case .batch(let keys, let languages, let table, let arguments):
            writer.writeMember("keys", first: &first)
            writeStrings(keys, into: &writer)
            writeLanguagesAndTable(languages, table, into: &writer, first: &first)
            if let arguments {
                writer.writeMember("args", first: &first)
                writer.write(WireValue.array(arguments.map { $0.map { .array($0.map(WireValue.init)) } ?? .null }))
            }
        case .table(let languages, let table), .chain(let languages, let table):
            writeLanguagesAndTable(languages, table, into: &writer, first: &first)
        }
        writer.writeRaw("}\n")
        return writer.bytes
    }

    /// Decodes one request line (without its newline).
    package static func decodeRequest(_ line: [UInt8]) -> Result<WireRequest, WireRequestFailure> {
        let value: WireValue
        do {
            value = try WireValue(json: line)
        } catch {
            return .failure(WireRequestFailure(error: error))
        }
        guard case .object(let object) = value else {
            return .failure(WireRequestFailure(error: badRequest("a request must be a JSON object")))
        }
        var id: WireRequestID?
        switch object["id"] {
        case nil, .null?: id = nil
        case .string(let string)?: id = .string(string)
        case .integer(let integer)?: id = .number(integer)
        default:
            return .failure(WireRequestFailure(error: badRequest("\"id\" must be a string or an integer")))
        }
        do {
            let operation = try decodeOperation(object)
            return .success(WireRequest(id: id, operation: operation))
        } catch {
            return .failure(WireRequestFailure(id: id, error: error))
        }
    }

    private static func decodeOperation(_ object: [String: WireValue]) throws(WireError) -> WireOperation {
        guard let opValue = object["op"] else { throw badRequest("missing \"op\"") }
        guard case .string(let op) = opValue else { throw badRequest("\"op\" must be a string") }
        guard let kind = WireOperationKind(name: op) else {
            throw WireError(code: .unknownOp, message: "unknown op \(WireValue.string(op).jsonText)")
        }
        if let operation = kind.argumentFreeOperation { return operation }
        switch kind {
        case .hello, .subscribe, .reload, .status, .languages, .missing, .reset, .metrics, .map:
            preconditionFailure("answered by argumentFreeOperation")
        case .lookup:
            guard case .string(let key)? = object["key"] else {
                throw badRequest(object["key"] == nil ? "missing \"key\"" : "\"key\" must be a string")
            }
            var count: PluralOperands?
            if let value = object["count"], value != .null {
                guard let operands = PluralOperands.fromWire(value) else {
                    throw badRequest("\"count\" must be a number or a decimal string such as \"1.50\"")
                }
                count = operands
            }
            let counts = try counts(object)
            if count != nil, counts != nil { throw badRequest("give \"count\" or \"counts\", not both") }
            return .lookup(
                key: key, languages: try languages(object), table: try table(object),
                plural: counts.map(PluralCounts.counts) ?? PluralCounts(count),
                arguments: try object["args"].flatMap { value throws(WireError) in try WireArguments.lookup(value) })
        case .batch:
            guard let keysValue = object["keys"] else { throw badRequest("missing \"keys\"") }
            guard let keys = strings(keysValue) else { throw badRequest("\"keys\" must be a list of strings") }
            return .batch(
                keys: keys, languages: try languages(object), table: try table(object),
                arguments: try object["args"].flatMap { value throws(WireError) in
                    try WireArguments.batch(value, keys: keys.count)
                })
        case .table:
            return .table(languages: try languages(object), table: try table(object))
        case .chain:
            return .chain(languages: try languages(object), table: try table(object))
        }
    }

    private static func languages(_ object: [String: WireValue]) throws(WireError) -> [String] {
        switch object["lang"] {
        case nil, .null?: return []
        case .string(let language)?: return [language]
        case let value?:
            guard let list = strings(value) else { throw badRequest("\"lang\" must be a string or a list of strings") }
            return list
        }
    }

    /// A lookup's `counts` (protocol 1.3): one count per format argument, `null` for an
    /// argument that is not a number; at most ``WireOperation/maximumCounts``.
    private static func counts(_ object: [String: WireValue]) throws(WireError) -> [PluralOperands?]? {
        guard let value = object["counts"], value != .null else { return nil }
        guard case .array(let elements) = value else {
            throw badRequest("\"counts\" must be a list of numbers, decimal strings such as \"1.50\", or nulls")
        }
        guard elements.count <= WireOperation.maximumCounts else {
            throw badRequest("\"counts\" lists \(elements.count) arguments; at most \(WireOperation.maximumCounts)")
        }
        var counts: [PluralOperands?] = []
        counts.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if element == .null {
                counts.append(nil)
                continue
            }
            guard let count = PluralOperands.fromWire(element) else {
                throw badRequest(
                    "\"counts\"[\(index)] must be a number, a decimal string such as \"1.50\", or null")
            }
            counts.append(count)
        }
        return counts
    }

    private static func table(_ object: [String: WireValue]) throws(WireError) -> String? {
        switch object["table"] {
        case nil, .null?: return nil
        case .string(let table)?: return table
        default: throw badRequest("\"table\" must be a string")
        }
    }

    private static func strings(_ value: WireValue) -> [String]? {
        guard case .array(let elements) = value else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(elements.count)
        for element in elements {
            guard case .string(let string) = element else { return nil }
            strings.append(string)
        }
        return strings
    }

    private static func badRequest(_ message: String) -> WireError {
        WireError(code: .badRequest, message: message)
    }

    // MARK: Replies and events

    /// Encodes a reply or an event as one line.
    package static func encode(_ message: WireServerMessage) -> [UInt8] {
        var writer = JSONWriter()
        writer.bytes.append(UInt8(ascii: "{"))
        var first = true
        switch message {
        case .event(.changed(let generation, let changes)):
            writer.writeMember("event", first: &first)
            writer.write("changed")
            writer.writeMember("generation", first: &first)
            writer.write(unsigned: generation)
            writer.writeMember("changes", first: &first)
            writer.bytes.append(UInt8(ascii: "["))
            for (index, change) in changes.enumerated() {
                if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                writer.writeRaw("{\"lang\":")
                writer.write(change.language)
                writer.writeRaw(",\"table\":")
                writer.write(change.table)
                writer.bytes.append(UInt8(ascii: "}"))
            }
            writer.bytes.append(UInt8(ascii: "]"))
        case .event(.fileErrors(let generation, let errors)):
            // A `changed` event with no changes: what it is to a client that knows no `errors`.
            writer.writeMember("event", first: &first)
            writer.write("changed")
            writer.writeMember("generation", first: &first)
            writer.write(unsigned: generation)
            writer.writeMember("changes", first: &first)
            writer.writeRaw("[]")
            writer.writeMember("errors", first: &first)
            writer.bytes.append(UInt8(ascii: "["))
            for (index, error) in errors.enumerated() {
                if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                writer.writeRaw("{\"file\":")
                writer.write(error.file)
                writer.writeRaw(",\"line\":")
                writer.write(unsigned: UInt64(max(0, error.line)))
                writer.writeRaw(",\"column\":")
                writer.write(unsigned: UInt64(max(0, error.column)))
                writer.writeRaw(",\"message\":")
                writer.write(error.message)
                writer.bytes.append(UInt8(ascii: "}"))
            }
            writer.bytes.append(UInt8(ascii: "]"))
        case .reply(let id, let reply):
            if let id {
                writer.writeMember("id", first: &first)
                writeID(id, into: &writer)
            }
            writeReplyBody(reply, into: &writer, first: &first)
        }
        writer.writeRaw("}\n")
        return writer.bytes
    }

    private static func writeReplyBody(_ reply: WireReply, into writer: inout JSONWriter, first: inout Bool) {
        writer.writeMember("ok", first: &first)
        if case .error(let error) = reply {
            writer.writeRaw("false")
            writer.writeMember("error", first: &first)
            writer.writeRaw("{\"code\":")
            writer.write(error.code.rawValue)
            writer.writeRaw(",\"message\":")
            writer.write(error.message)
            writer.bytes.append(UInt8(ascii: "}"))
            return
        }
        writer.writeRaw("true")
        switch reply {
        case .error:
            break
        case .lookup(let result):
            writer.writeMember("value", first: &first)
            writer.write(result.value)
            writer.writeMember("found", first: &first)
            writer.write(result.found)
            if let language = result.language {
                writer.writeMember("lang", first: &first)
                writer.write(language)
            }
            writer.writeMember("generation", first: &first)
            writer.write(unsigned: result.generation)
            if let formatted = result.formatted {
                writer.writeMember("formatted", first: &first)
                writer.write(formatted)
            }
        case .batch(let result):
            writer.writeMember("values", first: &first)
            writeStrings(result.values, into: &writer)
            writer.writeMember("found", first: &first)
            writer.bytes.append(UInt8(ascii: "["))
            for (index, found) in result.found.enumerated() {
                if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
                writer.write(found)
            }
            writer.bytes.append(UInt8(ascii: "]"))
            writer.writeMember("generation", first: &first)
            writer.write(unsigned: result.generation)
            if let formatted = result.formatted {
                writer.writeMember("formatted", first: &first)
                writer.write(WireValue.array(formatted.map { $0.map(WireValue.string) ?? .null }))
            }
        case .table(let result):
            writer.writeMember("entries", first: &first)
            writeStringMap(result.entries, into: &writer)
            if !result.languages.isEmpty {
                writer.writeMember("langs", first: &first)
                writeStringMap(result.languages, into: &writer)
            }
            writer.writeMember("generation", first: &first)
            writer.write(unsigned: result.generation)
        case .fields(let fields):
            for (key, value) in fields.sorted(by: { $0.key < $1.key })
            where !WireReply.reservedFieldNames.contains(key) {
                writer.writeMember(key, first: &first)
                writer.write(value)
            }
        }
    }

    /// Decodes one line the daemon sent (without its newline): a reply or an event.
    ///
    /// - Throws: ``WireError`` (`bad_request`) when the line is not a reply the protocol
    ///   defines.
    package static func decodeServerMessage(_ line: [UInt8]) throws(WireError) -> WireServerMessage {
        guard case .object(var object) = try WireValue(json: line) else {
            throw badRequest("a reply must be a JSON object")
        }
        if let event = object["event"] {
            guard case .string("changed") = event else { throw badRequest("unknown event \(event.jsonText)") }
            guard case .array(let changeValues)? = object["changes"] else {
                throw badRequest("\"changes\" must be a list")
            }
            var changes: [WireTableChange] = []
            for change in changeValues {
                guard case .string(let language)? = change["lang"], case .string(let table)? = change["table"] else {
                    throw badRequest("a change needs \"lang\" and \"table\" strings")
                }
                changes.append(WireTableChange(language: language, table: table))
            }
            if changes.isEmpty, case .array(let errorValues)? = object["errors"], !errorValues.isEmpty {
                var errors: [WireFileError] = []
                for error in errorValues {
                    guard case .string(let file)? = error["file"], case .string(let message)? = error["message"],
                        let line = error["line"]?.integerValue, let column = error["column"]?.integerValue
                    else { throw badRequest("an error needs \"file\", \"line\", \"column\" and \"message\"") }
                    errors.append(WireFileError(file: file, line: Int(line), column: Int(column), message: message))
                }
                return .event(.fileErrors(generation: try generation(object), errors: errors))
            }
            return .event(.changed(generation: try generation(object), changes: changes))
        }
        var id: WireRequestID?
        switch object.removeValue(forKey: "id") {
        case nil, .null?: id = nil
        case .string(let string)?: id = .string(string)
        case .integer(let integer)?: id = .number(integer)
        default: throw badRequest("\"id\" must be a string or an integer")
        }
        guard case .bool(let ok)? = object.removeValue(forKey: "ok") else { throw badRequest("missing \"ok\"") }
        if !ok {
            guard case .string(let code)? = object["error"]?["code"] else { throw badRequest("missing error code") }
            let message = object["error"]?["message"]?.stringValue ?? ""
            return .reply(id: id, .error(WireError(code: WireError.Code(rawValue: code), message: message)))
        }
        if let entries = object["entries"] {
            guard let entries = stringMap(entries) else { throw badRequest("\"entries\" must map strings to strings") }
            let languages = try object["langs"].map { value throws(WireError) in
                guard let map = stringMap(value) else { throw badRequest("\"langs\" must map strings to strings") }
                return map
            }
            let result = WireTableResult(
                entries: entries, languages: languages ?? [:], generation: try generation(object))
            return .reply(id: id, .table(result))
        }
        if let valuesValue = object["values"] {
            guard let values = strings(valuesValue), case .array(let foundValues)? = object["found"] else {
                throw badRequest("\"values\" and \"found\" must be lists")
            }
            let found = foundValues.compactMap(\.boolValue)
            guard found.count == foundValues.count, found.count == values.count else {
                throw badRequest("\"found\" must list one Boolean per value")
            }
            let formatted = try object["formatted"].flatMap { value throws(WireError) in
                try WireArguments.formatted(value, count: values.count)
            }
            return .reply(
                id: id,
                .batch(
                    WireBatchResult(
                        values: values, found: found, generation: try generation(object), formatted: formatted)))
        }
        if let value = object["value"] {
            guard case .string(let string) = value, case .bool(let found)? = object["found"] else {
                throw badRequest("\"value\" must be a string and \"found\" a Boolean")
            }
            let language = object["lang"]?.stringValue
            let result = WireLookupResult(
                value: string, found: found, language: language, generation: try generation(object),
                formatted: object["formatted"]?.stringValue)
            return .reply(id: id, .lookup(result))
        }
        return .reply(id: id, .fields(object))
    }

    private static func generation(_ object: [String: WireValue]) throws(WireError) -> UInt64 {
        guard case .integer(let integer)? = object["generation"], let generation = UInt64(exactly: integer) else {
            throw badRequest("\"generation\" must be a non-negative integer")
        }
        return generation
    }

    private static func stringMap(_ value: WireValue) -> [String: String]? {
        guard case .object(let object) = value else { return nil }
        var map: [String: String] = [:]
        map.reserveCapacity(object.count)
        for (key, element) in object {
            guard case .string(let string) = element else { return nil }
            map[key] = string
        }
        return map
    }

    // MARK: Shared pieces

    private static func writeID(_ id: WireRequestID, into writer: inout JSONWriter) {
        switch id {
        case .number(let number): writer.write(number)
        case .string(let string): writer.write(string)
        }
    }

    private static func writeLanguagesAndTable(
        _ languages: [String], _ table: String?, into writer: inout JSONWriter, first: inout Bool
    ) {
        if languages.count == 1 {
            writer.writeMember("lang", first: &first)
            writer.write(languages[0])
        } else if !languages.isEmpty {
            writer.writeMember("lang", first: &first)
            writeStrings(languages, into: &writer)
        }
        if let table {
            writer.writeMember("table", first: &first)
            writer.write(table)
        }
    }

    private static func writeStrings(_ strings: [String], into writer: inout JSONWriter) {
        writer.bytes.append(UInt8(ascii: "["))
        for (index, string) in strings.enumerated() {
            if index > 0 { writer.bytes.append(UInt8(ascii: ",")) }
            writer.write(string)
        }
        writer.bytes.append(UInt8(ascii: "]"))
    }

    private static func writeStringMap(_ map: [String: String], into writer: inout JSONWriter) {
        writer.bytes.append(UInt8(ascii: "{"))
        var first = true
        for (key, value) in map.sorted(by: { $0.key < $1.key }) {
            writer.writeMember(key, first: &first)
            writer.write(value)
        }
        writer.bytes.append(UInt8(ascii: "}"))
    }
}
