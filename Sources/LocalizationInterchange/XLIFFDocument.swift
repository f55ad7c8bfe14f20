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
                xml += "      <trans-unit id=\"\(XLIFFText.attribute(unit.id))\" xml:space=\"preserve\">\n"
                xml += "        <source>\(XLIFFText.content(unit.source))</source>\n"
                if let target = unit.target { xml += "        <target>\(XLIFFText.content(target))</target>\n" }
                if let note = unit.note { xml += "        <note>\(XLIFFText.attribute(note))</note>\n" }
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
    }

    /// The units with a `<target>`, and the document's target language.
    /// - Throws: ``InterchangeError`` with the line of malformed XML.
    public static func parse(_ data: Data) throws(InterchangeError) -> (language: String?, entries: [Entry]) {
        let delegate = Reader()
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        // Foundation's parser on Linux may report success for a truncated document: the
        // elements must also close.
        guard parser.parse(), parser.parserError == nil, delegate.sawRoot, delegate.depth == 0 else {
            // Where the first error was met: Foundation's parser may read on to the end
            // after it, so its final line would be the document's last.
            let (line, column) = delegate.firstError ?? (parser.lineNumber, parser.columnNumber)
            throw InterchangeError(
                "not well-formed XLIFF at line \(line), column \(column): "
                    + (parser.parserError?.localizedDescription ?? "?"))
        }
        return (delegate.language, delegate.entries)
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var entries: [Entry] = []
        var language: String?
        var original = ""
        var id: String?
        var target: String?
        /// The text of a `<ph ctype="x-ctrl">` being read in a target.
        var controlCharacter: String?
        /// The line and column of the first error the parser reported.
        var firstError: (line: Int, column: Int)?
        var sawRoot = false
        var depth = 0

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if depth == 0, name == "xliff" { sawRoot = true }
            depth += 1
            switch name {
            case "file":
                original = XLIFFText.decodedAttribute(attributes["original"] ?? "")
                language = language ?? attributes["target-language"]
            case "trans-unit": id = attributes["id"].map(XLIFFText.decodedAttribute)
            case "target": target = ""
            case "ph" where target != nil && attributes["ctype"] == XLIFFText.controlPlaceholderType:
                controlCharacter = ""
            default: break
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil { firstError = (parser.lineNumber, parser.columnNumber) }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if controlCharacter != nil {
                controlCharacter! += string
            } else if target != nil {
                target! += string
            }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            depth -= 1
            if name == "ph", let text = controlCharacter {
                // The character a `<ph ctype="x-ctrl">` stands for; other text as written.
                if let scalar = XLIFFText.decodedPlaceholder(text) {
                    target?.unicodeScalars.append(scalar)
                } else {
                    target? += text
                }
                controlCharacter = nil
            }
            guard name == "target", let id, let text = target else { return }
            entries.append(Entry(original: original, id: id, target: text))
            target = nil
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
