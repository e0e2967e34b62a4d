PYTHON ?= python

.PHONY: check lint types test

check: lint types test

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

types:
	$(PYTHON) -m mypy

test:
	$(PYTHON) -m pytest
