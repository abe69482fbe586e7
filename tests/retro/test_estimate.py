import math

import pytest

from retro.estimate import estimate

TROMP_N = 8726713169886222032347729969256422370854716254


def test_published_tromp_arithmetic():
    # 538 legal of 10,000 with m = 1: p = 0.0538, SE = N*sqrt(p(1-p)*n/(n-1)/n) by hand.
    obs = [("legal", 1)] * 538 + [("illegal", 1)] * 9462
    e = estimate(obs, size=TROMP_N)
    p = 0.0538
    assert e.estimate == pytest.approx(TROMP_N * p, rel=1e-12)
    se = TROMP_N * math.sqrt(p * (1 - p) * 10000 / 9999 / 10000)
    assert e.stderr == pytest.approx(se, rel=1e-9)
    # the published half-width 0.38e44 at 95 %
    # published half-width 0.38e44 (with weights m>1 it is slightly below the m=1 figure 0.386e44)
    assert abs((e.ci_high - e.estimate) / 1e44 - 0.38) < 0.01


def test_weights_and_unknown_bounds():
    # 4 samples, N = 100: legal m=2, legal m=4, unknown m=1, illegal -> Y = .5,.25,0,0
    e = estimate([("legal", 2), ("legal", 4), ("unknown", 1), ("illegal", 3)], size=100)
    assert e.estimate == pytest.approx(100 * 0.75 / 4)
    assert e.high == pytest.approx(100 * 1.75 / 4)
    assert (e.legal, e.illegal, e.unknown) == (2, 1, 1)
    # filtered draws count as illegal
    assert estimate([("legal", 1)], size=10, samples=5).estimate == pytest.approx(2.0)
