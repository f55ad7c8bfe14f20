extension StringsTable {
    /// An entry whose value is an array (`( … )`), a dictionary (`{ … }`) or data
    /// (`<0fbd>`): old-style property list values that CoreFoundation reads in a `.strings`
    /// file, keeping the file's string keys, but that are no strings. The table leaves the
    /// key out (a lookup falls back, where Foundation would hand the app an array as a
    /// string), and says so: lint's ``LintRule/nonStringValue`` and one of ``problems``.
    package struct NonStringValue: Sendable, Equatable {
        /// What the value is.
        package enum Kind: String, Sendable, Equatable {
            case array = "an array"
            case dictionary = "a dictionary"
            case data = "data"
        }

        /// Where the key's bytes are in ``StringsTable/buffer``.
        var keyStart: UInt32
        var keyLength: UInt32
        /// Where the entry's key was written.
        package var location: SourceLocation
        /// What the value is.
        package var kind: Kind
        /// How many entries (spans) came before it in the file.
        var entriesBefore: Int
    }

    /// The key of `value`, one of ``nonStringValues``.
    package func key(of value: NonStringValue) -> String {
        buffer.withUnsafeBufferPointer {
            String(
                decoding: UnsafeBufferPointer(
                    rebasing: $0[Int(value.keyStart)..<Int(value.keyStart + value.keyLength)]),
                as: UTF8.self)
        }
    }

    /// What the file had to leave out, as the errors a daemon lists beside the file (each an
    /// entry lost, the file itself served): every non-string value, and the rest of a file
    /// whose parse ended early.
    package var problems: [ResourceParseError] {
        var problems = nonStringValues.map {
            var problem = ResourceParseError(location: $0.location, message: message(for: $0))
            problem.rule = .nonStringValue
            return problem
        }
        if let earlyEnd {
            var problem = ResourceParseError(location: earlyEnd.location, message: message(for: earlyEnd))
            problem.rule = .ignoredRest
            problems.append(problem)
        }
        return problems
    }

    /// What `value` means for the app, in a translator's words.
    package func message(for value: NonStringValue) -> String {
        "the value of \(LintQuoting.quoted(key(of: value))) is \(value.kind.rawValue), not a string: Foundation "
            + "reads it but it is no text, so the key is not served here (the lookup falls back); write a string"
    }

    /// What an early end means for the app, in a translator's words.
    package func message(for end: EarlyEnd) -> String {
        let served =
            "the \(spans.count) entries before it are served (as Foundation serves them), the rest of the file is not"
        switch end.cause {
        case .keyCannotStart: return "reading stops at \(end.found), which cannot start a key: \(served)"
        case .unclosedComment:
            return "the comment that starts here is never closed, so it runs to the end of the file: \(served)"
        }
    }

    /// `spans` without the entries of a key whose last value in the file is no string: an
    /// earlier string of it is replaced, in Foundation's table, by the array or dictionary.
    static func removingKeys(of values: [NonStringValue], from spans: [Span], in buffer: [UInt8]) -> [Span] {
        guard !values.isEmpty else { return spans }
        return buffer.withUnsafeBufferPointer { buffer in
            func bytes(_ start: UInt32, _ length: UInt32) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: buffer[Int(start)..<Int(start + length)])
            }
            var removed = Set<Int>()
            for value in values {
                let key = bytes(value.keyStart, value.keyLength)
                func isKey(_ position: Int) -> Bool {
                    bytes(spans[position].keyStart, spans[position].keyLength).elementsEqual(key)
                }
                guard !(value.entriesBefore..<spans.count).contains(where: isKey) else { continue }
                removed.formUnion((0..<value.entriesBefore).filter(isKey))
            }
            guard !removed.isEmpty else { return spans }
            return spans.indices.filter { !removed.contains($0) }.map { spans[$0] }
        }
    }
}

extension StringsTable.NonStringValue.Kind {
    /// The kind of value `byte` opens (`(`, `{`, `<`); `nil` for any other byte.
    init?(opening byte: UInt8) {
        switch byte {
        case UInt8(ascii: "("): self = .array
        case UInt8(ascii: "{"): self = .dictionary
        case UInt8(ascii: "<"): self = .data
        default: return nil
        }
    }
}
