"""environment.yml, pyproject.toml and the lock file agree on every pinned version."""
import re
import tomllib
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]


def _norm(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def _pins(specs):
    out = {}
    for spec in specs:
        m = re.fullmatch(r"\s*([A-Za-z0-9_.\-\[\]]+?)(\[[^\]]*\])?\s*==\s*([^\s;]+)\s*", spec)
        assert m, f"not an exact pin: {spec!r}"
        out[_norm(m.group(1))] = m.group(3)
    return out


def _pyproject_pins():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = list(project["dependencies"])
    for extra in project["optional-dependencies"].values():
        specs += extra
    return _pins(specs)


def test_environment_yml_matches_pyproject():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert "-e ." in pip
    assert _pins([s for s in pip if s != "-e ."]) == _pyproject_pins()
    python = [d for d in env["dependencies"] if isinstance(d, str) and d.startswith("python")]
    assert python == ["python=3.11"]


def test_lock_contains_every_pin():
    lock = _pins([line for line in (ROOT / "requirements-lock.txt").read_text().splitlines()
                  if line.strip() and not line.startswith("#")])
    for name, version in _pyproject_pins().items():
        assert lock.get(name) == version, f"{name}: pyproject {version}, lock {lock.get(name)}"
