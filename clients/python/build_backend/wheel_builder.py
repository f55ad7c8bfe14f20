"""A PEP 517 build backend for the l10nd_client package, standard library only.

It packs `l10nd_client/*.py` into a pure-Python wheel (and an sdist) with the metadata of
pyproject.toml's [project] table, so installing needs no setuptools from the network. It
serves this one package, not any other.
"""

import base64
import hashlib
import io
import os
import re
import tarfile
import zipfile

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PACKAGE = "l10nd_client"


def _project():
    """pyproject.toml's [project] strings (every one this package uses is a plain string)."""
    with open(os.path.join(HERE, "pyproject.toml"), encoding="utf-8") as file:
        text = file.read()
    section = re.search(r"^\[project\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S).group(1)
    return dict(re.findall(r'^([\w-]+)\s*=\s*"([^"]*)"', section, re.M))


def _metadata():
    project = _project()
    with open(os.path.join(HERE, project["readme"]), encoding="utf-8") as file:
        readme = file.read()
    return (f"Metadata-Version: 2.1\nName: {project['name']}\nVersion: {project['version']}\n"
            f"Summary: {project['description']}\n"
            f"Requires-Python: {project['requires-python']}\n"
            f"Description-Content-Type: text/markdown\n\n{readme}")


def _sources():
    directory = os.path.join(HERE, PACKAGE)
    return sorted(f"{PACKAGE}/{name}" for name in os.listdir(directory) if name.endswith(".py"))


def _stem():
    project = _project()
    return f"{project['name'].replace('-', '_')}-{project['version']}"


def _digest(data):
    return "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    """Writes the wheel into `wheel_directory` and returns its file name."""
    stem = _stem()
    info = f"{stem}.dist-info"
    files = [(path, open(os.path.join(HERE, path), "rb").read()) for path in _sources()]
    files.append((f"{info}/METADATA", _metadata().encode("utf-8")))
    files.append((f"{info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: l10nd wheel_builder\n"
                  b"Root-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{info}/top_level.txt", f"{PACKAGE}\n".encode()))
    record = "".join(f"{path},{_digest(data)},{len(data)}\n" for path, data in files) + f"{info}/RECORD,,\n"
    name = f"{stem}-py3-none-any.whl"
    with zipfile.ZipFile(os.path.join(wheel_directory, name), "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data in files + [(f"{info}/RECORD", record.encode())]:
            entry = zipfile.ZipInfo(path, date_time=(1980, 1, 1, 0, 0, 0))
            entry.external_attr = 0o644 << 16
            wheel.writestr(entry, data, zipfile.ZIP_DEFLATED)
    return name


def build_sdist(sdist_directory, config_settings=None):
    """Writes the source archive into `sdist_directory` and returns its file name."""
    stem = _stem()
    name = f"{stem}.tar.gz"
    with tarfile.open(os.path.join(sdist_directory, name), "w:gz") as archive:
        for path in ["pyproject.toml", "README.md", "build_backend/wheel_builder.py", *_sources()]:
            archive.add(os.path.join(HERE, path), f"{stem}/{path}")
        data = _metadata().encode("utf-8")
        entry = tarfile.TarInfo(f"{stem}/PKG-INFO")
        entry.size = len(data)
        archive.addfile(entry, io.BytesIO(data))
    return name
