import Foundation
import LocalizationWire

/// How fast the daemon decodes JSON request lines (`JSONLineCodec.decodeRequest`, what each
/// JSON-lines client costs it before any lookup), in process: the lines a Python or shell
/// client sends most — a lookup, one with counts and arguments, a batch of 64 keys, a
/// status — each decoded `rounds` times; medians of `repeats`, in the thread's CPU time
/// (``threadCPUNanoseconds()``: the shared machine's load swings the wall clock). The
/// baseline is a plain read of the same bytes (a checksum), so a slower machine moves both.
func runJSONRequestBenchmark(rounds: Int = 200_000, repeats: Int = 5) {
    print("JSON request decoding: \(rounds) lines of each kind, in process")
    let keys = (0..<64).map { #""key.\#($0) 多言語化""# }.joined(separator: ",")
    let lines: [(String, [UInt8])] = [
        ("lookup", #"{"id":1,"op":"lookup","key":"設定","lang":"ja"}"#),
        (
            "lookup, counts and args",
            #"{"id":"a7","op":"lookup","key":"%d files in %@","lang":["pt-PT","pt"],"table":"Localizable","counts":[3,null],"args":[3,"Música"]}"#
        ),
        ("batch of 64 keys", #"{"id":2,"op":"batch","keys":[\#(keys)],"lang":"ja"}"#),
        ("status", #"{"op":"status"}"#),
    ].map { ($0.0, Array($0.1.utf8)) }
    for (name, line) in lines {
        guard case .success = JSONLineCodec.decodeRequest(line) else {
            print("    stopped: \(name) does not decode")
            return
        }
        var decodes: [Double] = []
        var reads: [Double] = []
        for _ in 0..<repeats {
            var decoded = 0
            let start = threadCPUNanoseconds()
            for _ in 0..<rounds {
                if case .success = JSONLineCodec.decodeRequest(line) { decoded += 1 }
            }
            decodes.append(Double(threadCPUNanoseconds() - start) / Double(rounds))
            precondition(decoded == rounds)
            var sum: UInt64 = 0
            let readStart = threadCPUNanoseconds()
            for round in 0..<rounds {
                // The round is mixed in so the reads cannot be hoisted out of the loop.
                for byte in line { sum = sum &* 31 &+ UInt64(byte) &+ UInt64(round) }
            }
            reads.append(Double(threadCPUNanoseconds() - readStart) / Double(rounds))
            if sum == 42 { print("", terminator: "") }
        }
        let decode = percentile(decodes, 0.5)
        let read = percentile(reads, 0.5)
        print(
            String(
                format: "    %@ %5d bytes  %8.1f ns/line  %6.1f MB/s  %.1f× a read of its bytes",
                name.padding(toLength: 24, withPad: " ", startingAt: 0) as NSString, line.count, decode,
                Double(line.count) / decode * 1_000, decode / read))
        BenchmarkReport.shared.record(
            BenchmarkRatio(
                figure: "JSON request decode, \(name)", value: decode, unit: "ns", baseline: "a read of its bytes",
                baselineValue: read, ratio: decode / read, aim: nil, met: nil))
    }
}
