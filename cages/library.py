"""The library of known cages: a plain text file, one cage per line.

Line format (the prototype's, plus ``forbid``)::

    <board> [zone=a1,b2] [frozen=g1] [depth=20] [forbid=dxe,exd]   # comment

``zone=`` lists squares added to the default zone (the occupied squares and their
king-move neighbours), as in the prototype.

``board`` is a piece placement (first FEN field). A position that contains a known
cage (the cage's units on the same squares, more units elsewhere allowed) is illegal,
provided the cage's assumptions (frozen units, forbidden pawn captures) are among the
assumptions of the question asked: a cage verified while g1 was frozen says nothing
about positions where the unit on g1 may have moved.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path

import chess

from cages.verify import Options
from retro.core.position import InvalidFenError, parse_board

__all__ = ["CageSpec", "KnownCage", "Library", "parse_spec", "DEFAULT_LIBRARY", "default_library"]

DEFAULT_LIBRARY = Path(__file__).resolve().parent.parent / "data" / "cages.txt"
"""The project's library of verified cages (``data/cages.txt``): what ``retro lastmove``
reads by default and what ``retro serve`` offers, when it is present."""


def default_library() -> Path | None:
    """:data:`DEFAULT_LIBRARY` when the file exists, else None."""
    return DEFAULT_LIBRARY if DEFAULT_LIBRARY.is_file() else None


NO_ASSUMPTIONS = Options()
"""No frozen units, no forbidden captures: the assumptions of a question about a full position."""


@dataclasses.dataclass(frozen=True)
class CageSpec:
    """A claimed cage and the options to verify it with."""

    board: chess.Board
    zone_extra: chess.Bitboard = 0
    options: Options = Options()
    depth: int = 20

    def line(self) -> str:
        parts = [self.board.board_fen()]
        if self.zone_extra:
            parts.append("zone=" + ",".join(chess.square_name(s) for s in chess.SquareSet(self.zone_extra)))
        if self.options.frozen:
            parts.append("frozen=" + ",".join(chess.square_name(s) for s in sorted(self.options.frozen)))
        if self.options.forbid:
            parts.append(
                "forbid="
                + ",".join(f"{chess.FILE_NAMES[a]}x{chess.FILE_NAMES[b]}" for a, b in sorted(self.options.forbid))
            )
        parts.append(f"depth={self.depth}")
        return " ".join(parts)


def parse_squares(text: str) -> chess.Bitboard:
    mask = 0
    for name in filter(None, (t.strip() for t in text.split(","))):
        try:
            mask |= chess.BB_SQUARES[chess.parse_square(name)]
        except ValueError:
            raise InvalidFenError(f"not a square: {name!r}") from None
    return mask


def parse_forbid(text: str) -> frozenset[tuple[int, int]]:
    pairs = set()
    for item in filter(None, (t.strip() for t in text.split(","))):
        if (
            len(item) != 3
            or item[1] != "x"
            or item[0] not in "abcdefgh"
            or item[2] not in "abcdefgh"
            or abs(ord(item[0]) - ord(item[2])) != 1
        ):
            raise InvalidFenError(f"a forbidden pawn capture looks like 'dxe' (adjacent files), got {item!r}")
        pairs.add((ord(item[0]) - ord("a"), ord(item[2]) - ord("a")))
    return frozenset(pairs)


def parse_spec(line: str, *, depth: int = 20) -> CageSpec:
    """Parse ``<board> zone=.. frozen=.. depth=N forbid=..`` (keys optional)."""
    text = line.split("#", 1)[0].strip()
    if not text:
        raise InvalidFenError("empty cage line")
    tokens = text.split()
    board = parse_board(tokens[0])
    fields: dict[str, str] = {}
    for token in tokens[1:]:
        if "=" not in token:
            raise InvalidFenError(f"expected key=value after the board, got {token!r}")
        key, value = token.split("=", 1)
        if key not in ("zone", "frozen", "depth", "forbid"):
            raise InvalidFenError(f"unknown cage option {key!r} (zone, frozen, depth, forbid)")
        fields[key] = value
    frozen = parse_squares(fields.get("frozen", ""))
    for square in chess.SquareSet(frozen):
        if board.piece_at(square) is None:
            raise InvalidFenError(f"frozen square {chess.square_name(square)} is empty")
    if "depth" in fields and not fields["depth"].isdigit():
        raise InvalidFenError(f"depth must be a number, got {fields['depth']!r}")
    return CageSpec(
        board=board,
        zone_extra=parse_squares(fields.get("zone", "")),
        options=Options(frozenset(chess.SquareSet(frozen)), parse_forbid(fields.get("forbid", ""))),
        depth=int(fields.get("depth", depth)),
    )


@dataclasses.dataclass(frozen=True)
class KnownCage:
    units: tuple[tuple[chess.Square, chess.Piece], ...]
    options: Options
    text: str

    def __str__(self) -> str:
        return self.text


def _reachable_counts(units: dict[chess.Square, chess.Piece]) -> dict[chess.Color, tuple[int, dict[int, int]]]:
    """Per colour: the number of units other than the king, and the count of each kind."""
    counts: dict[chess.Color, tuple[int, dict[int, int]]] = {}
    for color in chess.COLORS:
        kinds = {kind: 0 for kind in chess.PIECE_TYPES}
        for piece in units.values():
            if piece.color == color:
                kinds[piece.piece_type] += 1
        counts[color] = (sum(kinds.values()) - kinds[chess.KING], kinds)
    return counts


def _could_arise(cage: KnownCage, zone: chess.Bitboard, counts: dict[chess.Color, tuple[int, dict[int, int]]]) -> bool:
    """Can the units of ``cage`` all stand in some state of a cage verification that
    starts from units of these ``counts`` in ``zone``? See :meth:`Library.narrowed`."""
    mine = _reachable_counts(dict(cage.units))
    for color in chess.COLORS:
        total, kinds = counts[color]
        cage_total, cage_kinds = mine[color]
        if cage_total > total or cage_kinds[chess.KING] > kinds[chess.KING]:
            return False
        if any(cage_kinds[kind] > kinds[kind] for kind in (chess.QUEEN, chess.ROOK, chess.BISHOP, chess.KNIGHT)):
            return False
    return all(zone & chess.BB_SQUARES[square] for square, _piece in cage.units)


@dataclasses.dataclass(frozen=True)
class NarrowedLibrary:
    """The cages of a library that can matter to one verification (:meth:`Library.narrowed`)."""

    cages: tuple[KnownCage, ...]

    def contains(self, units: dict[chess.Square, chess.Piece], options: Options = NO_ASSUMPTIONS) -> KnownCage | None:
        """As :meth:`Library.contains`, among these cages."""
        return _first_contained(self.cages, units, options)


def _first_contained(
    cages: tuple[KnownCage, ...] | list[KnownCage], units: dict[chess.Square, chess.Piece], options: Options
) -> KnownCage | None:
    for cage in cages:
        if not cage.options.frozen <= options.frozen or not cage.options.forbid <= options.forbid:
            continue
        if all(units.get(square) == piece for square, piece in cage.units):
            return cage
    return None


class Library:
    """Known cages, in memory, optionally backed by a file that verified cages are added to."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path) if path is not None else None
        self.cages: list[KnownCage] = []
        self.cache: dict = {}
        self.lemmas: dict = {}  # lemma cages tried by the verifier (cages.verify), reused for the run

    @classmethod
    def load(cls, path: str | Path, *, read_only: bool = False) -> Library:
        """Read a library file (a missing file is an empty library, created on first add).
        With ``read_only`` cages added later stay in memory and the file is not written."""
        library = cls(path)
        if library.path is not None and library.path.exists():
            for number, line in enumerate(library.path.read_text(encoding="utf-8").splitlines(), 1):
                if line.split("#", 1)[0].strip():
                    try:
                        library._remember(parse_spec(line))
                    except InvalidFenError as error:
                        raise InvalidFenError(f"{library.path}:{number}: {error}") from None
        if read_only:
            library.path = None
        return library

    def __iter__(self) -> Iterator[KnownCage]:
        return iter(self.cages)

    def _remember(self, spec: CageSpec) -> KnownCage:
        cage = KnownCage(tuple(sorted(spec.board.piece_map().items())), spec.options, spec.line())
        if all(c.text != cage.text for c in self.cages):
            self.cages.append(cage)
        return cage

    def add(self, spec: CageSpec) -> None:
        """Add a verified cage (and append it to the file, if the library has one)."""
        before = len(self.cages)
        self._remember(spec)
        if self.path is not None and len(self.cages) > before:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write(spec.line() + "\n")

    def contains(self, units: dict[chess.Square, chess.Piece], options: Options = NO_ASSUMPTIONS) -> KnownCage | None:
        """A known cage whose units all stand in ``units`` and whose assumptions hold."""
        return _first_contained(self.cages, units, options)

    def narrowed(self, zone: chess.Bitboard, units: dict[chess.Square, chess.Piece]) -> NarrowedLibrary:
        """The known cages that can stand in a state of a cage verification (and of the
        lemma searches inside it) that starts from ``units`` and keeps its units in ``zone``
        (the caller widens ``zone`` by a king step for the lemmas' zones): what the
        verifier asks this library, answered from fewer cages and with the same answers.

        Rule: a cage is left out when one of its squares is outside ``zone``, or when for
        one colour it has more units other than the king, more kings, or more queens,
        rooks, bishops or knights than ``units``. Proof that such a cage is in no state:
        the retractions of :mod:`cages.retractions` move a unit within the zone (a unit
        that leaves it is dropped), keep its colour, and change its kind only from a piece
        to a pawn (an undone promotion); uncaptures add no unit. So each unit of a state
        is one of ``units``, on a square of ``zone``, of the same colour, and of the same
        kind or a pawn where it was a piece; a cage standing in the state would have each
        of its units matched to a different one of ``units`` that way, which the counts
        above forbid."""
        counts = _reachable_counts(units)
        return NarrowedLibrary(tuple(cage for cage in self.cages if _could_arise(cage, zone, counts)))

    def contains_cage(self, board: chess.Board) -> KnownCage | None:
        """For a full position (no assumptions): a known unconditional cage it contains."""
        return self.contains(board.piece_map())
