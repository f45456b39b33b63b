"""Interval estimates for win rates."""

from __future__ import annotations

import math

from scipy.stats import binomtest

__all__ = ["wilson_interval"]


def wilson_interval(successes: int, trials: int, confidence: float = 0.95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (scipy); ``(nan, nan)`` for no trials.

    >>> lo, hi = wilson_interval(60, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.502, 0.691)
    """
    if trials <= 0:
        return (math.nan, math.nan)
    ci = binomtest(successes, trials).proportion_ci(confidence_level=confidence, method="wilson")
    return (float(ci.low), float(ci.high))
