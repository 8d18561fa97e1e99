# The two set-up commands of the README: `make play` and `make test`. Both install what they
# need into .venv first, and both can be run again and again.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,arena,server,interop,ray,train

.PHONY: install compiled system serve play test test-fast test-interpreted test-package lint typecheck unit clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The tests' fifth game (tests/plugin_game) is installed by the tests themselves, outside .venv,
# so that the server never offers it to players; an older set-up's copy in .venv is removed.
install: $(BIN)/python
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	$(BIN)/python -m pip uninstall --quiet --yes parlour-pebbles 2>/dev/null || true
	# The browser client's assets from the npm registry (package-lock.json): Hatairo's country
	# flags (flag-icons) and, for the browser tests, the accessibility audit (axe-core).
	# Without npm the client draws flags as colour bands (`make system` installs npm).
	if command -v npm >/dev/null 2>&1; then npm ci --no-audit --no-fund --silent; else echo "install: npm not found, country flags left out"; fi

# The compiled build: the engine, the games' rules and the search bots compiled to C by mypyc, in
# build/compiled (the package as a wheel installs it). `make serve` and the full suite run on it
# through PYTHONPATH; .venv's editable install stays interpreted, so plain `.venv/bin/pytest` and
# `.venv/bin/parlour` run the .py files as edited. Rebuilt whenever a file of the package changes
# (about 2.5 CPU-minutes from scratch); without a C compiler it is pure Python, with a notice.
COMPILED := build/compiled
ON_COMPILED := PYTHONPATH=$(COMPILED)$${PYTHONPATH:+:$$PYTHONPATH}
PACKAGE_FILES := $(shell find src/parlour -type f -not -path '*/__pycache__/*' 2>/dev/null)
$(COMPILED).expect: setup.py pyproject.toml scripts/build-compiled.sh $(PACKAGE_FILES) | $(BIN)/python
	bash scripts/build-compiled.sh
compiled: install $(COMPILED).expect

# The main job: the game server with the browser client, at http://127.0.0.1:8000/
serve: install compiled
	$(ON_COMPILED) $(BIN)/parlour serve

# A game of Hatflings! in the terminal against a bot.
play: install
	$(BIN)/parlour play hatflings --seats human,random

lint: install
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: install
	$(BIN)/mypy src/parlour

# Debian packages the full suite needs (Chromium for the browser tests, PostgreSQL for the
# server's database tests), installed when missing; needs root, as CI has.
system:
	bash scripts/system-deps.sh

# The server's tests run against SQLite and, with PostgreSQL started here, against PostgreSQL too.
# The full suite runs on the compiled build; PARLOUR_EXPECT_COMPILED tells tests/test_native.py
# which build it must find there.
unit: system install compiled
	bash -c 'source .ci/postgres.sh && $(ON_COMPILED) PARLOUR_EXPECT_COMPILED=$$(cat $(COMPILED).expect) exec $(BIN)/python -m pytest -n 2 -q'

# The wheel, built and installed into a fresh virtual environment, runs `parlour games`,
# `parlour rules` of every game and a short `parlour serve` (about half a minute, offline); its
# modules are the compiled ones (the wheel reuses the compiled build's folder).
test-package: install compiled
	bash scripts/test-package.sh

# The inner loop: everything but the slow, browser and PostgreSQL tests, on two workers (the
# folders of only such tests are not even collected). The server's tests on SQLite are in it.
FAST := -m "not slow and not browser and not postgres" --ignore=tests/web --ignore=tests/arena
test-fast: install
	$(BIN)/python -m pytest -n 2 -q $(FAST)

# The same fast tests on the interpreted source, as `make test` runs them beside the compiled suite,
# and the check that the interpreted build behaves as the recorded digest says (slow, so not in FAST).
test-interpreted: install
	PARLOUR_EXPECT_COMPILED=0 $(BIN)/python -m pytest -n 2 -q $(FAST)
	PARLOUR_EXPECT_COMPILED=0 $(BIN)/python -m pytest -n 2 -q tests/test_same_behaviour.py

test: lint typecheck test-package unit test-interpreted

clean:
	rm -rf $(VENV) build .pytest_cache .mypy_cache .ruff_cache
