"""Proof kernels (Österlund, texel proof-game documentation, "Relaxation" ff.).

Will hold: the kernel state (pawn columns, piece counts, promotion bookkeeping),
kernel moves in texel's string notation, the depth-first kernel search with an exact
transposition table and pruning, blocked squares, and the extended kernel as an
OR-Tools CP-SAT model.
"""
