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
    /// The descriptors after the first, in order, when the receive kept them all
    /// (`keepingAll`); closed with this value unless taken (``takeOthers()``).
    private var others: [Int32] = []

    /// The bytes' count and descriptors.
    package init(
        count: Int, descriptor: consuming FileDescriptor?, extraDescriptors: Int, lostDescriptor: Bool = false,
        others: [Int32] = []
    ) {
        self.count = count
        self.descriptor = descriptor
        self.extraDescriptors = extraDescriptors
        self.lostDescriptor = lostDescriptor
        self.others = others
    }

    /// The descriptors after the first, now owned by the caller, who closes them.
    package mutating func takeOthers() -> [Int32] {
        defer { others = [] }
        return others
    }

    deinit { others.forEach { FileDescriptor(adopting: $0).close() } }
}
