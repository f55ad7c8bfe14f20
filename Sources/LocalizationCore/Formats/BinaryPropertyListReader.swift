/// Reads Apple's binary property list format (`bplist00`) into a ``PropertyListValue``.
///
/// The layout: an 8-byte header, the objects, a table of object offsets, and a 32-byte
/// trailer giving the sizes of offsets and object references, the object count, the top
/// object and where the offset table starts. Every number read from the file is checked
/// against the file's size before it is used, references are checked for cycles, nesting
/// is bounded and each object is decoded once (shared references cannot multiply the
/// work), so damaged input is an error and never a crash, a hang or a huge allocation.
struct BinaryPropertyListReader {
    /// The first bytes of every binary property list.
    static let magic = Array("bplist".utf8)

    /// Deeper than any localization file nests; it bounds recursion on hostile input.
    static let maximumNesting = 64

    private let bytes: [UInt8]
    private let file: String?
    private var offsetSize = 0
    private var referenceSize = 0
    private var objectCount = 0
    private var offsetTableStart = 0
    private var decoded: [Int: PropertyListValue] = [:]
    private var inProgress: Set<Int> = []

    /// Reads a whole binary property list.
    static func read(_ bytes: [UInt8], file: String?) throws(ResourceParseError) -> PropertyListValue {
        var reader = BinaryPropertyListReader(bytes: bytes, file: file)
        let top = try reader.readTrailer()
        return try reader.object(top, depth: 0)
    }

    private init(bytes: [UInt8], file: String?) {
        self.bytes = bytes
        self.file = file
    }

    private func damaged(_ detail: String) -> ResourceParseError {
        ResourceParseError(
            location: SourceLocation(file: file, line: 1, column: 1),
            message: "damaged binary property list: \(detail)")
    }

    /// Reads the trailer and checks the offset table fits; returns the top object's number.
    private mutating func readTrailer() throws(ResourceParseError) -> Int {
        guard bytes.starts(with: Array("bplist00".utf8)) else {
            throw damaged("only version 00 of the binary format is supported")
        }
        let trailerSize = 32
        guard bytes.count >= 8 + trailerSize + 1 else { throw damaged("the file is too short") }
        let trailer = bytes.count - trailerSize
        offsetSize = Int(bytes[trailer + 6])
        referenceSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw damaged("the trailer gives impossible sizes")
        }
        let count = unsignedInteger(at: trailer + 8, size: 8)
        let top = unsignedInteger(at: trailer + 16, size: 8)
        let tableStart = unsignedInteger(at: trailer + 24, size: 8)
        guard count >= 1, count <= UInt64(bytes.count), top < count, tableStart >= 9,
            tableStart <= UInt64(trailer),
            count * UInt64(offsetSize) <= UInt64(trailer) - tableStart
        else {
            throw damaged("the trailer does not match the file's size")
        }
        objectCount = Int(count)
        offsetTableStart = Int(tableStart)
        return Int(top)
    }

    /// A big-endian unsigned integer; the caller has checked the bytes are there.
    private func unsignedInteger(at offset: Int, size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in offset..<(offset + size) {
            value = value << 8 | UInt64(bytes[index])
        }
        return value
    }

    /// Where object `number` starts, checked to lie among the objects.
    private func objectOffset(_ number: Int) throws(ResourceParseError) -> Int {
        guard number >= 0, number < objectCount else { throw damaged("a reference points past the last object") }
        let offset = unsignedInteger(at: offsetTableStart + number * offsetSize, size: offsetSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else {
            throw damaged("object \(number) lies outside the object area")
        }
        return Int(offset)
    }

    private mutating func object(_ number: Int, depth: Int) throws(ResourceParseError) -> PropertyListValue {
        if let known = decoded[number] { return known }
        guard depth < Self.maximumNesting else { throw damaged("objects are nested too deeply") }
        guard inProgress.insert(number).inserted else { throw damaged("object \(number) contains itself") }
        defer { inProgress.remove(number) }
        let value = try decode(at: try objectOffset(number), depth: depth)
        decoded[number] = value
        return value
    }

    private mutating func decode(at offset: Int, depth: Int) throws(ResourceParseError) -> PropertyListValue {
        let marker = bytes[offset]
        let info = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            return .other(kind: marker == 0x08 || marker == 0x09 ? "a boolean" : "a null")
        case 0x1, 0x2:
            return .other(kind: "a number")
        case 0x3:
            return .other(kind: "a date")
        case 0x4:
            _ = try payload(at: offset, info: info, unitSize: 1)
            return .other(kind: "data")
        case 0x5, 0x7:
            let range = try payload(at: offset, info: info, unitSize: 1)
            return .string(String(decoding: bytes[range], as: UTF8.self))
        case 0x6:
            let range = try payload(at: offset, info: info, unitSize: 2)
            let units = stride(from: range.lowerBound, to: range.upperBound, by: 2).map {
                UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
            }
            return .string(String(decoding: units, as: UTF16.self))
        case 0x8:
            return .other(kind: "a UID")
        case 0xA:
            let range = try payload(at: offset, info: info, unitSize: referenceSize)
            var elements: [PropertyListValue] = []
            for start in stride(from: range.lowerBound, to: range.upperBound, by: referenceSize) {
                elements.append(try object(reference(at: start), depth: depth + 1))
            }
            return .array(elements)
        case 0xC:
            return .other(kind: "a set")
        case 0xD:
            let range = try payload(at: offset, info: info, unitSize: 2 * referenceSize)
            let count = range.count / (2 * referenceSize)
            var dictionary: [String: PropertyListValue] = [:]
            for index in 0..<count {
                let keyStart = range.lowerBound + index * referenceSize
                guard case .string(let key) = try object(reference(at: keyStart), depth: depth + 1) else {
                    throw damaged("a dictionary key is not a string")
                }
                let valueStart = keyStart + count * referenceSize
                dictionary[key] = try object(reference(at: valueStart), depth: depth + 1)
            }
            return .dictionary(dictionary)
        default:
            throw damaged("unknown object type 0x\(String(marker, radix: 16)) at byte \(offset)")
        }
    }

    private func reference(at offset: Int) -> Int {
        Int(truncatingIfNeeded: unsignedInteger(at: offset, size: referenceSize))
    }

    /// The bytes of a counted object: the count is in the marker's low nibble, or for 15
    /// and more in an integer object that follows it. Checked to end before the offset table.
    private func payload(at offset: Int, info: Int, unitSize: Int) throws(ResourceParseError) -> Range<Int> {
        var start = offset + 1
        var count = info
        if info == 0x0F {
            guard start < offsetTableStart, bytes[start] >> 4 == 0x1 else {
                throw damaged("a length at byte \(offset) is missing")
            }
            let size = 1 << Int(bytes[start] & 0x0F)
            guard size <= 8, start + 1 + size <= offsetTableStart else {
                throw damaged("a length at byte \(offset) is damaged")
            }
            let length = unsignedInteger(at: start + 1, size: size)
            guard length <= UInt64(bytes.count) else { throw damaged("a length at byte \(offset) is too large") }
            count = Int(length)
            start += 1 + size
        }
        guard count <= (offsetTableStart - start) / unitSize else {
            throw damaged("an object at byte \(offset) runs past the object area")
        }
        return start..<(start + count * unitSize)
    }
}
