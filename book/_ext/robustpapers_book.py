"""Sphinx tweaks for the robustpapers book.

* Equations carry the paper's own numbers: a label ``<paperkey>-eq<N>`` (e.g.
  ``bental2012-eq12``, or ``ginodi2010-eq2-16`` for the thesis's (2.16)) is
  displayed and referenced as (N); other labels keep Sphinx's serial numbers.
* Figures and tables carry the paper's numbers: a figure labelled ``fig-<paperkey>-<N>`` (or
  ``tab-<paperkey>-<N>``) is captioned and referenced "<paperkey> Fig. N" ("<paperkey> Table N");
  a figure without a label (the book's own, not the paper's) has no number; a labelled one keeps Sphinx's
  serial number ("Fig. 27").
* The built book stays offline: Jupyter Book 1.x always loads ``sphinx_thebe``,
  whose page scripts point at a CDN (and are injected twice, a JavaScript
  error); the book has no live-code launch, so its listeners are removed.
"""
import re

from sphinx.domains.math import MathDomain

_PAPER_ARTEFACT = re.compile(r"^(?P<kind>fig|tab)-(?P<paper>[a-z]+\d{4})-(?P<num>\d+[a-z]?)$")
_AUTO_ID = re.compile(r"^id\d+$")
#: The word before a serial number, per enumerable type (numfig_format becomes "%s": the words live here).
_SERIAL_WORD = {"figure": "Fig.", "table": "Table", "code-block": "Listing", "section": "Section"}
_PAPER_LABEL = re.compile(r"^[a-z]+\d{4}-eq(?P<num>[0-9][0-9a-z]*(?:-[0-9a-z]+)*)$")


class PaperMathDomain(MathDomain):
    """The math domain, numbering ``<paperkey>-eq<N>`` equations as the paper does."""

    def note_equation(self, docname, labelid, location=None):
        super().note_equation(docname, labelid, location)
        match = _PAPER_LABEL.match(labelid)
        if match:
            self.equations[labelid] = (docname, match.group("num").replace("-", "."))


def _paper_numbers(app, env):
    """After Sphinx numbered the figures: the paper's number for paper artefacts, "Fig. N" for the rest."""
    for fignums in env.toc_fignumbers.values():
        for figtype, ids in fignums.items():
            for fid, nums in ids.items():
                if len(nums) == 1 and isinstance(nums[0], str):
                    continue  # already renamed (an incremental build)
                m = _PAPER_ARTEFACT.match(fid)
                if m:
                    word = "Fig." if m.group("kind") == "fig" else "Table"
                    ids[fid] = (f"{m.group('paper')} {word} {m.group('num')}",)
                elif _AUTO_ID.match(fid):
                    ids[fid] = ("",)  # a figure of the book's own, without a label: no number at all
                else:
                    ids[fid] = (f"{_SERIAL_WORD.get(figtype, '')} {'.'.join(map(str, nums))}".strip(),)
    return []


def _numfig_words(app, config):
    config.numfig_format = {**config.numfig_format, **{k: "%s" for k in _SERIAL_WORD if k != "section"}}


def _drop_thebe(app):
    for event in ("env-before-read-docs", "doctree-resolved"):
        listeners = app.events.listeners.get(event, [])
        listeners[:] = [lst for lst in listeners if getattr(lst.handler, "__module__", "") != "sphinx_thebe"]


def setup(app):
    app.add_domain(PaperMathDomain, override=True)
    app.connect("builder-inited", _drop_thebe)
    app.connect("config-inited", _numfig_words, priority=900)
    app.connect("env-get-updated", _paper_numbers, priority=900)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
