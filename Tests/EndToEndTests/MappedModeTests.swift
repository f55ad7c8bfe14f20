import CSharedMemory
import Foundation
import Glibc
import LocalizationCore
import LocalizationSockets
import LocalizationWire
import Synchronization
import TestSupport
import Testing

@testable import Localization

/// Mapped mode against a real `l10nd`: the daemon's segments, received as sealed slabs,
/// answer as the daemon does; an edit maps the new generation and unmaps the slabs no
/// generation kept names; a descriptor that is not sealed for good is refused.
@Suite struct MappedModeTests {
    /// A localizer on `daemon` in `mode`.
    static func localizer(_ daemon: DaemonProcess, _ mode: LookupMode, timeout: Double = 10) -> Localizer {
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: daemon.socketPath, mode: mode, timeout: timeout)
        return localizer
    }

    /// Every (language, table, key) of `resources`, with whether the key has plural forms there.
    static func questions(_ resources: ResourceSet) -> [(language: String, table: String, key: String, plural: Bool)] {
        let catalog = resources.catalog
        var keysByTable: [String: Set<String>] = [:]
        for language in catalog.languages {
            for table in catalog.tableNames(of: language) {
                keysByTable[table, default: []].formUnion(
                    catalog.resolvedTable(table, chain: catalog.chain([language])).keys)
            }
        }
        var questions: [(String, String, String, Bool)] = []
        for language in catalog.languages {
            for (table, keys) in keysByTable.sorted(by: { $0.key < $1.key }) {
                let resolved = catalog.resolvedTable(table, chain: catalog.chain([language]))
                for key in keys.sorted() {
                    questions.append((language.identifier, table, key, resolved[key]?.entry?.plural != nil))
                }
            }
        }
        return questions
    }

    /// The mapped generation of `localizer`'s daemon link, if any.
    static func mappedGeneration(_ localizer: Localizer) -> UInt64? {
        localizer.daemon?.mapped.current?.generation
    }

    /// Compares mapped lookups of every key of `roots` with `other` mode's, plural forms
    /// included for up to `pluralLimit` plural keys; returns the differences.
    static func differences(roots: [String], against other: LookupMode, pluralLimit: Int) throws -> [String] {
        let daemon = try DaemonProcess(resources: roots)
        let mapped = localizer(daemon, .mapped)
        let reference = localizer(daemon, other)
        let questions = Self.questions(ResourceSet.load(roots: roots))
        #expect(!questions.isEmpty)
        // Every answer below from the mapped segments: mapped first (a `map` round trip).
        #expect(
            ClientDaemonTests.wait(seconds: 120) {
                _ = mapped.lookup("", languages: [questions.first?.language ?? "en"])
                return mappedGeneration(mapped) != nil
            }, "never mapped")
        var found: [String] = []
        var plurals = 0
        for (language, table, key, plural) in questions {
            let (answer, source) = mapped.lookupWithSource(key, languages: [language], table: table, plural: .none)
            let expected = reference.lookup(key, languages: [language], table: table)
            if source != .daemon || answer.value != expected.value || answer.found != expected.found
                || answer.language != expected.language
            {
                found.append("\(language) \(table) \(key): \(answer) ≠ \(expected)")
            }
            guard plural, plurals < pluralLimit else { continue }
            plurals += 1
            for count in [0, 1, 2, 5, 21] {
                let selected = mapped.lookup(key, languages: [language], table: table, count: count)
                let expected = reference.lookup(key, languages: [language], table: table, count: count)
                if selected.value != expected.value { found.append("\(language) \(table) \(key) count \(count)") }
            }
        }
        #expect(mappedGeneration(mapped) != nil, "the lookups were not answered from mapped tables")
        return found
    }

    @Test(arguments: [LookupMode.direct])
    func mappedAnswersEqualTheDaemonsOnTheExamples(other: LookupMode) throws {
        let found = try Self.differences(roots: [PackagePaths.exampleResources], against: other, pluralLimit: .max)
        #expect(found.isEmpty, "\(found.prefix(10))")
    }

    @Test(.enabled(if: PackagePaths.corpus != nil, "the corpus ../shared/corpus/iina is absent"))
    func mappedAnswersEqualDirectOnTheCorpus() throws {
        let found = try Self.differences(roots: [try #require(PackagePaths.corpus)], against: .direct, pluralLimit: 200)
        #expect(found.isEmpty, "\(found.prefix(10))")
    }

    @Test func mappedIsTheDefaultWithADaemon() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Localizer(environment: ["L10N_SOCKET": daemon.socketPath], log: { _ in })
        #expect(localizer.mode == .mapped)
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "v")
        // Mapped one round trip after the connection is up.
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                localizer.value("k", languages: .one("en"), table: nil) == "v" && Self.mappedGeneration(localizer) == 1
            })
        #expect(localizer.value("k", languages: .one("en"), table: nil) == "v")
        let explicit = Localizer(environment: [:], log: { _ in })
        explicit.useDaemon(socketPath: daemon.socketPath)
        #expect(explicit.mode == .mapped)
    }

    @Test func aMapReplyCarriesAReadOnlyDescriptorWithEverySeal() throws {
        let resources = try TemporaryDirectory()
        try resources.write("\"k\" = \"v\";\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let connection = try UnixStreamSocket(path: daemon.socketPath, timeout: 10)
        let socket = connection.descriptor
        let request = Array("{\"op\":\"map\",\"id\":1}\n".utf8)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        var reply: [UInt8] = []
        var numbers: [Int32] = []
        defer { numbers.forEach { _ = close($0) } }
        // Answered at once: the segments were built at load.
        #expect(request.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) } == request.count)
        while reply.last != UInt8(ascii: "\n") {
            var read = try DescriptorPassing.receive(into: buffer, from: socket, keepingAll: true)
            guard read.count > 0 else { break }
            if let descriptor = read.descriptor.take() { numbers += [descriptor.take()] + read.takeOthers() }
            reply += buffer[..<read.count]
        }
        try #require(numbers.count == 1, "\(String(decoding: reply, as: UTF8.self))")
        let received = numbers[0]
        #expect(fcntl(received, F_GETFL) & O_ACCMODE == O_RDONLY, "the client could try to write the tables")
        #expect(l10nd_get_seals(received) == l10nd_immutable_seals)
        #expect(pwrite(received, "x", 1, 0) == -1 && Glibc.errno == EBADF)
        var status = stat()
        try #require(fstat(received, &status) == 0 && status.st_size > 0)
        let writable = mmap(nil, Int(status.st_size), PROT_READ | PROT_WRITE, MAP_SHARED, received, 0)
        #expect(writable == MAP_FAILED && Glibc.errno == EACCES)
    }

    @Test func aThreadsNextLookupOfAnyKindLetsGoOfTheGenerationItRead() throws {
        let resources = try TemporaryDirectory()
        let japanese = try resources.write("\"k\" = \"v1\";\n", to: "ja.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Self.localizer(daemon, .mapped)
        func edit(_ value: String, generation: UInt64) throws {
            try "\"k\" = \"\(value)\";\n".write(toFile: japanese, atomically: true, encoding: .utf8)
            // Mapped in the background after the event (lookups start it if it had not begun).
            #expect(
                ClientDaemonTests.wait(seconds: 10) {
                    _ = localizer.lookup("other", languages: ["ja"])
                    return Self.mappedGeneration(localizer) == generation
                }, "generation \(generation) was never mapped")
        }
        // Each on a thread of its own, whose cache holds the generation its `localized` read.
        let reader = ParkedThread()
        let parked = ParkedThread()
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                _ = localizer.lookup("other", languages: ["ja"])
                return Self.mappedGeneration(localizer) == 1
            }, "generation 1 was never mapped")
        reader.run { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "v1") }
        parked.run { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "v1") }
        let first = Self.mappedFiles(of: daemon)
        #expect(first.count == 1, "\(Self.memoryFileLines())")

        try edit("v2", generation: 2)
        // Not a `localized`: a `lookup` (as `String(localized:)` with numbers makes) lets go too.
        reader.run { #expect(localizer.lookup("k", languages: ["ja"], count: 2).value == "v2") }
        try edit("v3", generation: 3)
        reader.run { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "v3") }
        // The parked thread never looks up again: it keeps generation 1's slab, and only that
        // (generation 2's, which nothing holds, is gone).
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                let slabs = Self.mappedFiles(of: daemon)
                return slabs.count == 2 && slabs.contains(first[0])
            }, "\(Self.mappedFiles(of: daemon))")
        parked.run { _ = localizer.lookup("k", languages: ["ja"]) }
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                let slabs = Self.mappedFiles(of: daemon)
                return slabs.count == 1 && !slabs.contains(first[0])
            }, "\(Self.mappedFiles(of: daemon))")
        reader.end()
        parked.end()
    }

    /// The slabs of `daemon` this process maps (memory files `l10nd-slab-PID-SERIAL`), by serial.
    static func mappedFiles(of daemon: DaemonProcess) -> [String] {
        let maps = Self.memoryMap()
        let name = "/memfd:l10nd-slab-\(daemon.process.processIdentifier)-"
        return maps.split(separator: "\n").filter { $0.contains(name) }.map {
            String($0[$0.range(of: name)!.upperBound...].prefix { $0 != " " })
        }
    }

    /// The lines of this process's memory map (address range first) that map `daemon`'s slab `serial`.
    static func mappingLines(of daemon: DaemonProcess, serial: String) -> [Substring] {
        let name = "/memfd:l10nd-slab-\(daemon.process.processIdentifier)-\(serial) "
        return Self.memoryMap().split(separator: "\n").filter { ($0 + " ").contains(name) }
    }

    /// The lines of this process's memory map naming any memory file, for a failure's message.
    static func memoryFileLines() -> [Substring] {
        Self.memoryMap().split(separator: "\n").filter { $0.contains("/memfd:") }
    }

    /// `/proc/self/maps`, read to its end (`String(contentsOfFile:)` stops after one page of it).
    static func memoryMap() -> String {
        let data = FileHandle(forReadingAtPath: "/proc/self/maps")?.readDataToEndOfFile() ?? Data()
        return String(decoding: data, as: UTF8.self)
    }

    @Test func anEditMapsTheNewGenerationAndUnmapsTheOld() throws {
        let resources = try TemporaryDirectory()
        let japanese = try resources.write("\"k\" = \"old\";\n", to: "ja.lproj/Localizable.strings")
        try resources.write("\"k\" = \"english\";\n", to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let localizer = Self.localizer(daemon, .mapped)
        let changed = Mutex<String?>(nil)
        let observation = localizer.onChange { _ in
            changed.withLock { $0 = localizer.lookup("k", languages: ["ja"]).value }
        }
        defer { observation.cancel() }
        #expect(localizer.lookup("k", languages: ["ja"]).value == "old")
        // Mapped one round trip after the connection is up.
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                localizer.lookup("k", languages: ["ja"]).value == "old" && Self.mappedGeneration(localizer) == 1
            })
        // The hot path too: its thread cache holds the generation until the next lookup, and
        // from the second lookup on the value it made (MappedValueCache).
        for _ in 0..<3 { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "old") }
        let first = Self.mappedFiles(of: daemon)
        #expect(first.count == 1, "\(Self.memoryFileLines())")
        let firstMapping = Self.mappingLines(of: daemon, serial: first.first ?? "")

        try "\"k\" = \"new\";\n".write(toFile: japanese, atomically: true, encoding: .utf8)
        #expect(ClientDaemonTests.wait(seconds: 10) { changed.withLock { $0 } != nil }, "no change callback")
        #expect(changed.withLock { $0 } == "new", "the callback read the old generation")
        // The same record number in the new generation: the values of the old one are gone.
        for _ in 0..<3 { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "new") }
        // Mapped in the background after the event (lookups meanwhile go the cached way).
        #expect(
            ClientDaemonTests.wait(seconds: 10) {
                _ = localizer.lookup("k", languages: ["ja"])
                return (Self.mappedGeneration(localizer) ?? 0) >= 2
            })
        #expect(localizer.lookup("k", languages: ["ja"]).value == "new")
        for _ in 0..<3 { #expect(localizer.value("k", languages: .one("ja"), table: nil) == "new") }
        // Generation 2 shares the `en` segment's slab with generation 1 and adds the new `ja`
        // segment's: two slabs, the first kept as it is (no copy of the unchanged segment).
        #expect(
            ClientDaemonTests.wait(seconds: 5) {
                let slabs = Self.mappedFiles(of: daemon)
                return slabs.count == 2 && slabs.contains(first[0])
            }, "\(Self.mappedFiles(of: daemon))")
        // And mapped once, where it was: the new generation uses the mapping the old one made,
        // whose pages stay faulted in, instead of mapping the unchanged slab again.
        #expect(
            Self.mappingLines(of: daemon, serial: first[0]) == firstMapping,
            "\(firstMapping) → \(Self.memoryFileLines())")
    }

    @Test func pipelinedMapRepliesEachCarryTheirOwnDescriptor() throws {
        let resources = try TemporaryDirectory()
        // A table reply of megabytes, more than the socket holds.
        let big = (0..<20_000).map { "\"key\($0)\" = \"\(String(repeating: "v", count: 100))\";\n" }.joined()
        try resources.write(big, to: "en.lproj/Localizable.strings")
        let daemon = try DaemonProcess(resources: [resources.path])
        let connection = try UnixStreamSocket(path: daemon.socketPath, timeout: 60)
        let socket = connection.descriptor
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 8)
        defer { buffer.deallocate() }
        // Unread, the table reply fills the socket; both map replies then wait behind it in the
        // daemon's output and go out from one buffer: each must still bring its own descriptor.
        let requests = Array(
            ("{\"op\":\"table\",\"lang\":\"en\",\"id\":0}\n{\"op\":\"map\",\"id\":1}\n"
                + "{\"op\":\"map\",\"id\":2}\n{\"op\":\"hello\",\"id\":3}\n").utf8)
        #expect(requests.withUnsafeBytes { write(socket, $0.baseAddress, $0.count) } == requests.count)
        usleep(500_000)
        var received: [UInt8] = []
        // For each descriptor: how many map replies were complete before the read that brought it.
        var mapRepliesBefore: [Int] = []
        var mappings: [SealedMemoryMapping] = []
        func completeMapReplies() -> Int {
            String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().filter { $0.contains("\"slabs\":") }.count
        }
        var lineCount = 0
        while lineCount < 4 {
            var read = try DescriptorPassing.receive(into: buffer, from: socket, keepingAll: true)
            #expect(read.count > 0)
            if read.count == 0 { break }
            if let descriptor = read.descriptor.take() {
                mapRepliesBefore.append(completeMapReplies())
                #expect(read.takeOthers().isEmpty, "one slab was sent")
                mappings.append(try SealedMemoryMapping(verifying: descriptor, size: Self.fileSize(descriptor)))
            }
            received += buffer[..<read.count]
            lineCount += buffer[..<read.count].filter { $0 == UInt8(ascii: "\n") }.count
        }
        #expect(mapRepliesBefore == [0, 1], "descriptors and replies out of step: \(mapRepliesBefore)")
        let lines = String(decoding: received, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 4 && lines[1].contains("\"id\":1") && lines[2].contains("\"id\":2"))
        #expect(mappings.count == 2 && zip(mappings, lines[1...2]).allSatisfy { $1.contains("\"slabs\":[\($0.size)]") })
    }

    /// The size of the file `descriptor` opens.
    static func fileSize(_ descriptor: borrowing FileDescriptor) -> Int {
        var status = stat()
        return fstat(descriptor.rawValue, &status) == 0 ? Int(status.st_size) : -1
    }

    @Test func anUnsealedDescriptorIsRefusedAndLookupsAskTheDaemon() throws {
        let impostor = try ImpostorDaemon()
        let localizer = Localizer(environment: [:], log: { _ in })
        localizer.useDaemon(socketPath: impostor.socketPath, mode: .mapped, timeout: 5)
        let daemon = try #require(localizer.daemon)
        #expect(daemon.mapsTables)
        // Asked when the connection came up: a lookup's round trip after it follows its reply.
        #expect(localizer.lookup("k", languages: ["en"]).value == "from lookup")
        #expect(daemon.mapped.current == nil, "an unsealed memory file was mapped")
        #expect(impostor.mapRequests.load(ordering: .relaxed) == 1)
        // Refused once, not asked again on every lookup: the daemon answers each instead.
        #expect(localizer.lookup("k", languages: ["en"]).value == "from lookup")
        #expect(impostor.mapRequests.load(ordering: .relaxed) == 1)
        #expect(Self.mappedGeneration(localizer) == nil)
    }
}

/// A daemon that speaks protocol 1.6 and answers `map` with a memory file sealed against
/// resizing but not writing, as a rogue process on the socket path could; `table` answers
/// one key.
final class ImpostorDaemon: @unchecked Sendable {
    let directory: TemporarySocketDirectory
    let mapRequests = Atomic<Int>(0)
    private let listener: Int32

    var socketPath: String { directory.socketPath }

    init() throws {
        directory = try TemporarySocketDirectory()
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(directory.socketPath.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, listen(listener, 4) == 0 else {
            throw SocketError(code: .init(rawValue: "bind"), message: "")
        }
        let thread = Thread { [self] in acceptAndServe() }
        thread.start()
    }

    deinit { Glibc.close(listener) }

    private func acceptAndServe() {
        while true {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { Glibc.close(client) }
        var framer = MessageFramer(maxMessageBytes: 1 << 20)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(client, $0.baseAddress, $0.count) }
            guard count > 0 else { return }
            buffer.withUnsafeBytes { framer.append(UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            while let message = framer.nextMessage() {
                guard case .success(let request) = WireCodec.decodeRequest(message) else { return }
                let reply: WireReply
                switch request.operation {
                case .hello:
                    reply = .fields(["daemon": .string("impostor"), "protocol": .object(["major": 1, "minor": 6])])
                case .map:
                    mapRequests.add(1, ordering: .relaxed)
                    let bytes = WireCodec.encode(
                        .reply(
                            id: request.id,
                            .fields([
                                "generation": 1, "development_language": "en", "slabs": [.integer(4096)],
                                "segments": [["en", "Localizable", 0, 0, 96, 0]],
                            ])),
                        as: message.encoding)
                    let file = l10nd_memfd_create("l10nd-impostor")
                    ftruncate(file, 4096)
                    _ = l10nd_add_seals(file, L10ND_F_SEAL_SHRINK | L10ND_F_SEAL_GROW)
                    let sent = bytes.withUnsafeBytes {
                        try? DescriptorPassing.send($0, attachingNumbers: [file], over: client)
                    }
                    Glibc.close(file)
                    if let sent, sent < bytes.count {
                        _ = bytes.withUnsafeBytes { write(client, $0.baseAddress! + sent, bytes.count - sent) }
                    }
                    continue
                case .lookup:
                    reply = .lookup(WireLookupResult(value: "from lookup", found: true, language: "en", generation: 1))
                default:
                    reply = .ok
                }
                let bytes = WireCodec.encode(.reply(id: request.id, reply), as: message.encoding)
                _ = bytes.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
            }
        }
    }
}

/// A thread of its own that runs the closures it is given, one at a time, and waits between
/// them: what its per-thread lookup cache holds stays between two of them.
final class ParkedThread: Sendable {
    private let work = Mutex<[@Sendable () -> Void]>([])
    private let ready = DispatchSemaphore(value: 0)
    private let done = DispatchSemaphore(value: 0)
    private let ending = Atomic<Bool>(false)

    init() {
        Thread { [self] in
            while true {
                ready.wait()
                if ending.load(ordering: .acquiring) {
                    done.signal()
                    return
                }
                let next = work.withLock { $0.removeFirst() }
                next()
                done.signal()
            }
        }.start()
    }

    /// Runs `body` on the thread and waits for it.
    func run(_ body: @escaping @Sendable () -> Void) {
        work.withLock { $0.append(body) }
        ready.signal()
        done.wait()
    }

    /// Ends the thread (its lookup cache goes with it) and waits for that.
    func end() {
        ending.store(true, ordering: .releasing)
        ready.signal()
        done.wait()
    }
}
