# Two commands on a fresh machine: `make run` (the advisor) and `make test`.
PYTHON   ?= python3
HOST     ?= 127.0.0.1
PORT     ?= 8501
VENV     := .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.installed
CHROMIUM := /usr/bin/chromium
SUDO     := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

.PHONY: setup browser run test typecheck bench screenshot clean lock
comma := ,

# The environment: a venv with the project, the advisor, the tables, the
# cluster and the test extras, rebuilt whenever pyproject.toml changes.
# Versions come from the lock file (pyproject.toml holds the ranges it was resolved from).
LOCK     := requirements.lock
EXTRAS   := app,tables,cluster,train,test

$(STAMP): pyproject.toml $(LOCK)
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c $(LOCK) -e '.[$(EXTRAS)]'
	touch $(STAMP)

# Resolve pyproject.toml's ranges afresh (uv) into the lock file; make test afterwards.
lock: setup
	$(BIN)/python -m pip install --quiet uv
	$(BIN)/uv pip compile pyproject.toml $(foreach e,$(subst $(comma), ,$(EXTRAS)),--extra $(e)) \
		--python $(BIN)/python --no-header --no-annotate --quiet -o $(LOCK).new
	{ echo "# Exact versions that make run and make test install (pip install -c requirements.lock)."; \
	  echo "# pyproject.toml keeps the ranges; refresh this file with: make lock"; cat $(LOCK).new; } > $(LOCK)
	rm -f $(LOCK).new

setup: $(STAMP)

# The browser tests drive Debian's Chromium (no browser is downloaded).
$(CHROMIUM):
	$(SUDO) apt-get update
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends chromium fonts-dejavu-core

browser: $(CHROMIUM)

run: setup
	$(BIN)/streamlit run advisor_app.py --server.address $(HOST) --server.port $(PORT)

# Types first (mypy --strict over solver/ and the pages, as pyproject.toml sets), then every test in
# two runs: all but the browser tests on every core (pytest-xdist: a worker per logical core, at most
# 4), then the browser tests one at a time, as each times a real Chromium against a real server and
# needs the cores to itself. Both runs report; make fails if either failed.
test: setup browser
	$(BIN)/python -m mypy
	$(BIN)/python -m pytest -m "not browser" -n logical --maxprocesses 4 --dist worksteal; rest=$$?; \
	$(BIN)/python -m pytest -m browser; browser=$$?; \
	[ $$rest -eq 0 ] && [ $$browser -eq 0 ]

typecheck: setup
	$(BIN)/python -m mypy

bench: setup
	$(BIN)/python -m bench.speed

# Refresh the README's screenshots from the browser tests.
screenshot: setup browser
	$(BIN)/python -m pytest -q tests/test_browser.py
	cp tests/artifacts/advisor.png docs/advisor.png
	cp tests/artifacts/advisor-phone.png docs/advisor-phone.png
	$(BIN)/python -m pytest -q -m browser tests/test_live_page.py tests/test_practice_page.py
	cp tests/artifacts/live.png docs/live.png
	cp tests/artifacts/practice.png docs/practice.png
	$(BIN)/python -m pytest -q -m browser tests/test_hitthedeck_page.py
	cp tests/artifacts/hitthedeck-desktop.png docs/hitthedeck.png
	cp tests/artifacts/hitthedeck.png docs/hitthedeck-phone.png

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis tests/artifacts
