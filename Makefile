PYTHON ?= python

.PHONY: check lint types test slow docs ci

check: lint types test

lint:
	$(PYTHON) -m ruff check .
	$(PYTHON) -m ruff format --check .

types:
	$(PYTHON) -m mypy

test:
	$(PYTHON) -m pytest

# the tests left out of `make test`: every shipped exercise in full, the sandbox in 7 environments
slow:
	$(PYTHON) -m pytest -m slow

# the documentation site (docs/ and mkdocs.yml), built outside the checkout: SITE_DIR=... to choose
SITE_DIR ?= $(or $(TMPDIR),/tmp)/grade-site
docs:
	$(PYTHON) -m mkdocs build --strict --site-dir "$(SITE_DIR)"

# everything CI runs, in a fresh venv of its own
ci:
	bash .ci/run
