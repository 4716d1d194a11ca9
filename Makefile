# ML Systems labs. `make serve` builds and serves the site; `make test` runs every test.
# Both set up what they need: a Python venv (.venv), `npm ci`, and Debian's Chromium for tests.

PYTHON ?= python3
export NO_MKDOCS_2_WARNING := 1
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: build serve lint test test-unit test-e2e test-js bench guide clean setup chromium

setup: $(STAMP) node_modules/.package-lock.json

$(STAMP): requirements.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -r requirements.txt
	touch $(STAMP)

node_modules/.package-lock.json: package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

build: setup
	$(PY) -m mkdocs build --strict --quiet

serve: build
	$(PY) -m tools.serve --prefix /

chromium:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "Installing Debian's chromium for the end-to-end tests"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; }

# ruff for Python (rules in pyproject.toml), Biome for the browser and build JavaScript (biome.jsonc).
RUFF ?= $(VENV)/bin/ruff
BIOME ?= node_modules/.bin/biome

lint: setup
	$(RUFF) check .
	$(BIOME) lint --error-on-warnings

# The CPython tests spread over every core (a file per worker, so a module's fixtures are made once);
# then the browser tests, one browser and one built site for the whole run.
UNIT := $(PY) -m pytest -q -m "not e2e" -n auto --dist loadfile
E2E := $(PY) -m pytest -q -m e2e

test: lint build chromium
	$(UNIT)
	$(E2E)

test-unit: setup
	$(UNIT)

test-e2e: build chromium
	$(E2E)

# The shell's JavaScript unit tests (tests/js/): Chromium, no site build.
test-js: setup chromium
	$(PY) -m pytest -q -m js

bench: build chromium
	$(PY) -m tools.bench

# The instructor's guide (every answer key): into guide/, never into site/ (see the README).
guide: setup
	$(PY) -m build_scripts.guide --out guide

clean:
	rm -rf site dist guide .pytest_cache
