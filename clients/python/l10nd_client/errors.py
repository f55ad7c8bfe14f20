"""The exceptions the client raises: all are `L10ndError`, each with a stable `code`."""

import errno
import grp
import os


class L10ndError(Exception):
    """Anything the client raises. `code` is the protocol's error code for a refusal
    (`bad_request`, `forbidden`, `unavailable`...), else `unreachable` or `timeout`."""

    def __init__(self, code, message):
        super().__init__(f"{message} ({code})")
        self.code = code
        self.message = message


class RequestRefused(L10ndError):
    """The daemon answered `ok: false` (docs/PROTOCOL.md, "Error codes")."""


class DaemonUnavailable(L10ndError, ConnectionError):
    """No daemon answered: `paths` are the sockets tried, `errors` what each said."""

    def __init__(self, paths, errors):
        self.paths = list(paths)
        self.errors = list(errors)
        tried = "; ".join(f"{path}: {describe(error)}" for path, error in zip(self.paths, self.errors))
        denied = [path for path, error in zip(self.paths, self.errors) if isinstance(error, PermissionError)]
        fix = f"; {group_advice(denied[0])}" if denied else "; start l10nd, or set L10N_SOCKET"
        super().__init__("permission_denied" if denied else "unreachable",
                         f"no l10nd answered (tried {tried}){fix}")


class CallTimeout(L10ndError, TimeoutError):
    """The daemon did not answer within the call's time limit."""

    def __init__(self, op, seconds, waiting=False):
        super().__init__("timeout", f"l10nd has not answered a call for over {seconds:g} s, so '{op}' was not sent "
                                    "(it is asked again as soon as it answers)" if waiting
                         else f"l10nd did not answer '{op}' within {seconds:g} s")


def describe(error):
    """A short reason for an OSError: 'no such file', 'permission denied', 'nothing listening'."""
    if error is None:
        return "not tried"
    if isinstance(error, L10ndError):
        return error.message
    reasons = {errno.ENOENT: "no such socket", errno.EACCES: "permission denied",
               errno.ECONNREFUSED: "nothing listening", errno.EPERM: "permission denied"}
    return reasons.get(getattr(error, "errno", None), str(error))


def group_advice(path):
    """What to do about a refused permission at `path`: join the group that owns the socket
    (or, when the socket cannot even be looked at, its directory), as `stat` finds it now --
    the same words as the Swift library's and l10nctl's (ClientSocketPath.groupAdvice)."""
    owner, listing = "the socket", f"ls -l {path}"
    try:
        status = os.stat(path)
    except OSError:
        directory = os.path.dirname(path) or "."
        try:
            status = os.stat(directory)
        except OSError:
            return f"ask the administrator which group may use it (ls -ld {directory})"
        owner, listing = f"its directory {directory}", f"ls -ld {directory}"
    try:
        name = grp.getgrgid(status.st_gid).gr_name
    except KeyError:
        name = str(status.st_gid)
    if status.st_gid == os.getegid() or status.st_gid in os.getgroups():
        return (f"you are in the group '{name}', which owns {owner}, yet may not connect: "
                f"the mode ({listing}) gives the group no access; l10nd makes its socket 0660")
    return f"join the group '{name}', which owns {owner} (sudo adduser $USER {name}, then log in again)"
