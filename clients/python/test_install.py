"""`pip install ./clients/python` in a fresh venv, with no network (the build backend is in
the directory), gives a module that talks to the daemon."""

import os
import subprocess
import sys
import tempfile
import unittest

from daemon_support import BUILT, NOT_BUILT, ROOT, start_daemon, stop_daemon

HERE = os.path.dirname(os.path.abspath(__file__))


class VersionTests(unittest.TestCase):
    def test_the_module_says_the_version_the_package_has(self):
        import re
        import l10nd_client
        with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as file:
            version = re.search(r'^version = "(.*)"$', file.read(), re.M).group(1)
        self.assertEqual(l10nd_client.__version__, version)  # scripts/package holds it to l10nd's


@unittest.skipUnless(BUILT, NOT_BUILT)
class InstallTests(unittest.TestCase):
    def test_pip_installs_the_package_offline_into_a_fresh_venv(self):
        with tempfile.TemporaryDirectory(prefix="l10nd-python-venv") as directory:
            venv = os.path.join(directory, "venv")
            subprocess.run([sys.executable, "-m", "venv", venv], check=True)
            python = os.path.join(venv, "bin", "python")
            install = subprocess.run([python, "-m", "pip", "install", "--no-index", "--no-cache-dir", HERE],
                                     capture_output=True, text=True, timeout=300)
            self.assertEqual(install.returncode, 0, install.stdout + install.stderr)
            socket_path = os.path.join(directory, "l10nd.sock")
            daemon = start_daemon(os.path.join(ROOT, "Examples", "Resources"), socket_path)
            try:
                # From the temp dir, so the checkout's own l10nd_client cannot be the one imported.
                script = ("import l10nd_client, sys\n"
                          "assert l10nd_client.__file__.startswith(sys.prefix), l10nd_client.__file__\n"
                          "with l10nd_client.Client() as l10n:\n"
                          "    print(l10n.localized('%d files in %d folders', 21, 2, lang='ru'))\n")
                result = subprocess.run([python, "-c", script], cwd=directory, capture_output=True, text=True,
                                        timeout=60, env={**os.environ, "L10N_SOCKET": socket_path})
            finally:
                stop_daemon(daemon)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertEqual(result.stdout, "21 файл в 2 папках\n")


if __name__ == "__main__":
    unittest.main()
