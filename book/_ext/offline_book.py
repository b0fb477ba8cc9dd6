"""Keep the built book offline: drop sphinx-thebe's page scripts.

Jupyter Book 1.x always loads ``sphinx_thebe``, whose scripts point at a CDN
(and are injected twice, a JavaScript error). The book has no live-code
launch, so its listeners are removed before documents are read.
"""


def _drop_thebe(app):
    for event in ("env-before-read-docs", "doctree-resolved"):
        listeners = app.events.listeners.get(event, [])
        listeners[:] = [lst for lst in listeners if getattr(lst.handler, "__module__", "") != "sphinx_thebe"]


def setup(app):
    app.connect("builder-inited", _drop_thebe)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
