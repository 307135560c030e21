"""Problem cards in Anki's reviewer page in headless Chromium, day after day: every
other problem type, each shown for 6 days.

A problem card shows a different one of its note's problems each day, MathJax typesets
it, and the answer side agrees with the question side, on the same page (Anki desktop)
and on a fresh page (AnkiDroid, AnkiMobile). The two files of these tests run side by
side.
"""

from __future__ import annotations

import pytest

from generator import problems

from .problem_cards import MANY_DAYS, check_a_new_problem_each_day, practice_cards

TYPES = [t for t in sorted(problems.all_types()) if t not in MANY_DAYS]


@pytest.fixture(scope="module")
def cards(tmp_path_factory, figure_cache) -> dict[str, tuple]:
    return practice_cards(tmp_path_factory.mktemp("practice"), figure_cache, TYPES)


@pytest.mark.parametrize("problem_type", TYPES)
def test_the_card_shows_a_new_problem_each_day_and_its_back_agrees(reviewer, cards, problem_type) -> None:
    check_a_new_problem_each_day(reviewer, cards[problem_type])
