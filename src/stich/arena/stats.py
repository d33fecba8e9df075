"""Statistics of an arena match: confidence intervals of a mean, duplicate win rates and Elo-style ratings.

Everything here is pure arithmetic on lists of numbers (no NumPy, no SciPy),
so that the arena runs with the project's plain dependencies and the numbers
can be checked by hand; ``docs/arena.md`` states every formula and
``tests/arena/test_stats.py`` checks them against hand-computed values.

* :func:`mean_interval`: mean of per-deal score differences with a 95 %
  interval, both from the normal approximation (``mean ± z·s/√n``) and from
  Student's t (``mean ± t(n-1)·s/√n``, the honest one for small ``n``).
* :func:`duplicate_score`: the candidate's share of won deals (a tie counts
  half) with one virtual won and one virtual lost deal added (Laplace's rule
  of succession), so that it is never exactly 0 or 1 and always has a spread.
* :func:`elo_difference`: that share as an Elo difference,
  ``400·log10(E / (1 − E))``, with its standard error by the delta method.
* :func:`fit_ratings`: ratings of several bots from pairwise Elo differences
  by weighted least squares, one bot anchored (1500 by default).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist
from typing import Any

LEVEL = 0.95
"""Confidence level of every interval the arena reports."""

ELO_SCALE = 400.0
"""Elo points per factor of 10 in the odds ``E / (1 − E)`` (the chess convention)."""

ANCHOR_RATING = 1500.0
"""Rating given to the anchor bot (the first reference)."""


# --------------------------------------------------------------------- quantiles
def normal_quantile(p: float) -> float:
    """The ``p`` quantile of the standard normal distribution (1.959964 for 0.975)."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    return NormalDist().inv_cdf(p)


def _beta_fraction(a: float, b: float, x: float) -> float:
    """The continued fraction of the regularised incomplete beta function (modified Lentz method)."""
    tiny = 1e-300
    c = 1.0
    d = 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        # Even step.
        num = m * (b - m) * x / ((a + m2 - 1.0) * (a + m2))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        # Odd step.
        num = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0))
        d = 1.0 + num * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + num / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return h


def incomplete_beta(a: float, b: float, x: float) -> float:
    """The regularised incomplete beta function ``I_x(a, b)`` for ``0 <= x <= 1``."""
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"incomplete_beta needs 0 <= x <= 1, got {x}")
    if x in (0.0, 1.0):
        return x
    log_front = math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    front = math.exp(log_front)
    # The fraction converges fast on the side of the mean; use the symmetry I_x(a,b) = 1 - I_{1-x}(b,a) on the other.
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _beta_fraction(a, b, x) / a
    return 1.0 - front * _beta_fraction(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """Student's t distribution function with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    tail = 0.5 * incomplete_beta(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t >= 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t with ``df`` degrees of freedom (12.706 for 0.975 and df 1), by bisection."""
    if not 0.0 < p < 1.0:
        raise ValueError(f"a quantile needs 0 < p < 1, got {p}")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        lo, hi = hi, hi * 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


# --------------------------------------------------------------------- a mean
@dataclass(frozen=True)
class MeanInterval:
    """Mean of a sample with its 95 % intervals (``None`` where fewer than two values make them undefined)."""

    n: int
    mean: float
    sd: float | None
    """Sample standard deviation (divisor ``n − 1``)."""
    se: float | None
    """Standard error of the mean, ``sd / √n``."""
    normal: tuple[float, float] | None
    """``mean ± z·se`` with ``z`` the normal quantile (1.96)."""
    t: tuple[float, float] | None
    """``mean ± t·se`` with ``t`` Student's quantile for ``n − 1`` degrees of freedom."""
    t_quantile: float | None

    def to_json(self) -> dict[str, Any]:
        """JSON form (intervals as two-element lists)."""
        return {
            "n": self.n,
            "mean": self.mean,
            "sd": self.sd,
            "se": self.se,
            "level": LEVEL,
            "ci_normal": list(self.normal) if self.normal else None,
            "ci_t": list(self.t) if self.t else None,
            "df": self.n - 1 if self.n > 1 else None,
            "t_quantile": self.t_quantile,
        }


def mean_interval(values: Sequence[float], level: float = LEVEL) -> MeanInterval:
    """The mean of ``values`` with its normal-approximation and t-based confidence intervals."""
    n = len(values)
    if n == 0:
        raise ValueError("no values to average")
    mean = math.fsum(values) / n
    if n < 2:
        return MeanInterval(n, mean, None, None, None, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    se = sd / math.sqrt(n)
    upper = 0.5 + level / 2.0
    z = normal_quantile(upper)
    t = t_quantile(upper, n - 1)
    return MeanInterval(n, mean, sd, se, (mean - z * se, mean + z * se), (mean - t * se, mean + t * se), t)


# --------------------------------------------------------------------- wins and Elo
@dataclass(frozen=True)
class WinRates:
    """How often the candidate's duplicate difference was above, at or below zero."""

    n: int
    wins: int
    ties: int
    losses: int

    @property
    def win_rate(self) -> float:
        """Share of deals with a positive difference."""
        return self.wins / self.n if self.n else 0.0

    @property
    def tie_rate(self) -> float:
        """Share of deals with a difference of exactly zero."""
        return self.ties / self.n if self.n else 0.0

    @property
    def loss_rate(self) -> float:
        """Share of deals with a negative difference."""
        return self.losses / self.n if self.n else 0.0

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "n": self.n,
            "wins": self.wins,
            "ties": self.ties,
            "losses": self.losses,
            "win_rate": self.win_rate,
            "tie_rate": self.tie_rate,
            "loss_rate": self.loss_rate,
        }


def win_rates(differences: Sequence[float]) -> WinRates:
    """Count the deals the candidate won (difference > 0), tied (= 0) and lost (< 0)."""
    wins = sum(1 for d in differences if d > 0)
    ties = sum(1 for d in differences if d == 0)
    return WinRates(len(differences), wins, ties, len(differences) - wins - ties)


@dataclass(frozen=True)
class DuplicateScore:
    """The candidate's expected score per deal ``E`` (win 1, tie ½, loss 0) with its standard error."""

    expected: float
    se: float


def duplicate_score(rates: WinRates) -> DuplicateScore:
    """``E = (wins + ties/2 + 1) / (n + 2)`` and the standard error of that mean.

    The deals score 1, ½ or 0; one virtual win and one virtual loss are added
    (Laplace's rule of succession), so ``E`` stays strictly between 0 and 1 and
    its standard error (sample standard deviation of the ``n + 2`` scores over
    ``√(n + 2)``) is never zero, even when every deal was tied or won.
    """
    count = rates.n + 2
    total = rates.wins + 0.5 * rates.ties + 1.0
    mean = total / count
    squares = rates.wins * (1.0 - mean) ** 2 + rates.ties * (0.5 - mean) ** 2 + rates.losses * mean**2
    squares += (1.0 - mean) ** 2 + mean**2  # the two virtual deals
    sd = math.sqrt(squares / (count - 1))
    return DuplicateScore(mean, sd / math.sqrt(count))


def elo_difference(score: DuplicateScore) -> tuple[float, float]:
    """``(D, se)``: the Elo difference ``400·log10(E / (1 − E))`` and its standard error by the delta method.

    ``dD/dE = 400 / (ln 10 · E · (1 − E))``, so ``se_D = se_E · 400 / (ln 10 · E · (1 − E))``.
    """
    e = score.expected
    d = ELO_SCALE * math.log10(e / (1.0 - e))
    slope = ELO_SCALE / (math.log(10.0) * e * (1.0 - e))
    return d, score.se * slope


@dataclass(frozen=True)
class PairResult:
    """One pairwise duplicate result: ``a`` scored ``difference`` Elo over ``b`` with standard error ``se``."""

    a: str
    b: str
    difference: float
    se: float


@dataclass(frozen=True)
class Rating:
    """A bot's rating with its 95 % interval (``None`` for the anchor, fixed by definition)."""

    label: str
    rating: float
    se: float | None
    interval: tuple[float, float] | None
    anchor: bool

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "bot": self.label,
            "rating": self.rating,
            "se": self.se,
            "interval": list(self.interval) if self.interval else None,
            "anchor": self.anchor,
        }


def _solve(matrix: list[list[float]], rhs: list[list[float]]) -> list[list[float]]:
    """Solve ``matrix · X = rhs`` by Gauss–Jordan elimination with partial pivoting (small dense systems)."""
    n = len(matrix)
    a = [row[:] + extra[:] for row, extra in zip(matrix, rhs, strict=True)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(a[r][col]))
        if abs(a[pivot][col]) < 1e-300:
            raise ValueError("the pairwise results do not connect every bot to the anchor")
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        a[col] = [v / p for v in a[col]]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col]
                a[r] = [v - f * w for v, w in zip(a[r], a[col], strict=True)]
    return [row[n:] for row in a]


def fit_ratings(
    labels: Sequence[str], pairs: Sequence[PairResult], anchor: str, anchor_rating: float = ANCHOR_RATING, level: float = LEVEL
) -> list[Rating]:
    """Ratings of ``labels`` from pairwise Elo differences, ``anchor`` fixed at ``anchor_rating``.

    Weighted least squares: minimise ``Σ ((r_a − r_b − D_ab) / se_ab)²`` over
    the ratings of every bot but the anchor.  With a single opponent per bot
    (the arena's star of candidate-vs-reference matches) this is exact:
    ``r_candidate = 1500 + D`` and a reference ``j`` sits at ``r_candidate −
    D_j``.  The covariance is ``(AᵀWA)⁻¹`` (independent pairs assumed), so the
    candidate's standard error is ``se_1`` and a further reference's is
    ``√(se_1² + se_j²)``; intervals are ``rating ± z·se``.
    """
    if anchor not in labels:
        raise ValueError(f"anchor {anchor!r} is not among the bots {list(labels)}")
    if len(set(labels)) != len(labels):
        raise ValueError(f"bot labels must be distinct, got {list(labels)}")
    free = [label for label in labels if label != anchor]
    index = {label: i for i, label in enumerate(free)}
    k = len(free)
    normal = [[0.0] * k for _ in range(k)]
    rhs = [[0.0] for _ in range(k)]
    for pair in pairs:
        if pair.a not in labels or pair.b not in labels:
            raise ValueError(f"pair {pair.a!r} vs {pair.b!r} names a bot outside {list(labels)}")
        if pair.se <= 0:
            raise ValueError(f"pair {pair.a!r} vs {pair.b!r} needs a positive standard error, got {pair.se}")
        w = 1.0 / (pair.se * pair.se)
        # One observation: r_a - r_b = D, with the anchor's rating moved to the right-hand side.
        coeffs = {pair.a: 1.0, pair.b: -1.0}
        target = pair.difference
        for label, c in coeffs.items():
            if label == anchor:
                target -= c * anchor_rating
        for la, ca in coeffs.items():
            if la == anchor:
                continue
            rhs[index[la]][0] += w * ca * target
            for lb, cb in coeffs.items():
                if lb != anchor:
                    normal[index[la]][index[lb]] += w * ca * cb
    identity = [[1.0 if i == j else 0.0 for j in range(k)] for i in range(k)]
    covariance = _solve(normal, identity) if k else []
    solution = [sum(covariance[i][j] * rhs[j][0] for j in range(k)) for i in range(k)]
    z = normal_quantile(0.5 + level / 2.0)
    out = []
    for label in labels:
        if label == anchor:
            out.append(Rating(label, anchor_rating, None, None, True))
            continue
        i = index[label]
        se = math.sqrt(max(covariance[i][i], 0.0))
        rating = solution[i]
        out.append(Rating(label, rating, se, (rating - z * se, rating + z * se), False))
    return out
