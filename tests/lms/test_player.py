"""Every item of the shipped quizzes scored in a real QTI player: the MIT ``qti3-item-player`` (with
``vue@2``, installed by ``make qti-player`` from ``player/package-lock.json``) in Debian's Chromium,
from ``file://``.

The player reads QTI 3, so each QTI 2.1 item is converted mechanically (QTI elements to their
``qti-`` names, attributes to kebab case, XHTML and MathML as they are). Every item of every shipped
quiz's package (every question of each pool, every variant of each problem) is loaded once into one
page and answered as a student answers, attempt after attempt (the player resets an item's
outcomes before each): the key scores the item's points; each named mistake scores 0 and shows
the feedback naming it; each number at the edges of its tolerance scores the points and a hair
beyond them 0; ``abc``, ``0,73`` and an empty box score 0 with no feedback. The player's score
and the feedback it shows are compared with what the quiz says and with the model of
tests/lms/qti_model.py run over the 2.1 item.
"""

from __future__ import annotations

import re
import time
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from lxml import etree

from generator import answers
from generator.problems import Tolerance

from .conftest import FIGURED, SHIPPED, documents, key_and_mistakes, package_files
from .qti_model import Item

pytestmark = pytest.mark.long

PLAYER = Path(__file__).resolve().parent / "player"
QTI21 = "http://www.imsglobal.org/xsd/imsqti_v2p1"
QTI3 = "http://www.imsglobal.org/xsd/imsqtiasi_v3p0"
_XHTML = {
    "p",
    "div",
    "span",
    "table",
    "thead",
    "tbody",
    "tr",
    "td",
    "th",
    "caption",
    "ul",
    "ol",
    "li",
    "strong",
    "em",
    "code",
    "br",
    "img",
}


def to_qti3(xml: bytes) -> str:
    """A QTI 2.1 item as QTI 3."""
    root = etree.fromstring(xml)
    for element in root.iter():
        name = etree.QName(element)
        if name.namespace != QTI21:
            continue
        local = name.localname if name.localname in _XHTML else "qti-" + _kebab(name.localname)
        element.tag = f"{{{QTI3}}}{local}"
        for attribute in list(element.attrib):
            if attribute.startswith("{"):
                del element.attrib[attribute]  # xsi:schemaLocation of 2.1
            elif _kebab(attribute) != attribute:
                element.attrib[_kebab(attribute)] = element.attrib.pop(attribute)
    etree.cleanup_namespaces(root)
    text = etree.tostring(root, encoding="unicode")
    prefix = next(k for k, v in root.nsmap.items() if v == QTI3)
    text = text.replace(f"<{prefix}:", "<").replace(f"</{prefix}:", "</")
    return text.replace(f"xmlns:{prefix}=", "xmlns=")


def _kebab(name: str) -> str:
    return re.sub(r"(?<!^)([A-Z])", lambda m: "-" + m.group(1).lower(), name)


@pytest.fixture(scope="module")
def browser(chromium_browser):
    """One page of the player, reused for every item; prints the answers played and the time taken."""
    if not (PLAYER / "node_modules" / "qti3-item-player").exists():
        pytest.fail("the QTI player is not installed: make qti-player (make test does it)")
    page = chromium_browser.new_page()
    page.goto((PLAYER / "player.html").as_uri())
    page.wait_for_function("window.pd.player !== null", timeout=30000)
    page.played = {"items": 0, "answers": 0, "seconds": 0.0}  # type: ignore[attr-defined]
    yield page
    played = page.played  # type: ignore[attr-defined]
    print(f"\nQTI player: {played['items']} items, {played['answers']} answers in {played['seconds']:.1f} s")
    page.close()


class Case(NamedTuple):
    """One answer and what the quiz says of it."""

    typed: dict[str, str]
    """Response identifier -> the text typed (a box) or the choice clicked (``RESPONSE``)."""
    score: float
    mistake: str | None = None
    """The words of the feedback the answer shows (a named mistake, an explanation); None: no feedback."""


def _typed(values) -> list[str]:
    return [str(Decimal(repr(float(x)))) if not isinstance(x, int) else str(x) for x in values]


def _edges(value, tolerance) -> tuple[list[str], list[str]]:
    """The values at the tolerance's two edges, and a hair beyond each."""
    width = max(
        Decimal(repr(float(tolerance.abs or 0.0))),
        Decimal(repr(float(tolerance.rel or 0.0))) * abs(Decimal(repr(float(value)))),
    )
    centre = Decimal(repr(float(value)))
    hair = max(width * Decimal("1e-6"), abs(centre) * Decimal("1e-9"), Decimal("1e-12"))
    inside = [str(centre - width), str(centre + width)]
    return inside, [str(centre - width - hair), str(centre + width + hair)]


def _words(text: str) -> str:
    """The longest stretch of a mistake's words without math, to find in the feedback shown."""
    pieces = re.split(r"\\\(.*?\\\)", text)
    return " ".join(max(pieces, key=len).split())


def _shown(text: str) -> str:
    return " ".join(text.split())


def _numeric_cases(
    ids: list[str],
    key: list[float],
    tolerance: Tolerance,
    mistakes: list[tuple[str, list[float]]],
    top: float,
) -> list[Case]:
    right = dict(zip(ids, _typed(key), strict=True))
    cases = [Case(right, top)]
    for i, value in enumerate(key):
        inside, outside = _edges(value, tolerance)
        cases += [Case(right | {ids[i]: text}, top) for text in inside]
        cases += [Case(right | {ids[i]: text}, 0.0) for text in outside]
    for text in ("abc", "0,73", ""):
        cases.append(Case(dict.fromkeys(ids, text), 0.0))
        if len(ids) > 1:  # one box of garbage among right numbers
            cases.append(Case(right | {ids[0]: text}, 0.0))
    for _, wrong in mistakes:
        typed = dict(zip(ids, _typed(wrong), strict=True))
        if all(answers.accepts(k, w, tolerance) for k, w in zip(key, wrong, strict=True)):
            cases.append(Case(typed, top))  # indistinguishable from the key: the key wins
            continue
        first = next(
            m
            for m, w in mistakes
            if all(answers.accepts(a, b, tolerance) for a, b in zip(w, wrong, strict=True))
        )
        cases.append(Case(typed, 0.0, _words(first)))
    return cases


def _cases(document: Any, model: Item) -> tuple[list[Case], bool]:
    """Every answer to play for one item, and whether it is answered by clicking a choice."""
    top = model.max_score()
    if hasattr(document, "problem"):
        problem = document.problem
        key, mistakes = key_and_mistakes(problem)
        return _numeric_cases(model.response_ids, key, problem.tolerance, mistakes, top), False
    question = document.question
    if document.options:
        letters = [chr(ord("A") + i) for i in range(len(document.options))]
        cases = [Case({}, 0.0), Case({"RESPONSE": letters[document.answer_index]}, top)]
        for letter, option in zip(letters, document.options, strict=True):
            if option.correct:
                continue
            words = _words(option.mistake) if option.mistake else None
            if not option.mistake and question.explanation:
                words = _words(question.explanation)
            cases.append(Case({"RESPONSE": letter}, 0.0, words))
        return cases, True
    if question.type == "numeric":
        tolerance = Tolerance(abs=question.tolerance or 0.0)
        return _numeric_cases(model.response_ids, [question.answer], tolerance, [], top), False
    return [], False  # a short answer: marked by hand, nothing to score


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_the_player_scores_every_item_as_the_quiz_says(recipe_id, lms_quizzes, browser):
    quiz, package, _ = lms_quizzes[recipe_id]
    files = package_files(package)
    start, items, played = time.perf_counter(), 0, 0
    for identifier, document in documents(quiz).items():
        data = files[f"items/{identifier}.xml"]
        model = Item(data)
        cases, choices = _cases(document, model)
        if not cases:
            continue
        browser.evaluate("x => window.pd.load(x)", to_qti3(data))
        items += 1
        for case in cases:
            ids = [] if choices else model.response_ids
            texts = [case.typed.get(i, "") for i in ids]
            result = browser.evaluate(
                "([texts, choice]) => window.pd.answer(texts, choice)",
                [texts, case.typed.get("RESPONSE") if choices else None],
            )
            where = (identifier, case.typed, result)
            expected = model.run(case.typed)
            assert result["score"] == case.score == expected.score, where
            if case.mistake is None:
                assert result["shown"] == [] and result["feedback"] is None and expected.feedback == (), where
            else:
                assert len(result["shown"]) == 1 and case.mistake in _shown(result["shown"][0]), where
                assert result["feedback"] == _feedback_id(model, case.typed), where
            if not choices:
                # What the boxes hold: the text typed, or nothing where the mask refused it
                # (a comma, a letter): the player never reads "abc" or "0,73" as a number.
                assert result["boxes"] == [t if t not in ("abc", "0,73") else "" for t in texts], where
            played += 1
    browser.played["items"] += items
    browser.played["answers"] += played
    browser.played["seconds"] += time.perf_counter() - start
    print(f"{recipe_id}: {items} items, {played} answers played")
    assert played


def test_text_that_is_no_number_scores_nothing_where_no_mask_refuses_it(lms_quizzes, browser):
    """An LMS that does not apply the box's pattern mask as the student types submits the text
    itself: the player then reads ``abc``, ``0,73``, ``1.5.2`` and ``--1`` as no number, and
    every check of the item, the key's and each mistake's, written as ``and(gte, lte)`` bounds,
    is false (``equal`` with a tolerance mode would score them right). Played on the first
    variant of every problem of the five shipped quizzes and the numeric questions of the first."""
    played = 0
    for recipe_id in SHIPPED:
        quiz, package, _ = lms_quizzes[recipe_id]
        files = package_files(package)
        for identifier, document in documents(quiz).items():
            data = files[f"items/{identifier}.xml"]
            model = Item(data)
            cases, choices = _cases(document, model)
            # One box or many, every check is written the same way: the first variant of each
            # problem (every type) and the numeric questions of the first quiz stand for the rest.
            first = identifier.endswith("-v1") or (identifier.startswith("q-") and recipe_id == SHIPPED[0])
            if choices or not cases or not first:
                continue
            xml = re.sub(r' pattern-mask="[^"]*"', "", to_qti3(data))
            browser.evaluate("x => window.pd.load(x)", xml)
            right = cases[0].typed
            for text in ("abc", "0,73", "1.5.2", "--1"):
                for typed in (dict.fromkeys(right, text), right | {model.response_ids[0]: text}):
                    if typed == right:
                        continue
                    texts = [typed[i] for i in model.response_ids]
                    result = browser.evaluate("([texts]) => window.pd.answer(texts, null)", [texts])
                    where = (identifier, typed, result)
                    assert result["boxes"] == texts, where  # the text itself reached the player
                    assert (result["score"], result["feedback"], result["shown"]) == (0, None, []), where
                    assert model.run(typed) == (0.0, ()), where
                    played += 1
    print(f"no mask: {played} answers of text that is no number")
    assert played


def test_a_number_typed_key_by_key_is_what_the_student_typed(lms_quizzes, browser):
    """The number box's mask lets every beginning of a number through, so a number typed a key at a
    time arrives whole, a box can be emptied, and a comma or a letter is refused as it is typed."""
    files = package_files(lms_quizzes["quiz-attention"][1])
    name = next(n for n, data in sorted(files.items()) if n.startswith("items/p") and b"RESPONSE_2" in data)
    browser.evaluate("x => window.pd.load(x)", to_qti3(files[name]))
    box = browser.locator("input").first
    for typed, held in (
        ("0.73", "0.73"),
        ("-1.5", "-1.5"),
        ("6.988e-4", "6.988e-4"),
        ("0,73", "073"),
        ("2/3", "23"),
    ):
        box.fill("")
        assert box.input_value() == ""
        box.press_sequentially(typed)
        assert box.input_value() == held, typed


def test_a_figure_shows_in_the_player_from_the_file_the_package_holds(figured, browser, tmp_path):
    """The package unpacked as an LMS holds it: each figure, found from its item as the item refers
    to it, is decoded and shown (PNG and SVG), and the item still scores its key."""
    _, quiz, files, _, _ = figured
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    items = documents(quiz)
    for question in FIGURED:
        data = files[f"items/q-{question}.xml"]
        # A player given the XML as text has no address to resolve it from: the item's own folder.
        base = (tmp_path / "items").as_uri() + "/"
        xml = to_qti3(data).replace('src="figures/', f'src="{base}figures/')
        browser.evaluate("x => window.pd.load(x)", xml)
        browser.wait_for_function("() => [...document.images].every((i) => i.complete)", timeout=10000)
        shown = browser.evaluate(
            "() => [...document.images].map((i) => [i.getAttribute('src'), i.naturalWidth, i.alt])"
        )
        assert len(shown) == 1 and shown[0][0].endswith(".png" if question.startswith("wsa") else ".svg")
        assert shown[0][1] > 100 and shown[0][2], shown  # decoded, and described
        model = Item(data)
        cases, choices = _cases(items[f"q-{question}"], model)
        key = next(case for case in cases if case.score)
        ids = [] if choices else model.response_ids
        result = browser.evaluate(
            "([texts, choice]) => window.pd.answer(texts, choice)",
            [[key.typed.get(i, "") for i in ids], key.typed.get("RESPONSE") if choices else None],
        )
        assert result["score"] == key.score == model.max_score(), (question, result)


def _feedback_id(model: Item, typed: dict[str, str]) -> str | None:
    """The FEEDBACK identifier the model's run sets (the shown modal feedback's identifier)."""
    shown = model.run(typed).feedback
    if not shown:
        return None
    for element in model.root.iterfind(f"{{{QTI21}}}modalFeedback"):
        if "".join(element.itertext()).strip() == shown[0]:
            return element.get("identifier")
    return None
