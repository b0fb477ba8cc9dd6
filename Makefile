# robustpapers — the commands of README.md. Everything runs inside .venv (created if absent).
SHELL := /bin/bash
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
# The newest Python the library supports (pyproject's classifiers): the unit tests run on it too.
PYENV_ROOT ?= $(HOME)/.pyenv
PYTHON_NEWEST ?= $(firstword $(wildcard $(PYENV_ROOT)/versions/3.13*/bin/python3.13) python3.13)
VENV_NEWEST := .venv313
PY_NEWEST := $(VENV_NEWEST)/bin/python
STAMP_NEWEST := $(VENV_NEWEST)/.installed
JB := $(VENV)/bin/jupyter-book
STAMP := $(VENV)/.installed
export PYTHONHASHSEED := 0

.PHONY: help install install-newest book pages html test test-unit test-unit-newest test-notebooks test-nbval test-book test-html reproduce benchmarks clean

help:
	@echo "make book       execute every notebook (quick scale, or cached paper scale) into book/ and build _build/html"
	@echo "make test       everything CI checks (unit tests, fresh notebook runs, nbval, strict book build, browser check)"
	@echo "make reproduce  recompute every sweep at paper scale (hours; DASK_SCHEDULER=tcp://... to use a cluster)"
	@echo "make benchmarks run the speed benchmarks in benchmarks/"

$(STAMP): pyproject.toml requirements-lock.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade "pip>=24"
	$(PY) -m pip install --quiet -r requirements-lock.txt
	$(PY) -m pip install --quiet --no-deps -e ".[book,test,structures]"
	touch $(STAMP)

install: $(STAMP)

# The same lock on the newest Python (every pinned package has a wheel for 3.13).
$(STAMP_NEWEST): pyproject.toml requirements-lock.txt
	@test -x $(PY_NEWEST) || $(PYTHON_NEWEST) -m venv $(VENV_NEWEST)
	$(PY_NEWEST) -m pip install --quiet --upgrade "pip>=24"
	$(PY_NEWEST) -m pip install --quiet -r requirements-lock.txt
	$(PY_NEWEST) -m pip install --quiet --no-deps -e ".[book,test,structures]"
	touch $(STAMP_NEWEST)

install-newest: $(STAMP_NEWEST)

pages: $(STAMP)
	$(PY) -m robustpapers run --all

html: $(STAMP)
	$(JB) build . -W -n --keep-going

book: pages html

test: test-unit test-unit-newest test-notebooks test-nbval test-book test-html

# The unit tests and the docstring examples of the library.
UNIT := tests robustpapers --doctest-modules -m "not slow" -q

test-unit: $(STAMP)
	$(PY) -m pytest $(UNIT)

# The whole unit suite on the newest supported Python as well. Measured on Python 3.13 (2,790 tests, one
# BLAS thread): 3.8 CPU-minutes, of which the representative part this target used to run (the core's and
# papers' unit tests, data sets, packaging, docstring examples) took 1.1, so the full suite adds about
# 3 minutes to make test (about 20 minutes in all before), well inside its 30.
UNIT_NEWEST := $(UNIT)

test-unit-newest: $(STAMP_NEWEST)
	$(PY_NEWEST) -m pytest $(UNIT_NEWEST) -p no:cacheprovider

# Every notebook from scratch at scale="quick", in a temporary folder with an empty cache;
# the pipeline's own slow tests (a failed run keeps the good page; paper-scale markers); and the cheapest
# cached record of each results folder re-run at HEAD (it must reproduce).
# Two notebooks at a time, one BLAS thread each (2 cores); fresh runs are not compared to the pages.
test-notebooks: $(STAMP)
	OMP_NUM_THREADS=1 OPENBLAS_NUM_THREADS=1 $(PY) -m pytest tests/test_notebooks.py tests/test_pipeline.py tests/test_engine_reproduce.py -m slow -q -n 2 --durations=0

# The committed executed pages still reproduce (outputs compared; images and stderr not).
test-nbval: $(STAMP)
	MPLBACKEND=module://matplotlib_inline.backend_inline $(PY) -m pytest --nbval book/*.ipynb --nbval-current-env --nbval-sanitize-with nbval_sanitize.cfg \
	    -p no:cacheprovider -q -o addopts="" -o testpaths=""

test-book: $(STAMP)
	rm -rf _build/html
	$(JB) build . -W -n --keep-going

test-html: $(STAMP)
	$(PY) -m pytest tests/test_book_html.py -q -m slow

reproduce: $(STAMP)
	$(PY) -m robustpapers reproduce $(PAGES) $(if $(DASK_SCHEDULER),--scheduler $(DASK_SCHEDULER))
	$(MAKE) html

benchmarks: $(STAMP)
	for f in benchmarks/*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean:
	rm -rf _build .pytest_cache build dist
