"""Cages (Hwa, *Cages in Retrograde Analysis*, 2022).

Modules: :mod:`~cages.retractions` (retractions under the extension principle),
:mod:`~cages.verify` (zones and the verification tree with its cache) and
:mod:`~cages.library` (the library of known cages).
"""
