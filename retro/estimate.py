"""Unbiased estimate of the number of legal positions from a sample of a multiset S.

Source: paper 002, "estimating the number of legal chess positions": with N = |S| and
a uniform sample of n elements, ``N * mean(Y)`` with ``Y = 1/m`` for a legal sample
(m its multiplicity in S) and ``Y = 0`` otherwise is unbiased (E[Y] = sum over legal P
of m(P)/N * 1/m(P) = L/N). Standard error ``N * s / sqrt(n)`` (s the sample standard
deviation of Y), 95% interval ``estimate +- 1.96 SE`` (normal approximation).
Unknown samples are never dropped: ``low`` counts them all illegal, ``high`` all legal.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

__all__ = ["Estimate", "estimate"]

Z95 = 1.959963984540054


@dataclass(frozen=True)
class Estimate:
    size: int
    samples: int
    legal: int
    illegal: int
    unknown: int
    estimate: float
    stderr: float
    ci_low: float
    ci_high: float
    low: float  # unknowns all illegal
    high: float  # unknowns all legal


def _mean_sd(values: list[Fraction], n: int) -> tuple[Fraction, float]:
    total = sum(values, Fraction(0))
    mean = total / n
    if n < 2:
        return mean, 0.0
    sq = sum((v * v for v in values), Fraction(0))
    var = (sq - n * mean * mean) / (n - 1)
    return mean, math.sqrt(var)


def estimate(observations: Iterable[tuple[str, int]], *, size: int, samples: int | None = None) -> Estimate:
    """Observations are (status, m) with status legal/illegal/unknown; `samples` is the
    number of draws the observations come from (draws not listed count as illegal, e.g.
    those filtered out by the static rules); default: the number of observations."""
    obs = list(observations)
    n = samples if samples is not None else len(obs)
    if n < len(obs) or n <= 0:
        raise ValueError(f"sample size {n} is smaller than the {len(obs)} observations")
    legal = [Fraction(1, m) for s, m in obs if s == "legal"]
    unknown = [Fraction(1, m) for s, m in obs if s == "unknown"]
    illegal = sum(1 for s, _ in obs if s == "illegal") + (n - len(obs))
    mean, sd = _mean_sd(legal, n)
    est = float(size * mean)
    se = size * sd / math.sqrt(n)
    high = float(size * (sum(legal, Fraction(0)) + sum(unknown, Fraction(0))) / n)
    return Estimate(size, n, len(legal), illegal, len(unknown), est, se, est - Z95 * se, est + Z95 * se, est, high)
