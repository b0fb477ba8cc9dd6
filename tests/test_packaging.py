"""pyproject.toml declares ranges; requirements-lock.txt pins exact versions inside them; environment.yml uses the lock.

The library is installed beside other packages, so its dependencies are compatible ranges; the
executed pages are checked byte for byte, so the book and CI install the exact versions of the lock.
"""
import re
import tomllib
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _lock():
    out = {}
    for line in (ROOT / "requirements-lock.txt").read_text().splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"([A-Za-z0-9_.\-]+)\s*==\s*(\S+)", line)
        assert m, f"not an exact pin in the lock: {line!r}"
        out[_norm(m.group(1))] = m.group(2)
    return out


def _requirements():
    specs = list(PROJECT["dependencies"])
    for extra in PROJECT["optional-dependencies"].values():
        specs += extra
    return [Requirement(s) for s in specs]


def test_dependencies_are_ranges_not_pins():
    for req in map(Requirement, PROJECT["dependencies"]):
        assert req.specifier, f"{req.name}: no lower bound"
        assert not any(s.operator in ("==", "===") for s in req.specifier), f"{req}: pinned in pyproject"
        assert any(s.operator == ">=" for s in req.specifier), f"{req}: give the tested lower bound"


def test_lock_pins_every_dependency_inside_its_range():
    lock = _lock()
    for req in _requirements():
        if _norm(req.name) == "robustpapers":  # an extra that names other extras
            continue
        version = lock.get(_norm(req.name))
        assert version is not None, f"{req.name} is not in requirements-lock.txt"
        assert req.specifier.contains(Version(version), prereleases=True), \
            f"{req.name}: lock {version} outside pyproject's {req.specifier}"


def test_python_versions():
    assert PROJECT["requires-python"] == ">=3.11,<3.14"
    minors = {c.rsplit(" ", 1)[-1] for c in PROJECT["classifiers"] if c.startswith("Programming Language :: Python :: 3.")}
    assert minors == {"3.11", "3.12", "3.13"}


def test_environment_yml_installs_the_lock():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert pip == ["-r requirements-lock.txt", "-e .[book,test,structures]"]
    python = [d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python")]
    assert python == ["python=3.11"]


def test_makefile_installs_the_lock():
    make = (ROOT / "Makefile").read_text()
    assert "pip install --quiet -r requirements-lock.txt" in make
    assert '--no-deps -e ".[book,test,structures]"' in make



def test_release_files():
    assert PROJECT["version"] == __import__("robustpapers").__version__
    assert "BSD 3-Clause License" in (ROOT / "LICENSE").read_text()
    assert PROJECT["license"] == "BSD-3-Clause" and PROJECT["license-files"] == ["LICENSE"]
    assert (ROOT / "robustpapers" / "py.typed").exists()
    assert f"## [{PROJECT['version']}]" in (ROOT / "CHANGELOG.md").read_text()
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["version"] == PROJECT["version"]
    assert len(cff["references"]) == 5
    assert "include CHANGELOG.md CITATION.cff LICENSE" in (ROOT / "MANIFEST.in").read_text()
    # no placeholder links: the URLs come with a public home
    for name in ("pyproject.toml", "CHANGELOG.md", "CITATION.cff"):
        assert "example.org" not in (ROOT / name).read_text(), name
    assert all("example" not in url for url in PROJECT.get("urls", {}).values())
