"""Study items to the site's HTML: one renderer per item kind, dispatched through a dict.

Each renderer turns one ``StudyItem`` into a block of a lesson page: a flip card, a
cloze with blanks, a question that answers on the spot, a practice block with its
problems, … Behaviour comes from ``site.js`` through classes and ``data-`` attributes;
without JavaScript a page still reads (answers and steps are shown, see ``page.html``).
Every text is escaped by ``markup`` for the place it lands.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ... import problems, visuals
from ...content.model import (
    Cloze,
    Concept,
    Equation,
    Flashcard,
    Lesson,
    Paper,
    Question,
    Visual,
    WorkedExample,
)
from ...content.text import cloze_numbers
from ...documents.checks import AnswerCheck
from ...documents.items import LabelCard, StudyItem, item_errors
from ...documents.quiz import alt_text
from ...errors import PaperdeckError
from ...presentation import letter, number_formatter, tolerance_words
from ...problems import Problem
from ...values import shape_words
from .markup import attribute, block, inline, math, name_html, text, url, values_html


@dataclass
class Context:
    """What renderers share while one site is written."""

    paper: Paper
    figures: Path
    """The figure cache, where ``visuals.render`` draws (or finds) each figure."""
    used_figures: dict[str, Path] = field(default_factory=dict)
    """Figures the pages show: file name under ``figures/`` → the drawn file."""
    problems: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    """The practice blocks of the page being written: block key → its problems, as the page's
    script shows them (written beside the page, see ``export``)."""
    numbers_later: bool = False
    """Whether practice blocks are written without their first problem, which the script writes
    when their numbers load: the review page, which loads them only when a problem comes up."""

    def figure(self, visual: Visual, alt: str) -> str:
        """The figure's ``<img>``, drawn once and copied with the site; its size is stated
        so the page does not move when it loads."""
        path = visuals.render(visual.kind, dict(visual.params or {}), self.figures)
        self.used_figures[path.name] = path
        width, height = _image_size(path)
        return (
            f'<img src="figures/{attribute(path.name)}" alt="{attribute(alt)}" width="{width}" '
            f'height="{height}" loading="lazy">'
        )


def _image_size(path: Path) -> tuple[int, int]:
    """Width and height of a PNG (its header) or of an SVG (its root's attributes), in px."""
    data = path.read_bytes()
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    root = re.search(rb"<svg\b[^>]*>", data)
    size = [
        re.search(rb'\b%s="([\d.]+)' % name, root.group(0)) if root else None
        for name in (b"width", b"height")
    ]
    if size[0] is None or size[1] is None:
        raise ValueError(f"{path.name}: no width and height on its <svg>")
    return round(float(size[0].group(1))), round(float(size[1].group(1)))


def dom_id(*parts: str) -> str:
    """An id attribute built from keys: letters, digits and hyphens."""
    return re.sub(r"[^A-Za-z0-9-]+", "-", "-".join(parts)).strip("-")


_ARXIV_PART = {1: "SS", 2: "SSS"}


def source_url(paper: Paper, label: str) -> str | None:
    """Where a source label points in the paper's arXiv HTML (``S3.2.1`` → ``#S3.SS2.SSS1``)."""
    if not paper.arxiv:
        return None
    parts = label[1:].split(".") if label.startswith("S") else []
    anchor = ""
    if parts and parts[0].isdigit():
        anchor = "S" + parts[0]
        for depth, part in enumerate(parts[1:], 1):
            anchor += "." + (_ARXIV_PART.get(depth, "SSSS") + part if part.isdigit() else part)
    return url(f"https://arxiv.org/html/{paper.arxiv}" + (f"#{anchor}" if anchor else ""))


def source_link(paper: Paper, label: str) -> str:
    href = source_url(paper, label)
    title = attribute(f"Section {label} of the paper on arXiv")
    if href is None:
        return f'<span class="pd-source">{text(label)}</span>'
    return f'<a class="pd-source" href="{href}" title="{title}">{text(label)}</a>'


def _data(item: StudyItem) -> str:
    lesson = item.lesson.id if item.lesson else "practice"
    return f'data-key="{attribute(item.key)}" data-lesson="{attribute(lesson)}"'


def _card(item: StudyItem, ctx: Context, kind: str, front: str, back: str, known: bool = True) -> str:
    back_id = dom_id("back", item.kind, item.key)
    mark = (
        '<button type="button" class="pd-known" aria-pressed="false">Mark as known</button>' if known else ""
    )
    return (
        f'<article class="pd-card pd-recall" {_data(item)} aria-label="{attribute(kind)}">'
        f'<div class="pd-card-head"><span class="pd-kind">{text(kind)}</span>'
        f"{source_link(ctx.paper, item.source)}</div>"
        f'<div class="pd-front">{front}</div>'
        f'<div class="pd-back" id="{back_id}" hidden>{back}</div>'
        f'<div class="pd-actions"><button type="button" class="pd-flip" aria-expanded="false" '
        f'aria-controls="{back_id}">Show answer</button>{mark}</div>'
        "</article>"
    )


def concept(item: StudyItem, ctx: Context) -> str:
    body: Concept = item.body
    return _card(item, ctx, "Concept", f"<p>{inline(body.term)}</p>", block(body.definition))


def flashcard(item: StudyItem, ctx: Context) -> str:
    body: Flashcard = item.body
    extra = f'<div class="pd-extra">{block(body.explanation)}</div>' if body.explanation else ""
    return _card(item, ctx, "Flashcard", block(body.front), block(body.back) + extra)


def cloze(item: StudyItem, ctx: Context) -> str:
    body: Cloze = item.body
    count = len(set(cloze_numbers(body.text)))
    extra = f'<div class="pd-extra" hidden>{block(body.extra)}</div>' if body.extra else ""
    return (
        f'<article class="pd-card pd-cloze pd-recall" {_data(item)} aria-label="Cloze">'
        f'<div class="pd-card-head"><span class="pd-kind">Fill in the blanks</span>'
        f"{source_link(ctx.paper, item.source)}</div>"
        f'<div class="pd-front">{block(body.text, clozes=True)}</div>{extra}'
        f'<div class="pd-actions"><button type="button" class="pd-reveal-blank" '
        f'data-count="{count}">Reveal blank 1 of {count}</button>'
        f'<button type="button" class="pd-known" aria-pressed="false">Mark as known</button></div>'
        "</article>"
    )


def _symbols(body: Equation) -> str:
    rows = "".join(
        f"<tr><td>{math(v.symbol)}</td><td>{'scalar' if v.scalar else math(v.shape)}</td><td>{inline(v.meaning)}</td></tr>"
        for v in body.variables
    )
    return (
        f'<div class="pd-scroll"><table class="pd-symbols"><caption>Its symbols</caption><thead><tr>'
        f'<th scope="col">Symbol</th><th scope="col">Shape</th><th scope="col">Meaning</th></tr></thead>'
        f"<tbody>{rows}</tbody></table></div>"
    )


def equation_card(item: StudyItem, ctx: Context) -> str:
    """An equation to recall, its name to its formula and symbols (the Anki Equation note's first
    card): the review page's card, where a lesson page shows the equation to read (``equation``).
    Not marked as known: a lesson page has no such card, and its progress counts none."""
    body: Equation = item.body
    front = f"<p>{inline(body.name)}</p><p>Write the equation.</p>"
    back = f'<div class="pd-display pd-scroll">{math(body.latex, display=True)}</div>{_symbols(body)}'
    return _card(item, ctx, "Equation", front, back, known=False)


def equation(item: StudyItem, ctx: Context) -> str:
    body: Equation = item.body
    deep = (
        (
            f'<details class="pd-deep"><summary>Why it looks like this</summary>{block(body.deep_dive)}'
            "</details>"
        )
        if body.deep_dive
        else ""
    )
    return (
        f'<section class="pd-equation" {_data(item)} id="{dom_id("eq", item.key)}">'
        f"<h3>{inline(body.name)} {source_link(ctx.paper, body.label)}</h3>"
        f'<div class="pd-display pd-scroll">{math(body.latex, display=True)}</div>'
        f"{_symbols(body)}{deep}</section>"
    )


_EXACT = number_formatter()
_WORKED = number_formatter(abs_tol=1e-7)


def worked_example(item: StudyItem, ctx: Context) -> str:
    body: WorkedExample = item.body
    try:
        task = block(problems.get(body.problem).prompt(body.given))
    except PaperdeckError:  # a type that is not registered, givens it cannot state: list them
        task = "<p>Given:</p>" + values_html(body.given, _EXACT)
    steps = "".join(f"<li>{block(step)}</li>" for step in body.steps)
    return (
        f'<section class="pd-example" id="{dom_id("ex", item.key)}">'
        f"<h3>{inline(body.title)} {source_link(ctx.paper, item.source)}</h3>"
        f'<div class="pd-task">{task}</div>'
        f'<ol class="pd-steps">{steps}</ol>'
        f'<div class="pd-result"><p>Result:</p>{values_html(body.result, _WORKED)}</div>'
        f'<div class="pd-actions pd-js-only" hidden><button type="button" class="pd-next-step">'
        f"Show step 1 of {len(body.steps)}</button>"
        f'<button type="button" class="pd-all-steps">Show all steps</button></div></section>'
    )


def visual(item: StudyItem, ctx: Context) -> str:
    body: Visual = item.body
    image = ctx.figure(body, alt_text(body.caption))
    return (
        f'<figure class="pd-figure" id="{dom_id("fig", item.key)}">{image}'
        f"<figcaption>{inline(body.caption)} {source_link(ctx.paper, item.source)}</figcaption></figure>"
    )


def _box(box: tuple[float, float, float, float]) -> str:
    left, top, width, height = box
    return f"left:{left:.2f}%;top:{top:.2f}%;width:{width:.2f}%;height:{height:.2f}%"


def labels(group: list[StudyItem], ctx: Context) -> str:
    """One label-the-part figure for all the label items of one visual."""
    first: LabelCard = group[0].body
    diagram, visual_ = first.diagram, first.visual
    asked = [item.body.part for item in group]
    numbered = {part.id for part in asked}
    image = ctx.figure(visual_, alt_text(visual_.caption) + " (labels covered)")
    covers, answers = [], []
    for n, (item, part) in enumerate(zip(group, asked, strict=True), 1):
        part_id = dom_id("label", visual_.id, part.id)
        covers.append(
            f'<button type="button" class="pd-cover" style="{_box(diagram.fraction(part))}" '
            f'data-part="{attribute(part.id)}" aria-controls="{part_id}" aria-expanded="false" '
            f'aria-label="Hidden label {n}: reveal it"><span aria-hidden="true">{n}</span>'
            "</button>"
        )
        # The parts a card covers with this one (LabelCard.covers), unless a number covers them.
        covers.extend(
            f'<span class="pd-cover pd-twin" style="{_box(diagram.fraction(p))}" '
            f'data-part="{attribute(part.id)}"></span>'
            for p in item.body.covers
            if p.id not in numbered
        )
        note = f" — {inline(part.note)}" if part.note else ""
        answers.append(
            f'<li id="{part_id}" data-part="{attribute(part.id)}"><span class="pd-label-answer" '
            f"hidden>{inline(part.answer)}{note}</span>"
            '<span class="pd-label-hidden">hidden</span></li>'
        )
    key = group[0].key.rsplit("--", 1)[0]
    return (
        f'<section class="pd-labels pd-recall" data-key="{attribute("labels/" + key)}" '
        f'data-lesson="{attribute(group[0].lesson.id if group[0].lesson else "practice")}" '
        f'aria-label="Label the parts of a figure">'
        f"<p>Tap a numbered box to reveal the part it hides. {source_link(ctx.paper, visual_.source)}</p>"
        f'<div class="pd-label-figure">{image}'
        f"{''.join(covers)}</div>"
        f'<ol class="pd-label-list">{"".join(answers)}</ol>'
        f'<div class="pd-actions"><button type="button" class="pd-reveal-all">Reveal all</button>'
        '<button type="button" class="pd-known" aria-pressed="false">Mark as known</button>'
        "</div></section>"
    )


def question(item: StudyItem, ctx: Context) -> str:
    body: Question = item.body
    qid = dom_id("q", item.key)
    explanation = (
        f'<div class="pd-explanation" hidden>{block(body.explanation)}</div>' if body.explanation else ""
    )
    head = (
        f'<article class="pd-question" {_data(item)} data-type="{attribute(body.type)}" '
        f'aria-labelledby="{qid}-prompt">'
        f'<div class="pd-card-head"><span class="pd-kind">{text(_FORMATS[body.type])}</span>'
        f"{source_link(ctx.paper, item.source)}</div>"
        f'<div class="pd-prompt" id="{qid}-prompt">{block(body.prompt)}</div>'
    )
    if item.figure is not None:  # drawn as the lesson's figures are
        head += (
            f'<figure class="pd-figure">{ctx.figure(item.figure.visual, item.figure.alt)}'
            f"<figcaption>{inline(item.figure.visual.caption)}</figcaption></figure>"
        )
    if item.options:
        buttons = []
        for n, option in enumerate(item.options):
            why = "" if not option.mistake else f'<span class="pd-why" hidden>{inline(option.mistake)}</span>'
            right_option = "1" if option.correct else "0"
            buttons.append(
                f'<li><button type="button" class="pd-option" data-right="{right_option}">'
                f'<span class="pd-letter">{letter(n)}.</span> {inline(option.text)}</button>{why}</li>'
            )
        return (
            head + f'<ol class="pd-options" aria-label="Choices">{"".join(buttons)}</ol>'
            f'<p class="pd-feedback" role="status"></p>{explanation}</article>'
        )
    if body.type == "numeric":
        (check,) = item.checks
        tolerance, shown = check.tolerance.abs, check.shown
        unit = f" ({text(body.unit)})" if body.unit else ""
        return (
            head + f'<form class="pd-numeric" data-expected="{attribute(repr(check.expected[0]))}" '
            f'data-abs="{attribute(repr(tolerance))}" data-count="1" data-shown="{attribute(shown)}">'
            f'<label for="{qid}-in">Your answer{unit}</label>'
            f'<input id="{qid}-in" type="text" inputmode="decimal" autocomplete="off" spellcheck="false">'
            f'<button type="submit">Check</button></form><p class="pd-feedback" role="status"></p>'
            f'<div class="pd-answer" hidden><p>Answer: {text(shown)}{unit} '
            f"({inline(tolerance_words(tolerance))})</p></div>"
            '<button type="button" class="pd-show-answer">Show the answer</button>'
            f"{explanation}</article>"
        )
    return (
        head + f'<label for="{qid}-in">Your answer (for yourself; nothing is sent)</label>'
        f'<textarea id="{qid}-in" rows="3"></textarea>'
        f'<div class="pd-answer" hidden><p>Model answer:</p>{block(str(body.answer))}</div>'
        '<button type="button" class="pd-show-answer">Show the model answer</button>'
        f"{explanation}</article>"
    )


_FORMATS = {
    "multiple_choice": "Multiple choice",
    "true_false": "True or false?",
    "numeric": "Numeric answer",
    "short_answer": "Short answer",
}


def _variant(problem: Problem, check: AnswerCheck) -> dict[str, Any]:
    """One problem of a practice block, as the page's script shows it."""
    primary, tolerance, fmt = check.name, check.tolerance, check.digits
    steps = "".join(
        f'<li><span class="pd-step-title">{inline(step.title)}</span>'
        f'<span class="pd-scroll">{math(step.latex, display=True)}</span></li>'
        for step in problem.steps
    )
    # With its difficulty always: a seed alone does not name a problem, and the CLI asks for it.
    command = f"paperdeck problems {problem.type} --problem-seed {problem.seed} -d {problem.difficulty}"
    return {
        "seed": problem.seed,
        "prompt": block(problem.prompt),
        "name": f"{name_html(primary)}, {text(shape_words(check.shape))}",
        "expected": list(check.expected),
        "shown": check.shown,
        "tol": tolerance.to_json(),
        "tolText": inline(tolerance_words(tolerance.abs, tolerance.rel)),
        "key": values_html(check.key, fmt),
        "steps": steps,
        "mistakes": [[inline(m.mistake), list(m.numbers)] for m in check.mistakes],
        "command": text(command),
    }


def problem(item: StudyItem, ctx: Context) -> str:
    body: Problem = item.body
    variants = [_variant(*pair) for pair in zip(item.variants or (body,), item.checks, strict=True)]
    ctx.problems[item.key] = variants
    first = dict.fromkeys(variants[0], "") if ctx.numbers_later else variants[0]
    pid = dom_id("p", item.key)
    number = item.key.rsplit("/", 1)[-1]
    title = f"{problems.get(body.type).description}, problem {number}"
    later = " data-later" if ctx.numbers_later else ""
    return (
        f'<section class="pd-practice" {_data(item)} data-variants="{len(variants)}"{later} '
        f'aria-labelledby="{pid}-title">'
        f'<h3 id="{pid}-title">{text(title)} '
        f'<span class="pd-difficulty">({text(body.difficulty)})</span></h3>'
        f'<p class="pd-variant-note">Problem <span data-pd="number">1</span> of {len(variants)} · '
        f'seed <code data-pd="seed">{first["seed"]}</code> {source_link(ctx.paper, item.source)}</p>'
        f'<div data-pd="prompt">{first["prompt"]}</div>'
        f'<form class="pd-problem-check"><label for="{pid}-in">Type <span data-pd="name">{first["name"]}'
        f"</span></label>"
        f'<input id="{pid}-in" type="text" inputmode="decimal" autocomplete="off" spellcheck="false">'
        f'<button type="submit">Check</button></form><p class="pd-feedback" role="status"></p>'
        f'<details class="pd-key"><summary>Worked steps and key</summary>'
        f'<div data-pd="key">{first["key"]}</div><p>Tolerance: <span data-pd="tolText">{first["tolText"]}'
        f'</span></p><ol class="pd-problem-steps" data-pd="steps">{first["steps"]}</ol>'
        f'<p>The same problem in a terminal: <code data-pd="command">{first["command"]}</code></p>'
        "</details>"
        '<div class="pd-actions"><button type="button" class="pd-new">New problem</button></div>'
        "</section>"
    )


RENDERERS: dict[str, Callable[[StudyItem, Context], str] | None] = {
    "concept": concept,
    "equation": equation,
    "cloze": cloze,
    "flashcard": flashcard,
    "worked_example": worked_example,
    "question": question,
    "visual": visual,
    "label": None,  # all label items of a figure make one block: ``labels``
    "problem": problem,
}
"""The renderer of each item kind; every kind in ``items.KINDS`` has an entry (a test says so)."""

SECTIONS = (
    ("concept", "Concepts"),
    ("equation", "Equations"),
    ("worked_example", "Worked examples"),
    ("visual", "Figures"),
    ("label", "Label the parts"),
    ("flashcard", "Flashcards"),
    ("cloze", "Fill in the blanks"),
    ("question", "Check yourself"),
    ("problem", "Practice with fresh numbers"),
)
"""The sections of a lesson page, in order: read, then recall, then practise."""


def render_items(kind: str, chosen: list[StudyItem], ctx: Context) -> str:
    """The HTML of one section's items; an unknown kind raises ValueError."""
    if kind not in RENDERERS:
        raise ValueError(
            f"the site has no layout for item kind {kind!r}; known kinds: {', '.join(RENDERERS)}"
        )
    render = RENDERERS[kind]
    out = []
    if render is None:
        by_visual: dict[str, list[StudyItem]] = {}
        for item in chosen:
            by_visual.setdefault(item.body.visual.id, []).append(item)
        for group in by_visual.values():
            with item_errors(group[0]):
                out.append(labels(group, ctx))
        return "".join(out)
    for item in chosen:
        with item_errors(item):
            out.append(render(item, ctx))
    return "".join(out)


def lesson_body(lesson: Lesson | None, group_items: list[StudyItem], ctx: Context) -> str:
    """The main content of a lesson page (or of the practice page, ``lesson`` None)."""
    out = []
    if lesson is not None:
        sources = ", ".join(source_link(ctx.paper, s) for s in lesson.sources)
        out.append(
            f'<p class="pd-sources">From the paper: {sources}</p>'
            f'<div class="pd-text">{block(lesson.text)}</div>'
        )
    if any(i.kind in ("concept", "flashcard", "cloze", "label", "question") for i in group_items):
        out.append(
            '<p class="pd-review-link"><a href="review.html">Review the cards that are due</a>'
            ' <span class="pd-due"></span></p>'
        )  # site.js counts this page's due cards
    for kind, heading in SECTIONS:
        chosen = [i for i in group_items if i.kind == kind]
        if chosen:
            out.append(
                f'<section class="pd-section" aria-labelledby="h-{kind}">'
                f'<h2 id="h-{kind}">{heading}</h2>'
                f"{render_items(kind, chosen, ctx)}</section>"
            )
    if lesson is not None and lesson.resources:
        out.append(
            '<section class="pd-section" aria-labelledby="h-resources">'
            '<h2 id="h-resources">Resources</h2>'
            f"{resources_html(lesson.resources)}</section>"
        )
    return "".join(out)


def resources_html(resources: Any) -> str:
    rows = []
    for resource in resources:
        href = url(resource.url)
        title = text(resource.title)
        link = f'<a href="{href}" rel="noopener noreferrer">{title}</a>' if href else title
        note = f" — {inline(resource.note)}" if resource.note else ""
        rows.append(f"<li>{link}{note}</li>")
    return f'<ul class="pd-resources">{"".join(rows)}</ul>'
