import LocalizationSockets
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
        #expect(ClientSocketPath.permissionDenied("/p").contains("join the group 'l10n'"))
    }
}
