"""One table of inline, block and math cases with what each renderer of the one text tree
(``generator.content.text``) writes for them (``render_cases.json``, the markdown-it-py way:
its fixture files run every case through the renderer). A change in any output shows up here
as a diff of that file.

Regenerate it after an intended change, and read the diff before committing:

    .venv/bin/python -m tests.render.test_render_cases
"""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.content import text
from generator.content.loader import load
from generator.content.model import MARKDOWN
from generator.exporters.anki import markup as anki
from generator.exporters.plain_text import prose
from generator.exporters.problem_text import dollar_math
from generator.exporters.site import markup as site
from generator.exporters.typst import markdown as typst
from generator.exporters.typst.markup import inline as typst_inline

FIXTURE = Path(__file__).with_name("render_cases.json")
RENDERERS: dict[str, Callable[[str], str]] = {
    "anki": anki.block,
    "site": site.inline,
    "site_blocks": lambda source: site.block(source, clozes=True),
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
    "- a *bullet*\n- list of `code`\n  continued",
    "3. numbered from three\n4. four",
    "| term | value |\n|---|---|\n| *x* | \\(x^2\\) |\n| short row |",
    r"The {{c1::sequential}} nature and {{c2::\(d_k\)::a symbol}}",
    r"\(\sqrt{ {{c1::d_k}} }\) and \[ {{c2::QK^\top}} \]",
    "`a*b*c` and `**x**` as written",
    r"\*not emphasis\* and \$5 and a\\b",
    "*a **b** c* and **a *b* c**",
    r"**2. Encoder layer, repeated \(N = 6\) times.** Then",
    "one line\n  and the next & <b>",
    r"\(x ^2\) and \(a _i + b\,'\)",
    r"[the *paper*](https://arxiv.org/abs/1706.03762), [\(d_k\)](https://a.example/d_k) and [a script](javascript:alert(1))",
    r"so row 1 is \((0.50648039, 0.18632372, 0.30719589)\). Row 2: \(x\); \[y\].",
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
    heading = by_source[r"**2. Encoder layer, repeated \(N = 6\) times.** Then"]
    assert heading["typst"].startswith("#strong[2\\. Encoder layer"), "strong around math prints bold"
    code = by_source["`a*b*c` and `**x**` as written"]
    assert code["anki"] == "<code>a*b*c</code> and <code>**x**</code> as written"
    links = by_source[
        r"[the *paper*](https://arxiv.org/abs/1706.03762), [\(d_k\)](https://a.example/d_k) and [a script](javascript:alert(1))"
    ]
    assert links["anki"].startswith(
        '<a href="https://arxiv.org/abs/1706.03762" rel="noopener noreferrer">the <em>'
    )
    assert (
        "javascript" not in links["site"].split("[a script]")[0] and 'href="javascript' not in links["anki"]
    )
    assert links["plain"].startswith(
        "the paper (https://arxiv.org/abs/1706.03762), d_k (https://a.example/d_k)"
    )
    # a full stop after a formula as wide as the column stays on its line (a box may end one)
    stop = by_source[r"so row 1 is \((0.50648039, 0.18632372, 0.30719589)\). Row 2: \(x\); \[y\]."]
    assert (
        stop["site"].count('<span class="pd-nowrap">') == 1 and "</math></span>.</span> Row 2" in stop["site"]
    )
    assert stop["anki"].count('<span class="pd-nowrap">') == 2 and r"\[y\]." in stop["anki"]
    escapes = by_source[r"\*not emphasis\* and \$5 and a\\b"]
    assert "<em>" not in escapes["anki"] and "#emph" not in escapes["typst"]


def _markdown_fields(value: Any) -> Iterator[str]:
    """Every value of a field the model declares Markdown, anywhere in ``value``."""
    if isinstance(value, tuple):
        for item in value:
            yield from _markdown_fields(item)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        hints = typing.get_type_hints(type(value), include_extras=True)
        for field in dataclasses.fields(value):
            hint, got = hints[field.name], getattr(value, field.name)
            # Markdown, or a tuple of Markdown (a worked example's steps)
            marked = MARKDOWN in getattr(hint, "__metadata__", ()) or any(
                MARKDOWN in getattr(arg, "__metadata__", ()) for arg in typing.get_args(hint)
            )
            if marked:
                yield from (got,) if isinstance(got, str) else (item for item in got if isinstance(item, str))
            else:
                yield from _markdown_fields(got)


def test_content_text_is_parsed_once_at_load_and_never_by_a_renderer(monkeypatch: pytest.MonkeyPatch) -> None:
    fields = [field for field in _markdown_fields(load(Path(__file__).parents[2])) if field]  # "" a default
    assert len(fields) > 1000 and all(isinstance(field, text.Source) for field in fields)
    read: list[str] = []
    parse_cached, inlines = text._parse_cached, text._inlines
    monkeypatch.setattr(text, "_parse_cached", lambda source: read.append(source) or parse_cached(source))
    monkeypatch.setattr(text, "_inlines", lambda source: read.append(source) or inlines(source))
    math: list[str] = []
    latex_tree = text.tree
    monkeypatch.setattr(text, "tree", lambda latex: math.append(latex) or latex_tree(latex))
    for round in range(2):  # every output, twice: the tree is read from the field each time
        for field in fields:
            anki.block(field), site.block(field, clozes=True), typst.__wrapped__(field)
        if round == 0:
            read_first, math_first = list(read), len(math)
    assert read_first == read == []
    # and each formula read by the LaTeX parser at most once (on first use, into its node's
    # tree; earlier tests in this process may have read some already), never again
    nodes = {id(node): node for field in fields for node in text.math(field)}.values()
    trees = sum(2 if node.clozes else 1 for node in nodes)  # with clozes, the site's blanks too
    assert len(nodes) > 500 and math_first <= trees and len(math) == math_first
    for _ in range(2):  # read as one paragraph: at most once per text (when it is not one already)
        for field in fields:
            anki.inline(field), site.inline(field, clozes=True), prose(field), dollar_math(field)
    assert len(read) == len(set(read)) < len(fields) / 10


def test_renderers_take_the_tree() -> None:
    tree = text.inlines(r"**a** \(x\)")
    assert anki.inline(tree) == anki.inline(r"**a** \(x\)") == r"<strong>a</strong> \(x\)"
    assert site.inline(tree).startswith("<strong>a</strong> <math>")
    assert prose(tree) == "a x" and dollar_math(tree) == "**a** $x$"


def test_math_is_written_from_the_parsers_tree_not_its_latex() -> None:
    (math,) = (text.Math("x_{swapped}", False, ("x_{swapped}",)),)  # not the parser's cached node
    assert math.tree == text.tree("x_{swapped}")
    math.__dict__["tree"] = text.tree("y")  # the node's tree, not its LaTeX, is what is written
    assert "<mi>y</mi>" in site.inline((math,)) and prose((math,)) == "y" and typst_inline((math,)) == "$y$"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",))))
def test_any_text_is_read_and_written_without_inventing_characters(source: str) -> None:
    tree = text.inlines(source)
    text.parse(source), anki.block(source), dollar_math(source)  # any text is read and written
    # The tree holds the source's characters (markup taken out, a cloze's number as a number).
    assert set(text.plain(tree)) <= set(source) | set("{}:c0123456789")


def test_plain_text_has_no_markup_but_what_content_cannot_mean() -> None:
    assert text.plain(r"**a** *b* `c*d` \(x^2\) {{c1::e}} \*f") == "a b c*d x^2 {{c1::e}} *f"


if __name__ == "__main__":
    about = (
        "Inline and math cases and what each renderer writes (tests/render/test_render_cases.py);"
        " regenerate: .venv/bin/python -m tests.render.test_render_cases"
    )
    FIXTURE.write_text(
        json.dumps({"about": about, "cases": rendered()}, ensure_ascii=False, indent=1) + "\n",
        encoding="utf-8",
    )
