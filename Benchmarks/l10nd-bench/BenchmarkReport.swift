import Foundation

/// One figure of a run next to its baseline: what `--json` writes and the chart draws.
struct BenchmarkRatio: Codable {
    /// What was measured, e.g. `cached lookup vs [String: String]`.
    var figure: String
    /// The measured value, in `unit`.
    var value: Double
    var unit: String
    /// The baseline measured in the same run, in the same unit.
    var baseline: String
    var baselineValue: Double
    /// How the figure compares, stated as the row says (`×` of the baseline).
    var ratio: Double
    /// The aim, in words (`≤ 3×`), and whether this run met it; nil when there is none.
    var aim: String?
    var met: Bool?
}

/// The ratios of one run, collected as the benchmarks print them.
final class BenchmarkReport: @unchecked Sendable {
    static let shared = BenchmarkReport()
    // @unchecked: every access goes through `lock`.
    private let lock = NSLock()
    private var ratios: [BenchmarkRatio] = []

    func record(_ ratio: BenchmarkRatio) {
        lock.withLock { ratios.append(ratio) }
    }

    var all: [BenchmarkRatio] { lock.withLock { ratios } }

    /// The run as JSON: when and where it ran, and every ratio.
    func writeJSON(to path: String) throws {
        struct Run: Codable {
            var date: String
            var machine: String
            var ratios: [BenchmarkRatio]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let run = Run(date: ISO8601DateFormatter().string(from: Date()), machine: Self.machine, ratios: all)
        try encoder.encode(run).write(to: URL(fileURLWithPath: path))
    }

    /// A bar chart of the ratios on a log scale, 1× marked; green where the aim was met,
    /// red where it was missed, grey where there is none.
    func writeSVG(to path: String) throws {
        let rows = all
        let labelWidth = 330.0
        let barWidth = 380.0
        let rowHeight = 26.0
        let height = 70 + rowHeight * Double(rows.count)
        let lowest = log10(max(rows.map(\.ratio).min() ?? 0.1, 0.01) / 2)
        let highest = log10(max(rows.map(\.ratio).max() ?? 10, 2) * 2)
        func x(_ ratio: Double) -> Double {
            labelWidth + (log10(max(ratio, 0.001)) - lowest) / (highest - lowest) * barWidth
        }
        var svg = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(labelWidth + barWidth + 120))" height="\(Int(height))" \
            font-family="sans-serif" font-size="12">
            <text x="10" y="20" font-size="14" font-weight="bold">l10nd-bench: each figure ÷ its baseline in the same run (log scale)</text>
            <text x="10" y="38" fill="#555">\(Self.escape(Self.machine)), \(ISO8601DateFormatter().string(from: Date()))</text>
            <line x1="\(x(1))" y1="48" x2="\(x(1))" y2="\(Int(height - 10))" stroke="#333" stroke-dasharray="4 3"/>
            <text x="\(x(1) + 3)" y="58" fill="#333">1×</text>

            """
        for (index, row) in rows.enumerated() {
            let y = 66 + rowHeight * Double(index)
            let color = row.met.map { $0 ? "#3a9d5d" : "#d0463c" } ?? "#9a9a9a"
            let start = min(x(1), x(row.ratio))
            let width = max(abs(x(row.ratio) - x(1)), 1)
            let aim = row.aim.map { " (aim \($0))" } ?? ""
            svg += """
                <text x="10" y="\(y + 14)">\(Self.escape(row.figure))</text>
                <rect x="\(start)" y="\(y + 3)" width="\(width)" height="\(rowHeight - 8)" fill="\(color)"/>
                <text x="\(max(x(row.ratio), x(1)) + 4)" y="\(y + 14)">\(String(format: "%.2f×", row.ratio))\(Self.escape(aim))</text>

                """
        }
        svg += "</svg>\n"
        try svg.write(toFile: path, atomically: true, encoding: .utf8)
    }

    static var machine: String {
        let cpu =
            (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("model name") }?
            .split(separator: ":").last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
        return "\(ProcessInfo.processInfo.activeProcessorCount) cores, \(cpu)"
    }

    private static func escape(_ text: String) -> String {
        text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    }
}
