"""``retro rndfen N [SEED]``: uniform samples of the space S of :mod:`retro.sampling`
(texelutil rndfen).

Output: a first line ``# rndfen: samples N seed S size |S| multiplier |S|/N`` (a comment,
so the output is valid input for ``retro proofgame -f``), then one FEN per draw in
Tromp's sample format: field 5 is 0, field 6 the multiplicity m of the position in S.
As in texelutil, draws the static rules (:func:`retro.core.rules.check_static`) prove illegal
are not printed unless ``--all`` is given; they are still counted in N. With L legal
lines, ``multiplier * sum(1/m)`` over them is an unbiased estimate of the number of
legal positions (paper 002; ``retro estimate --status FILE --samples N --size |S|``
computes it with its confidence interval).
"""

from __future__ import annotations

import argparse
import random
import sys

from retro.batch import emit, show_progress

__all__ = ["register", "run", "header"]


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser(
        "rndfen",
        help="uniform random positions of the sample space S, with multiplicities (texelutil rndfen)",
        description="Draw N uniform elements of the sample space S (every legal position is in it; see "
        "retro/sampling.py for its definition and size) and print them as FENs with the multiplicity m in "
        "field 6. Draws the static rules prove illegal are counted but not printed (use --all to print "
        "them). The first line gives the multiplier |S|/N: multiplier * sum(1/m) over the legal lines "
        "estimates the number of legal chess positions.",
        epilog="example: retro rndfen 1000 7 | retro proofgame -f -o out",
    )
    parser.add_argument("count", type=int, metavar="N", help="number of draws")
    parser.add_argument(
        "seed",
        type=int,
        nargs="?",
        metavar="SEED",
        help="random seed (default: from the clock, printed in the first line)",
    )
    parser.add_argument("--all", action="store_true", help="also print the draws the static rules prove illegal")
    parser.add_argument(
        "--json",
        action="store_true",
        help="JSON Lines: a header {samples, seed, size, multiplier}, then {fen, m, draw} per sample",
    )
    parser.add_argument("--progress", action="store_true", help="progress bar on stderr even when not a terminal")
    parser.set_defaults(func=run)


def header(samples: int, seed: int) -> dict:
    from retro.sampling import STANDARD

    return {"samples": samples, "seed": seed, "size": STANDARD.size, "multiplier": STANDARD.size / samples}


def run(args: argparse.Namespace) -> int:
    from tqdm import tqdm

    from retro.core.rules import check_static
    from retro.sampling import draws, sample_fen

    if args.count <= 0:
        raise ValueError(f"N must be a positive number of draws, got {args.count}")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**32)
    info = header(args.count, seed)
    text = f"# rndfen: samples {args.count} seed {seed} size {info['size']} multiplier {info['multiplier']:.6e}"
    emit(info, text, as_json=args.json)
    printed = 0
    bar = tqdm(
        draws(args.count, seed),
        total=args.count,
        desc="rndfen",
        unit="draw",
        disable=not show_progress(args),
        file=sys.stderr,
        dynamic_ncols=True,
    )
    for index, board in enumerate(bar):
        if not args.all and check_static(board).status == "illegal":
            continue
        fen = sample_fen(board)
        printed += 1
        emit({"fen": fen, "m": int(fen.split()[5]), "draw": index}, fen, as_json=args.json)
    print(
        f"rndfen: printed {printed} of {args.count} draws"
        + ("" if args.all else f" ({args.count - printed} proven illegal by the static rules)"),
        file=sys.stderr,
    )
    return 0
