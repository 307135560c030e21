"""The one answer rule, in Python and in JavaScript, over one table of cases (tests/answer_cases.json)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from generator import answers, shared_script
from generator.problems import Tolerance

CASES = json.loads((Path(__file__).parent / "answer_cases.json").read_text(encoding="utf-8"))
NODE = shutil.which("node")
SCRIPT = shared_script("answers.js")


def _tolerance(data: dict[str, float]) -> Tolerance:
    return Tolerance(abs=data.get("abs"), rel=data.get("rel"))


@pytest.mark.parametrize(("text", "count", "expected"), CASES["read"])
def test_python_reads_each_case(text, count, expected):
    assert answers.read(text, count) == expected


@pytest.mark.parametrize(("expected", "got", "tolerance", "accepted"), CASES["accepts"])
def test_python_accepts_each_case(expected, got, tolerance, accepted):
    assert answers.accepts(expected, got, _tolerance(tolerance)) is accepted
    assert _tolerance(tolerance).accepts(expected, got) is accepted, "the problems' Tolerance is the rule"


def test_javascript_gives_the_same_answer_on_every_case():
    assert NODE is not None, "Node.js is needed to run answers.js (apt-get install nodejs)"
    harness = (
        SCRIPT
        + """
    const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
    process.stdout.write(JSON.stringify({
      read: cases.read.map(c => paperdeckAnswers.read(c[0], c[1])),
      accepts: cases.accepts.map(c => paperdeckAnswers.accepts(c[0], c[1], c[2])),
    }));
    """
    )
    done = subprocess.run(
        [NODE, "-e", harness], input=json.dumps(CASES), capture_output=True, text=True, timeout=60, check=True
    )
    got = json.loads(done.stdout)
    wrong = [(c[0], c[1], c[2], js) for c, js in zip(CASES["read"], got["read"], strict=True) if js != c[2]]
    wrong += [(*c, js) for c, js in zip(CASES["accepts"], got["accepts"], strict=True) if js is not c[3]]
    assert not wrong, "answers.js disagrees with the table"


def test_the_script_is_es5_and_defines_one_global():
    assert "=>" not in SCRIPT and "let " not in SCRIPT and "const " not in SCRIPT
    assert SCRIPT.count("\nvar ") == 1


def test_a_gap_is_none_only_where_grading_asks_for_it():
    assert answers.read_with_gaps("1 _ 3", 3) == [1.0, None, 3.0]
    assert answers.read_with_gaps("_", 1) == [None]
    assert answers.read("1 _ 3", 3) is None
    assert answers.read_with_gaps("1 ? 3", 3) is None  # ? is not read: grading takes it before


def test_cards_run_this_very_script_ahead_of_their_check():
    from generator.exporters.anki.notetypes import CHECK_SCRIPT

    assert CHECK_SCRIPT.index(SCRIPT) < CHECK_SCRIPT.index("paperdeck:typed:")


def _attribute(value: float | None) -> str:
    """A tolerance as a card's ``data-abs``/``data-rel`` holds it (notes.py: ``repr`` or empty)."""
    return "" if value is None else repr(float(value))


def test_the_verdict_a_learner_reads_follows_the_rule_on_every_case():
    # The card and the site both call paperdeckAnswers.verdict with the tolerance read from the
    # page by paperdeckAnswers.tolerance: abs and rel together mean max(abs, rel*|e|), as in Python.
    assert NODE is not None, "Node.js is needed to run answers.js (apt-get install nodejs)"
    harness = (
        SCRIPT
        + """
    const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
    process.stdout.write(JSON.stringify(cases.map(c => {
      const v = paperdeckAnswers.verdict([c[0]], String(c[1]), paperdeckAnswers.tolerance(c[2], c[3]), null,
                                         [[c[1]]]);
      return [v.right, v.message, v.mistake];
    })));
    """
    )
    cases = [[e, g, _attribute(t.get("abs")), _attribute(t.get("rel"))] for e, g, t, _ in CASES["accepts"]]
    done = subprocess.run(
        [NODE, "-e", harness], input=json.dumps(cases), capture_output=True, text=True, timeout=60, check=True
    )
    said = json.loads(done.stdout)
    assert [s[0] for s in said] == [c[3] for c in CASES["accepts"]]
    both = [(c, s) for c, s in zip(CASES["accepts"], said, strict=True) if len(c[2]) == 2]
    assert both, "the table has tolerances with both abs and rel"
    for (_, _, tol, accepted), (_, message, mistake) in both:
        words = f"\u00b1{tol['abs']:g} or \u00b1{tol['rel'] * 100:g}%"
        assert words in message, message
        assert message.startswith("\u2714 Correct: within" if accepted else "\u2718 1 of 1 off (")
        assert mistake == (-1 if accepted else 0)


def _python_verdict(expected, typed, tolerance, mistakes) -> dict[str, object]:
    """What a verdict decides, by the Python rule (answers.read, answers.accepts): right, the first
    wrong number, the first named mistake all the typed numbers are within tolerance of."""
    tol = _tolerance(tolerance)
    got = answers.read(typed, len(expected)) if typed.strip() else None
    if not got or len(got) != len(expected):
        return {"right": False, "wrong": -1, "mistake": -1}
    wrong = [i for i, (e, g) in enumerate(zip(expected, got, strict=True)) if not answers.accepts(e, g, tol)]
    mistake = next(
        (
            m
            for m, numbers in enumerate(mistakes)
            if len(numbers) == len(got)
            and all(answers.accepts(e, g, tol) for e, g in zip(numbers, got, strict=True))
        ),
        -1,
    )
    return {"right": not wrong, "wrong": wrong[0] if wrong else -1, "mistake": mistake if wrong else -1}


@pytest.mark.parametrize(("expected", "typed", "tolerance", "shown", "mistakes", "said"), CASES["verdict"])
def test_python_decides_each_verdict_as_the_table_says(expected, typed, tolerance, shown, mistakes, said):
    assert _python_verdict(expected, typed, tolerance, mistakes) == {
        k: said[k] for k in ("right", "wrong", "mistake")
    }


def test_javascript_says_each_verdict_as_the_table_says():
    # The card's check.js and the site's site.js both show this verdict (see below); the table pins
    # its message too, and Python decides the same right, wrong and mistake (above).
    assert NODE is not None, "Node.js is needed to run answers.js (apt-get install nodejs)"
    harness = (
        SCRIPT
        + """
    const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
    process.stdout.write(JSON.stringify(cases.map(c => {
      const v = paperdeckAnswers.verdict(c[0], c[1], c[2], c[3], c[4]);
      return {right: v.right, wrong: v.wrong, mistake: v.mistake, message: v.message};
    })));
    """
    )
    done = subprocess.run(
        [NODE, "-e", harness],
        input=json.dumps(CASES["verdict"]),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    assert json.loads(done.stdout) == [case[5] for case in CASES["verdict"]]


def test_the_card_and_the_site_say_the_verdict_answers_js_writes():
    assert "verdict: verdict" in SCRIPT
    for script in ("exporters/anki/check.js", "exporters/site/site.js"):
        text = (Path(__file__).parents[1] / "generator" / script).read_text(encoding="utf-8")
        assert ".verdict(" in text and ".tolerance(" in text, script
        assert "Correct" not in text and "off (" not in text and ".accepts(" not in text, script
