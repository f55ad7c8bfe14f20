public import Foundation
import LocalizationCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// XLIFF 1.2 as Xcode writes it into an `.xcloc`'s `Localized Contents/LANG.xliff`: one
/// `<file original="en.lproj/Localizable.strings" source-language="en" target-language="de"
/// datatype="plaintext">` per file, one `<trans-unit id="KEY" xml:space="preserve">` with
/// `<source>`, `<target>` (when translated) and `<note>` per unit.
public enum XLIFFDocument {
    /// The document for `project`'s files.
    public static func render(_ project: TranslationProject) -> String {
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <xliff xmlns="urn:oasis:names:tc:xliff:document:1.2" version="1.2">

            """
        for file in project.files where !file.units.isEmpty {
            xml += """
                  <file original="\(XLIFFText.attribute(file.original))" source-language="\(project.developmentLanguage.identifier)" \
                target-language="\(project.language.identifier)" datatype="plaintext">
                    <header>
                      <tool tool-id="l10nd" tool-name="l10nctl"/>
                    </header>
                    <body>

                """
            for unit in file.units {
                // A final translation is `approved="yes"` (translate-toolkit's `xliff2po` makes
                // every unapproved one fuzzy); one to review or pre-filled carries its `state`.
                let state = unit.target == nil ? nil : (unit.state ?? .translated)
                let approved = state == .translated ? " approved=\"yes\"" : ""
                xml += "      <trans-unit id=\"\(XLIFFText.attribute(unit.id))\" xml:space=\"preserve\"\(approved)>\n"
                xml += "        <source>\(XLIFFText.content(unit.source))</source>\n"
                if let target = unit.target {
                    let attribute = state?.xliffState.map { " state=\"\($0)\"" } ?? ""
                    xml += "        <target\(attribute)>\(XLIFFText.content(target))</target>\n"
                }
                if let note = unit.note { xml += "        <note>\(XLIFFText.attribute(note))</note>\n" }
                xml +=
                    "        <context-group purpose=\"x-l10nd\"><context context-type=\"\(TranslationBase.contextType)\">"
                    + "\(TranslationBase.written([unit.target], language: project.language))</context></context-group>\n"
                xml += "      </trans-unit>\n"
            }
            xml += "    </body>\n  </file>\n"
        }
        return xml + "</xliff>\n"
    }

    /// One `<trans-unit>` read back: its file, id and target.
    public struct Entry: Sendable, Hashable {
        /// The `<file original>`.
        public var original: String
        /// The unit's id.
        public var id: String
        /// The `<target>` text.
        public var target: String
        /// The `<source>` text, `nil` when the unit has none: what finds the unit when its
        /// file and id name none of the project's (another tool's numbering).
        public var source: String?
        /// Its `state` (`approved="no"` without one: needs review, as translate-toolkit reads it).
        public var state: TranslationState = .translated
        /// `<context context-type="sourcefile">`s (translate-toolkit's `po2xliff` keeps a
        /// `.po`'s `#:` references there): they help find the unit by source text.
        public var hints: [String] = []
        /// The hash of the unit's translation when it was exported (``TranslationBase``).
        public var base: String?
        /// How many `<target>`s the unit has: more than one is ambiguous, and none is used.
        var targetCount = 0
        /// Whether the unit has a `<target>`.
        var hasTarget: Bool { targetCount > 0 }
        /// The inline codes of its `<target>` that carry no text (`<x id="2"/>` without
        /// `equiv-text`): a plain-text value cannot hold them, so the unit is not written.
        var textlessCodes: [String] = []
    }

    /// The namespace of XLIFF 1.2, the version read; a document without a namespace is read
    /// as 1.2 too (older tools write none).
    static let namespace = "urn:oasis:names:tc:xliff:document:1.2"

    /// Whether elements of `namespaceURI` are read: none, 1.2's, or 1.1's and 1.0's, whose
    /// `<file>`, `<trans-unit>`, `<source>` and `<target>` are 1.2's (translate-toolkit's
    /// `po2xliff` writes 1.1).
    static func isRead(_ namespaceURI: String?) -> Bool {
        guard let namespaceURI, !namespaceURI.isEmpty else { return true }
        return namespaceURI == namespace || namespaceURI == "urn:oasis:names:tc:xliff:document:1.1"
            || namespaceURI == "urn:oasis:names:tc:xliff:document:1.0"
    }

    /// The units (one without a `<target>` has an empty ``Entry/target``), and the document's
    /// target language. Elements are read by
    /// namespace and local name, so a prefixed document (`<ns0:xliff xmlns:ns0=…>`, as Python's
    /// ElementTree writes) reads as an unprefixed one.
    /// - Throws: ``InterchangeError`` for an XLIFF 2.0 document (which this reader would
    ///   otherwise find no units in), with the line of malformed XML, or when the root element
    ///   is not XLIFF 1.2's `<xliff>`.
    public static func parse(_ data: Data) throws(InterchangeError) -> (language: String?, entries: [Entry]) {
        let delegate = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        parser.shouldProcessNamespaces = true
        let parsed = parser.parse()
        // Checked first: XLIFF 2.0 is not a broken 1.2 document, and reading it as one would
        // find no units and change nothing, silently.
        if let version = delegate.unsupportedVersion {
            throw InterchangeError(
                "XLIFF \(version) is not supported: import reads XLIFF 1.2 (as Xcode and l10nctl export write it); "
                    + "convert the file to XLIFF 1.2 first")
        }
        // Foundation's parser on Linux may report success for a truncated document: the
        // elements must also close.
        guard parsed, parser.parserError == nil, delegate.depth == 0 else {
            // Where the first error was met: Foundation's parser may read on to the end
            // after it, so its final line would be the document's last.
            let (line, column) = delegate.firstError ?? (parser.lineNumber, parser.columnNumber)
            let reason =
                (delegate.firstErrorCode ?? parser.parserError.map { ($0 as NSError).code }).map(describe)
                ?? "the document ends before its elements are closed"
            throw InterchangeError("not well-formed XLIFF at line \(line), column \(column): \(reason)")
        }
        guard delegate.sawRoot else {
            let root = delegate.root.map { "<\($0.name)> in namespace \"\($0.namespace)\"" } ?? "missing"
            throw InterchangeError("not XLIFF 1.2: the root element is \(root), not <xliff> in \"\(namespace)\"")
        }
        return (delegate.language, delegate.entries)
    }

    /// The XML parser's error in words. Foundation on Linux passes on libxml2's
    /// `xmlParserErrors` number but not its message (and its `XMLParser.ErrorCode` cases are
    /// numbered differently), so the common ones are named here after libxml2's.
    static func describe(_ code: Int) -> String {
        let reasons = [
            3: "no document start", 4: "the document is empty", 5: "extra content at the end of the document",
            9: "a character XML does not allow", 23: "an entity reference without its ';'",
            26: "an undeclared entity (XML knows only &lt; &gt; &amp; &apos; &quot;)",
            35: "a bad namespace declaration", 38: "'<' inside an attribute value",
            39: "an attribute value not in quotes", 41: "an attribute without a value", 42: "an attribute given twice",
            64: "a reserved name", 65: "a space is required", 68: "a name is required", 72: "'<' is required",
            73: "'>' is required", 74: "'</' is required", 75: "'=' is required",
            76: "an end tag that does not match its start tag", 77: "the document ends before its elements are closed",
            85: "elements not balanced", 86: "extra content at the end of the document",
            201: "an undeclared namespace prefix",
        ]
        return (reasons[code].map { $0 + " " } ?? "") + "(libxml2 error \(code))"
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var entries: [Entry] = []
        var language: String?
        var original = ""
        /// The unit being read, until its `</trans-unit>`.
        var unit: Entry?
        var target: String?
        var source: String?
        /// Whether the text read goes to `source` (not to `target`).
        var inSource = false
        /// Whether the text read is a `<context context-type="sourcefile">` (a hint).
        var hint: String?
        /// Whether the text read is the export's base hash.
        var base: String?
        /// Depth inside `<alt-trans>`: its `<source>` and `<target>` are suggestions, not the unit's.
        var alternatives = 0
        /// The text of a `<ph ctype="x-ctrl">` being read in a target.
        var controlCharacter: String?
        /// The `<ph>`, `<it>`, `<bpt>` or `<ept>` being read in a target: its content (the
        /// original code, XLIFF 1.2 says), its `equiv-text`, and the element as written.
        var nativeCode: (text: String, equivalent: String?, element: String)?
        /// The line and column of the first error the parser reported.
        var firstError: (line: Int, column: Int)?
        /// The code of the first error the parser reported.
        var firstErrorCode: Int?
        /// Whether the root is XLIFF 1.2's `<xliff>`.
        var sawRoot = false
        /// The root element's qualified name and namespace.
        var root: (name: String, namespace: String)?
        /// The version of a root `<xliff>` of a version this reader does not read (2.0).
        var unsupportedVersion: String?
        var depth = 0

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if depth == 0 {
                root = (qualifiedName ?? name, namespaceURI ?? "")
                let version = attributes["version"] ?? ""
                if name == "xliff",
                    namespaceURI?.hasPrefix("urn:oasis:names:tc:xliff:document:2") == true || version.hasPrefix("2")
                {
                    unsupportedVersion = version.isEmpty ? "2" : version
                    parser.abortParsing()
                    return
                }
            }
            // Elements of other namespaces (a tool's extensions) are not XLIFF's: their
            // `<source>` or `<file>` is not read as one.
            let isXLIFF = XLIFFDocument.isRead(namespaceURI)
            if depth == 0, name == "xliff", isXLIFF { sawRoot = true }
            depth += 1
            guard isXLIFF else { return }
            if name == "alt-trans" { alternatives += 1 }
            guard alternatives == 0 else { return }
            switch name {
            case "file":
                original = XLIFFText.decodedAttribute(attributes["original"] ?? "")
                language = language ?? attributes["target-language"]
            // translate-toolkit's `po2xliff` keeps the `.po` header as a unit of its own.
            case "trans-unit" where attributes["restype"] == "x-gettext-domain-header": unit = nil
            case "trans-unit":
                unit = attributes["id"].map {
                    Entry(original: original, id: XLIFFText.decodedAttribute($0), target: "")
                }
                unit?.state = attributes["approved"] == "no" ? .needsReview : .translated
                source = nil
                target = nil
            case "source" where unit != nil:
                source = ""
                inSource = true
            case "target" where unit != nil:
                target = ""
                if let state = attributes["state"] { unit?.state = TranslationState(xliff: state) }
            case "context" where unit != nil && attributes["context-type"] == "sourcefile":
                hint = ""
            case "context" where unit != nil && attributes["context-type"] == TranslationBase.contextType:
                base = ""
            case "ph" where (target != nil || inSource) && attributes["ctype"] == XLIFFText.controlPlaceholderType:
                controlCharacter = ""
            // XLIFF 1.2's empty placeholders stand for code they do not hold: only an
            // `equiv-text` (the text "to substitute in place of an inline tag") can be written.
            case _ where ["x", "bx", "ex"].contains(name) && target != nil && !inSource:
                if let equivalent = attributes["equiv-text"] {
                    target! += equivalent
                } else {
                    unit?.textlessCodes.append("<\(name) id=\"\(attributes["id"] ?? "")\"/>")
                }
            case _ where ["ph", "it", "bpt", "ept"].contains(name) && target != nil && !inSource && nativeCode == nil:
                nativeCode = ("", attributes["equiv-text"], "<\(name) id=\"\(attributes["id"] ?? "")\">")
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil {
                firstError = (parser.lineNumber, parser.columnNumber)
                firstErrorCode = (parseError as NSError).code
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard alternatives == 0 else { return }
            if controlCharacter != nil {
                controlCharacter! += string
            } else if nativeCode != nil {
                nativeCode!.text += string
            } else if hint != nil {
                hint! += string
            } else if base != nil {
                base! += string
            } else if inSource {
                source! += string
            } else if target != nil {
                target! += string
            }
        }

        /// A CDATA section is text like any other (Crowdin, Lokalise and Okapi write
        /// targets as `<![CDATA[…]]>`, whole or in part).
        func parser(_ parser: XMLParser, foundCDATA data: Data) {
            self.parser(parser, foundCharacters: String(decoding: data, as: UTF8.self))
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            guard XLIFFDocument.isRead(namespaceURI) else { return }
            if name == "alt-trans" {
                alternatives -= 1
                return
            }
            guard alternatives == 0 else { return }
            switch name {
            case "ph" where controlCharacter != nil:
                let text = controlCharacter ?? ""
                // The character a `<ph ctype="x-ctrl">` stands for; other text as written.
                controlCharacter = nil
                self.parser(parser, foundCharacters: XLIFFText.decodedPlaceholder(text).map { String($0) } ?? text)
            case "ph", "it", "bpt", "ept":
                // The original code it holds, else its `equiv-text`; with neither, nothing
                // says what it stood for.
                guard let code = nativeCode, code.element.hasPrefix("<\(name) ") else { return }
                nativeCode = nil
                if !code.text.isEmpty {
                    target? += code.text
                } else if let equivalent = code.equivalent {
                    target? += equivalent
                } else {
                    unit?.textlessCodes.append(code.element.dropLast() + "/>")
                }
            case "source": inSource = false
            case "context":
                if let text = hint { unit?.hints.append(text) }
                if let text = base { unit?.base = text.trimmingCharacters(in: .whitespacesAndNewlines) }
                hint = nil
                base = nil
            case "target":
                unit?.target = target ?? ""
                unit?.targetCount += 1
                target = nil
            case "trans-unit":
                // A unit without a `<target>` is kept too: when the files translate it, the
                // import says the translation is kept.
                if var unit {
                    unit.source = source
                    entries.append(unit)
                }
                unit = nil
            default: break
            }
        }
    }
}

/// An interchange file that cannot be read or written back, in words for a translator.
public struct InterchangeError: Error, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var description: String
    /// Creates an error.
    public init(_ description: String) { self.description = description }
}
