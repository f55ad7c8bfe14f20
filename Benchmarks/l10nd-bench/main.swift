// l10nd-bench: every figure next to a baseline measured in the same run.
//
//   swift run -c release l10nd-bench [CORPUS_DIR] [--languages N] [--keys M] [--skip-parse]
//                                    [--only parse|client|pipeline|requests|reload|start|scale|metrics|mapped|segments|json]
//                                    [--json FILE] [--svg FILE]
import Foundation

let arguments = CommandLine.arguments.dropFirst()
// The benchmark's own client processes (the mapped part starts them).
if arguments.first == "--client-process" { runClientProcess(Array(arguments.dropFirst())) }
if arguments.first == "--poll-process" { runPollProcess(Array(arguments.dropFirst())) }
let valueOptions = ["--languages", "--keys", "--json", "--svg", "--only"]
let parts = [
    "parse", "client", "pipeline", "requests", "reload", "start", "scale", "metrics", "mapped", "segments", "json",
    "embedded",
]
let usage = """
    usage: l10nd-bench [CORPUS_DIR] [--languages N] [--keys M] [--skip-parse]
                       [--only \(parts.joined(separator: "|"))]
                       [--json FILE] [--svg FILE]
    Runs every part (minutes of both cores) unless --only names one; each figure is printed
    next to a baseline measured in the same run (docs/BENCHMARKS.md).
    """
// Outside testers: `--help` ran the whole benchmark. Help, an unknown option or part is
// answered at once, before anything runs.
if arguments.contains("--help") || arguments.contains("-h") {
    print(usage)
    exit(0)
}
if let unknown = arguments.first(where: { $0.hasPrefix("-") && !valueOptions.contains($0) && $0 != "--skip-parse" }) {
    FileHandle.standardError.write(Data("l10nd-bench: unknown option '\(unknown)'\n\(usage)\n".utf8))
    exit(2)
}
if let index = arguments.firstIndex(of: "--only"), arguments.index(after: index) < arguments.endIndex,
    !parts.contains(arguments[arguments.index(after: index)])
{
    FileHandle.standardError.write(
        Data("l10nd-bench: unknown part '\(arguments[arguments.index(after: index)])'\n\(usage)\n".utf8))
    exit(2)
}

/// The value after `name`, if given.
func value(of name: String) -> String? {
    guard let index = arguments.firstIndex(of: name), arguments.index(after: index) < arguments.endIndex else {
        return nil
    }
    return arguments[arguments.index(after: index)]
}

let optionValues = Set(valueOptions.compactMap { arguments.firstIndex(of: $0) }.map { arguments.index(after: $0) })
let corpusRoot =
    arguments.indices.first { !arguments[$0].hasPrefix("--") && !optionValues.contains($0) }
    .map { arguments[$0] } ?? defaultCorpusRoot()
let only = value(of: "--only")
/// Whether the part `name` runs: every part unless `--only` names one.
func runs(_ name: String) -> Bool { only == nil || only == name }
if runs("parse"), !arguments.contains("--skip-parse") { _ = runParseBenchmark(corpusRoot: corpusRoot) }
if runs("client") { runClientBenchmark() }
if runs("embedded") { runEmbeddedLookupBenchmark(corpusRoot: corpusRoot) }
if runs("pipeline") { runPipelineBenchmark() }
if runs("requests") { runRequestPathBenchmark() }
if runs("json") { runJSONRequestBenchmark() }
if runs("reload") { runReloadLatencyBenchmark() }
if runs("metrics") { runMetricsCostBenchmark() }
if runs("start") {
    runDaemonStartBenchmark(
        languages: value(of: "--languages").flatMap { Int($0) } ?? 100,
        keys: value(of: "--keys").flatMap { Int($0) } ?? 10_000)
}
if runs("scale") { runScaleBenchmark() }
if runs("mapped") {
    runMappedClientBenchmark(
        languages: value(of: "--languages").flatMap { Int($0) } ?? 10,
        keys: value(of: "--keys").flatMap { Int($0) } ?? 100_000)
}
if runs("segments") {
    runSegmentBuildBenchmark(
        corpusRoot: corpusRoot, languages: value(of: "--languages").flatMap { Int($0) } ?? 4,
        keys: value(of: "--keys").flatMap { Int($0) } ?? 100_000)
}
if let json = value(of: "--json") {
    do { try BenchmarkReport.shared.writeJSON(to: json) } catch { print("cannot write \(json): \(error)") }
}
if let svg = value(of: "--svg") {
    do { try BenchmarkReport.shared.writeSVG(to: svg) } catch { print("cannot write \(svg): \(error)") }
}
