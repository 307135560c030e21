"""What the site decides per item is what the Anki card decides, item by item: the order of a
question's options (``StudyItem.options``, from ``identity.option_order``), which parts a label
figure covers with a part (``LabelCard.covers``) and what a typed answer is checked against
(``StudyItem.checks``). Each is decided once in ``documents/``; the site is the built one (the
``site`` fixture); the cards are the shipped deck's notes."""

from __future__ import annotations

import html
import re
from pathlib import Path
from typing import Any

import pytest

import generator
from generator.documents.items import build_deck
from generator.exporters.anki import markup as card_markup
from generator.exporters.anki import notes
from generator.exporters.site import markup as site_markup
from generator.exporters.site import pages as site_pages

from .conftest import SEED


@pytest.fixture(scope="module")
def deck(project: Any) -> Any:
    return build_deck(project.content, project.recipes["aiayn"], SEED)


@pytest.fixture(scope="module")
def pages(site: Path) -> str:
    return "".join(p.read_text(encoding="utf-8") for p in sorted(site.glob("*.html")))


def _order(rendered: list[str], field: str) -> list[int]:
    """The option indices (0: the answer, then the distractors) in the order ``field`` shows them."""
    found = sorted((field.index(text), n) for n, text in enumerate(rendered))
    return [n for _, n in found]


def test_every_shipped_question_shows_its_options_in_the_cards_order(deck, pages) -> None:
    questions = [i for i in deck.items if i.kind == "question" and i.body.type == "multiple_choice"]
    assert len(questions) >= 30
    for item in questions:
        texts = [str(item.body.answer), *(d.text for d in item.body.distractors)]
        built = notes.build_note(item, notes.Figures(Path("unused")))
        options = built.fields[built.note_type.fields.index("Options")]
        card_order = _order([f"<li>{card_markup.inline(t)}</li>" for t in texts], options)
        start = pages.index(f'data-key="{html.escape(item.key)}"')
        article = pages[start : pages.index("</article>", start)]
        site_order = _order([f"</span> {site_markup.inline(t)}</button>" for t in texts], article)
        assert site_order == card_order, item.key
        right = re.findall(r'data-right="(\d)"', article)
        assert right.index("1") == card_order.index(0), "the right option is the card's letter"


def test_the_site_covers_a_parts_twins_as_the_card_does(document, pages) -> None:
    # Mirrors tests/anki/test_label_cards.py: V gives no twin (Q, K) away on the site either.
    labels = [i for i in document.items if i.kind == "label"]
    assert labels
    for item in labels:
        part, diagram = item.body.part, item.body.diagram
        asked = {i.body.part.id for i in labels if i.body.visual.id == item.body.visual.id}
        named = {"v": {"q", "k"}, "q": {"v"}, "k": {"v"}}.get(part.id, set())
        twins = [p for p in diagram.parts if p.id != part.id and (p.label == part.label or p.id in named)]
        start = pages.index(f'data-key="labels/{html.escape(item.key.rsplit("--", 1)[0])}"')
        section = pages[start : pages.index("</section>", start)]
        twin_cover = rf'<span class="pd-cover pd-twin" style="([^"]+)" data-part="{re.escape(part.id)}">'
        plain = re.findall(twin_cover, section)
        assert plain == [notes._box_style(diagram.fraction(p)) for p in twins if p.id not in asked], part.id
        numbered = re.findall(
            r'<button type="button" class="pd-cover" style="([^"]+)" data-part="([^"]+)"', section
        )
        assert all((notes._box_style(diagram.fraction(p)), p.id) in numbered for p in twins if p.id in asked)
    v = next(i for i in labels if i.body.part.id == "v")
    assert {p.id for p in v.body.covers} == {"q", "k"}


def test_no_exporter_orders_options_itself() -> None:
    exporters = Path(generator.__file__).parent / "exporters"
    assert [p.name for p in exporters.rglob("*.py") if "option_order" in p.read_text(encoding="utf-8")] == []


def _fields(item: Any) -> dict[str, str]:
    built = notes.build_note(item, notes.Figures(Path("unused")))
    return dict(zip(built.note_type.fields, built.fields, strict=True))


def test_a_problem_is_checked_against_the_same_data_on_the_card_and_the_site(deck, project) -> None:
    problems = [i for i in deck.items if i.kind == "problem"]
    assert any(len(item.checks[0].mistakes) > 1 for item in problems)
    for item in problems:
        fields = _fields(item)
        ctx = site_pages.Context(project.content.paper, Path("unused"))
        site_pages.problem(item, ctx)
        shown, check = ctx.problems[item.key][0], item.checks[0]
        assert (
            fields["Expected"].split()
            == [repr(x) for x in shown["expected"]]
            == list(map(repr, check.expected))
        )
        assert f'data-shown="{html.escape(shown["shown"])}"' in fields["Answer"], item.key
        card_mistakes = re.findall(r'data-values="([^"]*)"', fields["Mistakes"])
        assert [m.split() for m in card_mistakes] == [[repr(x) for x in m[1]] for m in shown["mistakes"]]
        assert {"abs": fields["TolAbs"], "rel": fields["TolRel"]} == {
            k: repr(shown["tol"][k]) if k in shown["tol"] else "" for k in ("abs", "rel")
        }


def test_a_numeric_question_is_checked_against_the_same_data_on_the_card_and_the_site(deck, pages) -> None:
    questions = [i for i in deck.items if i.kind == "question" and i.body.type == "numeric"]
    assert questions
    for item in questions:
        fields = _fields(item)
        start = pages.index(f'data-key="{html.escape(item.key)}"')
        form = re.search(r'<form class="pd-numeric" ([^>]*)>', pages[start:])
        assert form is not None
        attributes = dict(re.findall(r'data-([a-z]+)="([^"]*)"', form.group(1)))
        assert attributes["expected"] == fields["Expected"] and attributes["abs"] == fields["TolAbs"], (
            item.key
        )
        assert f'data-shown="{attributes["shown"]}"' in fields["Answer"], item.key
