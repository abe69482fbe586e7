"""The ``retro`` command-line tool: argparse subcommands discovered in
:mod:`retro.commands`.

Errors a user can cause (a bad FEN, a missing file, a bad option value) print one line
on stderr and exit with code 2, never a traceback; the message shows the input cut to
a short prefix, with control characters escaped (:func:`retro.core.position.excerpt`).

Start-up: a command module imports only argparse and light helpers at its top; the
heavy libraries (OR-Tools, SciPy, NumPy, networkx) are imported by the functions that
use them. ``retro COMMAND ...`` registers that command's parser alone; ``retro
--help`` registers them all.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

import retro
import retro.commands
from retro.core.position import excerpt

__all__ = ["main", "build_parser"]

# Commands listed in this order in --help; any other module in retro.commands follows.
_ORDER = [
    "check",
    "revmoves",
    "proofkernel",
    "proofgame",
    "spg",
    "lastmove",
    "cage",
    "unwinnable",
    "dead",
    "rndfen",
    "estimate",
    "krk",
]


def _command_modules() -> list[str]:
    found = {m.name for m in pkgutil.iter_modules(retro.commands.__path__) if not m.name.startswith("_")}
    return [n for n in _ORDER if n in found] + sorted(found - set(_ORDER))


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of the command ``only`` alone."""
    parser = argparse.ArgumentParser(
        prog="retro",
        description="Chess retrograde analysis: legality proofs, last moves, cages, "
        "unwinnability and counting legal positions.",
    )
    parser.add_argument("--version", action="version", version=f"retro {retro.__version__}")
    subparsers = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in _command_modules():
        if only is not None and name != only:
            continue
        importlib.import_module(f"retro.commands.{name}").register(subparsers)
    return parser


def _command_named(argv: Sequence[str]) -> str | None:
    """The command of ``argv`` when its first word names one (the usual case)."""
    if argv and argv[0] in _command_modules():
        return argv[0]
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_named(argv))
    args = parser.parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except BrokenPipeError:  # `retro ... | head` (before OSError, of which it is one)
        sys.stderr.close()
        return 0
    except (ValueError, OSError) as error:  # InvalidFenError and friends, missing files
        print(f"retro {args.command}: error: {excerpt(str(error), 300)}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"retro {args.command}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
