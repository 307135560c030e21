"""An exam's plan as a printed calendar: the PDF beside ``<deck>-plan.txt``.

The same ``documents.plan.Plan`` the text file prints, laid out for a wall or a desk: a
week a row from the plan's first day to the exam, each day with its new cards and the
lessons they come from (where a lesson begins), the days of reviews only, the final
sweep and the exam; then the lessons' days, and the searches of the sweep with how to
make a filtered deck from each in Anki. Nothing is computed here but the layout.
"""

from __future__ import annotations

from datetime import date, timedelta

from ..documents.plan import IMPORT_PRESETS, Plan, PlanDay
from .typst import escape, markdown, string
from .typst.compile import compile_pdf, preamble

_WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_FILL = {"learn": "none", "review": "luma(245)", "sweep": "luma(220)", "exam": "luma(0)"}
"""Each kind of day's shade; the exam is black with white letters."""

FILTERED_DECK_STEPS = (
    "In Anki, choose Tools > Create Filtered Deck (the F key in the deck list;"
    " in AnkiDroid, the menu's Create filtered deck).",
    "Paste one search below into Search, set Limit to a number larger than the cards you"
    " expect (a few hundred), and leave “Reschedule cards based on my answers in this deck”"
    " ticked, so that what you do there counts as reviews.",
    "Build, and study the filtered deck to its end. Then empty it (Empty, at its bottom):"
    " its cards go back to their own decks.",
    "Take the searches in this order: what you would fail today first, what is still new last.",
)
"""How to make a filtered deck from a search, as the calendar prints it (Anki 2.1.50 and later)."""


def _date(day: date) -> str:
    return escape(f"{day:%a %d %b}")


def _cell(plan: Plan, day: PlanDay) -> str:
    """One day of the calendar: its date, then what the day adds to the reviews."""
    number = f"{day.day.day} {day.day:%b}" if day.day.day == 1 or day.day == plan.today else str(day.day.day)
    lines = [f'#text(weight: "bold")[{escape(number)}]']
    if day.kind == "exam":
        lines.append('#text(weight: "bold")[Exam]')
    elif day.kind == "sweep":
        lines.append("Sweep: filtered decks")
    elif day.kind == "review":
        lines.append("Reviews only")
    else:
        lines.append(escape(f"{day.new_cards} new"))
        for place in day.lessons:
            label = f"L{place + 1}"
            begins = plan.lessons[place].start == day.day
            lines.append(f'#text(weight: "bold")[Begin {label}]' if begins else label)
    ink = ", fill: white" if day.kind == "exam" else ""
    body = " \\\n".join(lines)
    # A zero-width column of the cell's least height: a day of three lines is as tall as a day
    # of two, and a busier day grows instead of running over the cell's edge.
    return (
        f"table.cell(fill: {_FILL[day.kind]})[#set text(size: 8.5pt{ink})\n"
        f"#grid(columns: (0pt, 1fr), box(height: 1.4cm), [{body}])]"
    )


def _calendar(plan: Plan) -> str:
    """The days from the Monday of the plan's first week to the Sunday of the exam's week."""
    first = plan.today - timedelta(days=plan.today.weekday())
    last = plan.exam + timedelta(days=6 - plan.exam.weekday())
    days = {d.day: d for d in plan.days}
    cells = []
    day = first
    while day <= last:
        cells.append(_cell(plan, days[day]) if day in days else "[]")
        day += timedelta(days=1)
    header = ", ".join(f"[*{name}*]" for name in _WEEKDAYS)
    return (
        "#table(columns: (1fr,) * 7, inset: 4pt,\n"
        f"  table.header(repeat: true, {header}),\n  " + ",\n  ".join(cells) + ")\n"
    )


def calendar_source(plan: Plan, paper: str = "a4") -> str:
    """The Typst source of the plan's calendar."""
    title = f"{plan.title}: plan to the exam"
    exam = _date(plan.exam) + escape(f" {plan.exam:%Y}")
    out = [
        preamble(paper, title, f"[Exam on {exam}]"),
        f'#align(center, text(size: 17pt, weight: "bold")[{escape(plan.title)}])\n',
        f"#align(center, text(size: 13pt)[Your plan to the exam on {exam}])\n\n",
        escape(
            f"{plan.new_cards} new cards, {plan.new_per_day} a day from {plan.today:%a %d %b}"
            f" (the last day of new cards may have fewer); no new cards from {plan.sweep:%a %d %b},"
            " the final sweep. Every day, do the reviews Anki shows first: they keep what you learnt."
        ),
        "\n\n",
        escape(IMPORT_PRESETS),
        "\n\n== Calendar\n",
        _calendar(plan),
        "#text(size: 9pt)[“Begin L2”: lesson 2’s new cards start that day (the lessons are listed"
        " below). Light grey: reviews only; grey: the sweep; black: the exam.]\n",
        "\n== Lessons\n",
        "#table(columns: (auto, 1fr, auto, auto), inset: 4pt, table.header([*\\#*], [*Lesson*],"
        " [*Its new cards*], [*Cards*]),\n",
    ]
    for place, slot in enumerate(plan.lessons):
        days = _date(slot.start) if slot.start == slot.end else f"{_date(slot.start)} – {_date(slot.end)}"
        out.append(f"  [L{place + 1}], [{markdown(slot.name)}], [{days}], [{slot.cards}],\n")
    out += [
        ")\n",
        f"\n== The final sweep, from {_date(plan.sweep)}\n",
        "#enum(" + ", ".join(f"[{escape(step)}]" for step in FILTERED_DECK_STEPS) + ")\n",
        "#table(columns: (auto, 1fr), inset: 4pt, table.header([*Search*], [*It gathers*]),\n",
    ]
    for what, search in plan.searches:
        out.append(f"  [#raw({string(search)})], [{escape(what)}],\n")
    out.append(")\n")
    return "".join(out)


def calendar_pdf(plan: Plan, paper: str, timestamp: int) -> bytes:
    """The plan's calendar as PDF bytes."""
    return compile_pdf(calendar_source(plan, paper), timestamp)
