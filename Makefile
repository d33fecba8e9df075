# stich: `make run` sets up and starts the platform; `make test` sets up and runs every check.
#
# Every package comes from the lock (uv.lock, made by `make lock`), installed by uv, which is itself
# pinned with hashes in tools/setup/uv.txt and bootstrapped from PyPI into .uv/ with python3's pip.
# `make run` installs what play needs (the base dependencies); `make test` adds every extra but bench's.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
UV_HOME := .uv
UV := $(UV_HOME)/bin/uv
UV_VERSION ?= 0.13.9
PLAY_STAMP := $(VENV)/.installed-play
TEST_STAMP := $(VENV)/.installed-test
BENCH_STAMP := $(VENV)/.installed-bench
LATEST := .venv-latest
# uv uses the interpreter named here and never downloads one of its own.
export UV_PYTHON_DOWNLOADS := never
export UV_PROJECT_ENVIRONMENT := $(VENV)
SYNC := $(UV) sync --frozen --inexact --python $(PYTHON)

.PHONY: run play test checks lint typecheck unit bench lock lock-uv test-latest clean

$(UV): tools/setup/uv.txt
	@echo "stich set-up [1/2]: the installer uv $(UV_VERSION) (pinned with hashes) into $(UV_HOME)/ ..."
	@rm -rf $(UV_HOME)
	@$(PYTHON) -m venv $(UV_HOME)
	@$(UV_HOME)/bin/python -m pip install --quiet --disable-pip-version-check --require-hashes -r tools/setup/uv.txt
	@$(UV) --version

$(PLAY_STAMP): pyproject.toml uv.lock | $(UV)
	@echo "stich set-up [2/2]: the locked packages play needs into $(VENV)/ (about 30 packages, 60 MB to download the first time) ..."
	@$(SYNC)
	@touch $@

$(TEST_STAMP): pyproject.toml uv.lock | $(UV)
	@echo "stich set-up [2/2]: the locked packages of play and of every check (extra 'all': dev, research, cluster) into $(VENV)/ ..."
	@$(SYNC) --extra all
	@touch $@ $(PLAY_STAMP)

$(BENCH_STAMP): pyproject.toml uv.lock | $(UV)
	@echo "stich set-up [2/2]: the locked packages of every check and of the benchmarks' peers (extra 'bench') into $(VENV)/ ..."
	@$(SYNC) --extra all --extra bench
	@touch $@ $(TEST_STAMP) $(PLAY_STAMP)

run: $(PLAY_STAMP)
	$(BIN)/stich serve

play: $(PLAY_STAMP)
	$(BIN)/stich play doppelkopf

test: $(TEST_STAMP)
	@$(MAKE) --no-print-directory checks BIN=$(BIN)

# The checks, with the tools of BIN (the locked .venv, or .venv-latest for `make test-latest`).
checks:
	$(BIN)/ruff check src tests bench tools
	$(BIN)/ruff format --check src tests bench tools
	$(BIN)/mypy --strict src/stich
	$(BIN)/lint-imports --no-cache
	$(BIN)/pytest -n auto

bench: $(BENCH_STAMP)
	$(BIN)/python bench/bench_doppelkopf.py
	$(BIN)/python bench/bench_search.py
	$(BIN)/python bench/bench_sampling.py

# Refresh the lock to the newest releases pyproject.toml allows, then run `make test` to see it green.
lock: | $(UV)
	$(UV) lock --upgrade --python $(PYTHON)

# Pin another release of the installer itself (the hashes of all its wheels).
lock-uv: | $(UV)
	@{ echo "# The installer the Makefile bootstraps into .uv/ with: pip install --require-hashes -r tools/setup/uv.txt"; \
	   echo "# Made by: make lock-uv UV_VERSION=$(UV_VERSION) (hashes of every wheel of that release)"; \
	   echo "uv==$(UV_VERSION)" | (cd /tmp && $(CURDIR)/$(UV) pip compile - --generate-hashes --no-header --quiet --universal); \
	 } > tools/setup/uv.txt.new && mv tools/setup/uv.txt.new tools/setup/uv.txt

# The newest releases pyproject.toml allows, ignoring the lock, in a venv of their own: what would break next.
# Never part of `make test` or CI; run it before `make lock`.
test-latest: | $(UV)
	@echo "stich: the newest allowed releases (not the lock) into $(LATEST)/ ..."
	@$(UV) venv --quiet --allow-existing --python $(PYTHON) $(LATEST)
	@$(UV) pip install --quiet --python $(LATEST)/bin/python --upgrade --reinstall-package stich -e '.[all]'
	@$(MAKE) --no-print-directory checks BIN=$(LATEST)/bin

clean:
	rm -rf $(VENV) $(LATEST) $(UV_HOME) build dist *.egg-info src/*.egg-info .mypy_cache .pytest_cache .ruff_cache
