# stich: `make run` sets up and starts the main job; `make test` sets up and runs every check.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run play test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml Makefile | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev,rl,rllib,openspiel,postgresql,ray,redis]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/stich serve

play: $(STAMP)
	$(BIN)/stich play doppelkopf

test: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/ruff format --check src tests bench
	$(BIN)/mypy --strict src/stich
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest -n auto

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[bench,fast]'
	$(BIN)/python bench/bench_doppelkopf.py
	$(BIN)/python bench/bench_search.py
	$(BIN)/python bench/bench_sampling.py

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
