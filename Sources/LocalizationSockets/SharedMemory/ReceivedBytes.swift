/// What one ``DescriptorPassing/receive(into:from:)`` read: a byte count and the descriptor
/// that came with the bytes, owned by this value until taken.
package struct ReceivedBytes: ~Copyable {
    /// How many bytes were read into the buffer; 0 when the peer closed the connection.
    package let count: Int
    /// The descriptor sent with these bytes, if any; `received.descriptor.take()` owns it.
    package var descriptor: FileDescriptor?
    /// How many more descriptors came with the bytes (all closed already): a sender that
    /// attaches more than one breaks the protocol.
    package let extraDescriptors: Int
    /// Whether a descriptor sent with these bytes was dropped because none was free to
    /// receive it (only with `keepingLostDescriptor`).
    package var lostDescriptor = false
}
