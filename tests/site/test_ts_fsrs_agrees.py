"""The review page's scheduler (the vendored ts-fsrs 5.4.2, run by Node.js on the file the page
loads) against the Python ``fsrs`` package (py-fsrs 6.3, the same authors' FSRS-6), both without
fuzz and with FSRS-6's default parameters, on tables of fixed review logs.

Pinned (what we see): when each review comes a whole number of days after the one before (or
minutes after it, the same day), the two agree on stability, difficulty and the card's state after
every review, and the next interval differs in five places, by up to two days (ts-fsrs keeps
Hard < Good < Easy apart, and rounds learning steps to whole minutes). Across midnight they count
the days between reviews differently, and their stabilities part from that review on."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import UTC, datetime, timedelta
from pathlib import Path

import fsrs
import pytest

NODE = shutil.which("node")
REPLAY = Path(__file__).with_name("ts_fsrs_replay.js")
START = datetime(2027, 1, 4, 9, tzinfo=UTC)
M, H, D = timedelta(minutes=1), timedelta(hours=1), timedelta(days=1)
AGAIN, HARD, GOOD, EASY = 1, 2, 3, 4

Log = list[tuple[timedelta, int]]
"""One card's reviews: the time since the review before (the first: 0) and the rating."""

WHOLE_DAYS: dict[str, Log] = {
    # Each review a whole number of days after the one before, or minutes after it the same day.
    "learnt on time": [(0 * M, GOOD), (10 * M, GOOD), (2 * D, GOOD), (7 * D, GOOD), (26 * D, GOOD)],
    "failed, relearnt": [
        (0 * M, GOOD),
        (10 * M, GOOD),
        (3 * D, GOOD),
        (9 * D, AGAIN),
        (10 * M, GOOD),
        (3 * D, GOOD),
    ],
    "hard start": [
        (0 * M, AGAIN),
        (1 * M, AGAIN),
        (1 * M, HARD),
        (6 * M, GOOD),
        (1 * D, HARD),
        (3 * D, GOOD),
    ],
    "easy all along": [(0 * M, EASY), (15 * D, EASY), (75 * D, EASY), (310 * D, GOOD)],
    "reviewed late": [
        (0 * M, GOOD),
        (10 * M, GOOD),
        (30 * D, GOOD),
        (170 * D, HARD),
        (10 * D, AGAIN),
        (10 * M, GOOD),
    ],
    "reviewed early": [
        (0 * M, HARD),
        (5 * M, GOOD),
        (10 * M, GOOD),
        (5 * M, EASY),
        (1 * D, GOOD),
        (1 * D, GOOD),
    ],
    "lapses": [
        (0 * M, GOOD),
        (10 * M, GOOD),
        (2 * D, AGAIN),
        (10 * M, AGAIN),
        (10 * M, GOOD),
        (1 * D, AGAIN),
        (10 * M, GOOD),
        (2 * D, EASY),
    ],
}
ACROSS_MIDNIGHT: dict[str, Log] = {
    # A review less than whole days after the one before, across midnight (UTC).
    "next morning at the same hour": [(0 * M, GOOD), (10 * M, GOOD), (2 * D - 10 * M, GOOD), (7 * D, GOOD)],
    "late evening, then next noon": [
        (0 * M, GOOD),
        (10 * M, GOOD),
        (2 * D, GOOD),
        (14 * H, AGAIN),
        (14 * H, GOOD),
    ],
}


INTERVALS_DIFFER = {
    # (log, review from 0): the next interval after it, ts-fsrs's and py-fsrs's, where they differ (pinned)
    # Hard on the first learning step (1 and 10 minutes): ts-fsrs rounds the mean to whole minutes
    ("hard start", 2): (6 * M, 5.5 * M),
    ("reviewed early", 0): (6 * M, 5.5 * M),
    ("hard start", 4): (
        6 * M,
        10 * M,
    ),  # Hard on a learning card a day later: the first step again, or the second
    ("reviewed early", 3): (3 * D, 2 * D),  # Easy: ts-fsrs keeps Easy's interval past Good's
    ("lapses", 7): (3 * D, 1 * D),  # Easy again, after lapses: two days apart
}
DIVERGE_FROM = {"next morning at the same hour": 2, "late evening, then next noon": 4}
"""The first review after which the two disagree on stability, in ``ACROSS_MIDNIGHT``: ts-fsrs
counts the days between two reviews as the UTC dates between them (its ``dateDiffInDays``: 1 day
from 23:10 to 13:10 the next day), py-fsrs as whole 24 hours (0 days); from there on each carries
its own stability. Difficulty does not depend on the time between reviews, and stays the same."""


def _absolute(log: Log) -> list[tuple[timedelta, int]]:
    """A log's reviews as times since its first."""
    at, out = timedelta(0), []
    for gap, rating in log:
        at += gap
        out.append((at, rating))
    return out


def _ts_fsrs(logs: dict[str, Log]) -> dict[str, list[dict]]:
    """Each log's card after each review, as the vendored ts-fsrs schedules it (Node.js)."""
    assert NODE is not None, "Node.js is needed to run ts-fsrs (apt-get install nodejs)"
    request = {
        "logs": [
            [[int((START + at).timestamp() * 1000), r] for at, r in _absolute(log)] for log in logs.values()
        ]
    }
    done = subprocess.run(
        [NODE, str(REPLAY)], input=json.dumps(request), capture_output=True, text=True, check=True
    )
    found = json.loads(done.stdout)
    assert found["version"].startswith("v5.4.2 using FSRS-6")
    assert tuple(found["w"]) == fsrs.Scheduler().parameters  # the same FSRS-6 defaults
    out = dict(zip(logs, found["out"], strict=True))
    for cards in out.values():
        for card in cards:
            card["due"] = datetime.fromtimestamp(card["due"] / 1000, UTC)
    return out


def _py_fsrs(log: Log) -> list[dict]:
    """The card after each review, as py-fsrs schedules it (no fuzz, as the review page)."""
    scheduler = fsrs.Scheduler(enable_fuzzing=False)
    card, out = fsrs.Card(), []
    for at, rating in _absolute(log):
        card, _ = scheduler.review_card(card, fsrs.Rating(rating), START + at)
        out.append(
            {
                "stability": card.stability,
                "difficulty": card.difficulty,
                "state": int(card.state),
                "due": card.due,
            }
        )
    return out


def _pairs(logs: dict[str, Log]) -> list[tuple[str, int, timedelta, dict, dict]]:
    """Every review of every log: its log, number, time since the first, ts-fsrs's and py-fsrs's card."""
    theirs = _ts_fsrs(logs)
    return [
        (name, n, at, js, py)
        for name, log in logs.items()
        for n, ((at, _), js, py) in enumerate(zip(_absolute(log), theirs[name], _py_fsrs(log), strict=True))
    ]


def test_on_whole_days_they_agree_on_stability_difficulty_and_state() -> None:
    differ = {}
    for name, n, at, js, py in _pairs(WHOLE_DAYS):
        where = f"{name}, review {n}"
        assert js["stability"] == pytest.approx(py["stability"], rel=1e-7), where
        assert js["difficulty"] == pytest.approx(py["difficulty"], rel=1e-7), where
        assert js["state"] == py["state"], where
        ours, theirs = js["due"] - START - at, py["due"] - START - at
        if ours != theirs:
            differ[(name, n)] = (ours, theirs)
    assert differ == INTERVALS_DIFFER


def test_across_midnight_they_count_the_days_between_reviews_differently() -> None:
    first: dict[str, int] = {}
    for name, n, _, js, py in _pairs(ACROSS_MIDNIGHT):
        assert js["difficulty"] == pytest.approx(py["difficulty"], rel=1e-7), (name, n)
        if js["stability"] != pytest.approx(py["stability"], rel=1e-7):
            first.setdefault(name, n)
        else:
            assert name not in first, (name, n)  # once apart, they stay apart
    assert first == DIVERGE_FROM
