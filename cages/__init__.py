"""Cages (Hwa, *Cages in Retrograde Analysis*, 2022).

Will hold: zones, retractions under the extension principle, the verification tree
with its cache, and the library of known cages.
"""
