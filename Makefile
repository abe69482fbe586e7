# Quick start: `make run` (demonstration) and `make test` (test suite; `make test-fast` leaves out
# the tests marked slow). `make lint` runs ruff (lint and format check) and mypy.
# Both create .venv if it is missing and install the project into it from PyPI.
VENV := .venv
PY := $(VENV)/bin/python
RETRO := $(VENV)/bin/retro
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint clean

$(PY):
	python3 -m venv $(VENV)

$(STAMP): $(PY) pyproject.toml
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[test,lint,dask]'
	touch $(STAMP)

run: $(STAMP)
	@echo '--- retro check: static illegality rules'
	$(RETRO) check 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
	$(RETRO) check 'rnbqkbnr/p1pppppp/p7/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1'
	$(RETRO) check '4k3/8/8/8/B7/8/8/K3R3 b - - 0 1'
	@echo '--- retro revmoves: every possible last move (texel documentation example)'
	$(RETRO) revmoves 'rnbqk1nr/ppp2ppp/4p3/3p4/1b1P4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 1'
	@echo '--- retro lastmove: Angelini, Europe Echecs 1995, White retracts three moves'
	$(RETRO) lastmove 8/8/3r4/4K3/8/4kqpb/8/8 --retract w --moves 3

test: $(STAMP)
	$(VENV)/bin/pytest -q -n 2

test-fast: $(STAMP)
	$(VENV)/bin/pytest -q -n 2 -m "not slow"

LINTED := retro proofkernel astar cages tests bench

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED)
	$(VENV)/bin/mypy $(LINTED)

clean:
	rm -rf $(VENV) build *.egg-info
