"""Content Markdown blocks (generator.content.text), and how the card and print exporters render them."""

from __future__ import annotations

from generator.content.text import Emphasis, ListBlock, Math, Paragraph, Source, Strong, Table, Text, parse
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
    assert parse(TEXT) == (
        Paragraph((Text("Intro line:"),)),
        ListBlock(
            (
                (Strong((Text("first"),)), Text(" item;")),
                (Text("second "), Math("x^2", False, ("x^2",)), Text(" continued")),
            ),
            1,
        ),
        Table(
            ((Text("Layer"),), (Text("Cost"),)),
            (
                ((Text("Self-attention"),), (Math("O(n^2 \\cdot d)", False, ("O(n^2 \\cdot d)",)),)),
                ((Text("Recurrent"),), ()),
            ),
        ),
        ListBlock(((Text("a"),), (Text("b"),)), None),
    )


def test_a_hyphen_inside_a_sentence_is_not_a_list() -> None:
    assert parse("3 - 2 = 1\nand more") == (Paragraph((Text("3 - 2 = 1\nand more"),)),)


def test_a_content_field_carries_its_tree_and_stays_the_same_string() -> None:
    source = Source("A *term*.")
    assert source == "A *term*." and hash(source) == hash("A *term*.") and str(source) == "A *term*."
    assert source.blocks == (Paragraph((Text("A "), Emphasis((Text("term"),)), Text("."))),)
    assert source.inlines is source.blocks[0].children, "one paragraph: read once"
    assert parse(source) is source.blocks


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
