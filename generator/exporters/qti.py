"""An LMS quiz as an IMS QTI 2.1 content package: a zip an LMS imports (OpenOlat, ONYX, Inspera,
Blackboard Learn).

The package holds ``imsmanifest.xml``, ``test.xml`` (the ``assessmentTest``) and one
``assessmentItem`` per question and per problem variant under ``items/``; a question with a
figure (``Question.figure``) shows it as an ``<img>`` of a file under ``items/figures/``, drawn
as the site draws it (PNG, or SVG for a diagram) and named with its item in the manifest. The
test has a section per section of the recipe: a question bank draws the recipe's count of questions
per attempt (``<selection select="N"/>``), and each problem is a sub-section of its variants
of which one is drawn (``<selection select="1"/>``). Problem seeds are in the manifest's
metadata only (a teacher's file, never shown to a student, who could regenerate the answer
from a seed): ``paperdeck problems TYPE --problem-seed S -d D`` regenerates any variant.

Scoring, decided once elsewhere and only written here:

- multiple choice and true/false: the right choice scores the item's points; each wrong
  choice shows a feedback naming its mistake (true/false: the explanation);
- numbers: one ``textEntryInteraction`` of base type float per number, scored when every
  number lies within the tolerance (``answers.bound``: absolute or relative, the larger),
  written as ``and(gte, lte)`` bounds, never ``equal`` with a tolerance mode (a player that
  compares NaN that way scores any text as right). Bounds are computed in decimal from the
  numbers' shortest representations, so a value typed exactly at the edge is accepted as
  ``answers.accepts`` accepts it. A named mistake shows its feedback when every number lies
  within the same tolerance of that mistake's result; text that is not a number is no
  value and scores 0 with no feedback. The prompt says how to type a number and the
  tolerance, as the cards say them (``presentation.tolerance_words``).

Math is MathML, written by the project's one LaTeX parser (``latex.mathml``).
"""

from __future__ import annotations

import html
import io
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, replace
from decimal import Decimal
from pathlib import Path
from typing import Any

from .. import problems
from ..content.needs import TABLE
from ..content.text import Inlines, ListBlock, Paragraph, parse
from ..documents.items import item_errors
from ..documents.lms import LmsQuiz, QuestionBank
from ..documents.quiz import ProblemItem, QuestionItem, alt_text
from ..files.atomic import PRIVATE, write_bytes
from ..latex.mathml import to_mathml
from ..presentation import build_time, letter, tolerance_words
from ..problems.latex import number
from ..values import Value
from . import ExportOptions
from .print_items import answer_name

QTI = "http://www.imsglobal.org/xsd/imsqti_v2p1"
IMSCP = "http://www.imsglobal.org/xsd/imscp_v1p1"
MATHML = "http://www.w3.org/1998/Math/MathML"
XSI = "http://www.w3.org/2001/XMLSchema-instance"
PAPERDECK = "urn:x-paperdeck:lms:1"
"""The namespace of paperdeck's metadata in the manifest (problem seeds)."""

NUMBER_PATTERN = r"-?[0-9]*\.?[0-9]*([eE][-+]?[0-9]*)?"
"""What a number box lets a student type (an XML Schema pattern): digits, a point, a sign and an
exponent, so a comma or a letter is refused as it is typed. Every beginning of a number matches
too (``-``, ``0.``, ``6.9e-``, an empty box): a player that checks the mask at each keystroke
(qti3-item-player does) would otherwise turn ``0.73`` typed key by key into ``073`` and never let a
box be cleared. Whether the text is a number is the float response's to decide: ``-`` is none."""

TYPING = (
    "Type each number in its own box as a decimal with a point (0.73, -1.5, 6.988e-4):"
    " a comma, a fraction or words are not read as a number."
)
"""How to type a number in a QTI player, stated in every numeric item's prompt."""

FIGURES = "items/figures"
"""Where the package holds the questions' figures (an item refers to ``figures/NAME``)."""

_ZIP_EPOCH = 315532800  # 1980-01-01, the earliest date a zip entry can hold


# -- the tolerance rule as bounds ------------------------------------------------


def _decimal(x: float) -> Decimal:
    """A number as the decimal its shortest representation writes (0.1 is 0.1, not 0.1000…0555)."""
    return Decimal(repr(float(x))) if not isinstance(x, int) else Decimal(x)


def allowed(expected: float, abs_tol: float | None, rel_tol: float | None) -> Decimal:
    """The largest difference from ``expected`` the tolerance accepts (``answers.bound``), in decimal."""
    return max(_decimal(abs_tol or 0.0), _decimal(rel_tol or 0.0) * abs(_decimal(expected)))


def bounds(expected: float, abs_tol: float | None, rel_tol: float | None) -> tuple[str, str]:
    """The lowest and highest value accepted, as exact decimals."""
    width = allowed(expected, abs_tol, rel_tol)
    centre = _decimal(expected)
    return _plain(centre - width), _plain(centre + width)


def _plain(value: Decimal) -> str:
    text = format(value.normalize(), "f") if value == value.to_integral_value() else str(value)
    return "0" if text in ("-0", "-0.0") else text


# -- content as XHTML with MathML ------------------------------------------------


def inline(text: str | Inlines) -> str:
    """One paragraph of content Markdown as QTI's XHTML, math as MathML."""
    from .site.markup import inline as html_inline

    return html_inline(text).replace("<math", f'<math xmlns="{MATHML}"')


def block(text: str) -> str:
    """Content Markdown as QTI's XHTML: paragraphs, lists and tables (no ARIA attributes: 2.1 has none)."""
    out = []
    for part in parse(text):
        if isinstance(part, Paragraph):
            out.append(f"<p>{inline(part.children)}</p>")
        elif isinstance(part, ListBlock):
            tag = "ul" if part.start is None else "ol"
            out.append(f"<{tag}>" + "".join(f"<li>{inline(i)}</li>" for i in part.items) + f"</{tag}>")
        else:
            head = "".join(f"<th>{inline(cell)}</th>" for cell in part.header)
            rows = "".join(
                "<tr>" + "".join(f"<td>{inline(cell)}</td>" for cell in row) + "</tr>" for row in part.rows
            )
            out.append(f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")
    return "".join(out)


def math(latex: str) -> str:
    return to_mathml(latex).replace("<math", f'<math xmlns="{MATHML}"', 1)


def _attribute(text: str) -> str:
    return html.escape(text, quote=True)


# -- items -----------------------------------------------------------------------


@dataclass(frozen=True)
class Item:
    """One ``assessmentItem`` of the package."""

    identifier: str
    title: str
    xml: str
    metadata: str = ""
    """paperdeck's metadata for the manifest (a problem's type, difficulty and seed)."""
    files: tuple[str, ...] = ()
    """The package paths of the media the item shows (its figure)."""

    @property
    def href(self) -> str:
        return f"items/{self.identifier}.xml"


def _item(identifier: str, title: str, declarations: str, body: str, processing: str, feedback: str) -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n'
        f'<assessmentItem xmlns="{QTI}" xmlns:xsi="{XSI}" xsi:schemaLocation="{QTI} '
        f'http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd" identifier="{identifier}"'
        f' title="{_attribute(title)}" adaptive="false" timeDependent="false">\n'
        f"{declarations}<itemBody>{body}</itemBody>\n{processing}{feedback}</assessmentItem>\n"
    )


def _outcomes(points: float, feedback: bool) -> str:
    out = (
        f'<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"'
        f' normalMaximum="{_number(points)}"><defaultValue><value>0</value></defaultValue>'
        f"</outcomeDeclaration>\n"
        f'<outcomeDeclaration identifier="MAXSCORE" cardinality="single" baseType="float">'
        f"<defaultValue><value>{_number(points)}</value></defaultValue></outcomeDeclaration>\n"
    )
    if feedback:
        out += '<outcomeDeclaration identifier="FEEDBACK" cardinality="single" baseType="identifier"/>\n'
    return out


def _number(x: float) -> str:
    return _plain(_decimal(x))


def _set(identifier: str, base_type: str, value: str) -> str:
    return (
        f'<setOutcomeValue identifier="{identifier}"><baseValue baseType="{base_type}">{value}'
        f"</baseValue></setOutcomeValue>"
    )


def _feedback(identifier: str, content: str) -> str:
    return (
        f'<modalFeedback outcomeIdentifier="FEEDBACK" identifier="{identifier}" showHide="show">'
        f"{content}</modalFeedback>\n"
    )


def _mistake(text: str) -> str:
    return f"<p>Mistake: {inline(text)}</p>"


def choice_item(identifier: str, quiz_item: QuestionItem, figure: str = "") -> Item:
    """A multiple-choice or true/false question: its choices in the order the document gives them."""
    question = quiz_item.question
    right = letter(quiz_item.answer_index or 0)
    declarations = (
        f'<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="identifier">'
        f"<correctResponse><value>{right}</value></correctResponse></responseDeclaration>\n"
        + _outcomes(quiz_item.points, True)
    )
    choices = "".join(
        f'<simpleChoice identifier="{letter(i)}">{inline(option.text)}</simpleChoice>'
        for i, option in enumerate(quiz_item.options)
    )
    body = (
        f'<div class="pd-prompt">{block(question.prompt)}</div>{figure}{_values(quiz_item.table)}'
        f'<choiceInteraction responseIdentifier="RESPONSE" shuffle="false" maxChoices="1">{choices}'
        f"</choiceInteraction>"
    )
    branches = [
        f'<responseIf><match><variable identifier="RESPONSE"/><correct identifier="RESPONSE"/>'
        f"</match>{_set('SCORE', 'float', _number(quiz_item.points))}</responseIf>"
    ]
    feedback = []
    for i, option in enumerate(quiz_item.options):
        if option.correct:
            continue
        if option.mistake:
            content = _mistake(option.mistake)
        elif question.explanation:
            content = block(question.explanation)
        else:
            continue
        branches.append(
            f'<responseElseIf><match><variable identifier="RESPONSE"/>'
            f'<baseValue baseType="identifier">{letter(i)}</baseValue></match>'
            f"{_set('FEEDBACK', 'identifier', letter(i))}</responseElseIf>"
        )
        feedback.append(_feedback(letter(i), content))
    return Item(
        identifier,
        question.id,
        _item(identifier, question.id, declarations, body, _processing(branches), "".join(feedback)),
    )


def _processing(branches: list[str]) -> str:
    return (
        f"<responseProcessing><responseCondition>{''.join(branches)}</responseCondition>"
        "</responseProcessing>\n"
    )


def _values(table: tuple[tuple[str, float], ...], note: str = "Values you may need:") -> str:
    if not table:
        return ""
    head = "".join(f"<th>{math(latex)}</th>" for latex, _ in table)
    cells = "".join(f"<td>{TABLE.format(value)}</td>" for _, value in table)
    return (
        f'<table class="pd-values"><caption>{note}</caption><tbody><tr>{head}</tr><tr>{cells}</tr>'
        "</tbody></table>"
    )


def _within(identifiers: list[str], values: list[float], abs_tol: float | None, rel_tol: float | None) -> str:
    """Every response within tolerance of its value: ``and(gte, lte)`` per number."""
    parts = []
    for identifier, value in zip(identifiers, values, strict=True):
        low, high = bounds(value, abs_tol, rel_tol)
        parts.append(
            f'<and><gte><variable identifier="{identifier}"/><baseValue baseType="float">{low}'
            f'</baseValue></gte><lte><variable identifier="{identifier}"/>'
            f'<baseValue baseType="float">{high}</baseValue></lte></and>'
        )
    return parts[0] if len(parts) == 1 else "<and>" + "".join(parts) + "</and>"


def _box(identifier: str) -> str:
    return (
        f'<textEntryInteraction responseIdentifier="{identifier}" expectedLength="10"'
        f' patternMask="{NUMBER_PATTERN}"/>'
    )


def numeric_item(
    identifier: str,
    title: str,
    prompt: str,
    name: str | None,
    value: Any,
    points: float,
    abs_tol: float | None,
    rel_tol: float | None,
    mistakes: list[tuple[str, Any]],
    unit: str = "",
    extra: str = "",
) -> Item:
    """A question whose answer is one number, a vector or a matrix, typed number by number."""
    values = Value(value).numbers
    rows, columns = Value(value).table
    ids = ["RESPONSE"] if len(values) == 1 else [f"RESPONSE_{i + 1}" for i in range(len(values))]
    declarations = "".join(
        f'<responseDeclaration identifier="{rid}" cardinality="single" baseType="float">'
        f"<correctResponse><value>{_number(v)}</value></correctResponse></responseDeclaration>\n"
        for rid, v in zip(ids, values, strict=True)
    )
    usable = [
        (text, Value(wrong).numbers)
        for text, wrong in mistakes
        if wrong is not None and Value(wrong).count == len(values)
    ]
    declarations += _outcomes(points, bool(usable))
    label = f"{math(name)} = " if name else "Answer: "
    after = f" {inline(unit)}" if unit else ""
    if len(values) == 1:
        boxes = f"<p>{label}{_box(ids[0])}{after}</p>"
    else:
        cells = "".join(
            "<tr>" + "".join(f"<td>{_box(ids[r * columns + c])}</td>" for c in range(columns)) + "</tr>"
            for r in range(rows)
        )
        boxes = f'<p>{label}</p><table class="pd-answer"><tbody>{cells}</tbody></table>'
    accepted = inline(tolerance_words(abs_tol, rel_tol))
    rule = f'<p class="pd-rule">{html.escape(TYPING)} Accepted: {accepted}.</p>'
    body = f'<div class="pd-prompt">{block(prompt)}</div>{extra}{boxes}{rule}'
    branches = [
        f"<responseIf>{_within(ids, values, abs_tol, rel_tol)}"
        f"{_set('SCORE', 'float', _number(points))}</responseIf>"
    ]
    feedback = []
    for k, (text, wrong) in enumerate(usable, 1):
        branches.append(
            f"<responseElseIf>{_within(ids, wrong, abs_tol, rel_tol)}"
            f"{_set('FEEDBACK', 'identifier', f'M{k}')}</responseElseIf>"
        )
        feedback.append(_feedback(f"M{k}", _mistake(text)))
    return Item(
        identifier,
        title,
        _item(identifier, title, declarations, body, _processing(branches), "".join(feedback)),
    )


def essay_item(identifier: str, quiz_item: QuestionItem, figure: str = "") -> Item:
    """A short answer: typed text, marked by hand in the LMS (no score is computed)."""
    question = quiz_item.question
    declarations = (
        '<responseDeclaration identifier="RESPONSE" cardinality="single" baseType="string"/>\n'
        + _outcomes(quiz_item.points, False)
    )
    body = (
        f'<div class="pd-prompt">{block(question.prompt)}</div>{figure}{_values(quiz_item.table)}'
        f'<extendedTextInteraction responseIdentifier="RESPONSE" expectedLines="4"/>'
    )
    return Item(identifier, question.id, _item(identifier, question.id, declarations, body, "", ""))


def question_item(identifier: str, quiz_item: QuestionItem, figure: Figure | None = None) -> Item:
    """The item of a question, with its figure if it has one."""
    if figure is None:
        return _question_item(identifier, quiz_item, "")
    return replace(_question_item(identifier, quiz_item, figure.html()), files=(figure.name,))


def _question_item(identifier: str, quiz_item: QuestionItem, figure: str) -> Item:
    question = quiz_item.question
    if quiz_item.options:
        return choice_item(identifier, quiz_item, figure)
    if question.type == "numeric":
        return numeric_item(
            identifier,
            question.id,
            question.prompt,
            None,
            question.answer,
            quiz_item.points,
            question.tolerance or 0.0,
            None,
            [],
            question.unit,
            figure + _values(quiz_item.table),
        )
    return essay_item(identifier, quiz_item, figure)


def problem_item(identifier: str, title: str, quiz_item: ProblemItem) -> Item:
    """A variant of a randomized problem: its primary result typed number by number."""
    problem = quiz_item.problem
    primary = problems.get(problem.type).primary
    exponentials = tuple((f"e^{{{number(x, 4)}}}", y) for x, y in quiz_item.exponentials)
    mistakes = [(d.mistake, d.answer.get(primary)) for d in problem.distractors]
    item = numeric_item(
        identifier,
        title,
        problem.prompt,
        answer_name(primary),
        problem.answer[primary],
        quiz_item.points,
        problem.tolerance.abs,
        problem.tolerance.rel,
        mistakes,
        extra=_values(exponentials, "Exponentials you may need:"),
    )
    metadata = (
        f'<pd:problem type="{problem.type}" difficulty="{problem.difficulty}" seed="{problem.seed}"'
        f' command="paperdeck problems {problem.type} --problem-seed {problem.seed}'
        f' -d {problem.difficulty}"/>'
    )
    return Item(item.identifier, item.title, item.xml, metadata)


# -- the test and the package ----------------------------------------------------


@dataclass(frozen=True)
class Figure:
    """A question's figure as the package holds it."""

    path: Path
    """The file drawn as the site draws it (PNG, SVG for a diagram), in the figure cache."""
    caption: str
    """The visual's caption (Markdown with math)."""

    @property
    def name(self) -> str:
        """Its path in the package."""
        return f"{FIGURES}/{self.path.name}"

    def html(self) -> str:
        """The image, as the item (under ``items/``) refers to it, and its caption."""
        return (
            f'<div class="pd-figure"><img src="figures/{_attribute(self.path.name)}"'
            f' alt="{_attribute(alt_text(self.caption))}"/><p>{inline(self.caption)}</p></div>'
        )


def figures(quiz: LmsQuiz, cache: Path | None = None) -> dict[str, Figure]:
    """Each question's figure drawn, by question id; ``cache`` is where figures are kept between
    builds (``visuals.default_cache_dir()``): drawn once, as the site draws it."""
    if not quiz.figures:
        return {}
    from .. import visuals

    folder = cache or visuals.default_cache_dir()
    return {
        question_id: Figure(visuals.render(visual.kind, dict(visual.params or {}), folder), visual.caption)
        for question_id, visual in quiz.figures.items()
    }


def items(quiz: LmsQuiz, drawn: dict[str, Figure] | None = None) -> Iterator[tuple[int, Item]]:
    """Every item with the index of its section; ``drawn``: the questions' figures (``figures``)."""
    drawn = drawn or {}
    for s, section in enumerate(quiz.sections):
        if isinstance(section, QuestionBank):
            for quiz_item in section.questions:
                with item_errors(quiz_item):
                    made = question_item(
                        f"q-{quiz_item.question.id}", quiz_item, drawn.get(quiz_item.question.id)
                    )
                yield s, made
        else:
            for j, slot in enumerate(section.slots, 1):
                for v, variant in enumerate(slot, 1):
                    title = f"{_text_title(section.title)}: problem {j}, variant {v}"
                    with item_errors(variant):
                        made = problem_item(f"p{s + 1}-{j}-v{v}", title, variant)
                    yield s, made


def _text_title(title: str) -> str:
    return title.replace(r"\(", "").replace(r"\)", "")


def test_xml(quiz: LmsQuiz, made: list[tuple[int, Item]]) -> str:
    recipe = quiz.recipe
    out = [
        f'<?xml version="1.0" encoding="UTF-8"?>\n<assessmentTest xmlns="{QTI}" xmlns:xsi="{XSI}"'
        f' xsi:schemaLocation="{QTI} http://www.imsglobal.org/xsd/qti/qtiv2p1/imsqti_v2p1.xsd"'
        f' identifier="test-{recipe.id or "quiz"}" title="{_attribute(_text_title(recipe.title))}">\n'
        f'<outcomeDeclaration identifier="SCORE" cardinality="single" baseType="float"'
        f' normalMaximum="{_number(quiz.total_points)}"><defaultValue><value>0</value></defaultValue>'
        f"</outcomeDeclaration>\n"
    ]
    if recipe.minutes is not None:
        out.append(f'<timeLimits maxTime="{recipe.minutes * 60}"/>\n')
    out.append(
        '<testPart identifier="part" navigationMode="nonlinear" submissionMode="simultaneous">\n'
        '<itemSessionControl maxAttempts="1" showFeedback="true" allowReview="true"'
        ' showSolution="false"/>\n'
    )
    for s, section in enumerate(quiz.sections):
        refs = [item for i, item in made if i == s]
        title = _attribute(_text_title(section.title))
        out.append(f'<assessmentSection identifier="s{s + 1}" title="{title}" visible="true">\n')
        if isinstance(section, QuestionBank):
            out.append(f'<selection select="{section.draw}"/>\n')
            if section.shuffle:
                out.append('<ordering shuffle="true"/>\n')
            out.extend(
                f'<assessmentItemRef identifier="{item.identifier}" href="{item.href}"/>\n' for item in refs
            )
        else:
            for j in range(1, len(section.slots) + 1):
                prefix = f"p{s + 1}-{j}-"
                out.append(
                    f'<assessmentSection identifier="s{s + 1}-{j}" title="{title}: problem {j}"'
                    f' visible="false">\n<selection select="1"/>\n'
                )
                out.extend(
                    f'<assessmentItemRef identifier="{item.identifier}" href="{item.href}"/>\n'
                    for item in refs
                    if item.identifier.startswith(prefix)
                )
                out.append("</assessmentSection>\n")
        out.append("</assessmentSection>\n")
    out.append(
        '</testPart>\n<outcomeProcessing><setOutcomeValue identifier="SCORE"><sum>'
        '<testVariables variableIdentifier="SCORE"/></sum></setOutcomeValue></outcomeProcessing>\n'
        "</assessmentTest>\n"
    )
    return "".join(out)


def manifest_xml(quiz: LmsQuiz, made: list[tuple[int, Item]]) -> str:
    recipe_id = quiz.recipe.id or "quiz"
    out = [
        f'<?xml version="1.0" encoding="UTF-8"?>\n<manifest xmlns="{IMSCP}" xmlns:xsi="{XSI}"'
        f' xmlns:pd="{PAPERDECK}" identifier="manifest-{recipe_id}"'
        f' xsi:schemaLocation="{IMSCP} http://www.imsglobal.org/xsd/imscp_v1p1.xsd">\n'
        f"<metadata><schema>QTIv2.1 Package</schema><schemaversion>1.0.0</schemaversion>"
        f'<pd:quiz recipe="{recipe_id}" seed="{quiz.seed}" variants="{quiz.variants}"/></metadata>\n'
        f"<organizations/>\n<resources>\n"
        f'<resource identifier="test-{recipe_id}" type="imsqti_test_xmlv2p1" href="test.xml">'
        f'<file href="test.xml"/>'
    ]
    out.extend(f'<dependency identifierref="{item.identifier}"/>' for _, item in made)
    out.append("</resource>\n")
    for _, item in made:
        metadata = f"<metadata>{item.metadata}</metadata>" if item.metadata else ""
        out.append(
            f'<resource identifier="{item.identifier}" type="imsqti_item_xmlv2p1" href="{item.href}">'
            f'{metadata}<file href="{item.href}"/>'
            + "".join(f'<file href="{_attribute(name)}"/>' for name in item.files)
            + "</resource>\n"
        )
    out.append("</resources>\n</manifest>\n")
    return "".join(out)


def package_files(quiz: LmsQuiz, cache: Path | None = None) -> dict[str, bytes]:
    """Every file of the package by its path in the zip; ``cache``: where figures are drawn."""
    drawn = figures(quiz, cache)
    made = list(items(quiz, drawn))
    files = {"imsmanifest.xml": manifest_xml(quiz, made).encode(), "test.xml": test_xml(quiz, made).encode()}
    files.update((item.href, item.xml.encode()) for _, item in made)
    files.update((figure.name, figure.path.read_bytes()) for figure in drawn.values())
    return files


def package_bytes(quiz: LmsQuiz, stamp: int, cache: Path | None = None) -> bytes:
    """The zip: the manifest first, then the test, the items and their figures, with fixed dates
    (same quiz, same bytes)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as package:
        for name, data in package_files(quiz, cache).items():
            info = zipfile.ZipInfo(name, date_time=time.gmtime(max(stamp, _ZIP_EPOCH))[:6])
            info.compress_type = zipfile.ZIP_DEFLATED
            info.create_system = 3
            info.external_attr = 0o644 << 16
            package.writestr(info, data)
    return buffer.getvalue()


def export(quiz: LmsQuiz, target: Path, options: ExportOptions) -> list[Path]:
    """Write the package to ``target`` (a ``.zip``), private: it holds every answer."""
    write_bytes(target, package_bytes(quiz, build_time(options.build_time), options.figures), PRIVATE)
    return [Path(target).resolve()]
