import Foundation
import Glibc
import LocalizationSockets
import TestSupport
import Testing

/// The clients' socket rule: `L10N_SOCKET`, else the per-user socket if it exists, else the
/// system socket (the Python client's test_socket_rule.py checks the same cases).
@Suite struct ClientSocketPathTests {
    @Test func l10nSocketWinsWhateverExists() {
        let environment = ["L10N_SOCKET": "/s", "XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(ClientSocketPath.path(environment: environment, userID: 7, exists: { _ in true }) == "/s")
        #expect(ClientSocketPath.candidates(environment: environment, userID: 7) == ["/s"])
    }

    @Test func thePerUserSocketWhenItExists() {
        #expect(
            ClientSocketPath.path(environment: ["XDG_RUNTIME_DIR": "/run/user/7/"], userID: 7, exists: { _ in true })
                == "/run/user/7/l10nd/l10nd.sock")
        #expect(ClientSocketPath.path(environment: [:], userID: 7, exists: { _ in true }) == "/tmp/l10nd-7/l10nd.sock")
    }

    @Test func elseTheSystemSocket() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(
            ClientSocketPath.path(environment: environment, userID: 7, exists: { _ in false })
                == "/run/l10nd/l10nd.sock")
        #expect(
            ClientSocketPath.candidates(environment: environment, userID: 7)
                == ["/run/user/7/l10nd/l10nd.sock", "/run/l10nd/l10nd.sock"])
        // The test-only replacement of the system path.
        let injected = environment.merging([ClientSocketPath.systemVariable: "/tmp/x/system.sock"]) { $1 }
        #expect(ClientSocketPath.path(environment: injected, userID: 7, exists: { _ in false }) == "/tmp/x/system.sock")
    }

    @Test func aFailureNamesThePathPassedOver() {
        let environment = ["XDG_RUNTIME_DIR": "/run/user/7"]
        #expect(
            ClientSocketPath.passedOver(connectingTo: "/run/l10nd/l10nd.sock", environment: environment, userID: 7)
                == "tried /run/user/7/l10nd/l10nd.sock: no such socket, then /run/l10nd/l10nd.sock")
        #expect(
            ClientSocketPath.passedOver(
                connectingTo: "/run/user/7/l10nd/l10nd.sock", environment: environment, userID: 7
            )
            .isEmpty)
    }

    /// A refused permission names the group that owns the socket, as `stat` finds it, or
    /// its directory's when the socket cannot be looked at; never a fixed `l10n`.
    @Test func aRefusedPermissionNamesTheSocketsOwnGroup() throws {
        let directory = try TemporaryDirectory(prefix: "l10nd-group")
        let socket = try directory.write("", to: "l10nd.sock")
        let own = getgrgid(getegid()).map { String(cString: $0.pointee.gr_name) } ?? "\(getegid())"
        #expect(
            ClientSocketPath.permissionDenied(socket)
                == "permission denied connecting to \(socket): you are in the group '\(own)', which owns the socket, "
                + "yet may not connect: the mode (ls -l \(socket)) gives the group no access; l10nd makes its socket 0660"
        )
        if getuid() == 0 {
            #expect(chown(socket, UInt32.max, 100) == 0)  // users, which root is not in
            #expect(
                SocketPermissionAdvice.advice(for: socket)
                    == "join the group 'users', which owns the socket (sudo adduser $USER users, then log in again)")
        }
        #expect(
            SocketPermissionAdvice.advice(for: directory.path + "/gone/l10nd.sock")
                == "ask the administrator which group may use it (ls -ld \(directory.path)/gone)")
    }

    /// A relative `L10N_SOCKET` is taken from the current directory, made absolute; an
    /// absolute path and an `@name` stay as they are.
    @Test func aRelativeL10nSocketIsMadeAbsolute() throws {
        let here = FileManager.default.currentDirectoryPath
        #expect(ClientSocketPath.candidates(environment: ["L10N_SOCKET": "s.sock"], userID: 7) == [here + "/s.sock"])
        #expect(ClientSocketPath.absolute("./run/s.sock") == here + "/run/s.sock")
        #expect(ClientSocketPath.absolute("../s.sock") == here + "/../s.sock")
        #expect(ClientSocketPath.absolute("/s.sock") == "/s.sock")
        #expect(ClientSocketPath.absolute("@name") == "@name")
    }
}
