# The two commands of the README, plus a benchmark run. Each sets itself up: a
# virtual environment in .venv with paperdeck (and, for the tests, its test tools)
# installed. pip's output goes to .venv/install.log and is shown only on failure.
# `make test` also installs the Debian packages of .ci/system-packages that are
# missing (as root), or names them and stops.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.installed
TOOLS := $(VENV)/.installed-test
INSTALL = $(BIN)/python -m pip install --quiet --editable

.PHONY: build test bench lint clean

build: $(INSTALLED)
	$(BIN)/paperdeck build --out out

# One worker per core; a test file stays on one worker, so its module fixtures (a
# build, a compiled guide) are made once. Files are handed out in the order
# tests/conftest.py sets: those that open a browser first, then those marked long. Bytecode is
# written even where PYTHONDONTWRITEBYTECODE is set (it is emptied): otherwise every
# worker, and every paperdeck a test starts, compiles each module again, and pytest
# rewrites each test file again on every run (collecting took 8 s without the caches
# and 3.6 s with them).
test: $(TOOLS)
	@sh .ci/install-system-packages
	@$(MAKE) --no-print-directory qti-player
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -n auto --dist loadfile --no-loadscope-reorder

# Every benchmark runs; the command fails at the end if any missed its target.
bench: $(TOOLS)
	status=0; for script in benchmarks/bench_*.py; do $(BIN)/python $$script || status=1; done; exit $$status

# The QTI player tests/lms/test_player.py scores the LMS package in: qti3-item-player and vue@2,
# exactly as tests/lms/player/package-lock.json pins them (no install scripts run).
QTI_PLAYER := tests/lms/player
qti-player: $(QTI_PLAYER)/node_modules/.installed
$(QTI_PLAYER)/node_modules/.installed: $(QTI_PLAYER)/package-lock.json
	npm ci --prefix $(QTI_PLAYER) --no-audit --no-fund --ignore-scripts
	touch $@

lint: $(TOOLS)
	$(BIN)/ruff check generator tests benchmarks
	$(BIN)/mypy generator

$(BIN)/python:
	@echo "creating the virtual environment $(VENV)"
	@$(PYTHON) -m venv $(VENV)
	@$(BIN)/python -m pip install --quiet --upgrade pip > $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)

$(INSTALLED): setup.cfg pyproject.toml | $(BIN)/python
	@echo "installing paperdeck into $(VENV) (pip's log: $(VENV)/install.log)"
	@$(INSTALL) . >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	@touch $@

# Then what the tests would otherwise fetch or write on their first run: the web files of
# Anki's reviewer (from the aqt wheel) and the package's bytecode.
$(TOOLS): $(INSTALLED)
	@echo "installing the test tools into $(VENV) (pytest, pytest-xdist, the anki library, pypdf, hypothesis, selenium, ruff, mypy)"
	@$(INSTALL) '.[test]' >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	@$(BIN)/python -m tests.anki.reviewer >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	@$(BIN)/python -m compileall -q generator >> $(VENV)/install.log 2>&1 || (cat $(VENV)/install.log; exit 1)
	@touch $@

clean:
	rm -rf out
