"""The built HTML book, opened in headless Chromium (Debian's `chromium`, driven by playwright).

Every page loads, every equation is typeset by MathJax (no raw TeX or dollar math left in the prose, no
MathJax error), no Markdown table is left as text, every image loads, and no internal link or anchor is
broken. Run after `jupyter-book build`.
"""
import functools
import http.server
import os
import re
import shutil
import threading
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

import pytest

ROOT = Path(__file__).resolve().parents[1]
HTML = Path(os.environ.get("BOOK_HTML", ROOT / "_build" / "html"))
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")

pytestmark = pytest.mark.slow


def _pages():
    if not (HTML / "book" / "intro.html").exists():
        pytest.fail(f"no built book at {HTML}: run `jupyter-book build . -W -n --keep-going` first")
    return sorted(p.relative_to(HTML).as_posix() for p in (HTML / "book").glob("*.html"))


@pytest.fixture(scope="module")
def server():
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(HTML))

    class Quiet(handler.func):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(HTML)))
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM:
        pytest.fail("Debian's chromium is required (apt-get install chromium); .ci/run installs it")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


_ids_cache = {}


def _ids(path):
    if path not in _ids_cache:
        text = path.read_text(errors="replace")
        _ids_cache[path] = set(re.findall(r'\bid="([^"]+)"', text)) | set(re.findall(r'\bname="([^"]+)"', text))
    return _ids_cache[path]


def test_pages_render(server, browser):
    pages = _pages()
    assert "book/intro.html" in pages
    problems = []
    page = browser.new_page()
    page.set_default_timeout(120000)  # a loaded 2-core CI machine typesets the long pages slowly
    errors = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    for rel in pages:
        errors.clear()
        resp = page.goto(urljoin(server, rel), wait_until="load")
        if resp is None or resp.status != 200:
            problems.append(f"{rel}: HTTP {None if resp is None else resp.status}")
            continue
        has_math = page.evaluate("document.querySelectorAll('.math').length") > 0
        if has_math:
            page.wait_for_function("window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.evaluate("MathJax.startup.promise")
            stats = page.evaluate("""() => {
                const maths = Array.from(document.querySelectorAll('.math'));
                const raw = maths.filter(m => !m.querySelector('mjx-container')).map(m => m.textContent.slice(0, 80));
                return {n: maths.length, raw: raw, errors: document.querySelectorAll('mjx-merror').length};
            }""")
            if stats["raw"]:
                problems.append(f"{rel}: {len(stats['raw'])} of {stats['n']} equations not typeset, e.g. {stats['raw'][:2]}")
            if stats["errors"]:
                problems.append(f"{rel}: {stats['errors']} MathJax errors")
        # raw TeX or dollar math that never reached MathJax (e.g. in a Markdown output rendered as CommonMark, where
        # "SVM$_M$ ... RSVM$_{QN}$" becomes emphasis): in the prose only, without the typeset math and the code
        # blocks (which may show "$" legitimately)
        prose = page.evaluate("""() => {
            const root = (document.querySelector('article') || document.body).cloneNode(true);
            root.querySelectorAll('pre, code, script, style, mjx-container, .math').forEach(e => e.remove());
            return root.textContent;
        }""")
        for pattern in (r"\\begin\{", r"\$\$", r"\\frac\{"):
            if re.search(pattern, prose):
                problems.append(f"{rel}: raw TeX {pattern!r} in the text")
        raw_dollar = re.findall(r"\$[^$\s][^$]{0,200}?\$", prose)
        if raw_dollar:
            problems.append(f"{rel}: {len(raw_dollar)} dollar-math spans left as text, e.g. {raw_dollar[:2]}")
        # a Markdown table (DataFrame.to_markdown) that was not parsed as one stays a paragraph of "| ... |" lines
        pipe_tables = page.evaluate("""() => Array.from(document.querySelectorAll('article p'))
            .map(p => p.textContent).filter(t => /^\\|.*\\|\\s*\\n\\|/.test(t)).map(t => t.slice(0, 80))""")
        if pipe_tables:
            problems.append(f"{rel}: {len(pipe_tables)} Markdown tables left as text, e.g. {pipe_tables[:1]}")
        # every image finished (loaded or failed) before judging; no network wait: the book is offline
        page.wait_for_function("Array.from(document.images).every(i => i.complete)", timeout=120000)
        broken = page.evaluate("""() => Array.from(document.images)
            .filter(i => !(i.complete && i.naturalWidth > 0)).map(i => i.getAttribute('src'))""")
        if broken:
            problems.append(f"{rel}: images that did not load: {broken}")
        if errors:
            problems.append(f"{rel}: JavaScript errors: {errors[:3]}")
        hrefs = page.evaluate("Array.from(document.querySelectorAll('a[href]')).map(a => a.getAttribute('href'))")
        for href in hrefs:
            url = urlparse(href)
            if url.scheme in ("http", "https", "mailto") or href.startswith("javascript:"):
                continue
            target = (HTML / rel).parent / unquote(url.path) if url.path else HTML / rel
            target = target.resolve()
            if target.is_dir():
                target = target / "index.html"
            if not target.exists():
                problems.append(f"{rel}: broken link {href}")
            elif url.fragment and target.suffix == ".html" and unquote(url.fragment) not in _ids(target):
                problems.append(f"{rel}: broken anchor {href}")
    page.close()
    assert not problems, "\n".join(problems)


#: Words about how the book is made, which a page for readers never uses, and the papers' file numbers
#: ("000 §5.3"), which it replaces by their keys (bental2012).
_BACKSTAGE = re.compile(r"\b(issues?|sessions?|budgets?|workers?|lent|the machine|our option)\b"
                        r"|(?<![\w,.\-−])00[0-4](?![\w,.])", re.I)
#: Pages not yet rewritten for readers (their chapters are converted one at a time); every other page must pass,
#: and these must fail until they are rewritten (then they leave this list).
_NOT_YET_REWRITTEN: set = set()


def _reader_text(path):
    """The article text of a built page: scripts, styles and tags removed."""
    html = path.read_text(errors="replace")
    body = html.split('<article class="bd-article"', 1)[-1].split("</article>", 1)[0]
    body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", body)
    text = re.sub(r"(?s)<[^>]+>", " ", body)
    return re.sub(r"\s+", " ", text.replace("&nbsp;", " "))


@pytest.mark.parametrize("rel", [pytest.param(p, marks=pytest.mark.xfail(
    reason="rewritten for readers with its chapter", strict=True)) if p in _NOT_YET_REWRITTEN else p
    for p in (sorted(q.relative_to(HTML).as_posix() for q in (HTML / "book").glob("*.html"))
              if (HTML / "book").is_dir() else ["book/intro.html"])])
def test_pages_say_nothing_about_how_the_book_is_made(rel):
    text = _reader_text(HTML / rel)
    hits = sorted({m.group(0) for m in _BACKSTAGE.finditer(text)})
    contexts = [text[max(0, m.start() - 60):m.end() + 60] for m in list(_BACKSTAGE.finditer(text))[:5]]
    assert not hits, f"{rel} says {hits}: " + " | ".join(contexts)
