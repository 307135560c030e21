"""Content Markdown blocks, and how the card and print exporters render them."""

from __future__ import annotations

from generator.content.markdown import ListBlock, Paragraph, Table, blocks
from generator.exporters.anki.markup import block as card_html
from generator.exporters.typst import markdown as typst_markup

TEXT = """Intro line:
1. **first** item;
2. second \\(x^2\\)
   continued

| Layer | Cost |
|---|---|
| Self-attention | \\(O(n^2 \\cdot d)\\) |
| Recurrent |

- a
- b"""


def test_blocks_of_paragraphs_lists_and_tables() -> None:
    assert blocks(TEXT) == [
        Paragraph("Intro line:"),
        ListBlock(("**first** item;", "second \\(x^2\\) continued"), 1),
        Table(("Layer", "Cost"), (("Self-attention", "\\(O(n^2 \\cdot d)\\)"), ("Recurrent", ""))),
        ListBlock(("a", "b"), None),
    ]


def test_a_hyphen_inside_a_sentence_is_not_a_list() -> None:
    assert blocks("3 - 2 = 1\nand more") == [Paragraph("3 - 2 = 1\nand more")]


def test_cards_render_lists_and_tables_as_html() -> None:
    html = card_html(TEXT)
    assert "<ol><li><strong>first</strong> item;</li><li>second \\(x^2\\) continued</li></ol>" in html
    assert '<table class="pd-table"><tr><th>Layer</th><th>Cost</th></tr>' in html
    assert "<td>Recurrent</td><td></td>" in html
    assert "<ul><li>a</li><li>b</li></ul>" in html


def test_print_renders_lists_and_tables_as_typst() -> None:
    typst = typst_markup(TEXT)
    assert "#enum(start: 1, [#strong[first] item;], [second $x^(2)$ continued])" in typst
    assert "#table(columns: 2," in typst and "[#strong[Layer]]" in typst
    assert "#list([a], [b])" in typst
