"""The exceptions the client raises: all are `L10ndError`, each with a stable `code`."""

import errno

from .socket_path import SOCKET_GROUP


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
        denied = any(isinstance(error, PermissionError) for error in self.errors)
        fix = (f"; join the group '{SOCKET_GROUP}' (sudo adduser $USER {SOCKET_GROUP}, then log in again)"
               if denied else "; start l10nd, or set L10N_SOCKET")
        super().__init__("permission_denied" if denied else "unreachable",
                         f"no l10nd answered (tried {tried}){fix}")


class CallTimeout(L10ndError, TimeoutError):
    """The daemon did not answer within the call's time limit."""

    def __init__(self, op, seconds):
        super().__init__("timeout", f"l10nd did not answer '{op}' within {seconds:g} s")


def describe(error):
    """A short reason for an OSError: 'no such file', 'permission denied', 'nothing listening'."""
    if error is None:
        return "not tried"
    if isinstance(error, L10ndError):
        return error.message
    reasons = {errno.ENOENT: "no such socket", errno.EACCES: "permission denied",
               errno.ECONNREFUSED: "nothing listening", errno.EPERM: "permission denied"}
    return reasons.get(getattr(error, "errno", None), str(error))
