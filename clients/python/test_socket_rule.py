"""The socket rule (docs/CLIENT.md, "Which socket"): L10N_SOCKET, else the per-user socket if
it exists, else the system socket; errors name every path tried, and the group to join."""

import errno
import os
import subprocess
import tempfile
import unittest

from daemon_support import BUILT, NOT_BUILT, ROOT, start_daemon, stop_daemon
from l10nd_client import Client, DaemonUnavailable, default_socket_path, socket_candidates
from l10nd_client.socket_path import SYSTEM_SOCKET, SYSTEM_SOCKET_VARIABLE


class RuleTests(unittest.TestCase):
    def test_l10n_socket_wins_whatever_exists(self):
        self.assertEqual(default_socket_path({"L10N_SOCKET": "/s", "XDG_RUNTIME_DIR": "/"}, exists=lambda _: True), "/s")
        self.assertEqual(socket_candidates({"L10N_SOCKET": "/s"}), ["/s"])

    def test_the_per_user_socket_when_it_exists(self):
        environ = {"XDG_RUNTIME_DIR": "/run/user/7/"}
        self.assertEqual(default_socket_path(environ, exists=lambda path: True), "/run/user/7/l10nd/l10nd.sock")
        self.assertEqual(default_socket_path({}, uid=7, exists=lambda path: True), "/tmp/l10nd-7/l10nd.sock")
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "relative"}, uid=7, exists=lambda path: True),
                         "/tmp/l10nd-7/l10nd.sock")

    def test_else_the_system_socket(self):
        self.assertEqual(default_socket_path({"XDG_RUNTIME_DIR": "/run/user/7"}, exists=lambda path: False),
                         SYSTEM_SOCKET)
        self.assertEqual(SYSTEM_SOCKET, "/run/l10nd/l10nd.sock")
        self.assertEqual(socket_candidates({"XDG_RUNTIME_DIR": "/run/user/7"}),
                         ["/run/user/7/l10nd/l10nd.sock", SYSTEM_SOCKET])

    def test_permission_refused_names_the_sockets_own_group(self):
        """The group named is the one that owns the socket, as stat finds it (here `users`),
        not a fixed `l10n`; with nothing to stat, the message says how to find out."""
        with tempfile.TemporaryDirectory() as directory:
            path = os.path.join(directory, "l10nd.sock")
            open(path, "w").close()
            if os.geteuid() == 0:
                os.chown(path, -1, 100)  # users
                refused = DaemonUnavailable([path], [PermissionError(errno.EACCES, "Permission denied")])
                self.assertEqual(refused.code, "permission_denied")
                self.assertIn(f"{path}: permission denied", str(refused))
                self.assertIn("join the group 'users', which owns the socket (sudo adduser $USER users", str(refused))
            gone = os.path.join(directory, "gone", "l10nd.sock")
            refused = DaemonUnavailable([gone], [PermissionError(errno.EACCES, "Permission denied")])
            self.assertIn(f"ask the administrator which group may use it (ls -ld {os.path.dirname(gone)})", str(refused))

    def test_a_relative_l10n_socket_is_taken_from_the_current_directory(self):
        before = os.getcwd()
        with tempfile.TemporaryDirectory() as directory:
            os.chdir(directory)
            try:
                here = os.getcwd()
                self.assertEqual(socket_candidates({"L10N_SOCKET": "s.sock"}), [here + "/s.sock"])
                self.assertEqual(socket_candidates({"L10N_SOCKET": "./run/s.sock"}), [here + "/run/s.sock"])
                self.assertEqual(socket_candidates({"L10N_SOCKET": "@abstract"}), ["@abstract"])
            finally:
                os.chdir(before)


@unittest.skipUnless(BUILT, NOT_BUILT)
class ConnectingTests(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory(prefix="l10nd-python-rule")
        self.addCleanup(self.directory.cleanup)
        self.runtime = os.path.join(self.directory.name, "runtime")
        self.system = os.path.join(self.directory.name, "system", "l10nd.sock")
        os.makedirs(os.path.dirname(self.system))
        self.environ = {"XDG_RUNTIME_DIR": self.runtime, SYSTEM_SOCKET_VARIABLE: self.system}

    def daemon_on(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        daemon = start_daemon(os.path.join(ROOT, "Examples", "Resources"), path)
        self.addCleanup(stop_daemon, daemon)
        return daemon

    def test_with_only_the_system_socket_and_no_environment_the_client_finds_it(self):
        self.daemon_on(self.system)
        with Client(environ=self.environ, timeout=5) as l10n:
            self.assertEqual(l10n.path, self.system)
            self.assertEqual(l10n.request("hello")["daemon"], "l10nd")

    def test_the_per_user_socket_comes_before_the_system_one(self):
        self.daemon_on(self.system)
        per_user = os.path.join(self.runtime, "l10nd", "l10nd.sock")
        self.daemon_on(per_user)
        with Client(environ=self.environ, timeout=5) as l10n:
            self.assertEqual(l10n.path, per_user)
            self.assertEqual(l10n.request("hello")["daemon"], "l10nd")

    def test_no_daemon_names_every_path_tried(self):
        with Client(environ=self.environ, timeout=1) as l10n:
            with self.assertRaises(DaemonUnavailable) as raised:
                l10n.request("hello")
        message = str(raised.exception)
        per_user = os.path.join(self.runtime, "l10nd", "l10nd.sock")
        self.assertIn(f"tried {per_user}: no such socket; {self.system}: no such socket", message)
        self.assertIn("start l10nd, or set L10N_SOCKET", message)

    @unittest.skipUnless(os.geteuid() == 0 and os.path.exists("/usr/bin/setpriv"),
                         "needs root, to run the client as another user (nobody)")
    def test_a_relative_l10n_socket_reaches_the_daemon(self):
        self.daemon_on(self.system)
        before = os.getcwd()
        os.chdir(os.path.dirname(self.system))
        try:
            with Client(environ={"L10N_SOCKET": "l10nd.sock"}, timeout=5) as l10n:
                self.assertEqual(l10n.path, os.path.realpath(self.system))
                self.assertEqual(l10n.request("hello")["daemon"], "l10nd")
        finally:
            os.chdir(before)

    def test_a_socket_refused_by_its_mode_names_the_sockets_group(self):
        self.daemon_on(self.system)  # mode 0660: nobody may not connect
        os.chown(self.system, -1, 100)  # users
        for directory in (self.directory.name, os.path.dirname(self.system)):
            os.chmod(directory, 0o755)
        script = (
            "import sys; sys.path.insert(0, sys.argv[1])\n"
            "from l10nd_client import Client, DaemonUnavailable\n"
            "try:\n"
            "    Client(environ={'XDG_RUNTIME_DIR': '/nonexistent', sys.argv[2]: sys.argv[3]}).request('hello')\n"
            "except DaemonUnavailable as error:\n"
            "    print(error.code, error)\n")
        package = os.path.dirname(os.path.abspath(__file__))
        result = subprocess.run(
            ["/usr/bin/setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script,
             package, SYSTEM_SOCKET_VARIABLE, self.system], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("permission_denied", result.stdout)
        self.assertIn(self.system + ": permission denied", result.stdout)
        self.assertIn("join the group 'users', which owns the socket", result.stdout)


if __name__ == "__main__":
    unittest.main()
