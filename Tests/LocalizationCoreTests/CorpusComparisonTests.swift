import Foundation
import LocalizationCore
import TestSupport
import Testing

/// Foundation's reading of `.strings` bytes (CoreFoundation's own parser underneath), as a
/// `[String: String]`; `nil` when it refuses them or they are not a dictionary of strings.
func foundationStringsTable(_ bytes: [UInt8]) -> [String: String]? {
    guard let object = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil),
        let dictionary = object as? [String: Any]
    else { return nil }
    var table: [String: String] = [:]
    for (key, value) in dictionary {
        guard let string = value as? String else { return nil }
        table[key] = string
    }
    return table
}

/// Two tables hold the same keys and values, byte for byte (Swift's `==` on strings would
/// accept canonically equivalent ones too).
func sameStrings(_ left: [String: String], _ right: [String: String]) -> Bool {
    func bytes(_ table: [String: String]) -> [[UInt8]] {
        table.map { Array($0.key.utf8) + [0] + Array($0.value.utf8) }.sorted { $0.lexicographicallyPrecedes($1) }
    }
    return bytes(left) == bytes(right)
}

/// The real translations of IINA (56 languages), next to the package: `../shared/corpus/iina`.
/// A user's own clone has no `../shared`: the tests that read it are enabled only if it is here.
enum Corpus {
    static let root = URL(fileURLWithPath: PackagePaths.shared + "/corpus/iina")

    static var isPresent: Bool { PackagePaths.corpus != nil }

    /// Every `*.lproj/*.strings` file, sorted by path.
    static func stringsFiles() -> [URL] {
        let manager = FileManager.default
        let languages = (try? manager.contentsOfDirectory(atPath: root.path)) ?? []
        var files: [URL] = []
        for language in languages where language.hasSuffix(".lproj") {
            let directory = root.appendingPathComponent(language)
            for name in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? []
            where name.hasSuffix(".strings") {
                files.append(directory.appendingPathComponent(name))
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

@Suite struct CorpusComparisonTests {
    /// Every corpus file gives the same table as Foundation. Foundation refuses zero-length
    /// data ("Cannot parse a NULL or zero-length data"), where CoreFoundation's own rule (and
    /// ours) is that an empty file is an empty table: those files are asserted empty instead.
    @Test(.enabled(if: Corpus.isPresent, "the corpus ../shared/corpus/iina is absent"))
    func everyCorpusFileMatchesFoundation() throws {
        let files = Corpus.stringsFiles()
        var compared = 0
        var refusedEmpty = 0
        var keys = 0
        for url in files {
            let bytes = try Array(Data(contentsOf: url))
            let parsed: ParsedStrings
            do {
                parsed = try StringsParser.parse(bytes, file: url.path)
            } catch {
                Issue.record("\(error)")
                continue
            }
            #expect(parsed.entries.count == parsed.table.count + parsed.duplicates.count, "\(url.path)")
            guard let expected = foundationStringsTable(bytes) else {
                #expect(bytes.isEmpty, "Foundation refused \(url.path), which is not empty")
                #expect(parsed.table.isEmpty, "\(url.path)")
                refusedEmpty += 1
                continue
            }
            #expect(sameStrings(parsed.table, expected), "\(url.path) differs from Foundation")
            compared += 1
            keys += expected.count
        }
        print(
            "CorpusComparisonTests: \(compared) of \(files.count) files give the same \(keys) keys and values as "
                + "Foundation; \(refusedEmpty) zero-length files (refused by Foundation) give an empty table")
        #expect(compared + refusedEmpty == files.count)
        #expect(compared > 1900)
    }
}
