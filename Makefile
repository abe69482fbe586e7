# Quick start: `make run` (demonstration), `make test` (test suite; `make test-fast` leaves out
# the tests marked slow) and `make serve` (the workbench at http://127.0.0.1:8000/).
# `make lint` runs ruff (lint and format check), mypy and import-linter (the layers, pyproject.toml).
# All create .venv if it is missing and install the project into it from PyPI.
VENV := .venv
PY := $(VENV)/bin/python
RETRO := $(VENV)/bin/retro
STAMP := $(VENV)/.installed

.PHONY: run test test-fast lint serve clean

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
	@echo '--- retro proofgame: a real position (Lichess game luLId6we, move 20) proved legal by a proof game'
	$(RETRO) proofgame 'r3k1r1/ppp2p1p/8/2q1p2K/8/5P2/PPn1N1PP/R1B4R w q - 2 20' -t 60 --board
	@echo '--- retro proofgame: a position of Tromp'"'"'s random sample proved illegal'
	$(RETRO) proofgame '4RR2/p2n3p/1kqr1Q1N/1pq5/1Nb1P2P/4p1bb/bq3QKn/1QR2rB1 w - - 0 1' -t 30
	@echo '--- retro dead: a blocked position where neither side can ever mate (FIDE 5.2.2)'
	$(RETRO) dead '8/1p3k2/pPp3p1/P1Pp1pPp/2bP1P1P/4BK2/8/8 w - -'
	@echo '--- retro cage: Hwa'"'"'s cage around the black king (2022)'
	$(RETRO) cage 8/8/8/8/8/8/PPkPP3/KR1b4 --depth 5
	@echo '--- retro revmoves: every possible last move (texel documentation example)'
	$(RETRO) revmoves 'rnbqk1nr/ppp2ppp/4p3/3p4/1b1P4/2N5/PPPQPPPP/R1B1KBNR w KQkq - 0 1'
	@echo '--- retro lastmove: Angelini, Europe Echecs 1995, White retracts three moves'
	$(RETRO) lastmove 8/8/3r4/4K3/8/4kqpb/8/8 --retract w --moves 3

serve: $(STAMP)
	$(RETRO) serve

test: $(STAMP)
	$(VENV)/bin/pytest -q -n 2

test-fast: $(STAMP)
	$(VENV)/bin/pytest -q -n 2 -m "not slow"

LINTED := retro proofkernel astar cages tests bench

lint: $(STAMP)
	$(VENV)/bin/ruff check $(LINTED)
	$(VENV)/bin/ruff format --check $(LINTED)
	$(VENV)/bin/mypy $(LINTED)
	$(VENV)/bin/lint-imports

clean:
	rm -rf $(VENV) build *.egg-info
