/// What every fuzz target shares: the input as bytes, and a check that turns a broken
/// promise into a crash libFuzzer records (a thrown error is an answer, not a finding).
enum FuzzInput {
    /// The input libFuzzer passes, copied into the `[UInt8]` the readers take.
    static func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
        Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Stops the process when `condition` is false, so the input is saved as a finding.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError("fuzz invariant broken: \(message())") }
    }
}
