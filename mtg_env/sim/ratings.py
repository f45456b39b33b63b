"""Bradley-Terry ratings (fitted with choix) on an Elo-like scale, with bootstrap intervals."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

__all__ = ["ELO_SCALE", "bootstrap_ratings", "bradley_terry"]

ELO_SCALE = 400.0 / math.log(10.0)  # a 400-point gap means 10:1 odds, as in Elo
# Mild regularisation keeps a rating finite for an entrant that won (or lost) every game.
ALPHA = 0.05


def comparison_matrix(n: int, games: Sequence[tuple[int, int, float]]) -> np.ndarray:
    """``m[i, j]`` = wins of ``i`` over ``j``; ``games`` holds ``(i, j, score of i)`` with
    score 1, 0 or 0.5 (a draw counts half a win each way)."""
    m = np.zeros((n, n))
    for i, j, s in games:
        m[i, j] += s
        m[j, i] += 1.0 - s
    return m


def bradley_terry(n: int, games: Sequence[tuple[int, int, float]], base: float = 1500.0) -> np.ndarray:
    """Ratings of ``n`` entrants from pairwise results, mean ``base``.

    >>> r = bradley_terry(2, [(0, 1, 1.0)] * 30 + [(0, 1, 0.0)] * 10)
    >>> abs(float(r[0] - r[1]) - 400 * math.log10(3)) < 5  # 3:1 odds is 191 Elo points
    True
    """
    if n == 1:
        return np.array([base])
    import choix  # here: it imports scipy.stats, over a second at every start

    params = choix.ilsr_pairwise_dense(comparison_matrix(n, games), alpha=ALPHA)
    params = params - params.mean()
    return base + ELO_SCALE * params


def bootstrap_ratings(n: int, games: Sequence[tuple[int, int, float]], resamples: int = 200,
                      seed: int = 0, confidence: float = 0.95, base: float = 1500.0
                      ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Ratings and percentile bootstrap intervals (games resampled with replacement).

    Returns ``(ratings, low, high)``; the resampling RNG is seeded, so the intervals are
    reproducible.
    """
    ratings = bradley_terry(n, games, base)
    if resamples <= 0 or not games:
        return ratings, np.full(n, math.nan), np.full(n, math.nan)
    rng = np.random.default_rng(seed)
    arr = list(games)
    draws = np.empty((resamples, n))
    for b in range(resamples):
        idx = rng.integers(0, len(arr), len(arr))
        draws[b] = bradley_terry(n, [arr[k] for k in idx], base)
    tail = (1.0 - confidence) / 2.0
    low, high = np.quantile(draws, [tail, 1.0 - tail], axis=0)
    return ratings, low, high
