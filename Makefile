# Two commands on a fresh machine: `make run` (the advisor) and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: setup run test bench clean

# The environment: a venv with the project and its test extras, rebuilt
# whenever pyproject.toml changes.
$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

setup: $(STAMP)

run: setup
	$(BIN)/python -m solver advise examples/steal_on_offer.json --exact

test: setup
	$(BIN)/python -m pytest

bench: setup
	$(BIN)/python -m solver bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
