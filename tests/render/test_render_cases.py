"""One table of inline and math cases with what each renderer writes for them
(``render_cases.json``, the markdown-it-py way: its fixture files run every case through the
renderer). A change in any output shows up here as a diff of that file.

Regenerate it after an intended change, and read the diff before committing:

    .venv/bin/python -m tests.render.test_render_cases
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from generator.exporters.anki import markup as anki
from generator.exporters.plain_text import prose
from generator.exporters.problem_text import dollar_math
from generator.exporters.site import markup as site
from generator.exporters.typst import markdown as typst

FIXTURE = Path(__file__).with_name("render_cases.json")
RENDERERS: dict[str, Callable[[str], str]] = {
    "anki": anki.inline,
    "site": site.inline,
    "typst": typst,
    "plain": prose,
    "markdown": dollar_math,
}
SOURCES = [
    "x_1 * y_2 and *b*",
    "a*b*c and 2 * 3 * 4",
    "**strong**, *emphasis* and `code *as written*`",
    r"\(\epsilon\) and \(\varepsilon\), \(\phi\) and \(\varphi\)",
    r"\(x_1 * y_2\) and \(\sqrt{d_k}\), \(QK^\top\)",
    r"costs $5 for \(P_{drop} = 0.1\)",
]


def rendered() -> list[dict[str, str]]:
    return [
        {"source": source, **{name: render(source) for name, render in RENDERERS.items()}}
        for source in SOURCES
    ]


CASES = json.loads(FIXTURE.read_text(encoding="utf-8"))["cases"] if FIXTURE.exists() else []


@pytest.mark.parametrize("case", CASES, ids=[c["source"] for c in CASES])
def test_every_renderer_writes_the_expected_text(case: dict[str, str]) -> None:
    assert {name: render(case["source"]) for name, render in RENDERERS.items()} == {
        name: case[name] for name in RENDERERS
    }


def test_the_fixture_holds_every_case() -> None:
    assert [c["source"] for c in CASES] == SOURCES, "regenerate: " + __doc__.split("\n\n")[-1].strip()


def test_the_divergences_of_issue_42_stay_gone() -> None:
    # Pinned apart from the fixture, so that regenerating it cannot take a divergence back in.
    by_source = {c["source"]: c for c in CASES}
    stars = by_source["x_1 * y_2 and *b*"]
    assert stars["plain"] == "x_1 * y_2 and b" and stars["anki"] == "x_1 * y_2 and <em>b</em>"
    assert by_source["a*b*c and 2 * 3 * 4"]["typst"].startswith(r"a\*b\*c"), "no emphasis inside a word"
    letters = by_source[r"\(\epsilon\) and \(\varepsilon\), \(\phi\) and \(\varphi\)"]
    assert letters["plain"] == "ϵ and ε, ϕ and φ"
    assert "<mi>ϵ</mi>" in letters["site"] and "<mi>ε</mi>" in letters["site"]


if __name__ == "__main__":
    about = (
        "Inline and math cases and what each renderer writes (tests/render/test_render_cases.py);"
        " regenerate: .venv/bin/python -m tests.render.test_render_cases"
    )
    FIXTURE.write_text(
        json.dumps({"about": about, "cases": rendered()}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
