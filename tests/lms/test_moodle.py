"""The Moodle XML of every shipped quiz, checked against the rules of Moodle's importer and a model of
how Moodle grades a numerical answer (no Moodle runs here; docs/lms.md says so).

The rules, from moodle/moodle:
- question/format.php (qformat_default::importprocess) refuses a question any of whose answer
  fractions is not in ``question_bank::fraction_options_full()`` (lib/questionlib.php):
  0, ±1, ±0.9, ±0.8333333, ±0.8, ±0.75, ±0.7, ±0.6666667, ±0.6, ±0.5, ±0.4, ±0.3333333, ±0.3,
  ±0.25, ±0.2, ±0.1666667, ±0.1428571, ±0.125, ±0.1111111, ±0.1, ±0.05;
  question/format/xml/format.php reads ``fraction`` as a percentage (``/ 100``).
- question/type/numerical/question.php: an answer holds a value within
  ``answer ± (tolerance + ε·max(tolerance, |answer|, ε))``, ε = 10^-14 (PHP's precision), and
  the first answer in the file's order that holds it is the one graded.
- question/type/multianswer/questiontype.php: a Cloze box is ``{N:NUMERICAL:alternatives}``,
  parsed by the regular expressions ported below; feedback ends at an unescaped ``~`` or ``}``,
  and ``\\}``, ``\\#`` are unescaped.
"""

from __future__ import annotations

import html
import re
from decimal import Decimal

import pytest
from lxml import etree

from generator import answers
from generator.documents.lms import ProblemPool, QuestionBank
from generator.exporters import moodle
from generator.problems import Tolerance

from .conftest import SHIPPED, VARIANTS, key_and_mistakes

_RAW = (
    0.9,
    0.8333333,
    0.8,
    0.75,
    0.7,
    0.6666667,
    0.6,
    0.5,
    0.4,
    0.3333333,
    0.3,
    0.25,
    0.2,
    0.1666667,
    0.1428571,
    0.125,
    0.1111111,
    0.1,
    0.05,
)
FRACTION_OPTIONS_FULL = (0.0, 1.0, -1.0, *_RAW, *(-x for x in _RAW))
EPSILON = 1e-14
IMPORTED_TYPES = {"category", "multichoice", "truefalse", "numerical", "cloze", "essay"}


@pytest.fixture(scope="module")
def moodle_files(lms_quizzes, figured):
    """recipe id -> the Moodle XML of the shipped quiz; ``figured``: quiz-final with two figures."""
    files = {
        recipe_id: etree.fromstring(moodle.quiz_xml(quiz).encode())
        for recipe_id, (quiz, _, _) in lms_quizzes.items()
    }
    return files | {"figured": etree.fromstring(figured[3].encode())}


def _fraction_allowed(fraction: float) -> bool:
    return any(abs(fraction - option) < 1e-7 for option in FRACTION_OPTIONS_FULL)


@pytest.mark.parametrize("recipe_id", [*SHIPPED, "figured"])
def test_every_question_passes_the_importers_rules(recipe_id, moodle_files):
    root = moodle_files[recipe_id]
    assert root.tag == "quiz"
    for question in root.iterfind("question"):
        kind = question.get("type")
        assert kind in IMPORTED_TYPES
        if kind == "category":
            assert question.findtext("category/text").startswith("$course$/top/")
            continue
        assert question.findtext("name/text").strip()
        assert question.findtext("questiontext/text").strip()
        for answer in question.iterfind("answer"):
            assert _fraction_allowed(float(answer.get("fraction")) / 100), answer.get("fraction")
        if kind == "truefalse":
            assert sorted(a.findtext("text") for a in question.iterfind("answer")) == ["false", "true"]
        if kind in ("multichoice", "truefalse", "numerical"):
            assert [a.get("fraction") for a in question.iterfind("answer")].count("100") == 1


def test_a_fraction_outside_the_list_is_what_the_rule_refuses():
    assert not _fraction_allowed(0.45) and not _fraction_allowed(0.35)
    assert _fraction_allowed(1.0) and _fraction_allowed(0.0) and _fraction_allowed(0.3333333)


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_sections_are_categories_a_quiz_draws_random_questions_from(recipe_id, lms_quizzes, moodle_files):
    quiz = lms_quizzes[recipe_id][0]
    current, counts = None, {}
    for question in moodle_files[recipe_id].iterfind("question"):
        if question.get("type") == "category":
            current = question.findtext("category/text")
            counts[current] = 0
        else:
            counts[current] += 1
    expected = []
    for section in quiz.sections:
        if isinstance(section, QuestionBank):
            expected.append(len(section.questions))
        else:
            assert isinstance(section, ProblemPool)
            expected += [VARIANTS] * len(section.slots)
    assert list(counts.values()) == expected
    assert all(path.startswith(f"$course$/top/{quiz.recipe.title}") for path in counts)
    assert all(
        path.rsplit("/", 1)[1].startswith("Problem ")
        for path in counts
        if counts[path] == VARIANTS and "Problem" in path
    )


def test_math_is_left_for_mathjax(moodle_files):
    text = etree.tostring(moodle_files["quiz-final"], encoding="unicode")
    assert "<math" not in html.unescape(text) and r"\(" in text


# -- how Moodle grades a number --------------------------------------------------


def _interval(answer: float, tolerance: float) -> tuple[float, float]:
    margin = tolerance + EPSILON * max(tolerance, abs(answer), EPSILON)
    return answer - margin, answer + margin


def _graded(alternatives: list[tuple[float, float, float, str]], typed: float) -> tuple[float, str] | None:
    """(fraction, feedback) of the first alternative whose interval holds ``typed``."""
    for fraction, answer, tolerance, feedback in alternatives:
        low, high = _interval(answer, tolerance)
        if low <= typed <= high:
            return fraction, feedback
    return None


def _text(feedback: str | None) -> str:
    """A feedback's HTML as the words it shows (its tags dropped, entities read)."""
    return html.unescape(re.sub(r"<[^>]+>", "", feedback or ""))


def _words(text: str) -> str:
    pieces = re.split(r"\\\(.*?\\\)", text)
    return " ".join(max(pieces, key=len).split())


def _edge(value: float, tolerance: Tolerance, side: int, beyond: bool = False) -> float:
    width = max(
        Decimal(repr(float(tolerance.abs or 0.0))),
        Decimal(repr(float(tolerance.rel or 0.0))) * abs(Decimal(repr(float(value)))),
    )
    if beyond:
        scale = abs(Decimal(repr(float(value))))
        width += max(width * Decimal("1e-6"), scale * Decimal("1e-9"), Decimal("1e-12"))
    return float(Decimal(repr(float(value))) + side * width)


def _check_number(alternatives, key: float, tolerance: Tolerance, mistakes: list[tuple[str, float]]):
    assert _graded(alternatives, key)[0] == 1
    for side in (-1, 1):
        assert _graded(alternatives, _edge(key, tolerance, side))[0] == 1
        beyond = _edge(key, tolerance, side, beyond=True)
        assert not answers.accepts(key, beyond, tolerance)
        outcome = _graded(alternatives, beyond)
        assert outcome is None or outcome[0] == 0
    for _, wrong in mistakes:
        if answers.accepts(key, wrong, tolerance):
            continue
        fraction, feedback = _graded(alternatives, wrong)
        first = next(m for m, w in mistakes if answers.accepts(w, wrong, tolerance))
        shown = " ".join(html.unescape(re.sub("<[^>]+>", "", feedback)).split())
        assert fraction == 0 and _words(first) in shown


def _numerical(question) -> list[tuple[float, float, float, str]]:
    return [
        (
            float(a.get("fraction")) / 100,
            float(a.findtext("text")),
            float(a.findtext("tolerance")),
            a.findtext("feedback/text") or "",
        )
        for a in question.iterfind("answer")
    ]


# Ported from question/type/multianswer/questiontype.php (NUMERICAL boxes; Python's look-behind
# is fixed-width, so (?<!\\|&|&amp;) is written as three).
_NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
_ALTERNATIVE = (
    r"(=|%(-?[0-9]+)%)?(.+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$))"
    r"(#(.*?(?<!\\)(?=[~}]|$)))?"
)
_BOX = re.compile(r"\{([0-9]*):(NUMERICAL|NM):(" + _ALTERNATIVE + "(~" + _ALTERNATIVE + r")*)\}", re.S)
_NUMERICAL_ALTERNATIVE = re.compile("^(" + _NUMBER + ")(:" + _NUMBER + ")?$", re.S)


def cloze_boxes(text: str) -> list[list[tuple[float, float, float, str]]]:
    boxes = []
    for match in _BOX.finditer(text):
        remaining, alternatives = match.group(3), []
        while found := re.search("~?" + _ALTERNATIVE, remaining, re.S):
            fraction = 1.0 if found.group(1) == "=" else 0.01 * int(found.group(2)) if found.group(2) else 0.0
            feedback = html.unescape(found.group(5) or "").replace("\\}", "}").replace("\\#", "#")
            number = _NUMERICAL_ALTERNATIVE.match(found.group(3))
            assert number, found.group(3)
            alternatives.append(
                (fraction, float(number.group(1).replace(",", ".")), float(number.group(6) or 0), feedback)
            )
            remaining = remaining.split(found.group(0), 1)[1]
        boxes.append(alternatives)
    return boxes


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_numbers_grade_as_the_quiz_says(recipe_id, lms_quizzes, moodle_files):
    quiz = lms_quizzes[recipe_id][0]
    questions = [q for q in moodle_files[recipe_id].iterfind("question") if q.get("type") != "category"]
    documents = [*quiz.questions, *quiz.problems]
    by_name = {q.findtext("name/text"): q for q in questions}
    assert len(questions) == len(documents)
    checked = 0
    for section in quiz.sections:
        if isinstance(section, QuestionBank):
            for item in section.questions:
                question = by_name[item.question.id]
                if item.question.type == "numeric":
                    _check_number(
                        _numerical(question),
                        item.question.answer,
                        Tolerance(abs=item.question.tolerance or 0.0),
                        [],
                    )
                    checked += 1
                elif item.options:
                    answers_ = list(question.iterfind("answer"))
                    wrong = [o for o in item.options if not o.correct and o.mistake]
                    for option in wrong:
                        assert any(
                            _words(option.mistake) in _text(a.findtext("feedback/text"))
                            for a in answers_
                            if a.get("fraction") == "0"
                        )
            continue
        title = section.title.replace(r"\(", "").replace(r"\)", "").replace("/", "//")
        for j, slot in enumerate(section.slots, 1):
            for v, variant in enumerate(slot, 1):
                question = by_name[f"{title}: problem {j}, variant {v}"]
                problem = variant.problem
                key, mistakes = key_and_mistakes(problem)
                if question.get("type") == "numerical":
                    _check_number(
                        _numerical(question), key[0], problem.tolerance, [(m, w[0]) for m, w in mistakes]
                    )
                else:
                    boxes = cloze_boxes(question.findtext("questiontext/text"))
                    assert len(boxes) == len(key) > 1
                    for i, box in enumerate(boxes):
                        _check_number(box, key[i], problem.tolerance, [(m, w[i]) for m, w in mistakes])
                checked += 1
    assert checked


def test_a_mistakes_feedback_with_braces_survives_the_cloze_parser():
    box = moodle.cloze_box(0.5, 0.005, None, [(r"forgot to divide by \(\sqrt{d_k}\) ~ # twice", 0.9)])
    (alternatives,) = cloze_boxes(f"<p>{box}</p>")
    assert [a[:3] for a in alternatives] == [(1.0, 0.5, 0.005), (0.0, 0.9, 0.005)]
    assert r"\(\sqrt{d_k}\)" in alternatives[1][3] and "#" in alternatives[1][3]
