"""Plain text of math is a writer of the one LaTeX parser (``latex/plain.py``).

``plain_math_cases.json`` pins what it writes, as a box and compactly (in prose), for the math
of one problem of every type and difficulty (prompt, steps, named mistakes) and of the shipped
lessons. It was taken from plain_text's own LaTeX reader, which the writer replaced and matched
on every case; since then only the lesson's ``cases`` is written with a brace (was a matrix's
brackets). Regenerate it after an intended change, and read the diff before committing:

    .venv/bin/python -m tests.problems.test_plain_math
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from generator import problems
from generator.content import text
from generator.latex import LatexError
from generator.latex.plain import math_box

FIXTURE = Path(__file__).with_name("plain_math_cases.json")
LESSONS = Path(__file__).resolve().parents[2] / "content" / "lessons"
CASES = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"] if FIXTURE.exists() else []


def sample() -> list[str]:
    """The math of one problem of every type and difficulty, and of the shipped lessons."""
    found: set[str] = set()

    def walk(value: Any) -> None:
        if isinstance(value, str):
            found.update(node.latex for node in text.math(value))
        elif isinstance(value, (list, dict)):
            for inner in value.values() if isinstance(value, dict) else value:
                walk(inner)

    for type_id in sorted(problems.all_types()):
        for difficulty in problems.DIFFICULTIES:
            problem = problems.generate_one(type_id, 42, difficulty)
            walk([problem.prompt, [(s.title, s.latex) for s in problem.steps]])
            walk([d.mistake for d in problem.distractors])
            found.update(s.latex for s in problem.steps)
    for lesson in sorted(LESSONS.glob("*.yaml")):
        walk(yaml.safe_load(lesson.read_text(encoding="utf-8")))
    return sorted(found)


def written(latex: str) -> dict[str, Any]:
    box = math_box(latex)
    return {"latex": latex, "lines": box.lines, "base": box.base, "compact": math_box(latex, True).lines}


@pytest.mark.parametrize("case", CASES, ids=[c["latex"][:60] for c in CASES])
def test_the_plain_writer_writes_the_pinned_text(case: dict[str, Any]) -> None:
    assert written(case["latex"]) == case


def test_the_sample_is_large_and_covers_matrices_and_cases() -> None:
    assert len(CASES) > 500
    assert any(r"\begin{cases}" in c["latex"] for c in CASES)
    assert any(len(c["lines"]) > 2 and c["compact"][0].count(";") >= 2 for c in CASES)


def test_what_the_writer_adds_to_the_old_reader() -> None:
    # The old reader printed unknown commands minus the backslash ("hatx", "binomnk", "forall").
    assert math_box(r"\hat{y} = \binom{n}{k} \sqrt[3]{x} \forall i \lVert v \rVert").lines == [
        "y\u0302 = C(n, k) ³√x ∀ i ‖ v ‖"  # y and a combining circumflex
    ]
    assert math_box(r"\left\langle q, k \right\rangle \Vert \| \vec{QK}").lines == ["⟨ q, k ⟩ ‖ ‖ vec(QK)"]
    # Cases and aligned equations as the card and print show them, not as matrices.
    cases = r"M_{ij} = \begin{cases} 0 & j \le i \\ -\infty & j > i \end{cases}"
    assert math_box(cases).lines == ["M_ij = ⎧ 0   j ≤ i", "       ⎩ -∞  j > i"]
    assert math_box(cases, compact=True).lines == ["M_ij = {0, j ≤ i; -∞, j > i}"]
    aligned = r"\begin{aligned} a &= b + c \\ &= d \end{aligned}"
    assert math_box(aligned).lines == ["a = b + c", "  = d"]
    assert math_box(aligned, compact=True).lines == ["a = b + c; = d"]
    # What it does not know it refuses, as print and the site do (the loader's check says where).
    with pytest.raises(LatexError, match=r"\\foo"):
        math_box(r"\foo{x}")


if __name__ == "__main__":
    about = (
        "Math and what the plain-text writer makes of it (tests/problems/test_plain_math.py);"
        " regenerate: .venv/bin/python -m tests.problems.test_plain_math"
    )
    cases = ",\n".join(json.dumps(written(latex), ensure_ascii=False) for latex in sample())
    FIXTURE.write_text(f'{{"about": {json.dumps(about)},\n"cases": [\n{cases}\n]}}\n', encoding="utf-8")
