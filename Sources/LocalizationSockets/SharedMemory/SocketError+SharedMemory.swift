extension SocketError.Code {
    /// A received descriptor is not a memory file sealed against writes, resizing and new
    /// seals, or not of the announced size: mapping it could show bytes someone still changes.
    package static let unsealedMemory = SocketError.Code(rawValue: "unsealed_memory")
    /// The kernel dropped descriptors that did not fit the control buffer (`MSG_CTRUNC`): a
    /// message lost what was attached to it, so the connection cannot be trusted further.
    package static let truncatedControl = SocketError.Code(rawValue: "truncated_control")
}
