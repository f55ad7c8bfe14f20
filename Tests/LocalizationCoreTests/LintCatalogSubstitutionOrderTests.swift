import LocalizationCore
import TestSupport
import Testing

/// A String Catalog's substitutions count by the argument their `argNum` names, wherever the
/// text puts them: a translation that gives `folders` the files' argument (a swapped
/// `argNum`) counts each by the other's number, as a `.stringsdict` format with its variables
/// swapped does. Lint reports it as `placeholder-mismatch`; a text that only reorders them
/// (`%#@folders@中有%#@files@`, each keeping its `argNum`) is right.
@Suite struct LintCatalogSubstitutionOrderTests {
    /// A substitution as Xcode writes one: the count as `%arg`, its argument and specifier.
    static func substitution(_ argNum: Int, _ forms: [(String, String)]) -> String {
        let plural = forms.map {
            "\"\($0.0)\" : { \"stringUnit\" : { \"state\" : \"translated\", \"value\" : \"\($0.1)\" } }"
        }
        return """
            { "argNum" : \(argNum), "formatSpecifier" : "lld", "variations" : { "plural" : {
                      \(plural.joined(separator: ",\n          "))
                    } } }
            """
    }

    /// A catalog of `%lld files in %lld folders`, English and Chinese: Chinese text `text`,
    /// its `files` counting by argument `files`, its `folders` by `folders`.
    static func catalog(text: String, files: Int, folders: Int) -> String {
        """
        {
          "sourceLanguage" : "en",
          "strings" : {
            "%lld files in %lld folders" : {
              "localizations" : {
                "en" : {
                  "stringUnit" : { "state" : "translated", "value" : "%#@files@ in %#@folders@" },
                  "substitutions" : {
                    "files" : \(substitution(1, [("one", "%arg file"), ("other", "%arg files")])),
                    "folders" : \(substitution(2, [("one", "%arg folder"), ("other", "%arg folders")]))
                  }
                },
                "zh-Hans" : {
                  "stringUnit" : { "state" : "translated", "value" : "\(text)" },
                  "substitutions" : {
                    "files" : \(substitution(files, [("other", "%arg 个文件")])),
                    "folders" : \(substitution(folders, [("other", "%arg 个文件夹")]))
                  }
                }
              }
            }
          },
          "version" : "1.0"
        }

        """
    }

    @Test func aSwappedArgNumIsReportedAndAReorderedTextIsNot() throws {
        let root = try TemporaryDirectory()
        let path = try root.write(
            Self.catalog(text: "%#@folders@中有%#@files@", files: 2, folders: 1), to: "Localizable.xcstrings")
        let findings = ResourceLinter.lint(paths: [path], options: LintOptions())
            .filter { $0.rule == .placeholderMismatch }
        #expect(findings.count == 1, "\(findings)")
        let message = try #require(findings.first?.message)
        #expect(message.contains("in zh-Hans"), "\(message)")
        #expect(message.contains("'files' takes argument 2, not 1"), "\(message)")
        #expect(message.contains("argNum 1 for 'files', argNum 2 for 'folders'"), "\(message)")
        #expect(findings.first?.severity == .error)

        // The same text with each substitution's own argument: nothing to say.
        try root.write(
            Self.catalog(text: "%#@folders@中有%#@files@", files: 1, folders: 2), to: "Localizable.xcstrings")
        let clean = ResourceLinter.lint(paths: [path], options: LintOptions())
        #expect(!clean.contains { $0.rule == .placeholderMismatch }, "\(clean)")
    }
}
