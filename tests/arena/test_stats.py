"""The arena's statistics against values computed by hand (and from printed tables for Student's t)."""

from __future__ import annotations

import math

import pytest

from stich.arena.stats import (
    DuplicateScore,
    PairResult,
    duplicate_score,
    elo_difference,
    fit_ratings,
    incomplete_beta,
    mean_interval,
    normal_quantile,
    t_cdf,
    t_quantile,
    win_rates,
)


def test_normal_quantile_is_the_familiar_1_96() -> None:
    assert normal_quantile(0.975) == pytest.approx(1.959964, abs=1e-6)
    assert normal_quantile(0.5) == 0.0


@pytest.mark.parametrize(
    ("df", "expected"),
    # Two-sided 95 % critical values of Student's t from the printed tables.
    [(1, 12.7062), (2, 4.3027), (4, 2.7764), (5, 2.5706), (10, 2.2281), (30, 2.0423), (1000, 1.9623)],
)
def test_t_quantile_matches_the_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=1e-4)
    assert t_quantile(0.025, df) == pytest.approx(-expected, abs=1e-4)


def test_t_cdf_and_incomplete_beta_closed_forms() -> None:
    # With one degree of freedom t is Cauchy: F(t) = 1/2 + atan(t)/pi.
    for t in (-3.0, -0.5, 0.0, 1.0, 7.0):
        assert t_cdf(t, 1) == pytest.approx(0.5 + math.atan(t) / math.pi, abs=1e-12)
    # I_x(1, 1) = x and I_x(2, 1) = x^2.
    for x in (0.0, 0.1, 0.5, 0.9, 1.0):
        assert incomplete_beta(1, 1, x) == pytest.approx(x, abs=1e-12)
        assert incomplete_beta(2, 1, x) == pytest.approx(x * x, abs=1e-12)


def test_mean_interval_of_one_to_five() -> None:
    # mean 3, s = sqrt(10/4) = 1.5811, se = s/sqrt(5) = 0.70711;
    # normal: 3 -/+ 1.95996 * 0.70711 = 1.61410 .. 4.38590; t(4) = 2.77645: 1.03676 .. 4.96324.
    m = mean_interval([1, 2, 3, 4, 5])
    assert m.n == 5 and m.mean == 3.0
    assert m.sd == pytest.approx(1.581139, abs=1e-6)
    assert m.se == pytest.approx(0.707107, abs=1e-6)
    assert m.normal == pytest.approx((1.614105, 4.385895), abs=1e-5)
    assert m.t == pytest.approx((1.036757, 4.963243), abs=1e-5)
    data = m.to_json()
    assert data["df"] == 4 and data["ci_t"] == pytest.approx([1.036757, 4.963243], abs=1e-5)


def test_mean_interval_needs_two_values_for_an_interval() -> None:
    m = mean_interval([2.5])
    assert m.mean == 2.5 and m.sd is None and m.normal is None and m.t is None
    assert m.to_json()["ci_normal"] is None
    with pytest.raises(ValueError, match="no values"):
        mean_interval([])


def test_win_rates_count_ties_apart() -> None:
    rates = win_rates([3, -1, 0, 2, 0.25, -0.5])
    assert (rates.n, rates.wins, rates.ties, rates.losses) == (6, 3, 1, 2)
    assert rates.win_rate == pytest.approx(0.5) and rates.tie_rate == pytest.approx(1 / 6)


def test_duplicate_score_adds_one_virtual_win_and_loss() -> None:
    # Deals 3, -1, 0, 2 score 1, 0, 1/2, 1; with the virtual 1 and 0: E = 3.5/6 = 0.58333.
    # Deviations .41667, -.58333, -.08333, .41667, .41667, -.58333: sum of squares 1.20833,
    # variance 1.20833/5 = .241667, se = sqrt(.241667/6) = .200694.
    score = duplicate_score(win_rates([3, -1, 0, 2]))
    assert score.expected == pytest.approx(3.5 / 6)
    assert score.se == pytest.approx(0.200694, abs=1e-6)


def test_duplicate_score_stays_inside_zero_and_one() -> None:
    all_won = duplicate_score(win_rates([1.0] * 8))
    assert all_won.expected == pytest.approx(9 / 10) and all_won.se > 0
    all_tied = duplicate_score(win_rates([0.0] * 8))
    assert all_tied.expected == pytest.approx(0.5) and all_tied.se > 0


def test_elo_difference_and_its_standard_error() -> None:
    # E = 3/4: D = 400 log10(3) = 190.8485; dD/dE = 400 / (ln 10 * 3/16) = 400 / 0.431735 = 926.4949.
    d, se = elo_difference(DuplicateScore(0.75, 0.01))
    assert d == pytest.approx(190.8485, abs=1e-4)
    assert se == pytest.approx(9.264949, abs=1e-5)
    assert elo_difference(DuplicateScore(0.5, 0.1))[0] == pytest.approx(0.0)


def test_fit_ratings_star_of_candidate_matches() -> None:
    # c beat r1 by 100 (se 30) and r2 by 50 (se 40); r1 is the anchor:
    # c = 1600 (se 30), r2 = 1600 - 50 = 1550 (se sqrt(30^2 + 40^2) = 50).
    pairs = [PairResult("c", "r1", 100.0, 30.0), PairResult("c", "r2", 50.0, 40.0)]
    ratings = {r.label: r for r in fit_ratings(["c", "r1", "r2"], pairs, "r1")}
    assert ratings["r1"].rating == 1500.0 and ratings["r1"].anchor and ratings["r1"].interval is None
    assert ratings["c"].rating == pytest.approx(1600.0) and ratings["c"].se == pytest.approx(30.0)
    assert ratings["c"].interval == pytest.approx((1600 - 1.959964 * 30, 1600 + 1.959964 * 30), abs=1e-3)
    assert ratings["r2"].rating == pytest.approx(1550.0) and ratings["r2"].se == pytest.approx(50.0)


def test_fit_ratings_least_squares_on_an_inconsistent_triangle() -> None:
    # a-b 100, b-c 50, a-c 120 with equal weights, b anchored at 0 offset:
    # minimise (a-100)^2 + (-c-50)^2 + (a-c-120)^2 -> 2a - c = 220, 2c - a = -170 -> a = 90, c = -40.
    # Normal matrix w*[[2,-1],[-1,2]], inverse (1/w)/3*[[2,1],[1,2]]: se_a = sqrt(2/3)*10.
    pairs = [PairResult("a", "b", 100.0, 10.0), PairResult("b", "c", 50.0, 10.0), PairResult("a", "c", 120.0, 10.0)]
    ratings = {r.label: r for r in fit_ratings(["a", "b", "c"], pairs, "b")}
    assert ratings["a"].rating == pytest.approx(1590.0)
    assert ratings["c"].rating == pytest.approx(1460.0)
    assert ratings["a"].se == pytest.approx(math.sqrt(2 / 3) * 10)


def test_fit_ratings_rejects_what_it_cannot_rate() -> None:
    with pytest.raises(ValueError, match="connect"):
        fit_ratings(["a", "b", "c"], [PairResult("a", "b", 10.0, 5.0)], "b")
    with pytest.raises(ValueError, match="anchor"):
        fit_ratings(["a", "b"], [PairResult("a", "b", 10.0, 5.0)], "z")
    with pytest.raises(ValueError, match="standard error"):
        fit_ratings(["a", "b"], [PairResult("a", "b", 10.0, 0.0)], "b")
