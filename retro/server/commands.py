"""The commands of the HTTP API: one request model per command and the command line it runs.

A request is turned into the argument list of ``retro COMMAND ... --json``; the worker
(:mod:`retro.server.worker`) runs that command line, so a response holds the CLI's
``--json`` record and a bad request gets the CLI's own one-line message. Each request
may ask for a node budget (``max_nodes``) and a time limit (``time_limit``, seconds);
both are capped by the operator's maximums (:class:`Limits`, options of ``retro serve``),
and default to the command's default node budget and to the operator's maximum time.

Time limits. A request's time limit T is the server's kill: at T the pool kills the
worker (and replaces it) and the answer is 504. That is the backstop, not the normal
path: every command that searches has a time limit of its own (``time_option``:
proofgame, lastmove, cage, unwinnable, dead, spg), and is given :func:`own_time` (T) =
max(0.9 T - 0.5 s, T / 2), so it stops itself and answers 200 with its budget-exhausted
record (``unknown``, ``undetermined``, ``not_verified``, ...) while the margin, at least
0.5 s and a tenth of T (half of T below 1 s), covers what runs past the command's own
limit (its last phase's overrun, writing the record, the pipe). check and revmoves,
which are fast, and the dead batch (whose lines each have the command's limit, not the
request's) are stopped by the kill alone.
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field

from retro.server.worker import INPUT

__all__ = ["Limits", "Call", "CommandRequest", "REQUESTS", "Budgets", "DeadBatchRequest", "SpgRequest", "own_time"]


@dataclasses.dataclass(frozen=True)
class Limits:
    """The operator's maximums (``retro serve`` options)."""

    max_time: float = 60.0  # seconds per request
    max_nodes: int = 1_000_000  # node budget per request (each command's own unit)
    max_batch: int = 1000  # FENs per batch request
    cages: str | None = None  # known-cage library for ``lastmove`` with ``cages: true``


def own_time(kill: float) -> float:
    """The time limit a command is given when the server kills it at ``kill`` seconds
    (module docstring): max(0.9 ``kill`` - 0.5, ``kill`` / 2), in hundredths of a second."""
    return round(max(kill * 0.9 - 0.5, kill / 2), 2)


@dataclasses.dataclass(frozen=True)
class Call:
    """A command line to run, with its time limit (and the batch input, if any)."""

    argv: list[str]
    time_limit: float
    inputs: str | None = None


class Budgets(BaseModel):
    """The budgets every request may ask for; unknown fields are refused."""

    model_config = ConfigDict(extra="forbid")
    command: ClassVar[str]
    default_nodes: ClassVar[int] = 0  # the command's own default node budget; 0 when it takes none
    node_option: ClassVar[str] = ""  # the command's option for it
    time_option: ClassVar[str] = ""  # the command's own time limit option, if it has one

    time_limit: float | None = Field(None, gt=0, description="seconds; capped by the server's maximum")
    max_nodes: int | None = Field(
        None, gt=0, description="node budget; capped by the server's maximum (check and revmoves take none)"
    )

    def seconds(self, limits: Limits) -> float:
        return min(self.time_limit or limits.max_time, limits.max_time)

    def nodes(self, limits: Limits) -> int:
        return min(self.max_nodes or self.default_nodes, limits.max_nodes)

    def budget_options(self, limits: Limits) -> list[str]:
        """The node budget and the command's own time limit (:func:`own_time`), as options."""
        nodes = [self.node_option, str(self.nodes(limits))] if self.node_option else []
        seconds = [self.time_option, f"{own_time(self.seconds(limits)):g}"] if self.time_option else []
        return nodes + seconds

    def call(self, limits: Limits) -> Call:
        """The command line this request runs (``ValueError`` for a request it cannot run)."""
        raise NotImplementedError


class CommandRequest(Budgets):
    """A request about one position."""

    fen: str = Field(description="the position (FEN; a bare piece placement for lastmove and cage)", max_length=200)

    def options(self, limits: Limits) -> list[str]:
        """The command's options, before ``--`` and the positional arguments."""
        return []

    def positionals(self) -> list[str]:
        return [self.fen]

    def call(self, limits: Limits) -> Call:
        argv = [self.command, "--json", *self.budget_options(limits), *self.options(limits), "--", *self.positionals()]
        return Call(argv, self.seconds(limits))


class CheckRequest(CommandRequest):
    """``retro check``: the static illegality rules."""

    command: ClassVar[str] = "check"


class RevmovesRequest(CommandRequest):
    """``retro revmoves``: every possible last move."""

    command: ClassVar[str] = "revmoves"
    no_ep_square: bool = Field(False, description="texel's includeEpSquare=false (the list is then incomplete)")

    def options(self, limits: Limits) -> list[str]:
        return ["--no-ep-square"] if self.no_ep_square else []


class ProofgameRequest(CommandRequest):
    """``retro proofgame``: legal with a proof game, illegal, or unknown."""

    command: ClassVar[str] = "proofgame"
    default_nodes: ClassVar[int] = 200_000
    node_option: ClassVar[str] = "-m"
    time_option: ClassVar[str] = "-t"
    seed: int = Field(0, ge=0, description="seed of the random tie-breaking (--rnd)")
    weight: str = Field("1:5", pattern=r"^\d+:\d+$", description="A*g + B*h weights (-w)")
    init: str | None = Field(None, max_length=200, description="search from this FEN instead of the start (-i)")

    def options(self, limits: Limits) -> list[str]:
        own = ["--rnd", str(self.seed), "-w", self.weight]
        return own + (["-i", self.init] if self.init else []) + ["-v"]


MAX_CAGE_CLAIMS = 32
"""The most cages a last-move request may bring (each is verified before use)."""


class CageFields(BaseModel):
    """What ``retro cage`` takes besides the placement: the zone, frozen units, forbidden
    pawn captures and depth bound (a cage request's and a cage claim's fields)."""

    zone: list[str] = Field([], max_length=64, description="squares added to the zone")
    frozen: list[str] = Field([], max_length=64, description="units that may not move")
    forbid: list[str] = Field([], max_length=14, description="pawn captures that may not be retracted, e.g. dxe")
    depth: int = Field(20, ge=0, le=200, description="depth bound in retractions")


class CageClaim(CageFields):
    """A claimed cage for the last-move solver: a piece placement and the cage's fields, as
    ``retro cage`` takes them."""

    model_config = ConfigDict(extra="forbid")
    fen: str = Field(description="the cage's units (a piece placement)", max_length=100)

    def line(self) -> str:
        """The claim as a line of a known-cage library (``retro cage -f``)."""
        fields = {"zone": self.zone, "frozen": self.frozen, "forbid": self.forbid}
        words = [self.fen.split()[0] if self.fen.strip() else "-"]
        words += [f"{key}={','.join(value)}" for key, value in fields.items() if value]
        return " ".join([*words, f"depth={self.depth}"])


class LastmoveRequest(CommandRequest):
    """``retro lastmove``: which were the last N moves? The FEN goes to the command whole, so
    a full FEN's side to move (the other side moved last), castling rights and en-passant
    square are the user's statement, read by the command's own parser; ``retract``, when
    given, must agree with it (else the command's error, HTTP 400). ``cages``: None (the
    default) uses the server's known-cage library when it has one, like the command line's
    default library; True requires it; False uses none. The library is only read. The
    command stops itself a little before the server's kill, with its verdict so far."""

    command: ClassVar[str] = "lastmove"
    default_nodes: ClassVar[int] = 20_000
    node_option: ClassVar[str] = "--max-nodes"
    time_option: ClassVar[str] = "--time-limit"
    retract: Literal["w", "b", "both"] | None = Field(
        None, description="the side that made the last move (default: the FEN's, or both for a placement)"
    )
    moves: int = Field(1, ge=1, le=20, description="number of moves to retract")
    extra_depth: int = Field(3, ge=0, le=20, description="retro-stalemate depth")
    cages: bool | list[CageClaim] | None = Field(
        None,
        description="the known cages: None (default) the server's library when it has one, true requires it, "
        "false none; or a list of cage claims (as the cage command takes them), each verified by the server "
        "before use (one that is not verified is refused with the reason), and then these alone",
    )
    dead_reckoning: bool = Field(False, description="a dead predecessor is impossible (FIDE 5.2.2)")
    legality: bool = Field(True, description="run the legality pipeline on predecessors")

    def options(self, limits: Limits) -> list[str]:
        argv = ["--moves", str(self.moves), "--extra-depth", str(self.extra_depth)]
        argv += ["--retract", self.retract] if self.retract is not None else []
        if isinstance(self.cages, list):
            if len(self.cages) > MAX_CAGE_CLAIMS:
                raise ValueError(f"at most {MAX_CAGE_CLAIMS} cage claims per request, got {len(self.cages)}")
            argv += ["--cages", INPUT, "--no-save-cages", "--verify-cages"]
        elif self.cages and limits.cages is None:
            raise ValueError("this server has no known-cage library (retro serve --cages FILE)")
        elif self.cages is False or limits.cages is None:
            argv += ["--no-cages"]
        else:
            argv += ["--cages", limits.cages, "--no-save-cages"]
        argv += ["--dead-reckoning"] if self.dead_reckoning else []
        return argv + ([] if self.legality else ["--no-legality"])

    def call(self, limits: Limits) -> Call:
        call = super().call(limits)
        if not isinstance(self.cages, list):
            return call
        if any("\n" in claim.line() or not claim.fen.strip() for claim in self.cages):
            raise ValueError("each cage claim needs a one-line piece placement")
        return dataclasses.replace(call, inputs="".join(claim.line() + "\n" for claim in self.cages))


class CageRequest(CageFields, CommandRequest):
    """``retro cage``: verify a claimed cage."""

    command: ClassVar[str] = "cage"
    default_nodes: ClassVar[int] = 100_000
    node_option: ClassVar[str] = "--max-nodes"
    time_option: ClassVar[str] = "-t"

    def options(self, limits: Limits) -> list[str]:
        return [
            "--zone",
            ",".join(self.zone),
            "--frozen",
            ",".join(self.frozen),
            "--forbid",
            ",".join(self.forbid),
            "--depth",
            str(self.depth),
        ]


class UnwinnableRequest(CommandRequest):
    """``retro unwinnable``: can a player still checkmate?"""

    command: ClassVar[str] = "unwinnable"
    default_nodes: ClassVar[int] = 1_000_000
    node_option: ClassVar[str] = "--max-nodes"
    time_option: ClassVar[str] = "--time-limit"
    winner: Literal["white", "black"] | None = Field(
        None, description="intended winner (default: the side that just moved)"
    )
    quick: bool = Field(False, description="the quick routine")

    def options(self, limits: Limits) -> list[str]:
        return ["--quick"] if self.quick else []

    def positionals(self) -> list[str]:
        return [self.fen, *([self.winner] if self.winner else [])]


class DeadRequest(CommandRequest):
    """``retro dead``: is the position dead?"""

    command: ClassVar[str] = "dead"
    default_nodes: ClassVar[int] = 1_000_000
    node_option: ClassVar[str] = "--max-nodes"
    time_option: ClassVar[str] = "--time-limit"
    quick: bool = Field(False, description="the quick routine for both sides")

    def options(self, limits: Limits) -> list[str]:
        return ["--quick"] if self.quick else []


class DeadBatchRequest(Budgets):
    """``retro dead -f``: a list of positions; one record per FEN, in order (error records for bad ones)."""

    command: ClassVar[str] = "dead"
    default_nodes: ClassVar[int] = 1_000_000
    fens: list[str] = Field(min_length=1, description="the positions (FENs), at most the server's batch maximum")
    quick: bool = Field(False, description="the quick routine for both sides")

    def call(self, limits: Limits) -> Call:
        if len(self.fens) > limits.max_batch:
            raise ValueError(f"at most {limits.max_batch} FENs per batch request, got {len(self.fens)}")
        for index, fen in enumerate(self.fens):
            if "\n" in fen or "\r" in fen or not fen.strip() or fen.lstrip().startswith("#"):
                raise ValueError(f"fens[{index}]: each FEN must be one non-empty line, not a # comment")
        argv = [
            "dead",
            "--json",
            "--max-nodes",
            str(self.nodes(limits)),
            *(["--quick"] if self.quick else []),
            "-f",
            INPUT,
        ]
        return Call(argv, self.seconds(limits), inputs="".join(fen + "\n" for fen in self.fens))


class SpgRequest(Budgets):
    """``retro spg``: every game of exactly ``plies`` plies reaching the diagram (unique, cooked, none)."""

    command: ClassVar[str] = "spg"
    node_option: ClassVar[str] = "-m"
    time_option: ClassVar[str] = "-t"
    board: str = Field(
        max_length=200, description="the diagram: a placement, 'placement side', or a FEN (its rights then count)"
    )
    plies: int = Field(ge=0, le=200, description="the number of plies (N)")
    solutions: int = Field(8, ge=2, le=1000, description="stop after K games, reported as cooked (--solutions)")
    init: str | None = Field(None, max_length=200, description="initial position FEN (-i; default: the start)")

    def nodes(self, limits: Limits) -> int:
        """The request's node budget, else the server's maximum (``retro spg`` has no default one)."""
        return min(self.max_nodes or limits.max_nodes, limits.max_nodes)

    def call(self, limits: Limits) -> Call:
        if "\n" in self.board or "\r" in self.board:
            raise ValueError("board: one line")
        # --progress: the search's progress lines (stderr, every 5 s) reach the page's job poll
        own = ["--solutions", str(self.solutions), *(["-i", self.init] if self.init else []), "--progress"]
        argv = ["spg", "--json", *self.budget_options(limits), *own, "--", self.board, str(self.plies)]
        return Call(argv, self.seconds(limits))


REQUESTS: dict[str, type[Budgets]] = {
    model.command: model
    for model in (
        CheckRequest,
        RevmovesRequest,
        ProofgameRequest,
        LastmoveRequest,
        CageRequest,
        UnwinnableRequest,
        DeadRequest,
        SpgRequest,
    )
}
