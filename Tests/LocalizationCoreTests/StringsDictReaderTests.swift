import Foundation
import LocalizationCore
import Testing

@Suite struct StringsDictReaderTests {
    /// A whole XML property list around `body`, as Xcode writes one.
    static func plist(_ body: String) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body)
            </dict>
            </plist>
            """.utf8)
    }

    /// A plural variable's dictionary.
    static func variable(_ forms: [String: String], valueType: String = "d") -> String {
        var body = """
            <dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>\(valueType)</string>
            """
        for (category, form) in forms.sorted(by: { $0.key < $1.key }) {
            body += "\n<key>\(category)</key><string>\(form)</string>"
        }
        return body + "\n</dict>"
    }

    @Test func englishExampleHasEveryKind() throws {
        let entries = try StringsDictReader.parse(
            ExampleResourceFile.bytes("en.lproj/Localizable.stringsdict"), file: "en.lproj/Localizable.stringsdict")
        #expect(entries.count == 6)  // with "%.1f hours", the decimal plural example

        let files = try #require(entries["%d files"])
        #expect(files.value == "%d files")
        let filesPlural = try #require(files.plural)
        #expect(filesPlural.format == "%#@files@")
        #expect(filesPlural.variables["files"] == .init(valueType: "d", forms: [.one: "%d file", .other: "%d files"]))

        let both = try #require(entries["%d files in %d folders"])
        #expect(both.value == "%d files in %d folders")
        #expect(both.plural?.variables.keys.sorted() == ["files", "folders"])
        #expect(both.plural?.variables["folders"]?.forms[.one] == "%d folder")

        let messages = try #require(entries["%ld unread messages"]?.plural?.variables["messages"])
        #expect(messages.valueType == "ld")
        #expect(messages.forms[.zero] == "No unread messages")
        #expect(messages.form(for: .two) == "%ld unread messages")

        let open = try #require(entries["Open the file"])
        #expect(open.deviceVariants == ["iphone": "Tap to open the file", "mac": "Click to open the file"])
        #expect(open.value == "Click to open the file")
        #expect(open.plural == nil)

        #expect(entries["Storage"] == TableEntry(value: "Storage"))
    }

    @Test func russianExampleHasFourForms() throws {
        let entries = try StringsDictReader.parse(ExampleResourceFile.bytes("ru.lproj/Localizable.stringsdict"))
        let files = try #require(entries["%d files"]?.plural?.variables["files"])
        #expect(files.forms == [.one: "%d файл", .few: "%d файла", .many: "%d файлов", .other: "%d файла"])
        #expect(entries["%d files in %d folders"]?.value == "%d файла в %d папки")
        #expect(entries["%ld unread messages"]?.plural?.variables["messages"]?.forms.count == 5)
        #expect(entries["Storage"]?.value == "Хранилище")
    }

    // Russian puts non-ASCII strings in the binary form, which stores them as UTF-16.
    @Test(arguments: ["en.lproj/Localizable.stringsdict", "ru.lproj/Localizable.stringsdict"])
    func binaryPropertyListReadsLikeXML(_ path: String) throws {
        let xml = try ExampleResourceFile.bytes(path)
        let object = try PropertyListSerialization.propertyList(from: Data(xml), format: nil)
        let binary = try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        #expect(try StringsDictReader.parse([UInt8](binary)) == StringsDictReader.parse(xml))
    }

    @Test func positionalAndNestedVariablesExpand() throws {
        let bytes = Self.plist(
            """
            <key>photos</key>
            <dict>
            <key>NSStringLocalizedFormatKey</key><string>%1$#@photos@ in %2$#@albums@</string>
            <key>photos</key>\(Self.variable(["one": "%1$d photo", "other": "%1$d photos"]))
            <key>albums</key>\(Self.variable(["one": "one album", "other": "%2$d albums%#@suffix@"]))
            <key>suffix</key>\(Self.variable(["other": " (shared)"]))
            <key>unused</key><string>ignored, as Foundation ignores it</string>
            </dict>
            """)
        let entry = try #require(try StringsDictReader.parse(bytes)["photos"])
        #expect(entry.value == "%1$d photos in %2$d albums (shared)")
        #expect(entry.plural?.variables.keys.sorted() == ["albums", "photos", "suffix"])
    }

    @Test func variableWidthKeepsTheWidest() throws {
        let bytes = Self.plist(
            """
            <key>Welcome</key>
            <dict>
            <key>NSStringVariableWidthRuleType</key>
            <dict>
            <key>1</key><string>Hi</string>
            <key>100</key><string>Welcome to l10nd</string>
            <key>20</key><string>Welcome</string>
            </dict>
            </dict>
            """)
        #expect(try StringsDictReader.parse(bytes)["Welcome"]?.value == "Welcome to l10nd")
    }

    @Test func deviceVariantMayBeAPluralRule() throws {
        let bytes = Self.plist(
            """
            <key>%d songs</key>
            <dict>
            <key>NSStringDeviceSpecificRuleType</key>
            <dict>
            <key>applewatch</key><string>%d ♪</string>
            <key>other</key>
            <dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@songs@</string>
            <key>songs</key>\(Self.variable(["one": "%d song", "other": "%d songs"]))
            </dict>
            </dict>
            </dict>
            """)
        let entry = try #require(try StringsDictReader.parse(bytes)["%d songs"])
        #expect(entry.value == "%d songs")
        #expect(entry.deviceVariants == ["applewatch": "%d ♪", "other": "%d songs"])
        #expect(entry.plural?.variables["songs"]?.forms[.one] == "%d song")
    }

    /// A broken entry: its body, a fragment the message must contain, and the text of the
    /// line the error must point at (searched from the entry's `<key>broken</key>` on).
    struct Malformed: Sendable, CustomTestStringConvertible {
        var name: String
        var body: String
        var message: String
        var pointsAt: String
        var testDescription: String { name }
    }

    static let malformed: [Malformed] = [
        Malformed(
            name: "no format key",
            body: "<dict>\n<key>files</key>\(variable(["other": "x"]))\n</dict>",
            message: "\"broken\" has no NSStringLocalizedFormatKey", pointsAt: "<key>broken</key>"),
        Malformed(
            name: "format key not a string",
            body: "<dict>\n<key>NSStringLocalizedFormatKey</key><integer>3</integer>\n</dict>",
            message: "NSStringLocalizedFormatKey of \"broken\" is a number, expected a string",
            pointsAt: "<key>NSStringLocalizedFormatKey</key>"),
        Malformed(
            name: "variable not defined",
            body: "<dict>\n<key>NSStringLocalizedFormatKey</key><string>%#@files@</string>\n</dict>",
            message: "\"broken\": variable \"files\" used in NSStringLocalizedFormatKey is not defined",
            pointsAt: "<key>broken</key>"),
        Malformed(
            name: "nested variable not defined",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>\(variable(["other": "%d files in %#@dirs@"]))
                </dict>
                """,
            message: "variable \"dirs\" used in variable \"files\" is not defined", pointsAt: "<key>broken</key>"),
        Malformed(
            name: "variable is a string",
            body:
                "<dict>\n<key>NSStringLocalizedFormatKey</key><string>%#@files@</string>\n<key>files</key><string>x</string>\n</dict>",
            message: "variable \"files\" is a string, expected a dictionary", pointsAt: "<key>files</key>"),
        Malformed(
            name: "no rule type",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>
                <dict><key>other</key><string>%d files</string></dict>
                </dict>
                """,
            message: "variable \"files\" has no NSStringFormatSpecTypeKey", pointsAt: "<key>files</key>"),
        Malformed(
            name: "unsupported rule type",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>
                <dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringGenderRuleType</string>
                <key>other</key><string>%d files</string>
                </dict>
                </dict>
                """,
            message: "rule type \"NSStringGenderRuleType\"", pointsAt: "<key>NSStringFormatSpecTypeKey</key>"),
        Malformed(
            name: "value type not a string",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>
                <dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>NSStringFormatValueTypeKey</key><true/>
                <key>other</key><string>%d files</string>
                </dict>
                </dict>
                """,
            message: "NSStringFormatValueTypeKey of variable \"files\" is a boolean",
            pointsAt: "<key>NSStringFormatValueTypeKey</key>"),
        Malformed(
            name: "form not a string",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>
                <dict>
                <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
                <key>one</key><array/>
                <key>other</key><string>%d files</string>
                </dict>
                </dict>
                """,
            message: "form \"one\" of variable \"files\" is an array", pointsAt: "<key>one</key>"),
        Malformed(
            name: "no other form",
            body: """
                <dict>
                <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
                <key>files</key>\(variable(["one": "%d file"]))
                </dict>
                """,
            message: "variable \"files\" has no \"other\" form", pointsAt: "<key>files</key>"),
        Malformed(
            name: "entry is an array",
            body: "<array><string>x</string></array>",
            message: "\"broken\" is an array, expected a string or a dictionary", pointsAt: "<key>broken</key>"),
        Malformed(
            name: "device rule not a dictionary",
            body: "<dict>\n<key>NSStringDeviceSpecificRuleType</key><string>mac</string>\n</dict>",
            message: "NSStringDeviceSpecificRuleType is a string", pointsAt: "<key>NSStringDeviceSpecificRuleType</key>"
        ),
        Malformed(
            name: "device variant a number",
            body: """
                <dict>
                <key>NSStringDeviceSpecificRuleType</key>
                <dict>
                <key>mac</key><real>1.5</real>
                </dict>
                </dict>
                """,
            message: "device \"mac\" is a number", pointsAt: "<key>mac</key>"),
    ]

    @Test(arguments: malformed)
    func malformedEntryNamesTheKeyAndItsLine(_ broken: Malformed) throws {
        // A good entry with the same variable names comes first, so the line search must
        // start from the broken key, not the first occurrence in the file.
        let good = """
            <key>good</key>
            <dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@files@</string>
            <key>files</key>\(Self.variable(["one": "%d file", "other": "%d files"]))
            <key>mac</key><string>unused</string>
            </dict>
            """
        let bytes = Self.plist(good + "\n<key>broken</key>\n" + broken.body)
        // The broken entry is reported and (unless Foundation would serve it) left out; the
        // good one is served all the same.
        let (entries, problems) = try StringsDictReader.read(bytes, file: "Broken.stringsdict")
        let error = try #require(problems.first)
        #expect(problems.count == 1)
        #expect(entries["good"] != nil)
        #expect((entries["broken"] == nil) == error.isEntryLost)
        #expect(error.isEntryLost == (broken.name != "no other form"), "\(error)")
        #expect(error.message.contains(broken.message), "\(error)")
        #expect(error.message.contains("\"broken\""))
        #expect(error.location.file == "Broken.stringsdict")

        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let brokenLine = try #require(lines.firstIndex { $0.contains("<key>broken</key>") })
        let expected = try #require(lines[brokenLine...].firstIndex { $0.contains(broken.pointsAt) }) + 1
        #expect(error.location.line == expected, "\(error)")
    }

    @Test(arguments: [
        BadInput("empty", [UInt8](), "the file is empty"),
        BadInput("whitespace", Array(" \n\t\n".utf8), "the file is empty"),
        BadInput("a bare word", Array("hello".utf8), "the top level is a string"),
        BadInput("an array", plistDocument("<array/>"), "the top level is an array"),
        BadInput("garbage", [0xFF, 0xFE, 0x00, 0x01, 0x99, 0x80], "not a valid property list"),
        BadInput(
            "bad tag", plistDocument("<dict>\n<key>a</key>\n<strin>x</string>\n</dict>"), "not a valid property list"),
        BadInput(
            "truncated XML", Array(plistDocument("<dict>\n<key>a</key>\n<string>x</string>\n").dropLast(9)),
            "not a valid property list"
        ),
        BadInput(
            "arrays nested 500 deep",
            plistDocument(String(repeating: "<array>", count: 500) + String(repeating: "</array>", count: 500)),
            "the top level is an array"
        ),
        BadInput(
            "arrays nested 100 000 deep",
            plistDocument(String(repeating: "<array>", count: 100_000) + String(repeating: "</array>", count: 100_000)),
            "not a valid property list"
        ),
        BadInput("bplist header only", Array("bplist00".utf8), "damaged binary property list"),
        BadInput("future binary format", Array("bplist15".utf8) + [UInt8](repeating: 0, count: 40), "only version 00"),
    ])
    func notAStringsDictIsAClearError(_ input: BadInput) throws {
        let error = try #require(throws: ResourceParseError.self) { try StringsDictReader.parse(input.bytes) }
        #expect(error.message.contains(input.message), "\(error)")
    }

    static func plistDocument(_ top: String) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n\(top)\n</plist>\n".utf8)
    }

    @Test func xmlErrorCarriesFoundationsLine() throws {
        let bytes = Self.plistDocument("<dict>\n<key>a</key>\n<strin>x</string>\n</dict>")
        let error = try #require(throws: ResourceParseError.self) { try StringsDictReader.parse(bytes) }
        #expect(error.location.line == 5, "\(error)")
    }

    /// A hand-made binary property list: `objects` laid out in order, one-byte offsets and references.
    static func binaryPlist(objects: [[UInt8]], top: UInt8 = 0) -> [UInt8] {
        var bytes = Array("bplist00".utf8)
        var offsets: [UInt8] = []
        for object in objects {
            offsets.append(UInt8(bytes.count))
            bytes += object
        }
        let tableStart = UInt64(bytes.count)
        bytes += offsets
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for number in [UInt64(objects.count), UInt64(top), tableStart] {
            bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: number >> (8 * $0)) }
        }
        return bytes
    }

    @Test(arguments: [
        ("an array holding itself", [[0xA1, 0x00]], "contains itself"),
        ("data longer than the file", [[0x4F, 0x13, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]], "too large"),
        ("a string past the objects", [[0x5E, 0x41]], "runs past the object area"),
        ("a reference past the last object", [[0xA1, 0x07]], "past the last object"),
        ("a key that is a number", [[0xD1, 0x01, 0x01], [0x10, 0x05]], "key is not a string"),
        ("an unknown object type", [[0xF0]], "unknown object type"),
    ])
    func hostileBinaryIsAnError(_ name: String, _ objects: [[UInt8]], _ message: String) throws {
        let bytes = Self.binaryPlist(objects: objects)
        let error = try #require(throws: ResourceParseError.self) { try StringsDictReader.parse(bytes) }
        #expect(error.message.contains(message), "\(name): \(error)")
    }

    @Test func sharedReferencesAreDecodedOnce() throws {
        // Each array holds the previous one twice: 2^60 leaves if each reference were
        // followed anew; decoding each object once keeps it instant.
        var objects: [[UInt8]] = [[0x51, 0x78]]
        for index in 0..<60 {
            objects.append([0xA2, UInt8(index), UInt8(index)])
        }
        let bytes = Self.binaryPlist(objects: objects, top: 60)
        let error = try #require(throws: ResourceParseError.self) { try StringsDictReader.parse(bytes) }
        #expect(error.message.contains("the top level is an array"))
    }

    @Test(arguments: ["xml", "binary"])
    func damagedExamplesNeverCrash(_ format: String) throws {
        var original = try ExampleResourceFile.bytes("ru.lproj/Localizable.stringsdict")
        if format == "binary" {
            let object = try PropertyListSerialization.propertyList(from: Data(original), format: nil)
            original = [UInt8](
                try PropertyListSerialization.data(fromPropertyList: object, format: .binary, options: 0))
        }
        var mutator = ByteMutator(seed: format == "xml" ? 1 : 2)
        var failures = 0
        for _ in 0..<3000 {
            do {
                _ = try StringsDictReader.parse(mutator.damaged(original))
            } catch {
                failures += 1
                #expect(!error.message.isEmpty)
            }
        }
        #expect(failures > 0)
        // Cutting only the final newline leaves a complete file, so stop before it.
        for length in stride(from: 0, to: original.count - 1, by: format == "xml" ? 97 : 1) {
            #expect(throws: ResourceParseError.self) { try StringsDictReader.parse(Array(original.prefix(length))) }
        }
    }
}
