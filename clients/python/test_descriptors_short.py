"""A map attempt short of descriptors fails with OSError (which Client's map thread handles and
retries), not ImportError from a module loaded lazily inside the attempt (an outside tester's
report: an unhandled traceback in l10nd-map per attempt)."""

import os
import subprocess
import sys
import textwrap
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

PROGRAM = textwrap.dedent("""
    import errno, fcntl, os, resource, sys
    sys.path.insert(0, sys.argv[1])
    from l10nd_client.segments import map_manifest
    slab = os.memfd_create("slab", os.MFD_ALLOW_SEALING)
    os.write(slab, b"x" * 4096)
    fcntl.fcntl(slab, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_WRITE | fcntl.F_SEAL_SEAL)
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    held = []
    try:
        while True:
            held.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as error:
        assert error.errno == errno.EMFILE, error
    try:
        map_manifest({"ok": True, "slabs": [4096], "segments": []}, [slab])
    except OSError as error:
        print("OSError", error.errno)
    except BaseException as error:
        print(type(error).__name__, error)
    else:
        print("mapped")
""")


class DescriptorsShortTests(unittest.TestCase):
    def test_a_map_attempt_with_no_free_descriptor_raises_oserror(self):
        result = subprocess.run([sys.executable, "-c", PROGRAM, HERE], capture_output=True, text=True, timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "OSError 24", result.stdout + result.stderr)

    def test_a_client_made_with_no_free_descriptor_falls_back_instead_of_raising(self):
        result = subprocess.run([sys.executable, "-c", CLIENT_PROGRAM, HERE], capture_output=True, text=True,
                                timeout=60)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertEqual(result.stdout.strip(), "False greeting", result.stdout + result.stderr)


CLIENT_PROGRAM = textwrap.dedent("""
    import errno, os, resource, sys
    sys.path.insert(0, sys.argv[1])
    from l10nd_client import Client
    resource.setrlimit(resource.RLIMIT_NOFILE, (64, 64))
    held = []
    try:
        while True:
            held.append(os.open("/dev/null", os.O_RDONLY))
    except OSError as error:
        assert error.errno == errno.EMFILE, error
    client = Client("/nonexistent/l10nd.sock", timeout=0.5)
    answer = client.lookup("greeting", lang="de")
    print(answer["found"], answer["value"])
""")


if __name__ == "__main__":
    unittest.main()
