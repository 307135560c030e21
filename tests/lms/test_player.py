"""Every item of the shipped quizzes scored in a real QTI player: the MIT ``qti3-item-player`` (with
``vue@2``, installed by ``make qti-player`` from ``player/package-lock.json``) in Debian's Chromium,
from ``file://``.

The player reads QTI 3, so each QTI 2.1 item is converted mechanically (QTI elements to their
``qti-`` names, attributes to kebab case, XHTML and MathML as they are); its score and the
feedback it shows, for typed answers, are compared with what the quiz says and with the model
of tests/lms/qti_model.py run over the 2.1 item.
"""

from __future__ import annotations

import re
from decimal import Decimal
from pathlib import Path

import pytest
from lxml import etree

from generator import problems
from generator.documents.lms import QuestionBank

from .conftest import SHIPPED, package_files
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
def browser():
    if not (PLAYER / "node_modules" / "qti3-item-player").exists():
        pytest.fail("the QTI player is not installed: make qti-player (make test does it)")
    from playwright.sync_api import sync_playwright

    from tests.browser import chromium

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=chromium())
        page = launched.new_page()
        page.goto((PLAYER / "player.html").as_uri())
        page.wait_for_function("window.pd.player !== null", timeout=30000)
        yield page
        launched.close()


def _play(page, xml: str, typed: dict[str, str], choices: bool) -> tuple[float, str | None]:
    """Load the item, answer it as a student does (click, type), end the attempt: (SCORE, FEEDBACK)."""
    page.evaluate("x => window.pd.load(x)", xml)
    if choices:
        if typed.get("RESPONSE"):
            page.locator(f'[data-identifier="{typed["RESPONSE"]}"]').first.click()
    else:
        boxes = page.locator("input")
        for i, text in enumerate(typed.values()):
            if text:
                boxes.nth(i).fill(text)
    state = page.evaluate("() => window.pd.end()")
    outcomes = {v["identifier"]: v["value"] for v in state["outcomeVariables"]}
    return float(outcomes["SCORE"]), outcomes.get("FEEDBACK")


def _typed(values) -> list[str]:
    return [str(Decimal(repr(float(x)))) if not isinstance(x, int) else str(x) for x in values]


def _flat(value):
    return [x for part in value for x in _flat(part)] if isinstance(value, list) else [value]


def _edges(value, tolerance) -> tuple[list[str], list[str]]:
    width = max(
        Decimal(repr(float(tolerance.abs or 0.0))),
        Decimal(repr(float(tolerance.rel or 0.0))) * abs(Decimal(repr(float(value)))),
    )
    centre = Decimal(repr(float(value)))
    hair = max(width * Decimal("1e-6"), abs(centre) * Decimal("1e-9"), Decimal("1e-12"))
    inside = [str(centre - width), str(centre + width)]
    return inside, [str(centre - width - hair), str(centre + width + hair)]


# Each load of an item into the player takes about a quarter of a second on this 2-core machine:
# every question of the first quiz and the first variant of each problem of all five (every
# problem type) are played; tests/lms/test_qti.py runs the model over every item of all five.
PLAYED_QUESTIONS = {"quiz-attention"}


@pytest.mark.parametrize("recipe_id", SHIPPED)
def test_the_player_scores_every_item_as_the_quiz_says(recipe_id, lms_quizzes, browser):
    quiz, package, _ = lms_quizzes[recipe_id]
    files = package_files(package)
    compared = 0
    for s, section in enumerate(quiz.sections, 1):
        if isinstance(section, QuestionBank):
            played = recipe_id in PLAYED_QUESTIONS
            entries = [(f"q-{i.question.id}", i) for i in section.questions] if played else []
        else:
            entries = [
                (f"p{s}-{j}-v{v}", variant)
                for j, slot in enumerate(section.slots, 1)
                for v, variant in enumerate(slot, 1)
                if v == 1
            ]
        for identifier, document in entries:
            data = files[f"items/{identifier}.xml"]
            model, xml = Item(data), to_qti3(data)
            top = model.max_score()
            cases: list[tuple[dict[str, str], float, str | None]] = []
            if hasattr(document, "problem") or document.question.type == "numeric":
                ids = model.response_ids
                if hasattr(document, "problem"):
                    problem = document.problem
                    primary = problems.get(problem.type).primary
                    key, tolerance = _flat(problem.answer[primary]), problem.tolerance
                else:
                    from generator.problems import Tolerance

                    question = document.question
                    key, tolerance = [question.answer], Tolerance(abs=question.tolerance or 0.0)
                right = dict(zip(ids, _typed(key), strict=True))
                inside, outside = _edges(key[0], tolerance)
                cases += [(right, top, None)]
                cases += [(right | {ids[0]: text}, top, None) for text in inside]
                cases += [(right | {ids[0]: text}, 0.0, None) for text in outside]
                cases += [(dict.fromkeys(ids, text), 0.0, None) for text in ("abc", "0,73", "")]
                if hasattr(document, "problem"):
                    for distractor in problem.distractors:
                        wrong = distractor.answer.get(primary)
                        if wrong is not None and len(_flat(wrong)) == len(key):
                            typed = dict(zip(ids, _typed(_flat(wrong)), strict=True))
                            outcome = model.run(typed)
                            cases.append((typed, outcome.score, None if outcome.score else "model"))
                choices = False
            elif document.options:
                letters = [chr(ord("A") + i) for i in range(len(document.options))]
                cases += [({"RESPONSE": letters[document.answer_index]}, top, None), ({}, 0.0, None)]
                explained = bool(document.question.explanation)
                cases += [
                    ({"RESPONSE": letter}, 0.0, letter if (option.mistake or explained) else None)
                    for letter, option in zip(letters, document.options, strict=True)
                    if not option.correct
                ]
                choices = True
            else:
                continue  # a short answer: marked by hand, nothing to score
            for typed, score, feedback in cases:
                expected_model = model.run(typed)
                played = _play(browser, xml, typed, choices)
                if feedback == "model":  # the named mistake the model finds first
                    feedback = _feedback_id(model, typed)
                assert played == (score, feedback), (identifier, typed, played)
                assert expected_model.score == played[0], (identifier, typed)
                compared += 1
    print(f"{recipe_id}: {compared} answers played")
    assert compared


def _feedback_id(model: Item, typed: dict[str, str]) -> str | None:
    """The FEEDBACK identifier the model's run sets (the shown modal feedback's identifier)."""
    shown = model.run(typed).feedback
    if not shown:
        return None
    for element in model.root.iterfind(f"{{{QTI21}}}modalFeedback"):
        if "".join(element.itertext()).strip() == shown[0]:
            return element.get("identifier")
    return None
