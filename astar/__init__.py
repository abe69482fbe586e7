"""Proof-game search (Österlund, texel proof-game documentation, "If a position cannot
be proven illegal" ff.).

Will hold: weighted A* over real positions, the admissible heuristic (per-piece
shortest paths with blocked squares, assignment by scipy's linear_sum_assignment,
pawn cones, deadlocks), the non-admissible fallback, the initial path from an
extended kernel, and the replay-checked ProofGame certificate.
"""
