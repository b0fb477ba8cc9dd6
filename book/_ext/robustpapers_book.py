"""Sphinx tweaks for the robustpapers book.

* Equations carry the paper's own numbers: a label ``<paperkey>-eq<N>`` (e.g.
  ``bental2012-eq12``, or ``ginodi2010-eq2-16`` for the thesis's (2.16)) is
  displayed and referenced as (N); other labels keep Sphinx's serial numbers.
* The built book stays offline: Jupyter Book 1.x always loads ``sphinx_thebe``,
  whose page scripts point at a CDN (and are injected twice, a JavaScript
  error); the book has no live-code launch, so its listeners are removed.
"""
import re

from sphinx.domains.math import MathDomain

_PAPER_LABEL = re.compile(r"^[a-z]+\d{4}-eq(?P<num>[0-9][0-9a-z]*(?:-[0-9a-z]+)*)$")


class PaperMathDomain(MathDomain):
    """The math domain, numbering ``<paperkey>-eq<N>`` equations as the paper does."""

    def note_equation(self, docname, labelid, location=None):
        super().note_equation(docname, labelid, location)
        match = _PAPER_LABEL.match(labelid)
        if match:
            self.equations[labelid] = (docname, match.group("num").replace("-", "."))


def _drop_thebe(app):
    for event in ("env-before-read-docs", "doctree-resolved"):
        listeners = app.events.listeners.get(event, [])
        listeners[:] = [lst for lst in listeners if getattr(lst.handler, "__module__", "") != "sphinx_thebe"]


def setup(app):
    app.add_domain(PaperMathDomain, override=True)
    app.connect("builder-inited", _drop_thebe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
