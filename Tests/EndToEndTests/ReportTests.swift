import Foundation
import TestSupport
import Testing

/// `l10nctl report --html`: the page's content from real files and a real `l10nd`, and the
/// page itself rendered by headless Chromium (no console errors, a screenshot).
@Suite struct ReportTests {
    let l10nctl = PackagePaths.executable("l10nctl")

    /// A page that cannot be written is said in l10nctl's words: the path and the reason,
    /// exit 1 (an outside tester's find: Foundation's "The file … couldn't be saved …").
    @Test func aPageThatCannotBeWrittenNamesThePathAndTheReason() throws {
        let directory = try TemporaryDirectory()
        let resources = PackagePaths.exampleResources
        let cases = [
            (
                "/nonexistent/x.html",
                "cannot write the report to /nonexistent/x.html: the directory /nonexistent does not exist"
            ),
            (
                directory.path,
                "cannot write the report to \(directory.path): it is a directory (give --html a file name)"
            ),
        ]
        for (path, message) in cases {
            let output = try ProcessRunner.run(l10nctl, ["report", "--html", path, resources])
            #expect(output.status == 1, "\(output)")
            #expect(output.stderr == "l10nctl: error: \(message)\n", "\(output.stderr)")
        }
    }

    /// The examples plus a Russian plural lacking `few` and `many`, a file lint rejects, and
    /// a looked-up key that needs escaping.
    func resources(in directory: TemporaryDirectory) throws -> String {
        let resources = directory.path + "/Resources"
        try FileManager.default.copyItem(atPath: PackagePaths.exampleResources, toPath: resources)
        _ = try directory.write(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict><key>%d apples</key><dict>
            <key>NSStringLocalizedFormatKey</key><string>%#@apples@</string>
            <key>apples</key><dict>
            <key>NSStringFormatSpecTypeKey</key><string>NSStringPluralRuleType</string>
            <key>NSStringFormatValueTypeKey</key><string>d</string>
            <key>one</key><string>%d яблоко</string><key>other</key><string>%d яблок</string>
            </dict></dict></dict></plist>
            """, to: "Resources/ru.lproj/Gaps.stringsdict")
        _ = try directory.write("\"broken\" = \"no semicolon\"\n", to: "Resources/de.lproj/Broken.strings")
        // The source text unchanged: an unchanged-from-source note.
        _ = try directory.write(
            "\"title\" = \"Preferences\";\n\"language\" = \"Sprache\";\n", to: "Resources/de.lproj/Settings.strings")
        return resources
    }

    @Test func reportShowsCoveragePluralsLintAndWhatUsersHit() throws {
        let directory = try TemporaryDirectory(prefix: "l10nctl-report")
        let resources = try resources(in: directory)
        // Another tree the same daemon serves, with a `Localizable` table of its own.
        try directory.write("\"elsewhere-key\" = \"Elsewhere\";\n", to: "Other/en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources, directory.path + "/Other"])
        let client = try daemon.connect()
        for (key, language) in [("保存", "ja"), ("保存", "ru"), ("<script>alert(1)</script>", "ja")] {
            _ = try client.request(["op": "lookup", "key": key, "lang": language])
        }
        // A table no file of this tree has: another tree's miss, left out of this report.
        _ = try client.request(["op": "lookup", "key": "elsewhere", "lang": "ja", "table": "OtherTree"])
        // A table both trees have, but a key only the other one has: its miss, left out too.
        let shared = try client.request(["op": "lookup", "key": "elsewhere-key", "lang": "ja"])
        #expect(shared["value"] as? String == "Elsewhere", "\(shared)")
        let page = directory.path + "/report.html"
        let result = try ProcessRunner.run(
            l10nctl, ["report", "--html", page, "--socket", daemon.socketPath, resources])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("8 languages, 1 lint errors"), "\(result.stdout)")
        let html = try String(contentsOfFile: page, encoding: .utf8)

        // Coverage per language (strings and words), per table in each language's section.
        #expect(html.contains("<th scope=\"row\"><a href=\"#lang-ja\">ja</a></th>"), "\(html)")
        #expect(html.contains("<th>Words</th>") && html.contains("<th>Same as source</th>"))
        #expect(html.contains("<section class=\"lang\" id=\"lang-ru\"><h3>ru</h3>"), "\(html)")
        #expect(html.contains("<th scope=\"row\">Settings</th>") && html.contains("<th scope=\"row\">Plurals</th>"))
        #expect(
            html.contains(
                "<p>Plurals: 9 entries, each needing the forms one few many other; <span class=\"bad\">1 with forms missing"
            ),
            "\(html)")
        // Lint grouped by rule, then language; errors before warnings before notes.
        #expect(html.contains("<h3 id=\"rule-file\"><code>file</code> · 1 error</h3>"), "\(html)")
        let error = try #require(html.range(of: "id=\"rule-file\""))
        let note = try #require(html.range(of: "id=\"rule-unchanged-from-source\""))
        #expect(error.lowerBound < note.lowerBound, "errors are listed first")
        #expect(!html.contains("elsewhere"), "another tree's misses")
        // Plural completeness by the language's CLDR categories.
        #expect(
            html.contains(
                "<li><code>Gaps</code> · <code>%d apples</code> · <code>apples</code>: <span class=\"bad\">few, many</span></li>"
            ), "\(html)")
        // Lint findings with file:line:column.
        #expect(html.contains("<code>\(resources)/de.lproj/Broken.strings:1:26</code>"), "\(html)")
        // What users hit untranslated, from the daemon, escaped.
        #expect(
            html.contains("<td>ru</td><td>Localizable</td><td><code>保存</code></td><td>1</td><td>the Base string</td>"))
        #expect(html.contains("<code>&lt;script&gt;alert(1)&lt;/script&gt;</code>"))
        // Self-contained: nothing to fetch, nothing to run.
        for forbidden in ["<script", "src=", "http://", "https://", "@import", "url("] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }

        // Without a daemon, the section says why instead of failing; with a dead --socket, a clear failure.
        let offline = try ProcessRunner.run(
            l10nctl, ["report", "--html", page, resources],
            environment: ["PATH": "/usr/bin:/bin", "XDG_RUNTIME_DIR": directory.path + "/none"])
        #expect(offline.status == 0, "\(offline.stderr)")
        let offlinePage = try String(contentsOfFile: page, encoding: .utf8)
        #expect(offlinePage.contains("Not measured: no daemon answered"))
        // The summary line counts notes apart from warnings, as the page's cards do.
        let warnings = try #require(card("lint warnings", in: offlinePage))
        let notes = try #require(card("lint notes", in: offlinePage))
        #expect(notes == 1, "de's unchanged title")
        #expect(offline.stdout.contains("lint errors, \(warnings) warnings, \(notes) notes"), "\(offline.stdout)")
        let dead = try ProcessRunner.run(
            l10nctl, ["report", "--html", page, "--socket", directory.path + "/none.sock", resources])
        #expect(dead.status == 1 && dead.stderr.contains("none.sock"), "\(dead.stderr)")
        let usage = try ProcessRunner.run(l10nctl, ["report", resources])
        #expect(usage.status == 2)
    }

    /// The page in a real browser: Chromium logs every console message, CSP violation and
    /// uncaught error as `CONSOLE` on stderr (proven on a page made to have them), and the
    /// report has none; its screenshot is kept for a person to look at.
    @Test func reportRendersInHeadlessChromiumWithoutConsoleErrors() throws {
        guard
            let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            print("skipped: chromium is not installed (scripts/install-dependencies installs it)")
            return
        }
        let directory = try TemporaryDirectory(prefix: "l10nctl-report-browser")
        let resources = try resources(in: directory)
        let daemon = try DaemonProcess(resources: [resources])
        _ = try daemon.request(["op": "lookup", "key": "保存", "lang": "ja"])
        let page = directory.path + "/report.html"
        let result = try ProcessRunner.run(
            l10nctl, ["report", "--html", page, "--socket", daemon.socketPath, resources])
        #expect(result.status == 0, "\(result.stderr)")

        func browse(_ file: String, _ extra: [String]) throws -> ProcessOutput {
            try ProcessRunner.run(
                chromium,
                ["--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr", "--v=0"] + extra
                    + ["file://" + file],
                environment: ["PATH": "/usr/bin:/bin", "HOME": directory.path], timeout: 120)
        }
        func consoleLines(_ output: ProcessOutput) -> [Substring] {
            output.stderr.split(separator: "\n").filter { $0.contains("CONSOLE") || $0.contains("Uncaught") }
        }

        let control = try directory.write(
            #"<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"><img src="http://example.invalid/x.png"><script>console.error("control")</script>"#,
            to: "control.html")
        let controlLines = consoleLines(try browse(control, ["--dump-dom"]))
        #expect(controlLines.contains { $0.contains("\"control\"") }, "the console capture must see a page's errors")
        #expect(controlLines.contains { $0.contains("Content Security Policy") })

        let dom = try browse(page, ["--dump-dom"])
        #expect(dom.status == 0, "\(dom.stderr)")
        #expect(consoleLines(dom).isEmpty, "\(consoleLines(dom))")
        #expect(dom.stdout.contains("<h2>Plural completeness</h2>") && dom.stdout.contains("few, many"))

        // Every column inside its section's box, at a desktop's width and a phone's, with every
        // collapsed list open; a page made too wide proves the measure can fail.
        let wide = try directory.write(
            #"<!DOCTYPE html><body><section id="wide"><table style="width:3000px"><tr><th>a</th><td>far</td></tr></table></section></body>"#,
            to: "wide.html")
        let tooWide = try layout(of: wide, width: 1280, in: directory, browse: browse)
        #expect(tooWide.problems.contains { $0.hasPrefix("wide: TD ") }, "\(tooWide)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        let languages = ["Base", "ar", "de", "en", "fr", "ja", "pt-BR", "ru", "zh-Hans", "zh-Hant"].filter {
            html.contains("id=\"lang-\($0)\"")
        }
        #expect(languages.count == 8, "\(languages)")
        for width in [1280, 500] {
            let measured = try layout(of: page, width: width, in: directory, browse: browse)
            #expect(measured.problems.isEmpty, "at \(width) px: \(measured.problems)")
            // Each section was measured, and has its cells: the check cannot pass by finding nothing.
            for section in ["coverage", "plurals", "untranslated", "lint"] + languages.map({ "lang-" + $0 }) {
                #expect((measured.cells[section] ?? 0) > 0, "\(section) at \(width) px: \(measured.cells)")
            }
        }

        let screenshot = PackagePaths.root + "/.build/l10nctl-report.png"
        try? FileManager.default.removeItem(atPath: screenshot)
        let shot = try browse(page, ["--screenshot=" + screenshot, "--window-size=1280,1800", "--hide-scrollbars"])
        #expect(shot.status == 0, "\(shot.stderr)")
        #expect(consoleLines(shot).isEmpty, "\(consoleLines(shot))")
        let png = try Data(contentsOf: URL(fileURLWithPath: screenshot))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 20_000, "\(png.count) bytes")
        print("report screenshot: \(screenshot)")
    }

    /// Where the page's cells stand in Chromium at `width` px: `page` copied with a script that
    /// opens every collapsed list and measures each section's header and data cells (the
    /// report itself allows no script). A cell out of its section's box, or out of the box
    /// that scrolls it, a scrolling box out of its section, a cell whose text overflows it, or
    /// a page wider than the window is a problem, named `section: TAG right>limit text`.
    func layout(
        of page: String, width: Int, in directory: TemporaryDirectory,
        browse: (String, [String]) throws -> ProcessOutput
    ) throws -> (problems: [String], cells: [String: Int]) {
        let script = """
            <script>
            for (const d of document.querySelectorAll('details')) d.open = true;
            const out = [], view = document.documentElement.clientWidth;
            const inside = (r, box) => r.left >= box.left - 1 && r.right <= Math.min(box.right, view) + 1;
            const say = (id, c, r, box) => out.push(id + ': ' + c.tagName + ' ' + Math.round(r.right) + '>'
                + Math.round(Math.min(box.right, view)) + ' ' + c.textContent.trim().slice(0, 50).replace(/\\s+/g, ' '));
            for (const section of document.querySelectorAll('body > section, section.lang')) {
              const box = section.getBoundingClientRect();
              let cells = 0;
              for (const cell of section.querySelectorAll('th, td')) {
                if (cell.closest('section.lang') !== section && section.id === 'languages') continue;
                cells++;
                let scroller = cell.parentElement;
                while (scroller !== section && getComputedStyle(scroller).overflowX === 'visible') scroller = scroller.parentElement;
                const r = cell.getBoundingClientRect();
                if (scroller === section) { if (!inside(r, box)) say(section.id, cell, r, box); }
                else if (!inside(scroller.getBoundingClientRect(), box)) say(section.id, scroller, scroller.getBoundingClientRect(), box);
                if (cell.scrollWidth > cell.clientWidth + 1) say(section.id, cell, r, r);
              }
              out.push('cells ' + section.id + ' ' + cells);
            }
            if (document.documentElement.scrollWidth > view) out.push('page: ' + document.documentElement.scrollWidth + '>' + view);
            const pre = document.createElement('pre'); pre.id = 'layout'; pre.textContent = out.join('\\n');
            document.body.append(pre);
            </script>
            """
        let original = try String(contentsOfFile: page, encoding: .utf8)
        let measured = original.replacingOccurrences(
            of: "style-src 'unsafe-inline'", with: "style-src 'unsafe-inline'; script-src 'unsafe-inline'"
        ).replacingOccurrences(of: "</body>", with: script + "</body>")
        let copy = try directory.write(measured, to: "measured-\(width)-" + (page as NSString).lastPathComponent)
        let dom = try browse(copy, ["--dump-dom", "--window-size=\(width),1000", "--hide-scrollbars"])
        let start = try #require(dom.stdout.range(of: "<pre id=\"layout\">"), "\(dom.stdout.prefix(500))")
        let end = try #require(dom.stdout[start.upperBound...].range(of: "</pre>"))
        var problems: [String] = []
        var cells: [String: Int] = [:]
        for line in dom.stdout[start.upperBound..<end.lowerBound].split(separator: "\n") {
            let words = line.split(separator: " ")
            if words.count == 3, words[0] == "cells" {
                cells[String(words[1])] = Int(words[2])
            } else {
                problems.append(
                    line.replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&"))
            }
        }
        return (problems, cells)
    }

    /// The number on the page's summary card named `label`.
    func card(_ label: String, in html: String) -> Int? {
        guard let end = html.range(of: "</b>\(label)</div>") else { return nil }
        guard let start = html[..<end.lowerBound].range(of: "<b>", options: .backwards) else { return nil }
        return Int(html[start.upperBound..<end.lowerBound])
    }
}
