"""An exam date becomes a plan: how many new cards a day, which lesson starts on which day,
the final-week sweep, and the Anki searches that gather what is weak.

The pace is the deck's new cards over the days before the exam less a buffer (the sweep, at
most a week and never more than a quarter of the days): ``ceil(new cards / (days - buffer))``.
Lessons start in teaching order as the new cards reach them. ``anki.package`` writes the pace
into the deck's preset (Anki takes it only when the student ticks "Import any deck presets").
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from datetime import date, timedelta

from ..errors import PaperdeckError

IMPORT_PRESETS = (
    'To get this pace, tick "Import any deck presets" when you import the deck'
    " in Anki (it is off by default)."
)
"""The one line a build prints beside a deck that carries a plan."""


@dataclass(frozen=True)
class LessonSlot:
    """One lesson's days: its new cards arrive from ``start`` to ``end`` (inclusive)."""

    name: str
    cards: int
    start: date
    end: date


@dataclass(frozen=True)
class Plan:
    """The pacing of a deck from ``today`` to the ``exam``."""

    today: date
    exam: date
    new_cards: int
    new_per_day: int
    sweep: date
    """The first day of the final sweep: no new cards from then, reviews and weak cards only."""
    lessons: tuple[LessonSlot, ...]
    searches: tuple[tuple[str, str], ...]
    """What each search gathers, and the Anki search (for the browser or a filtered deck)."""


def buffer_days(days: int) -> int:
    """The sweep before the exam: a week, or a quarter of the days when fewer than four weeks remain."""
    return min(7, days // 4)


def searches(title: str) -> tuple[tuple[str, str], ...]:
    """The Anki searches of the sweep, for the deck named ``title`` and its subdecks."""
    deck = 'deck:"' + title.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return (
        ("cards you would probably fail today (FSRS: retrievability below 90 %)", f"{deck} prop:r<0.9"),
        ("cards you failed in the last 7 days", f"{deck} rated:7:1"),
        ("cards you have lapsed on three times or more", f"{deck} prop:lapses>=3"),
        ("cards not yet studied", f"{deck} is:new"),
    )


def make_plan(title: str, lessons: list[tuple[str, int]], today: date, exam: date) -> Plan:
    """The plan for a deck of ``lessons`` (name, new cards, in teaching order) studied from
    ``today`` to the ``exam``; an exam not after today raises PaperdeckError."""
    days = (exam - today).days
    if days < 1:
        raise PaperdeckError(f"exam: {exam.isoformat()} is not after today ({today.isoformat()})")
    teaching = days - buffer_days(days)
    total = sum(cards for _, cards in lessons)
    per_day = max(1, math.ceil(total / teaching))
    slots, before = [], 0
    for name, cards in lessons:
        start = today + timedelta(days=before // per_day)
        before += cards
        end = today + timedelta(days=max(0, math.ceil(before / per_day) - 1))
        slots.append(LessonSlot(name, cards, start, max(start, end)))
    return Plan(today, exam, total, per_day, today + timedelta(days=teaching), tuple(slots), searches(title))


def plan_text(plan: Plan) -> str:
    """The plan as a student reads it in a terminal or a text file."""
    lines = [
        f"Exam on {plan.exam:%a %d %b %Y}: {plan.new_cards} new cards, {plan.new_per_day} a day"
        f" from {plan.today:%a %d %b}; final sweep from {plan.sweep:%a %d %b}.",
        IMPORT_PRESETS,
        "",
    ]
    for slot in plan.lessons:
        lines.append(f"  {slot.start:%a %d %b} – {slot.end:%a %d %b}  {slot.name} ({slot.cards} cards)")
    lines += [
        "",
        "Every day: do the reviews Anki shows first. In the final sweep, make a filtered deck"
        " (Tools > Create Filtered Deck) from each search, strongest need first:",
    ]
    lines += [f"  {search}   ({what})" for what, search in plan.searches]
    return "\n".join(lines)
