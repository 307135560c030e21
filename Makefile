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

.PHONY: build test bench lint clean min-req

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

# Every benchmark runs and what they print goes to docs/performance.md, with the date and
# commit; the command fails at the end if any missed its target.
bench: $(TOOLS)
	$(BIN)/python benchmarks/report.py

# The lowest versions setup.cfg declares, tested: uv (from PyPI) resolves every direct
# dependency, runtime and test tools, to the lowest version its bound allows (as mkdocs'
# min-req environment does) into a virtual environment of its own, which runs the tests of
# what each dependency is relied on for: Typst's PDFs and pikepdf's drawing and print file,
# NumPy's seeds, the sheets' QR codes and scans (zxing-cpp, OpenCV, PDFium), genanki's decks
# imported into Anki, a whole build (matplotlib's figures).
MIN_REQ := build/min-req
MIN_REQ_TESTS := tests/test_identity_golden.py tests/problems/test_problem_seeds.py \
	tests/problems/test_problem_keys.py tests/print tests/scanning/test_sheets.py \
	tests/scanning/test_roundtrip.py tests/scanning/test_scan.py tests/anki/test_identity.py \
	tests/test_build.py tests/grading/test_feedback.py
min-req:
	@sh .ci/install-system-packages
	rm -rf $(MIN_REQ)
	$(PYTHON) -m venv $(MIN_REQ)
	$(MIN_REQ)/bin/python -m pip install --quiet uv
	$(MIN_REQ)/bin/uv pip compile --quiet pyproject.toml --extra test --resolution lowest-direct \
		--python $(MIN_REQ)/bin/python -o $(MIN_REQ)/requirements.txt
	$(MIN_REQ)/bin/uv pip install --quiet --python $(MIN_REQ)/bin/python -r $(MIN_REQ)/requirements.txt -e .
	PYTHONDONTWRITEBYTECODE= $(MIN_REQ)/bin/python -m pytest -n auto --dist loadfile $(MIN_REQ_TESTS)

# The QTI player tests/lms/test_player.py scores the LMS package in: qti3-item-player and vue@2,
# exactly as tests/lms/player/package-lock.json pins them (no install scripts run).
QTI_PLAYER := tests/lms/player
qti-player: $(QTI_PLAYER)/node_modules/.installed
$(QTI_PLAYER)/node_modules/.installed: $(QTI_PLAYER)/package-lock.json
	npm ci --prefix $(QTI_PLAYER) --no-audit --no-fund --ignore-scripts
	touch $@

lint: $(TOOLS)
	$(BIN)/ruff check generator tests benchmarks
	$(BIN)/ruff format --check generator tests benchmarks
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
