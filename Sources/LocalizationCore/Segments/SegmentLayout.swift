/// Where each field of a compiled segment lies (docs/FORMAT.md, version 3): the numbers the
/// page gives, in one place for the builder and the reader. Every integer is little-endian.
package enum SegmentLayout {
    /// The first eight bytes: `L10NDSEG` in ASCII.
    package static let magic: [UInt8] = Array("L10NDSEG".utf8)
    /// The format's major version: a reader refuses any other.
    package static let majorVersion: UInt16 = 3
    /// The format's minor version: additions a 3.0 reader may ignore.
    package static let minorVersion: UInt16 = 0
    /// The header's length in 3.0, and where the body starts.
    package static let headerLength = 96

    /// Header field offsets.
    package enum Header {
        package static let magic = 0
        package static let majorVersion = 8
        package static let minorVersion = 10
        package static let headerLength = 12
        package static let totalLength = 16
        package static let headerChecksum = 24
        package static let bodyChecksum = 28
        package static let keyCount = 32
        package static let slotCount = 36
        /// The strings section: `UInt64` offset, `UInt64` length.
        package static let strings = 40
        package static let slotsOffset = 56
        package static let entriesOffset = 64
        /// The segment's language identifier and table name (string references).
        package static let language = 72
        package static let table = 80
        /// Reserved, zero in 3.0.
        package static let reserved = 88
    }

    /// A string reference: `UInt32` offset into the strings section, `UInt32` byte length.
    package static let stringReferenceSize = 8
    /// The reference of an absent optional string (a plural variable's missing form).
    package static let absentString: UInt32 = 0xFFFF_FFFF
    /// A slot of the key index: the hash's high 32 bits, the entry number plus one (0:
    /// empty), then the string reference of the key's canonical composition (NFC).
    package static let slotSize = 16
    /// An entry: key (8), value (8), plural block offset (4; 0 when none), flags (4).
    package static let entrySize = 24
    /// Entry flag: a String Catalog's key-made source entry (``TableEntry/isSourceKeyStandIn``):
    /// the key is in the table, but a lookup passes over it.
    package static let sourceKeyStandIn: UInt32 = 1
    /// A plural block's fixed part: variable count (4), reserved (4), format (8).
    package static let pluralHeaderSize = 16
    /// A plural variable: name (8), value type (8), argument number (4), reserved (4), six forms (48).
    package static let pluralVariableSize = 72
    /// The argument number of a variable that takes its format's position (a signed 32-bit field).
    package static let noArgumentNumber = Int32.min
    /// The plural categories in the order a variable's forms are stored.
    package static let pluralCategories: [PluralCategory] = [.zero, .one, .two, .few, .many, .other]
    /// Every section and block starts at a multiple of this.
    package static let alignment = 8

    /// `value` rounded up to a multiple of ``alignment``.
    static func aligned(_ value: Int) -> Int {
        (value + alignment - 1) & ~(alignment - 1)
    }

    /// The slots of a key index for `keys` keys: a power of two at least twice the keys
    /// (at least 2), so a probe rarely passes more than one or two taken slots.
    static func slotCount(forKeys keys: Int) -> Int {
        var count = 2
        while count < 2 * keys { count *= 2 }
        return count
    }
}
