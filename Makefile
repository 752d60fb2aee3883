# Two entry points (see README): `make demo` sets up and runs the main job, `make test` sets up and runs the tests.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python

.PHONY: setup demo test bench docs clean

setup: $(VENV)/.installed

# torch is pinned first: on this project's machines a CPU build of 2.13.0 is on disk, while an
# unpinned torch would pull a multi-GB CUDA build.
$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet torch==2.13.0
	$(PY) -m pip install --quiet -e ".[zoo,jax,test,bench,ray,rllib,rl,docs]"
	touch $@

demo: setup
	$(PY) -m agent_zoo.showcase

test: setup
	$(PY) -m pytest

# The documentation site (MkDocs + mkdocstrings) into site/; `make test` builds it in strict mode (tests/test_docs.py).
docs: setup
	$(PY) -m mkdocs build --strict

bench: setup
	$(PY) benchmarks/env_throughput.py

clean:
	rm -rf $(VENV) build site *.egg-info
