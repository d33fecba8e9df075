"""Scores too large for a float (unlimited Retour) must not break a search (regression: OverflowError in a pimc decision)."""

from __future__ import annotations

import math

from stich.search.ismcts import bounded_rewards
from stich.search.scores import SCORE_CAP, score_value


def test_scores_beyond_any_float_are_capped_with_their_sign() -> None:
    huge = 3**700  # float(huge) raises OverflowError
    assert score_value(huge) == SCORE_CAP
    assert score_value(-huge) == -SCORE_CAP
    assert score_value(-17) == -17.0 and isinstance(score_value(5), float)


def test_ismcts_rewards_of_astronomical_scores_stay_bounded() -> None:
    rewards = bounded_rewards([3**700, -(3**700), 0, 12], 12.0)
    assert rewards[0] == 1.0 and rewards[1] == -1.0 and rewards[2] == 0.0
    assert math.isclose(rewards[3], math.tanh(1.0))
