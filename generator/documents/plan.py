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
class PlanDay:
    """One day from the plan's first to the exam: what it adds to the reviews every day has."""

    day: date
    new_cards: int
    lessons: tuple[int, ...]
    """The lessons (their places in ``Plan.lessons``) whose new cards come this day."""
    kind: str
    """``learn`` (new cards), ``review`` (no new cards before the sweep), ``sweep`` or ``exam``."""


@dataclass(frozen=True)
class Plan:
    """The pacing of a deck from ``today`` to the ``exam``."""

    title: str
    """The deck's title (its searches select it and its subdecks)."""
    today: date
    exam: date
    new_cards: int
    new_per_day: int
    sweep: date
    """The first day of the final sweep: no new cards from then, reviews and weak cards only."""
    lessons: tuple[LessonSlot, ...]
    searches: tuple[tuple[str, str], ...]
    """What each search gathers, and the Anki search (for the browser or a filtered deck)."""
    days: tuple[PlanDay, ...] = ()
    """Every day from ``today`` to the ``exam``, both included (the calendar's cells)."""


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


def _kind(offset: int, days: int, teaching: int, new: bool) -> str:
    """What the day ``offset`` days after the plan's first is (``PlanDay.kind``)."""
    if offset == days:
        return "exam"
    if offset >= teaching:
        return "sweep"
    return "learn" if new else "review"


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
    by_day: list[list[int]] = [[] for _ in range(days + 1)]
    for place, (name, cards) in enumerate(lessons):
        first = before // per_day
        before += cards
        last = max(first, math.ceil(before / per_day) - 1)
        slots.append(LessonSlot(name, cards, today + timedelta(days=first), today + timedelta(days=last)))
        for offset in range(first, last + 1):
            by_day[offset].append(place)
    calendar = tuple(
        PlanDay(
            today + timedelta(days=offset),
            max(0, min(per_day, total - offset * per_day)) if offset < teaching else 0,
            tuple(by_day[offset]),
            _kind(offset, days, teaching, bool(by_day[offset])),
        )
        for offset in range(days + 1)
    )
    sweep = today + timedelta(days=teaching)
    return Plan(title, today, exam, total, per_day, sweep, tuple(slots), searches(title), calendar)


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
