"""The client examples of docs/PROTOCOL.md ("Clients in other languages": Python, shell, C)
and the Python ones of clients/python/README.md run as printed against a real daemon, found by the socket rule with no L10N_SOCKET, and the
`hello` reply it prints is the daemon's."""

import json
import os
import re
import select
import subprocess
import tempfile
import time
import unittest

from daemon_support import BUILT, NOT_BUILT, ROOT, copy_examples, start_daemon, stop_daemon

PROTOCOL = os.path.join(ROOT, "docs", "PROTOCOL.md")
HERE = os.path.dirname(os.path.abspath(__file__))


def examples():
    """The fenced blocks of the section, by language."""
    with open(PROTOCOL, encoding="utf-8") as file:
        text = file.read()
    section = text[text.index("## Clients in other languages"):]
    section = section[:section.index("\n## ", 1)] if "\n## " in section[1:] else section
    return {language: body for language, body in re.findall(r"```(\w+)\n(.*?)```", section, re.S)}


def readme_examples():
    """The Python blocks of clients/python/README.md, in order."""
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as file:
        return re.findall(r"```python\n(.*?)```", file.read(), re.S)


@unittest.skipUnless(BUILT, NOT_BUILT)
class ProtocolExamplesTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.directory = tempfile.TemporaryDirectory(prefix="l10nd-python-docs")
        cls.resources = copy_examples(cls.directory.name)
        # The per-user socket: the examples find it with no L10N_SOCKET.
        cls.runtime = os.path.join(cls.directory.name, "runtime")
        os.makedirs(os.path.join(cls.runtime, "l10nd"))
        cls.socket = os.path.join(cls.runtime, "l10nd", "l10nd.sock")
        cls.daemon = start_daemon(cls.resources, cls.socket)
        cls.environ = {k: v for k, v in os.environ.items() if k != "L10N_SOCKET"}
        cls.environ.update(XDG_RUNTIME_DIR=cls.runtime, PYTHONPATH=HERE)
        cls.edits = 0

    @classmethod
    def tearDownClass(cls):
        stop_daemon(cls.daemon)
        cls.directory.cleanup()

    def edit(self):
        type(self).edits += 1
        with open(os.path.join(self.resources, "ja.lproj", "Localizable.strings"), "a", encoding="utf-8") as file:
            file.write(f'\n"docs {self.edits}" = "{self.edits}";\n')

    def run_until_a_change(self, command, lines_before):
        """Runs `command`, reads `lines_before` lines, then edits a file (again every 0.5 s)
        until one more line comes; returns all the lines. The example runs until killed."""
        process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=self.environ)
        lines, pending = [], b""
        deadline = time.monotonic() + 60
        next_edit = None
        try:
            while len(lines) <= lines_before:
                self.assertLess(time.monotonic(), deadline, f"{lines}: {process.stderr.read1() if process.poll() is not None else ''}")
                if len(lines) == lines_before and (next_edit is None or time.monotonic() > next_edit):
                    self.edit()
                    next_edit = time.monotonic() + 0.5
                ready, _, _ = select.select([process.stdout], [], [], 0.1)
                if ready:
                    chunk = os.read(process.stdout.fileno(), 65536)
                    self.assertTrue(chunk or process.poll() is None, f"the example ended: {lines}")
                    if not chunk:
                        continue
                    *complete, pending = (pending + chunk).split(b"\n")
                    lines += [line.decode("utf-8") for line in complete]
                elif process.poll() is not None:
                    self.fail(f"the example exited {process.returncode}: {lines} {process.stderr.read().decode()}")
        finally:
            process.kill()
            process.wait()
            process.stdout.close()
            process.stderr.close()
        return lines

    def test_the_python_example(self):
        lines = self.run_until_a_change(["python3", "-c", examples()["python"]], 3)
        self.assertEqual(lines[:2], ["Anaさんに新しいメッセージが3件あります", "21 файл в 2 папках"])
        self.assertEqual(lines[2], "['Enregistrer', '1 fichier dans 3 dossiers']")
        self.assertIn("{'lang': 'ja', 'table': 'Localizable'}", lines[3])

    def test_the_readme_examples(self):
        use, asynchronous, mapped = readme_examples()
        lines = self.run_until_a_change(["python3", "-c", use], 4)
        self.assertEqual(lines[:4], ["Anaさんに新しいメッセージが3件あります", "21 файл в 2 папках", "%lld фотография",
                                     "['Enregistrer', '1 fichier dans 3 dossiers']"])
        self.assertIn("{'lang': 'ja', 'table': 'Localizable'}", lines[4])
        lines = self.run_until_a_change(["python3", "-c", asynchronous], 1)
        self.assertEqual(lines[0], "21 файл в 2 папках")
        self.assertIn("{'lang': 'ja', 'table': 'Localizable'}", lines[1])
        result = subprocess.run(["python3", "-c", mapped], env=self.environ, capture_output=True, text=True, timeout=30)
        self.assertEqual((result.returncode, result.stdout.splitlines()), (0, ["Enregistrer", "Enregistrer"]),
                         result.stderr)

    def test_the_shell_example_prints_a_line_per_change(self):
        lines = self.run_until_a_change(["bash", "-c", examples()["sh"]], 2)
        self.assertEqual(lines[:2], ["Anaさんに新しいメッセージが3件あります", '{"ok":true}'])
        event = json.loads(lines[2])
        self.assertEqual(event["event"], "changed")
        self.assertIn({"lang": "ja", "table": "Localizable"}, event["changes"])

    def test_the_c_example(self):
        with tempfile.TemporaryDirectory(prefix="l10nd-c-example") as directory:
            source = os.path.join(directory, "example.c")
            with open(source, "w", encoding="utf-8") as file:
                file.write(examples()["c"])
            program = os.path.join(directory, "example")
            compiled = subprocess.run(["cc", "-Wall", "-Werror", "-Wno-unused-result", "-o", program, source],
                                      capture_output=True, text=True)
            self.assertEqual(compiled.returncode, 0, compiled.stderr)
            result = subprocess.run([program], env=self.environ, capture_output=True, text=True, timeout=30)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(json.loads(result.stdout)["formatted"], "21 файл в 2 папках")
            # Outside testers: without L10N_SOCKET it crashed (rc 139). Now it names the path.
            elsewhere = {**self.environ, "XDG_RUNTIME_DIR": directory}
            if not os.path.exists("/run/l10nd/l10nd.sock"):
                result = subprocess.run([program], env=elsewhere, capture_output=True, text=True, timeout=30)
                self.assertEqual(result.returncode, 1)
                self.assertIn("l10nd: /run/l10nd/l10nd.sock: No such file or directory", result.stderr)

    def test_the_hello_reply_printed_is_the_daemons(self):
        with open(PROTOCOL, encoding="utf-8") as file:
            text = file.read()
        printed = re.search(r'^← (\{"id":1,"ok":true,"daemon":"l10nd".*?\})\s', text, re.M).group(1)
        from l10nd_client import Client
        with Client(self.socket) as l10n:
            hello = l10n.request("hello")
        self.assertEqual(json.loads(printed)["protocol"], hello["protocol"])
        title = re.search(r"^# .*\(version (\d+)\.(\d+)\)", text, re.M).groups()
        self.assertEqual([int(part) for part in title], [hello["protocol"]["major"], hello["protocol"]["minor"]])


if __name__ == "__main__":
    unittest.main()
