"""The site's review page: every card the lesson pages show, on one page, scheduled by FSRS.

``review.html`` holds the review queue: the cards a student meets on the lesson pages
(concepts, equations, flashcards, clozes, label figures, questions, practice problems), written by
the same renderers (``pages.RENDERERS``), one shown at a time by ``review.js`` and rated
Again/Hard/Good/Easy with ts-fsrs (``vendor/ts-fsrs.js``, its UMD build, a classic script:
ES modules do not load from ``file://``). The queue lives on this one page because Firefox
keeps each ``file://`` page's storage apart; the lesson pages read the same storage entry
to say what is due (``site.js``). The schedule is the browser's own, separate from Anki's.

A practice problem's card is the problem (``lesson/key`` as the progress names it), written
without numbers (``Context.numbers_later``): when it comes up, ``review.js`` adds its lesson's
file of problems (``problems/…js``, a classic script, which ``file://`` loads where ``fetch()`` is
refused) and ``site.js`` shows the day's problem and checks the answer as on the lesson page. The
page holds none of the numbers, 3.4 MB for the shipped paper, which a phone would parse to show
one card. An equation, read on its lesson page, is asked here from its name, as the Anki
Equation note asks ("Name to formula", ``pages.equation_card``): a student preparing an exam
expects to write a formula, not only to have read it.
"""

from __future__ import annotations

from datetime import date
from importlib import resources
from pathlib import Path

from ...content.model import Lesson
from ...documents.items import StudyItem, item_errors
from .markup import attribute, text
from .pages import Context, equation_card, render_items

PAGE = "review.html"
REVIEWED = ("concept", "equation", "flashcard", "cloze", "label", "question", "problem")
"""The item kinds the review page schedules, in a lesson's order: those a lesson page shows as
something to recall or answer, and its equations, asked from their names (worked examples and
figures are read, not rated)."""
ASSETS = {"review.js": "review.js", "ts-fsrs.js": "vendor/ts-fsrs.js"}
"""Files the review page loads from ``assets/``: name there → file in this package."""
SEPARATE = (
    "This page keeps its own review schedule (FSRS, in this browser). It is separate from"
    " Anki's: a review here does not change your Anki deck, and a review in Anki does not"
    " show here."
)


def _equation(item: StudyItem, ctx: Context) -> str:
    with item_errors(item):
        return equation_card(item, ctx)


def _day(iso: str) -> str:
    """An ISO date as the page says it (``Fri 15 Jan 2027``)."""
    return f"{date.fromisoformat(iso):%a %d %b %Y}"


def body(
    groups: list[tuple[str, Lesson | None, list[StudyItem]]],
    pages: list[tuple[str, str, str]],
    ctx: Context,
    exam: str = "",
    problem_files: dict[str, str] | None = None,
) -> str:
    """The review page's main content: the queue of every lesson's cards in teaching order,
    the rating buttons, the exam's plan (starting from the recipe's ``exam`` date, if any), and
    the export and import of progress. ``problem_files``: each lesson page's file of practice
    problems (``problems/…``), which ``review.js`` loads when one of its problems comes up."""
    files = problem_files or {}
    ctx.numbers_later = True
    cards = []
    for (group, _, group_items), (name, _, _) in zip(groups, pages, strict=True):
        for kind in REVIEWED:
            chosen = [i for i in group_items if i.kind == kind]
            if not chosen:
                continue
            ctx.problems = {}  # their numbers stay in the lesson page's file
            html = (
                "".join(_equation(i, ctx) for i in chosen)
                if kind == "equation"
                else render_items(kind, chosen, ctx)
            )
            numbers = f' data-problems="{attribute(files[name])}"' if ctx.problems else ""
            cards.append(
                f'<div class="pd-review-lesson" data-page="{attribute(name)}" data-title='
                f'"{attribute(group)}"{numbers} hidden>{html}</div>'
            )
    ctx.problems, ctx.numbers_later = {}, False
    rate = "".join(
        f'<button type="button" class="pd-rate" data-rating="{n}" aria-keyshortcuts="{n}">'
        f'{label} <span class="pd-interval"></span></button>'
        for n, label in enumerate(("Again", "Hard", "Good", "Easy"), 1)
    )
    return (
        f'<p class="pd-separate">{text(SEPARATE)}</p>'
        '<section aria-labelledby="h-queue"><h2 id="h-queue">Due now</h2>'
        '<p class="pd-review-status" role="status">The review needs JavaScript.</p>'
        f'<div class="pd-queue">{"".join(cards)}</div>'
        '<div class="pd-rating" role="group" aria-label="How well did you recall it? Keys 1 to 4" hidden>'
        f"{rate}</div>"
        '<p class="pd-review-next" aria-live="polite"></p></section>'
        '<section aria-labelledby="h-plan"><h2 id="h-plan">Your exam</h2>'
        "<p>Give your exam's date: this page then paces its new cards to finish a week before it"
        " (a quarter of the days when fewer than four weeks remain), and shows for each lesson when"
        " its new cards come and how much of it you would recall on the day (FSRS's predicted"
        " retrievability of the cards you have reviewed). It keeps the pace you set that day, and says"
        " later how many new cards you are behind it.</p>"
        + (
            f"<p>This site was made for an exam on {text(_day(exam))}: give your own date if it differs.</p>"
            if exam
            else ""
        )
        + '<p><label for="pd-exam">Exam date</label> <input type="date" id="pd-exam" class="pd-exam"'
        + (f' data-exam="{attribute(exam)}"' if exam else "")
        + "></p>"
        '<p class="pd-plan-summary" role="status"></p>'
        '<div class="pd-scroll"><table class="pd-plan" hidden><caption>Your plan, lesson by lesson'
        '</caption><thead><tr><th scope="col">Lesson</th><th scope="col">New cards left</th>'
        '<th scope="col">Their days</th><th scope="col">Recall at the exam</th>'
        '<th scope="col">Behind your pace</th></tr></thead>'
        "<tbody></tbody></table></div></section>"
        '<section aria-labelledby="h-keep"><h2 id="h-keep">Keep your progress</h2>'
        "<p>Your schedule and your progress on the lesson pages are kept in this browser only. Safari"
        " deletes them after seven days without a visit, and another browser or phone does not see"
        " them: export them to a file now and then, and import that file where you study next.</p>"
        '<div class="pd-actions"><button type="button" class="pd-export">Export progress</button>'
        '<label class="pd-import-label">Import progress <input type="file" class="pd-import" '
        'accept=".json,application/json"></label></div>'
        '<p class="pd-import-status" role="status"></p></section>'
    )


def scripts() -> str:
    """The review page's scripts (before ``site.js``): ts-fsrs and ``review.js``. No practice
    problems: ``review.js`` loads a lesson's file of them when one of its problems comes up."""
    return "".join(f'<script src="assets/{name}"></script>' for name in ("ts-fsrs.js", "review.js"))


def write_assets(assets: Path) -> list[Path]:
    """Copy ts-fsrs and ``review.js`` into the site's ``assets/``; the files written."""
    written = []
    for name, source in ASSETS.items():
        data = resources.files(__package__).joinpath(source).read_bytes()
        (assets / name).write_bytes(data)
        written.append(assets / name)
    return written
