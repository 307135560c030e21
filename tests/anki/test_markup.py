"""Content text to card HTML: escaping, the small Markdown, values as LaTeX, kind dispatch."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.documents.items import KINDS, StudyItem
from generator.exporters.anki import markup, notes
from generator.presentation import number_formatter, value_latex
from generator.values import Precision


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain", "plain"),
        ("<b>bold</b> & co", "&lt;b&gt;bold&lt;/b&gt; &amp; co"),
        ("*em* and **strong**", "<em>em</em> and <strong>strong</strong>"),
        ("`a < b` and `**`", "<code>a &lt; b</code> and <code>**</code>"),
        (r"\(a*b*c\) stays, *this* goes", r"\(a*b*c\) stays, <em>this</em> goes"),
        (r"\(j < i\) and \[x > 0 \& y\]", r"\(j &lt; i\) and \[x &gt; 0 \&amp; y\]"),
        (r"{{c1::\(\sqrt{d_k}\)}}", r"{{c1::\(\sqrt{d_k}\)}}"),
        ("2 * 3 * 4", "2 * 3 * 4"),
        ("line\nbreak", "line break"),
        ("*emphasis across \\(x\\) math*", "<em>emphasis across \\(x\\) math</em>"),
        ("quotes \"stay\" 'as' typed", "quotes \"stay\" 'as' typed"),
    ],
)
def test_inline(text, expected):
    assert markup.inline(text) == expected


def test_block_paragraphs():
    assert markup.block("one\n\ntwo *b*\n\n\nthree") == "<p>one</p><p>two <em>b</em></p><p>three</p>"
    assert markup.block("single\nparagraph") == "single paragraph"
    assert markup.block("") == ""


def test_an_empty_header_cell_is_no_column_header():
    """The corner above a table's row labels (the paper's Table 3, in its lesson's deck
    description) is a plain cell, as on the study site."""
    table = markup.block("| | BLEU |\n|---|---|\n| base | 25.8 |")
    assert "<tr><td></td><th>BLEU</th></tr>" in table


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")))
def test_escaped_text_never_makes_markup_and_keeps_latex(text):
    out = markup.block(text)
    # Only the tags paperdeck makes itself.
    assert set(re.findall(r"</?([a-z]+)", out)) <= {"p", "em", "strong", "code"}
    visible = html.unescape(re.sub(r"</?(p|em|strong|code)>", "", out))
    # Braces (LaTeX, cloze syntax) come through unchanged, and backslashes too but where one
    # escapes punctuation outside math (``\\*`` is a star, as print has always read it).
    for char in "{}":
        assert visible.count(char) == text.count(char)
    escapes = len(re.findall(r"\\[!-/:-@\[-`{-~]", text))
    assert text.count("\\") - escapes <= visible.count("\\") <= text.count("\\")


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        (2.5, "2.5"),
        ([1, 0], r"\begin{pmatrix} 1 & 0 \end{pmatrix}"),
        ([[1.0, 0.123456], [0, -2]], r"\begin{pmatrix} 1 & 0.1235 \\ 0 & -2 \end{pmatrix}"),
        (float("-inf"), r"-\infty"),
    ],
)
def test_value_latex(value, expected):
    assert value_latex(value, number_formatter(abs_tol=0.005)) == expected


def test_relative_tolerance_shows_significant_figures():
    fmt = number_formatter(rel_tol=0.001)
    assert fmt(0.00698771) == "0.0069877"
    assert fmt(0.000698771) == r"6.9877 \times 10^{-4}"


def test_every_kind_has_a_note_type():
    assert set(notes.BUILDERS) == set(KINDS)


def test_an_unknown_kind_raises():
    item = StudyItem("podcast", "x", "group", "S1", (), object())
    with pytest.raises(ValueError, match="no Anki note type for item kind 'podcast'"):
        notes.build_note(item, notes.Figures(Path("unused")))


def test_attention_problems_show_their_weights_as_a_shaded_table() -> None:
    import re

    from generator.problems import generate_one

    sdpa = generate_one("sdpa", 7, "medium")
    table = notes.heatmap_html(sdpa)
    shown = [float(x) for x in re.findall(r">(\d\.\d{4})</td>", table)]
    expected = [round(w, 4) for row in sdpa.answer["weights"] for w in row]
    assert shown == expected
    masked = generate_one("masked-sdpa", 7, "medium")
    n = len(masked.answer["weights"])
    assert notes.heatmap_html(masked).count(">masked</td>") == n * (n - 1) // 2
    assert notes.heatmap_html(generate_one("softmax", 7)) == ""


def test_the_weight_tables_headers_each_name_their_query_or_key() -> None:
    """Each header cell says which row or column it heads; the empty corner is a plain cell."""
    import re

    from generator.problems import generate_one

    for type_id in ("sdpa", "masked-sdpa"):
        problem = generate_one(type_id, 7, "medium")
        queries, keys = len(problem.answer["weights"]), len(problem.answer["weights"][0])
        table = notes.heatmap_html(problem)
        assert re.findall(r"<th(?: scope=\"(\w+)\")?[^>]*>([^<]*)</th>", table) == [
            ("col", f"k{j}") for j in range(1, keys + 1)
        ] + [("row", f"q{i}") for i in range(1, queries + 1)]
        assert "<tr><td></td><th" in table


def _worked_fields(example) -> dict[str, str]:
    item = StudyItem("worked_example", example.id, "group", example.source, (), example)
    built = notes.build_note(item, notes.Figures(Path("unused")))
    return dict(zip(built.note_type.fields, built.fields, strict=True))


def test_a_worked_example_prints_its_result_to_the_precision_its_task_asks_for() -> None:
    from tests.anki.conftest import SDPA_TOY

    fields = _worked_fields(SDPA_TOY)  # the sdpa prompt asks for three decimals
    assert "three decimals" in fields["Task"]
    assert "2.660 &amp; 3.660" in fields["Result"] and "2.6604769" not in fields["Result"]


def test_a_worked_example_with_its_own_task_shows_it_and_its_givens() -> None:
    from dataclasses import replace

    from tests.anki.conftest import SDPA_TOY

    own = replace(
        SDPA_TOY,
        task="Batch normalization of one channel: give the output to two decimals.",
        precision=Precision(decimals=2),
    )
    fields = _worked_fields(own)
    assert fields["Task"] == "Batch normalization of one channel: give the output to two decimals."
    assert "Attention" not in fields["Task"]
    assert "1 &amp; 0" in fields["Given"]  # its own task need not state the givens
    assert "2.66 &amp; 3.66" in fields["Result"]
