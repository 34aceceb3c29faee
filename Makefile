# Rulesbook: the two commands are `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
PY     := $(BIN)/python

.PHONY: run test bench lint fuzz screenshots install install-test clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --upgrade pip >/dev/null

$(VENV)/.installed: $(BIN)/activate pyproject.toml
	$(PY) -m pip install -e . >/dev/null
	touch $@

$(VENV)/.installed-test: $(BIN)/activate pyproject.toml
	$(PY) -m pip install -e '.[test]' >/dev/null
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-test: $(VENV)/.installed-test

run: install
	$(BIN)/rulesbook-app $(ARGS)

test: install-test
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest $(PYTEST_ARGS)

bench: install-test
	QT_QPA_PLATFORM=offscreen $(PY) bench/run_all.py

lint: install-test
	$(BIN)/ruff check rulesbook ui tests bench

clean:
	rm -rf $(VENV) build *.egg-info

.PHONY: screenshots
screenshots: install-test
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.board.screenshots docs/screenshots
	QT_QPA_PLATFORM=offscreen $(PY) -m ui.rulings.screenshots docs/screenshots

fuzz: install-test
	$(PY) tools/fuzz.py 100000
	$(PY) tools/crash_test.py 200
