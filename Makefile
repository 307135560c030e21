# The two commands of the README, plus a benchmark run. Each sets itself up:
# a virtual environment in .venv with paperdeck and its test tools installed.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: build test bench lint clean

build: $(STAMP)
	$(BIN)/paperdeck build --out out

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	for script in benchmarks/bench_*.py; do $(BIN)/python $$script || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check generator tests benchmarks
	$(BIN)/mypy generator

$(STAMP): setup.cfg pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

clean:
	rm -rf out
