"""Study items to Anki notes: one builder per item kind, dispatched through a dict.

A builder turns one ``StudyItem`` into the fields of its note type (HTML, escaped
and converted from content Markdown by ``markup``), the cards to create, and the
media files it references. It reads only the item; identity and placement are
the package writer's business.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ... import problems
from ...content.model import Cloze, Concept, Equation, Flashcard, Question, Visual, WorkedExample
from ...content.text import cloze_numbers
from ...documents.checks import AnswerCheck
from ...documents.items import LabelCard, StudyItem
from ...errors import PaperdeckError
from ...presentation import answer_formatter, letter, number_formatter, tolerance_words
from ...problems import Problem, Tolerance
from ...values import shape_words
from ..plain_text import prose
from . import notetypes
from .markup import (
    attribute,
    block,
    equals_html,
    escape,
    escape_repeated,
    inline,
    name_html,
    quotes,
    values_html,
)
from .notetypes import NoteType

# A named mistake as the card's script shows it in a verdict (text, not typeset math).
_plain = functools.lru_cache(maxsize=1024)(prose)


@dataclass(frozen=True)
class BuiltNote:
    """What one item becomes: fields in note-type order, cards, media."""

    note_type: NoteType
    fields: tuple[str, ...]
    cards: tuple[int, ...]
    """Template ordinals (cloze: cloze number - 1) of the cards to create."""
    media: tuple[Path, ...] = ()


@dataclass
class Figures:
    """Draws figures through ``generator.visuals``, into a cache kept between builds."""

    cache_dir: Path
    """Where rendered PNGs are kept between builds (named by a hash of their inputs)."""

    def render(self, kind: str, params: dict[str, Any]) -> Path:
        from ... import visuals

        return visuals.render(kind, params, self.cache_dir)


def heatmap_html(problem: Problem) -> str:
    """The attention weights of an attention problem as a shaded table, queries × keys.

    An HTML table rather than a drawn PNG: exact numbers that scale with the card,
    and no drawing cost, so a practice set of thousands of problems stays fast.
    Darker cells carry more weight; masked cells (``heatmap`` "causal") are marked.
    """
    heatmap = problems.get(problem.type).heatmap
    if heatmap is None:
        return ""
    weights = problem.answer["weights"]
    masked = heatmap == "causal"
    pad = "padding:0.1em 0.35em"  # the numbers apart, each inside its shading
    header = "".join(f'<th scope="col" style="{pad}">k{j + 1}</th>' for j in range(len(weights[0])))
    rows = []
    for i, row in enumerate(weights):
        cells = []
        for j, weight in enumerate(row):
            if masked and j > i:
                cells.append(
                    '<td class="pd-masked" style="background:repeating-linear-gradient('
                    f'45deg,#fff,#fff 3px,#bbb 3px,#bbb 5px);color:#555;{pad}">masked</td>'
                )
                continue
            lightness = round(100 - 70 * weight)
            ink = "#fff" if lightness < 55 else "#000"
            cells.append(f'<td style="background:hsl(0,0%,{lightness}%);color:{ink};{pad}">{weight:.4f}</td>')
        rows.append(f'<tr><th scope="row" style="{pad}">q{i + 1}</th>{"".join(cells)}</tr>')
    # The caption sits above the table, not in it: a caption is as narrow as its table. The
    # empty corner is a plain cell: a header that names nothing leaves a screen reader nothing to say.
    return (
        '<div class="pd-caption">Attention weights (queries × keys; darker = more weight)</div>'
        '<table class="pd-heatmap" style="border-collapse:collapse;margin:auto;'
        f'font-variant-numeric:tabular-nums"><tr><td></td>{header}</tr>{"".join(rows)}</table>'
    )


def _note(
    note_type: NoteType, values: dict[str, str], cards: tuple[int, ...], media: tuple[Path, ...] = ()
) -> BuiltNote:
    if not values.keys() <= note_type.field_set:
        unknown = sorted(values.keys() - note_type.field_set)
        raise ValueError(f"note type {note_type.name} has no field {unknown[0]!r}")
    # Field values are HTML (``&<>`` escaped); a field a template puts inside an attribute
    # also has its quotes escaped, so no text (a student's name in ``Id``) can end the attribute.
    quoted = note_type.attribute_fields
    return BuiltNote(
        note_type,
        tuple([quotes(values.get(f, "")) if f in quoted else values.get(f, "") for f in note_type.fields]),
        cards,
        media,
    )


def _common(item: StudyItem) -> dict[str, str]:
    return {"Source": escape(item.source), "Id": escape(item.key)}


def _img(path: Path, alt: str) -> str:
    return f'<img src="{attribute(path.name)}" alt="{attribute(alt)}">'


def concept(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Concept = item.body
    values = {
        "Front": inline(body.term),
        "Back": block(body.definition),
        "Reverse": "y" if body.reverse else "",
        **_common(item),
    }
    return _note(notetypes.CONCEPT, values, (0, 1) if body.reverse else (0,))


def flashcard(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Flashcard = item.body
    values = {
        "Front": block(body.front),
        "Back": block(body.back),
        "Extra": block(body.explanation),
        **_common(item),
    }
    return _note(notetypes.CONCEPT, values, (0,))


def cloze(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Cloze = item.body
    numbers = sorted({n for n in cloze_numbers(body.text) if n > 0})
    if not numbers:
        raise ValueError("a cloze needs at least one {{c1::…}} deletion")
    values = {"Text": block(body.text), "Extra": block(body.extra), **_common(item)}
    return _note(notetypes.CLOZE, values, tuple(n - 1 for n in numbers))


def _math(latex: str, display: bool = False) -> str:
    return (r"\[" if display else r"\(") + escape(latex) + (r"\]" if display else r"\)")


def equation(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Equation = item.body
    rows = "".join(
        f"<tr><td>{_math(v.symbol)}</td>"
        f"<td>{'scalar' if v.scalar else _math(v.shape)}</td>"
        f"<td>{inline(v.meaning)}</td></tr>"
        for v in body.variables
    )
    symbols = (
        (f'<table class="pd-symbols"><tr><th>Symbol</th><th>Shape</th><th>Meaning</th></tr>{rows}</table>')
        if body.variables
        else ""
    )
    values = {
        "Name": inline(body.name),
        "Formula": _math(body.latex, display=True),
        "Symbols": symbols,
        "DeepDive": block(body.deep_dive),
        **_common(item),
    }
    return _note(notetypes.EQUATION, values, (0, 1) if symbols else (0,))


_EXACT = number_formatter()
_WORKED = number_formatter(abs_tol=1e-7)


def _task(body: WorkedExample) -> str:
    """The question the example answers, as its problem type asks it; empty if it cannot."""
    try:
        return problems.get(body.problem).prompt(body.given)
    except PaperdeckError:  # a problem type that is not registered, givens it cannot state
        return ""


def worked_example(item: StudyItem, figures: Figures) -> BuiltNote:
    body: WorkedExample = item.body
    steps = "".join(f"<li>{block(step)}</li>" for step in body.steps)
    task = body.task or _task(body)
    # A problem type's question states the givens itself; the example's own task may not.
    given = "" if task and not body.task else values_html(body.given, _EXACT)
    # The result to the precision the task asks for ("three decimals"), else in full.
    declared = body.precision if body.task else problems.get(body.problem).precision if task else None
    result = answer_formatter(declared) if declared else _WORKED
    values = {
        "Title": inline(body.title),
        "Task": block(task) if task else "",
        "Given": given,
        "Steps": steps,
        "Result": values_html(body.result, result),
        **_common(item),
    }
    return _note(notetypes.WORKED_EXAMPLE, values, (0,))


_FORMATS = {
    "multiple_choice": "Multiple choice",
    "true_false": "True or false?",
    "numeric": "Numeric answer",
    "short_answer": "Short answer",
}


@functools.lru_cache(maxsize=256)
def _tolerance_text(tolerance: Tolerance) -> str:
    return inline(tolerance_words(tolerance.abs, tolerance.rel))


def _question_figure(item: StudyItem, figures: Figures) -> tuple[str, tuple[Path, ...]]:
    """A question's figure under its prompt (in the Prompt field, so the note type is unchanged:
    a new field would make Anki refuse to update the learner's notes), and its file."""
    if item.figure is None:
        return "", ()
    visual = item.figure.visual
    path = figures.render(visual.kind, dict(visual.params or {}))
    html = f'<div class="pd-figure">{_img(path, item.figure.alt)}<div>{inline(visual.caption)}</div></div>'
    return html, (path,)


def question(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Question = item.body
    figure, media = _question_figure(item, figures)
    values = {
        "Prompt": block(body.prompt) + figure,
        "Format": _FORMATS[body.type],
        "Explanation": block(body.explanation),
        **_common(item),
    }
    if body.type == "multiple_choice":
        options = item.options
        values["Options"] = (
            '<ol class="pd-options" type="A">'
            + "".join(f"<li>{inline(option.text)}</li>" for option in options)
            + "</ol>"
        )
        keyed = []
        for option in options:
            if option.correct:
                keyed.append(f'<li class="pd-correct">{inline(option.text)}</li>')
            else:
                keyed.append(
                    f'<li>{inline(option.text)}<span class="pd-mistake-note">Mistake: {inline(option.mistake)}'
                    "</span></li>"
                )
        values["OptionsKey"] = '<ol class="pd-options" type="A">' + "".join(keyed) + "</ol>"
        right = next(i for i, option in enumerate(options) if option.correct)
        values["Answer"] = f"Answer: {letter(right)}. {inline(str(body.answer))}"
    elif body.type == "true_false":
        values["Answer"] = "Answer: " + ("True" if body.answer else "False")
    elif body.type == "numeric":
        (check,) = item.checks
        unit = f" {inline(body.unit)}" if body.unit else ""
        values["Expected"] = _numbers_attr(check.expected)
        values["TolAbs"] = repr(check.tolerance.abs)
        values["AnswerName"] = "the number" + (f" (in {inline(body.unit)})" if body.unit else "")
        values["Answer"] = (
            _shown_key(check.shown)
            + f"Answer: {escape(check.shown)}{unit} ({_tolerance_text(check.tolerance)})"
        )
    else:
        values["Answer"] = "Model answer: " + block(str(body.answer))
    return _note(notetypes.QUESTION, values, (0,), media)


def visual(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Visual = item.body
    path = figures.render(body.kind, dict(body.params or {}))
    values = {"Figure": _img(path, f"Figure: {body.kind}"), "Caption": block(body.caption), **_common(item)}
    return _note(notetypes.FIGURE, values, (0,), (path,))


def _box_style(box: tuple[float, float, float, float]) -> str:
    left, top, width, height = box
    return f"left:{left:.2f}%;top:{top:.2f}%;width:{width:.2f}%;height:{height:.2f}%"


def label(item: StudyItem, figures: Figures) -> BuiltNote:
    """A label-the-part card: the figure with one part covered, named on the back."""
    body: LabelCard = item.body
    visual, part, diagram = body.visual, body.part, body.diagram
    path = figures.render(visual.kind, dict(visual.params or {}))
    twins = "".join(
        f'<div class="pd-cover" style="{_box_style(diagram.fraction(p))}"></div>' for p in body.covers
    )
    parts = [
        {"id": p.id, "label": p.label, "box": [round(v, 2) for v in diagram.fraction(p)]}
        for p in diagram.parts
    ]
    values = {
        "Figure": _img(path, f"Figure: {visual.kind}"),
        "Which": escape(part.id),
        "Mask": _box_style(diagram.fraction(part)),
        "Covers": twins,
        "Answer": inline(part.answer),
        "Note": inline(part.note),
        "Caption": block(visual.caption),
        "Parts": escape(json.dumps(parts, ensure_ascii=False, separators=(",", ":"))),
        **_common(item),
    }
    return _note(notetypes.LABEL, values, (0,), (path,))


def _numbers_attr(numbers: tuple[float, ...]) -> str:
    return " ".join(map(repr, numbers))


def _shown_key(shown: str) -> str:
    """The key's numbers as the question asks for them (``key_text``), for check.js to quote
    when a typed answer is wrong; empty, so the field shows nothing more."""
    return f'<span class="pd-shown-key" data-shown="{attribute(shown)}" hidden></span>'


def _problem_fields(body: Problem, check: AnswerCheck) -> dict[str, str]:
    """The fields that change from one problem of a card to the next."""
    primary, fmt = check.name, check.digits
    steps = "".join(
        f'<li><span class="pd-step-title">{escape_repeated(step.title)}</span>'
        f"{_math(step.latex, display=True)}</li>"
        for step in body.steps
    )
    mistakes = "".join(
        f'<li class="pd-mistake" data-values="{_numbers_attr(m.numbers)}" '
        f'data-mistake="{attribute(_plain(m.mistake))}">{escape_repeated(m.mistake)}: '
        f"{equals_html(primary, m.value, fmt)}</li>"
        for m in check.mistakes
    )
    return {
        "Prompt": block(body.prompt),
        "Given": values_html(body.given, _EXACT),
        "AnswerName": f"{name_html(primary)}, {escape(shape_words(check.shape))}",
        "Expected": _numbers_attr(check.expected),
        "Answer": _shown_key(check.shown) + values_html(check.key, fmt),
        "Steps": steps,
        "Mistakes": f'<ul class="pd-mistakes">{mistakes}</ul>' if mistakes else "",
        "Figure": heatmap_html(body),
        "Seed": str(body.seed),
    }


def _variants_json(fields: list[dict[str, str]]) -> str:
    """The problems a card rotates through, as JSON that is safe inside a ``<script>``."""
    if len(fields) < 2:
        return ""
    text = json.dumps(fields, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace("&", "\\u0026")


def problem(item: StudyItem, figures: Figures) -> BuiltNote:
    body: Problem = item.body
    tolerance = item.checks[0].tolerance
    # The note's own fields are its first problem's (what a card without JavaScript shows).
    fields = [_problem_fields(*pair) for pair in zip(item.variants or (body,), item.checks, strict=True)]
    values = {
        **fields[0],
        "TolAbs": "" if tolerance.abs is None else repr(float(tolerance.abs)),
        "TolRel": "" if tolerance.rel is None else repr(float(tolerance.rel)),
        "Tolerance": _tolerance_text(tolerance),
        "ProblemType": escape(body.type),
        "Difficulty": escape(body.difficulty),
        "Variants": _variants_json(fields),
        **_common(item),
    }
    return _note(notetypes.PROBLEM, values, (0,))


BUILDERS: dict[str, Callable[[StudyItem, Figures], BuiltNote]] = {
    "concept": concept,
    "equation": equation,
    "cloze": cloze,
    "flashcard": flashcard,
    "worked_example": worked_example,
    "question": question,
    "visual": visual,
    "label": label,
    "problem": problem,
}
"""The builder of each item kind; every kind in ``items.KINDS`` has one (a test says so)."""


def build_note(item: StudyItem, figures: Figures) -> BuiltNote:
    """The note for one item; an unknown kind raises ValueError."""
    try:
        builder = BUILDERS[item.kind]
    except KeyError:
        raise ValueError(
            f"no Anki note type for item kind {item.kind!r}; known kinds: {', '.join(BUILDERS)}"
        ) from None
    return builder(item, figures)
