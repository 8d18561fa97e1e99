# The two set-up commands of the README: `make play` and `make test`. Both install what they
# need into .venv first, and both can be run again and again.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
EXTRAS ?= dev,arena,server,interop,ray

.PHONY: install system serve play test test-fast test-package lint typecheck unit clean

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

# The main job: the game server with the browser client, at http://127.0.0.1:8000/
serve: install
	$(BIN)/parlour serve

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
unit: system install
	bash -c 'source .ci/postgres.sh && exec $(BIN)/python -m pytest -n 2 -q'

# The wheel, built and installed into a fresh virtual environment, runs `parlour games`,
# `parlour rules` of every game and a short `parlour serve` (about half a minute, offline).
test-package: install
	bash scripts/test-package.sh

# The inner loop: everything but the slow, browser and PostgreSQL tests, on two workers (the
# folders of only such tests are not even collected).
FAST := -m "not slow and not browser and not postgres" --ignore=tests/web --ignore=tests/server --ignore=tests/arena
test-fast: install
	$(BIN)/python -m pytest -n 2 -q $(FAST)

test: lint typecheck test-package unit

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
