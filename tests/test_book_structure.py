"""The book's structure: every notebook is in the table of contents with an executed page, every
figure and table a notebook names is listed in the introduction's status table, every page
follows the notebook contract (parameters cell, the sections in order), and the README names every page."""
import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
SECTIONS = ["What the paper does", "The model", "Implementation", "Experiments",
            "Paper vs. this reproduction", "Deviations"]


def _toc_files():
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text())
    files = [toc["root"]]

    def walk(entries):
        for e in entries or []:
            if "file" in e:
                files.append(e["file"])
            walk(e.get("sections"))
            walk(e.get("chapters"))

    walk(toc.get("parts"))
    walk(toc.get("chapters"))
    return files


def _sources():
    return sorted((ROOT / "notebooks").glob("*.md"))


def test_every_notebook_is_in_the_toc_with_an_executed_page():
    toc = set(_toc_files())
    for src in _sources():
        assert f"book/{src.stem}" in toc, f"{src.name} is not in _toc.yml"
        assert (ROOT / "book" / f"{src.stem}.ipynb").exists(), f"book/{src.stem}.ipynb is missing: run it"
    for f in toc:
        assert (ROOT / f"{f}.md").exists() or (ROOT / f"{f}.ipynb").exists(), f"{f} in _toc.yml has no page"


def test_status_table_lists_every_figure_and_table():
    intro = (ROOT / "book" / "intro.md").read_text()
    for src in _sources():
        for name in re.findall(r":name:\s*((?:fig|tab)-[a-z0-9-]+)", src.read_text()):
            assert name in intro, f"{name} ({src.name}) is missing from the status table in book/intro.md"


@pytest.mark.parametrize("src", [s for s in _sources() if re.match(r"[a-z]+\d{4}_", s.name)], ids=lambda p: p.stem)
def test_chapter_notebooks_follow_the_contract(src):
    text = src.read_text()
    assert re.search(r"```\{code-cell\}[^\n]*\n:tags: \[[^\]]*parameters", text), "no parameters cell"
    params = text.split(":tags: [parameters]", 1)[1].split("```", 1)[0]
    for name in ("scale", "seed", "n_jobs"):
        assert re.search(rf"^{name}\s*=", params, re.M), f"parameters cell lacks {name}"
    heads = [h.strip() for h in re.findall(r"^## (.+)$", text, re.M)]
    positions = [next((i for i, h in enumerate(heads) if h.startswith(s)), None) for s in SECTIONS]
    assert None not in positions, f"missing sections: {[s for s, p in zip(SECTIONS, positions) if p is None]}"
    assert positions == sorted(positions), f"sections out of order: {heads}"


def test_readme_names_every_page():
    readme = (ROOT / "README.md").read_text()
    table = readme.split("## What is in the book", 1)[1].split("\n\n", 2)[1]
    for src in _sources():
        assert f"`{src.stem}`" in table, f"README.md's 'What is in the book' table does not name {src.stem}"
