"""Proof kernels (Österlund, texel proof-game documentation, "Relaxation" ff.).

Modules: :mod:`~proofkernel.state` (pawn columns, piece counts, promotion
bookkeeping), :mod:`~proofkernel.moves` (kernel moves in texel's string notation),
:mod:`~proofkernel.search` (depth-first kernel search with an exact transposition table
and pruning), :mod:`~proofkernel.blocked` (blocked squares), :mod:`~proofkernel.extended`
(the extended kernel as an OR-Tools CP-SAT model) and :mod:`~proofkernel.listing` (the
verdict of ``retro proofkernel``).
"""
