/// CRC-32C (Castagnoli): the checksum of a compiled segment's header and body
/// (docs/FORMAT.md). Reflected polynomial `0x82F63B78`, initial value and final XOR
/// `0xFFFFFFFF`; `CRC32C.checksum("123456789")` is `0xE3069283`.
///
/// Computed eight bytes at a time with eight 256-entry tables ("slicing-by-8"), about
/// eight times the speed of the byte-at-a-time loop a C or Python reader may use instead.
package enum CRC32C {
    /// The eight lookup tables, `tables[k][b]` the CRC of byte `b` followed by `k` zero bytes.
    private static let tables: [[UInt32]] = {
        var first = [UInt32](repeating: 0, count: 256)
        for byte in 0..<256 {
            var crc = UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
            first[byte] = crc
        }
        var tables = [first]
        for _ in 1..<8 {
            let previous = tables[tables.count - 1]
            tables.append((0..<256).map { (previous[$0] >> 8) ^ first[Int(previous[$0] & 0xFF)] })
        }
        return tables
    }()

    /// The CRC-32C of `bytes`.
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        ~update(0xFFFF_FFFF, bytes)
    }

    /// The CRC-32C of `text`'s UTF-8 bytes.
    package static func checksum(_ text: String) -> UInt32 {
        Array(text.utf8).withUnsafeBytes { checksum($0) }
    }

    /// `crc` (not yet inverted) carried over `bytes`: whoever checksums a buffer in pieces
    /// starts from `0xFFFF_FFFF` and inverts the end result.
    package static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc = crc
        let count = bytes.count
        var index = 0
        tables.withUnsafeBufferPointer { tables in
            let t0 = tables[0]
            let t1 = tables[1]
            let t2 = tables[2]
            let t3 = tables[3]
            let t4 = tables[4]
            let t5 = tables[5]
            let t6 = tables[6]
            let t7 = tables[7]
            while index + 8 <= count {
                let low = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt32.self)) ^ crc
                let high = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: index + 4, as: UInt32.self))
                crc =
                    t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)] ^ t5[Int((low >> 16) & 0xFF)]
                    ^ t4[Int(low >> 24)] ^ t3[Int(high & 0xFF)] ^ t2[Int((high >> 8) & 0xFF)]
                    ^ t1[Int((high >> 16) & 0xFF)] ^ t0[Int(high >> 24)]
                index += 8
            }
            while index < count {
                crc = (crc >> 8) ^ t0[Int((crc ^ UInt32(bytes[index])) & 0xFF)]
                index += 1
            }
        }
        return crc
    }
}
