# Deep Sea Rules Lab — the two quick-start commands and their helpers.
#   make serve   set up .venv and serve the dashboards with Voila on http://127.0.0.1:8866
#   make test    set up .venv and run every test: unit, property, notebooks (nbval), browser (Chromium)

PYTHON   ?= python3
VENV     ?= .venv
BIN      := $(VENV)/bin
STAMP    := $(VENV)/.deepsea-installed
CHROMIUM ?= /usr/bin/chromium
PORT     ?= 8866
# Extra Voila options for `make serve`, e.g. a preheated pool (docs/publishing.md, "Preheating"):
#   make serve VOILA_ARGS='--preheat_kernel=True --pool_size=1'
VOILA_ARGS ?=
# Jupyter/IPython state stays inside the checkout, never in $HOME. No JUPYTER_PATH: the deepsea Voila template
# is installed with the package (<venv>/share/jupyter/voila/templates/deepsea), so `make serve`, a plain
# `voila dashboards` and JupyterLab's Voila preview all use the same copy.
JUPYTER_TMP := $(CURDIR)/.jupyter-tmp
export JUPYTER_CONFIG_DIR  := $(JUPYTER_TMP)/config
export JUPYTER_DATA_DIR    := $(JUPYTER_TMP)/data
export JUPYTER_RUNTIME_DIR := $(JUPYTER_TMP)/runtime
export IPYTHONDIR          := $(JUPYTER_TMP)/ipython
export PIP_DISABLE_PIP_VERSION_CHECK := 1

PYTEST_NBVAL := --nbval --nbval-current-env --nbval-cell-timeout=600 \
                --nbval-sanitize-with tests/nbval-sanitize.cfg

.PHONY: serve test install check-chromium test-fast notebooks twins docs screenshots clean

# pip copies the template into the venv (also for -e): install again when it changes.
TEMPLATE_FILES := $(shell find share/jupyter/voila/templates/deepsea -type f -not -name 'plotly-*' -not -name '*.partial')

$(STAMP): pyproject.toml $(TEMPLATE_FILES)
	@$(PYTHON) -c 'import sys; assert sys.version_info >= (3, 11), "Python 3.11+ is needed, found " + sys.version.split()[0]'
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[dashboards,test]"
	@touch $(STAMP)

install: $(STAMP)

serve: $(STAMP)
	@echo "Serving the dashboards at http://127.0.0.1:$(PORT)/  (Ctrl-C stops)"
	@# plotly.js is served once per page from the template (git-ignored copy of the installed plotly's file)
	$(BIN)/python -m toolkit.publishing.assets
	$(BIN)/voila dashboards --port=$(PORT) --no-browser $(VOILA_ARGS)

check-chromium:
	@test -x $(CHROMIUM) || { echo "Chromium is missing; install it with: sudo apt-get update && sudo apt-get install -y chromium"; exit 1; }

# pytest-xdist: TEST_WORKERS processes (2 for the 2-core target machine; `make test TEST_WORKERS=1` runs in
# one process). --dist loadfile keeps each file on one worker: a notebook's cells share one kernel (nbval),
# a module's fixtures (servers) are started once. Measurements and reasons: docs/testing.md.
TEST_WORKERS ?= 2

test: $(STAMP) check-chromium
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile tests notebooks dashboards $(PYTEST_NBVAL)

# Without the browser and notebooks: the quick loop while editing engines.
test-fast: $(STAMP)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadfile tests --ignore=tests/browser -q

# Re-execute the teaching notebooks in place (outputs kept, widget state dropped) after changing them,
# then give every notebook the kernel metadata ipykernel writes (opening one then changes nothing).
notebooks: $(STAMP)
	$(BIN)/jupyter nbconvert --to notebook --execute --inplace \
	    --ExecutePreprocessor.store_widget_state=False --ExecutePreprocessor.timeout=600 \
	    $$(find notebooks -name '*.ipynb' -not -path '*/.ipynb_checkpoints/*' | sort)
	@# nbconvert keeps an old kernelspec; JupyterLab would rewrite it on open (toolkit/publishing/nbmeta.py)
	$(BIN)/python -m toolkit.publishing.nbmeta notebooks dashboards

# The bilingual notebooks: notebooks/source/<game>/<name>.nb.md makes notebooks/<game>/<name>.ipynb and
# notebooks/<game>/ja/<name>.ipynb (toolkit/publishing/nbtwin.py); the twins whose cells changed are executed.
twins: $(STAMP)
	PYTHONPATH=$(CURDIR) $(BIN)/python -m toolkit.publishing.nbtwin --execute

# Gallery thumbnails (dashboards/assets/thumbnails/) and the README's pictures (docs/images/), each PNG < 200 kB.
screenshots: $(STAMP) check-chromium
	$(BIN)/python -m toolkit.publishing.assets
	$(BIN)/python -m toolkit.publishing.screenshots

# Regenerate docs/rules/<game>.md from the rule registry.
docs: $(STAMP)
	$(BIN)/python -m toolkit.core.rules --write docs/rules

clean:
	rm -rf $(VENV) $(JUPYTER_TMP) build dist *.egg-info
