"""Questions and practice on the study site's pages in Chromium: every question answers on
the spot; numeric checks agree with ``paperdeck grade`` at the tolerance boundary; practice
blocks match ``paperdeck problems --problem-seed``, and the day's problem is the cards'."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from generator.content.model import Question
from generator.values import Precision

from .browsing import LESSON_PAGES, centres, collapsed, draw_every_block, plain, shown_text, text_of
from .conftest import PROJECT

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

OPTION_STATE = """(box, k) => { const option = box.querySelectorAll('.pd-option')[k];
    const feedback = box.querySelector('.pd-feedback');
    return [option.getAttribute('data-right'), option.className,
            feedback.innerText, feedback.textContent]; }"""
"""A question's ``k``-th option after a click, read at once: whether it is right, its classes, and
the feedback as shown (innerText) and as text (textContent)."""


def _questions(document, name: str) -> list[Any]:
    lesson_id = name[3:-5]
    return [i for i in document.items if i.kind == "question" and i.lesson.id == lesson_id]


@pytest.mark.parametrize("name", LESSON_PAGES)
def test_every_question_answers_on_the_spot(tab, document, name: str) -> None:
    page = tab.open(name)
    for item in _questions(document, name):
        body: Question = item.body
        box = page.locator(f'.pd-question[data-key="{item.key}"]')
        feedback = box.locator(".pd-feedback")
        # Nothing gives the answer away before one is chosen.
        assert box.locator(".pd-why:visible, .pd-explanation:visible, .pd-answer:visible").count() == 0
        if body.type in ("multiple_choice", "true_false"):
            options = box.locator(".pd-option")
            mistakes = {plain(d.mistake) for d in body.distractors}
            seen = set()
            for k in range(options.count()):
                options.nth(k).click()
                right, classes, feedback_shown, said = box.evaluate(OPTION_STATE, k)
                if right == "1":
                    assert feedback_shown.startswith("✔ Right")
                    assert "pd-right" in classes
                else:
                    said = collapsed(said)
                    assert said.startswith("✘ Not this one")
                    if body.type == "multiple_choice":
                        named = said.split("The mistake behind it: ", 1)[1].strip()
                        assert named in mistakes, (item.key, named)
                        seen.add(named)
            if body.type == "multiple_choice":
                assert len(seen) == len(body.distractors)
        elif body.type == "numeric":
            box.locator("input").fill(repr(float(body.answer)))
            box.locator("input").press("Enter")
            assert feedback.inner_text().startswith("✔ Correct"), item.key
        else:
            answer = box.locator(".pd-answer")
            box.locator(".pd-show-answer").click()
            assert answer.is_visible()
    assert tab.errors == []


def _grade_accepts(expected: float, typed: str, tolerance: float) -> bool:
    """What ``paperdeck grade`` does with a typed answer: its reader and its tolerance rule."""
    from generator.answers import accepts
    from generator.grading.responses import numbers
    from generator.problems.model import Tolerance

    got = numbers(typed, 1)
    return (
        got is not None
        and len(got) == 1
        and got[0] is not None
        and accepts(expected, got[0], Tolerance(abs=tolerance))
    )


def test_numeric_checks_at_the_tolerance_boundary_agree_with_grade(tab, document) -> None:
    numeric = [
        i for i in document.items if i.kind == "question" and i.body.type == "numeric" and i.body.tolerance
    ]
    assert numeric
    item = numeric[0]
    lesson_page = next(p for p in LESSON_PAGES if p[3:-5] == item.lesson.id)
    page = tab.open(lesson_page)
    box = page.locator(f'.pd-question[data-key="{item.key}"]')
    expected, tol = float(item.body.answer), float(item.body.tolerance)
    cases = []
    for offset in (0.0, tol * 0.5, tol, -tol, tol * 1.02, -tol * 1.02, tol * 3):
        value = expected + offset
        cases += [
            repr(value),
            f"{value:.6f}".replace(".", ","),
            f"{value:.6f}".replace("-", "\u2212"),
            f"  {value:.6f} ",
        ]
    cases += ["", "abc", "1 2"]
    for typed in cases:
        box.locator("input").fill(typed)
        box.locator("input").press("Enter")
        page_says = box.locator(".pd-feedback").inner_text().startswith("✔")
        assert page_says == _grade_accepts(expected, typed, tol), (typed, expected, tol)
    # Every numeric question, through the answer rule the page loads, on both sides of its tolerance.
    for item in numeric:
        expected, tol = float(item.body.answer), float(item.body.tolerance)
        for got in (expected + tol * 0.98, expected - tol, expected + tol * 1.05):
            page_says = page.evaluate(
                "([e, g, t]) => paperdeckAnswers.accepts(e, paperdeckAnswers.read(g, 1)[0], {abs: t})",
                [expected, repr(got), tol],
            )
            assert page_says == _grade_accepts(expected, repr(got), tol), (item.key, got)


def _problem_json(problem_type: str, seed: int, difficulty: str) -> dict[str, Any]:
    from generator.cli import Session, cli

    args = [
        "--project",
        str(PROJECT),
        "problems",
        problem_type,
        "--problem-seed",
        str(seed),
        "--difficulty",
        difficulty,
        "--format",
        "json",
    ]
    result = CliRunner().invoke(cli, args, obj=Session())
    assert result.exit_code == 0, result.output
    [problem] = json.loads(result.stdout)
    return problem


KEY_AS_OPENED = """block => { const key = block.querySelector('details.pd-key'); block.pdOpened = [];
    const seen = new MutationObserver(() => { if (key.open) { seen.disconnect();
        block.pdOpened.push(key.querySelector('[data-pd="command"]').textContent); } });
    seen.observe(key, {attributes: true, attributeFilter: ['open']}); }"""
"""Records, as soon as a practice block's key opens (a mutation observer runs before the browser
draws again), the terminal command the key shows."""


def _runs_as_printed(command: str, seed: int) -> None:
    """The command a practice block prints, run as printed through the real CLI, regenerates
    the problem with ``seed``."""
    from generator.cli import Session, cli

    words = shlex.split(command)
    assert words[0] == "paperdeck", command
    result = CliRunner().invoke(
        cli, ["--project", str(PROJECT), *words[1:], "--format", "json"], obj=Session()
    )
    assert result.exit_code == 0, (command, result.output)
    assert json.loads(result.stdout)[0]["seed"] == seed


def _flat(value: Any) -> list[float]:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [float(value)]


@pytest.mark.parametrize("name", ["03-scaled-dot-product-attention.html", "10-training.html"])
def test_practice_blocks_match_the_problem_command_and_new_problem_changes_them(tab, name: str) -> None:
    from generator import problems

    page = tab.open(name)
    draw_every_block(page)
    blocks = page.locator(".pd-practice")
    assert blocks.count() > 0
    named = 0
    for i in range(blocks.count()):
        block = blocks.nth(i)
        _, problem_type, difficulty, _ = block.get_attribute("data-key").split("/")
        centres(page, ".pd-practice", i)  # scrolled to: read what a reader sees there
        for _ in range(2):
            seed = int(block.get_attribute("data-seed"))
            assert block.locator('[data-pd="seed"]').inner_text() == str(seed)
            shown = _problem_json(problem_type, seed, difficulty)
            primary = problems.get(problem_type).primary
            shown_variant = [block.get_attribute("data-key"), int(block.get_attribute("data-variant"))]
            variant = page.evaluate("([key, i]) => paperdeckProblems[key][i]", shown_variant)
            assert variant["seed"] == seed
            assert variant["expected"] == pytest.approx(_flat(shown["answer"][primary]))
            # The key is written when opened, and already as the key opens: what the observer
            # read as the "open" attribute appeared, before the frame that first draws it.
            block.evaluate(KEY_AS_OPENED)
            block.locator("details.pd-key summary").click()
            [command] = block.evaluate("b => b.pdOpened")
            assert f"--problem-seed {seed} " in command + " "
            assert block.locator('[data-pd="command"]').text_content() == command
            _runs_as_printed(command, seed)
            # The command's key is accepted; a named mistake is named.
            typed = " ".join(repr(x) for x in _flat(shown["answer"][primary]))
            block.locator("input").fill(typed)
            block.locator("button[type=submit]").click()
            assert block.locator(".pd-feedback").inner_text().startswith("✔ Correct")
            for mistake, values in variant["mistakes"]:
                block.locator("input").fill(" ".join(repr(v) for v in values))
                block.locator("input").press("Enter")
                said = shown_text(block.locator(".pd-feedback"))
                if said.startswith("✘"):  # (a mistake may fall within tolerance of the key)
                    assert f"It matches a known mistake: {text_of(mistake)}." in said
                    named += 1
                    break
            prompt = block.locator('[data-pd="prompt"]').inner_text()
            block.locator("details.pd-key summary").click()  # closed: the next problem's key opens anew
            block.locator(".pd-new").click()
            assert int(block.get_attribute("data-seed")) != seed
            assert block.locator('[data-pd="prompt"]').inner_text() != prompt
            assert block.locator(".pd-feedback").inner_text() == ""
    assert named > 0
    assert tab.errors == []


def test_new_problem_never_shows_the_same_question_again(tab) -> None:
    """A block whose problem type has few questions to draw from (mha-shapes: 6 among 31 problems,
    6 of them the same as the one before) moves on to the next one that reads differently. The
    clicks go round every problem, whichever the day starts at."""
    page = tab.open("04-multi-head-attention.html")
    draw_every_block(page)
    block = page.locator('.pd-practice[data-key*="/mha-shapes/"]').first
    prompts = page.evaluate("k => paperdeckProblems[k].map(v => v.prompt)", block.get_attribute("data-key"))
    assert len(set(prompts)) < len(prompts), "the block has a question twice: the case this test is for"
    shown = [block.locator('[data-pd="prompt"]').inner_text()]
    for _ in range(len(prompts)):
        block.locator(".pd-new").click()
        shown.append(block.locator('[data-pd="prompt"]').inner_text())
    assert all(a != b for a, b in zip(shown, shown[1:], strict=False))
    assert len(set(shown)) == len(set(prompts))
    assert tab.errors == []


def test_the_days_problem_is_picked_as_on_the_cards(tab, site: Path) -> None:
    """The site's practice block and a Problem card's script (today.js and variant.js) pick the
    same problem for the same id and questions: here a block that asks some question twice
    (mha-shapes), so that the order that keeps a question off two days in a row is the same too."""
    from generator.exporters.anki.notetypes import VARIANT_SCRIPT

    variant_js = VARIANT_SCRIPT.removeprefix("<script>\n").removesuffix("</script>")
    page = tab.open("04-multi-head-attention.html")
    block = page.locator('.pd-practice[data-key*="/mha-shapes/"]').first
    key = block.get_attribute("data-key")
    picked = page.evaluate(
        """([js, key]) => {
        const prompts = paperdeckProblems[key].map(v => v.prompt);
        const card = document.createElement('div');
        const data = document.createElement('script');
        data.type = 'application/json'; data.className = 'pd-variants'; data.setAttribute('data-id', key);
        data.textContent = JSON.stringify(prompts.map(p => ({Prompt: p})));
        card.appendChild(data); document.body.appendChild(card);
        new Function(js)();
        return [Number(card.getAttribute('data-variant')), new Set(prompts).size, prompts.length];
    }""",
        [variant_js, key],
    )
    assert picked[1] < picked[2], "the block asks a question twice: the case this test is for"
    assert int(block.get_attribute("data-variant")) == picked[0]


QUOTED = re.compile(r", the key has (\S+?)\.(?: |$)")


def _as_asked(quoted: str, x: float, precision: Precision) -> bool:
    """Whether ``quoted`` is ``x`` as a prompt that states ``precision`` asks for it: to 3 decimals
    0.133 (not 0.132622); to 4 significant figures 0.0006988 or 6.988e-4, its four digits."""
    count = precision.count
    if precision.decimals is not None:
        return quoted == f"{x:.{count}f}"
    digits = re.sub(r"e.*|[-.]", "", quoted).lstrip("0")
    return len(digits) == count and float(quoted) == float(f"{x:.{count - 1}e}")


@pytest.mark.parametrize("name", ["03-scaled-dot-product-attention.html", "10-training.html"])
def test_a_wrong_answer_quotes_the_key_as_the_question_asks(tab, document, name: str) -> None:
    """ "You typed 0.2, the key has 0.133" where the question asks for 3 decimals, not 0.132622;
    4 significant figures for a learning rate: 6.988e-4."""
    from generator.problems.precision import stated

    page = tab.open(name)
    draw_every_block(page)
    blocks = page.locator(".pd-practice")
    asked = set()
    for i in range(blocks.count()):
        block = blocks.nth(i)
        variant = page.evaluate(
            "([key, i]) => paperdeckProblems[key][i]",
            [block.get_attribute("data-key"), int(block.get_attribute("data-variant"))],
        )
        precision = stated(text_of(variant["prompt"]))
        if precision is None:
            continue
        asked.add("figures" if precision.figures else "decimals")
        block.locator("input").fill(" ".join(repr(x * 3 + 1) for x in variant["expected"]))
        block.locator("input").press("Enter")
        said = shown_text(block.locator(".pd-feedback"))
        assert _as_asked(QUOTED.search(said)[1], variant["expected"][0], precision), said
    assert asked == ({"figures"} if name.startswith("10") else {"decimals"})
    for item in _questions(document, name):
        if item.body.type != "numeric" or item.body.precision is None:
            continue
        box = page.locator(f'.pd-question[data-key="{item.key}"]')
        box.locator("input").fill(repr(float(item.body.answer) * 3 + 1))
        box.locator("input").press("Enter")
        said = shown_text(box.locator(".pd-feedback"))
        assert _as_asked(QUOTED.search(said)[1], float(item.body.answer), item.body.precision), said
    assert tab.errors == []
