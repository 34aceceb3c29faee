# Rulesbook: the two commands are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
# a venv keeps its programs in Scripts/ on Windows, bin/ elsewhere
ifeq ($(OS),Windows_NT)
BIN    := $(VENV)/Scripts
else
BIN    := $(VENV)/bin
endif
PY     := $(BIN)/python

.PHONY: run test test-slow bench lint typecheck fuzz screenshots install install-test clean lock test-newest bundle test-bundle

# The versions we test are the versions we install: both targets install from a
# hash-pinned lock generated from pyproject.toml (`make lock` refreshes it).
LOCK      := requirements.lock
TEST_LOCK := requirements-test.lock

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip >/dev/null

# WARM compiles the gap search's kernel once (numba caches it on disk), so that
# the first search of the app or the command line does not wait for it.
WARM := $(PY) -c "from rulesbook.reconstruct.gap.compiled import warm_up; warm_up()"

$(VENV)/.installed: $(BIN)/activate pyproject.toml $(LOCK)
	$(PY) -m pip install --quiet --require-hashes -r $(LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	$(WARM)
	touch $@

$(VENV)/.installed-test: $(BIN)/activate pyproject.toml $(TEST_LOCK)
	$(PY) -m pip install --quiet --require-hashes -r $(TEST_LOCK)
	$(PY) -m pip install --quiet --no-deps -e .
	$(WARM)
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

run: install
	$(BIN)/rulesbook-app $(ARGS)

test: install-test
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

# The tests marked slow (deep perft and the like): not in `make test`; CI runs them.
test-slow: install-test
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -m slow $(PYTEST_ARGS)

bench: install-test
	QT_QPA_PLATFORM=offscreen $(PY) bench/run_all.py

lint: install-test typecheck
	$(BIN)/ruff check rulesbook ui tests bench

# The core strictly, the Qt layer with mypy's defaults (settings in pyproject.toml).
typecheck: install-test
	$(BIN)/mypy rulesbook ui

# Regenerate both locks from pyproject.toml: one universal lock for every
# Python the package allows, with the hash of every file.
lock: $(BIN)/activate
	$(PY) -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml --universal --generate-hashes --python-version 3.10 -q -o $(LOCK)
	$(BIN)/uv pip compile pyproject.toml --extra test --universal --generate-hashes --python-version 3.10 -q -o $(TEST_LOCK)

# The suite once more against the newest versions pyproject.toml allows, in a
# throwaway venv, so that the next broken release is seen before users get it.
test-newest: install-test
	$(PY) tools/test_newest.py $(PYTEST_ARGS)

# The self-contained bundle for this computer (PyInstaller, bundle/rulesbook.spec):
# dist/Rulesbook/ (the app Rulesbook, the command line rulesbook) and the archive a
# user unpacks, dist/Rulesbook-<version>-<system>-<machine>.tar.gz (.zip on Windows).
# Only Python runs in these recipes: the same on Linux, Windows and macOS.
bundle: install-test
	$(PY) bundle/build.py

# The bundle and the wheel tested as a user meets them (tests/bundle: an empty
# home, no venv on PATH); not in `make test`. Run `make bundle` first.
test-bundle: install-test
	$(PY) -m pytest -m "bundle or wheel" tests/bundle $(PYTEST_ARGS)

clean:
	rm -rf $(VENV) build dist *.egg-info

.PHONY: screenshots
screenshots: install-test
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.board.screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.rulings.screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.screenshots_sizes docs/screenshots

fuzz: install-test
	$(PY) tools/fuzz.py 100000
	$(PY) tools/crash_test.py 200
	$(PY) tools/kill_loop.py 40
