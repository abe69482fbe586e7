"""The ``retro`` command-line tool: argparse subcommands discovered in
:mod:`retro.commands`.

Errors a user can cause (a bad FEN, a missing file, a bad option value) print one line
on stderr and exit with code 2, never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import retro
import retro.commands

__all__ = ["main", "build_parser"]

# Commands listed in this order in --help; any other module in retro.commands follows.
_ORDER = [
    "check", "revmoves", "proofkernel", "proofgame", "spg", "lastmove", "cage",
    "unwinnable", "dead", "rndfen", "estimate", "krk",
]


def _command_modules() -> list[str]:
    found = {m.name for m in pkgutil.iter_modules(retro.commands.__path__) if not m.name.startswith("_")}
    return [n for n in _ORDER if n in found] + sorted(found - set(_ORDER))


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="retro",
        description="Chess retrograde analysis: legality proofs, last moves, cages, "
        "unwinnability and counting legal positions.",
    )
    parser.add_argument("--version", action="version", version=f"retro {retro.__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _command_modules():
        importlib.import_module(f"retro.commands.{name}").register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # `retro ... | head` (before OSError, of which it is one)
        sys.stderr.close()
        return 0
    except (ValueError, OSError) as error:  # InvalidFenError and friends, missing files
        print(f"retro {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"retro {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
