# Two set-up commands: `make demo` and `make test`. Both create .venv when missing.
PYTHON ?= python3.11
VENV ?= .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.pickwise-installed

.PHONY: demo test install lint bench clean-index

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q torch==2.13.0
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) scripts/demo.py

test: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) -m pytest -q

lint: $(STAMP)
	$(VENV)/bin/ruff check app harness scripts tests
	$(VENV)/bin/ruff format --check app harness scripts tests
	$(VENV)/bin/mypy

bench: $(STAMP)
	HF_HUB_OFFLINE=1 $(PY) scripts/bench.py

clean-index:
	rm -rf var/index
