"""Which socket a client connects to: the rule every l10nd client follows (docs/CLIENT.md).

1. `L10N_SOCKET`, when set and not empty; a relative path is taken from the current directory
   at the time of the call and made absolute (so messages name the file the kernel was asked
   for), an `@name` is an abstract address and stays as it is;
2. else the per-user socket, when it exists: `$XDG_RUNTIME_DIR/l10nd/l10nd.sock` (when that
   variable is an absolute path), else `/tmp/l10nd-$UID/l10nd.sock` -- where `l10nd` started
   by the user listens by default;
3. else the system service's socket, `/run/l10nd/l10nd.sock` (systemd's `l10nd.socket`).
"""

import os

SYSTEM_SOCKET = "/run/l10nd/l10nd.sock"

# For tests only: replaces SYSTEM_SOCKET, so the third step can be tried without root.
SYSTEM_SOCKET_VARIABLE = "L10N_SYSTEM_SOCKET_FOR_TESTS"


def per_user_socket_path(environ=None, uid=None):
    """Where `l10nd` run by this user listens unless told otherwise."""
    environ = os.environ if environ is None else environ
    runtime = environ.get("XDG_RUNTIME_DIR", "")
    if runtime.startswith("/"):
        trimmed = runtime[:-1] if len(runtime) > 1 and runtime.endswith("/") else runtime
        return trimmed + "/l10nd/l10nd.sock"
    return f"/tmp/l10nd-{os.getuid() if uid is None else uid}/l10nd.sock"


def socket_candidates(environ=None, uid=None):
    """The paths the rule considers, in order: `[L10N_SOCKET]` alone when it is set, else
    the per-user socket and the system socket (what an error message names as tried)."""
    environ = os.environ if environ is None else environ
    if environ.get("L10N_SOCKET"):
        return [absolute(environ["L10N_SOCKET"])]
    system = environ.get(SYSTEM_SOCKET_VARIABLE) or SYSTEM_SOCKET
    return [per_user_socket_path(environ, uid), system]


def default_socket_path(environ=None, uid=None, exists=os.path.exists):
    """The socket the rule picks: `L10N_SOCKET`, else the per-user socket if it exists, else
    the system socket."""
    candidates = socket_candidates(environ, uid)
    if len(candidates) == 1 or exists(candidates[0]):
        return candidates[0]
    return candidates[1]


def passed_over(path, environ=None, uid=None):
    """The paths the rule looked at, and found no socket at, before choosing `path` (the
    per-user one, when the rule fell through to the system socket)."""
    candidates = socket_candidates(environ, uid)
    return candidates[:1] if len(candidates) == 2 and path == candidates[1] else []


def absolute(path):
    """`path` from the current directory when it is relative (`l10nd.sock`, `./run/s.sock`), as
    the kernel would take it; absolute paths and `@name` as they are. Not normalised: `..`
    means what the kernel makes of it (the Swift library's ClientSocketPath.absolute)."""
    if path.startswith("/") or path.startswith("@"):
        return path
    try:
        directory = os.getcwd()
    except OSError:  # the current directory was removed
        return path
    return ("" if directory == "/" else directory) + "/" + (path[2:] if path.startswith("./") else path)


def address(path):
    """What `socket.connect` takes for `path`: `@name` is the abstract name (a NUL first)."""
    return "\0" + path[1:] if path.startswith("@") else path
