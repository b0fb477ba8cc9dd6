"""Docstrings hold no control characters (a non-raw docstring turns \\bar or \\frac into \\b or \\f)."""
import ast
import re
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "robustpapers"


@pytest.mark.parametrize("path", sorted(PACKAGE.rglob("*.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_control_characters_in_docstrings(path):
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False) or ""
            bad = re.findall(r"[\x00-\x08\x0b\x0c\x0e-\x1f]", doc)
            assert not bad, f"{getattr(node, 'name', 'module')}: {bad!r} — use a raw docstring (r\"\"\"...)"
