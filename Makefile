# The two commands a new machine needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test lint bench simulate clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

# Re-install whenever pyproject.toml changes.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(STAMP)

install: $(STAMP)

# The server on 127.0.0.1:8000, SQLite at ./var/tablee.db, migrations applied at start-up.
run: $(STAMP)
	$(BIN)/tablee serve

simulate: $(STAMP)
	$(BIN)/tablee simulate --game contrecarte --players 4 --seed 1

# The browser tests drive Debian's Chromium (never a browser downloaded by Playwright); nginx
# checks the shipped proxy config (tests/test_deploy.py).
test: $(STAMP)
	@test -x /usr/bin/chromium || { apt-get update && apt-get install -y chromium; }
	@test -x /usr/sbin/nginx || { apt-get update && apt-get install -y nginx-light; }
	$(BIN)/python -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[test,bench]'
	$(BIN)/python bench/engines.py

clean:
	rm -rf $(VENV) var
