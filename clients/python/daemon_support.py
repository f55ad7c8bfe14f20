"""What the tests of l10nd_client share: the built daemon, started on resources in a temp dir.

L10ND is the built daemon (scripts/test sets it; default: .build/debug/l10nd).
"""

import os
import shutil
import socket
import subprocess
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
DAEMON = os.environ.get("L10ND", os.path.join(ROOT, ".build", "debug", "l10nd"))
BUILT = os.access(DAEMON, os.X_OK)
NOT_BUILT = f"{DAEMON} is not built (swift build first)"

# Eight languages, each with KEYS keys whose values name the language and the key: a wrong
# answer (another caller's language or key) cannot look right.
LANGUAGES = ["de", "fr", "ja", "ru", "es", "it", "pt-BR", "zh-Hans"]
KEYS = 40


def expected(lang, index):
    return f"{lang} value {index}"


def write_languages(resources):
    """Writes LANGUAGES × KEYS strings under `resources`."""
    for lang in LANGUAGES:
        os.makedirs(os.path.join(resources, f"{lang}.lproj"), exist_ok=True)
        with open(os.path.join(resources, f"{lang}.lproj", "Localizable.strings"), "w", encoding="utf-8") as file:
            for index in range(KEYS):
                file.write(f'"key {index}" = "{expected(lang, index)}";\n')


def copy_examples(directory):
    """A copy of Examples/Resources in `directory`, to edit; returns its path."""
    resources = os.path.join(directory, "Resources")
    shutil.copytree(os.path.join(ROOT, "Examples", "Resources"), resources)
    return resources


def answers(socket_path):
    """Whether a daemon answers `hello` on `socket_path`, on a connection of its own."""
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(5)
            probe.connect(socket_path)
            probe.sendall(b'{"op":"hello"}\n')
            return b'"ok":true' in probe.recv(4096)
    except OSError:
        return False


def listening(socket_path):
    """Whether something listens on `socket_path`: a connect succeeds (the daemon may not have
    answered anything yet; a request waits in its backlog)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
        try:
            probe.connect(socket_path)
            return True
        except OSError:
            return False


def start_daemon(resources, socket_path, arguments=(), ready=answers, poll=0.02):
    """A running l10nd on `resources` (None: only those `arguments` name), once `ready` says so
    of `socket_path` (asked every `poll` seconds): by default once it answers there."""
    daemon = subprocess.Popen(
        [DAEMON, *(["--resources", resources] if resources else []), "--socket", socket_path, *arguments],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not ready(socket_path):
        if time.monotonic() > deadline or daemon.poll() is not None:
            daemon.kill()
            raise RuntimeError(f"l10nd did not start on {socket_path}")
        time.sleep(poll)
    return daemon


def stop_daemon(daemon):
    daemon.terminate()
    try:
        daemon.wait(timeout=20)
    except subprocess.TimeoutExpired:
        daemon.kill()
        daemon.wait()


def wait_for_mapping(client, generation=0, limit=10):
    """The generation `client` answers from in place once it is at least `generation`; None
    when it is not within `limit` seconds."""
    deadline = time.monotonic() + limit
    while True:
        mapped = client.mapped_generation
        if mapped is not None and mapped >= generation:
            return mapped
        if time.monotonic() > deadline:
            return None
        time.sleep(0.01)


def wait_until_stopped(pid):
    """Returns once every thread of `pid` is stopped (a SIGSTOP takes effect when the
    process is next scheduled, which on a loaded machine is not at once)."""
    deadline = time.monotonic() + 10
    while True:
        states = []
        for thread in os.listdir(f"/proc/{pid}/task"):
            with open(f"/proc/{pid}/task/{thread}/stat") as stat:
                states.append(stat.read().rsplit(")", 1)[1].split()[0])
        if all(state in "tT" for state in states):
            return
        assert time.monotonic() < deadline, f"l10nd did not stop: {states}"
        time.sleep(0.01)
