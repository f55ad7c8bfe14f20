/// The version of the socket protocol that `hello` reports; a client refuses a daemon
/// whose major version differs from its own.
package enum WireProtocolVersion {
    /// The major version: bumped on any incompatible change to requests or replies.
    package static let major = 1
    /// The minor version: bumped when operations or fields are added.
    package static let minor = 7
}
