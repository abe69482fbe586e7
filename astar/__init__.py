"""Proof-game search (Österlund, texel proof-game documentation, "If a position cannot
be proven illegal" ff.).

Modules:

* :mod:`astar.proofgame` - the ``ProofGame`` certificate (SAN, PGN, replay check).
* :mod:`astar.paths` - per-piece shortest paths on the empty board minus blocked squares,
  pawn distances and pawn cones.
* :mod:`astar.heuristic` - the admissible heuristic (Hungarian assignment, infinity cases).
* :mod:`astar.nonadmissible` - the ``-na`` fallback heuristic.
* :mod:`astar.search` - weighted A* with tie-breaking, node limits and restarts, and
  the committed-leg search ``retro proofgame`` uses.
* :mod:`astar.initial_path` - the extended kernel's captures as real moves (partial-goal
  legs instead of texel's multi-occupancy play-out).
* :mod:`astar.last_move` - forced irreversible last moves.
* :mod:`astar.portfolio` - the restart schedule that splits one run's budget between
  its starts (initial paths of several pawn plans, committed prefixes).

Not implemented: texel's recursive halving of a kernel whose initial path fails, and
deadlock detection in the heuristic.
"""

__all__: list[str] = []
