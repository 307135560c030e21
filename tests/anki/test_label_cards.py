"""Label-the-part cards, imported into the real Anki library: one per part, one part hidden."""

from __future__ import annotations

import json
import re

import pytest

from generator import identity, visuals
from generator.exporters import anki
from generator.exporters.anki import notetypes

VISUAL = "vis-sdpa-blocks"
PARAMS = {"panel": "scaled-dot-product"}


def _style(box):
    left, top, width, height = box
    return f"left:{left:.2f}%;top:{top:.2f}%;width:{width:.2f}%;height:{height:.2f}%"


def test_twins_are_covered_only_where_labels_repeat():
    labels = [p.label for p in visuals.parts("attention-blocks", PARAMS)]
    assert labels.count("MatMul") == 2 and all(labels.count(x) == 1 for x in labels if x != "MatMul")


def test_named_twins_are_covered_both_ways():
    # Different words that still give the answer away: the other side's label.
    arch = visuals.diagram("transformer-architecture", {})
    parts = {p.id: p for p in arch.parts}
    assert {p.id for p in arch.twins(parts["inputs"])} == {"outputs"}
    assert {p.id for p in arch.twins(parts["outputs"])} == {"inputs"}
    assert {p.id for p in arch.twins(parts["output-embedding"])} == {"input-embedding"}
    assert {p.id for p in arch.twins(parts["input-embedding"])} == {"output-embedding"}
    sdpa = visuals.diagram("attention-blocks", PARAMS)
    parts = {p.id: p for p in sdpa.parts}
    assert {p.id for p in sdpa.twins(parts["v"])} == {"q", "k"}
    assert {p.id for p in sdpa.twins(parts["matmul-scores"])} == {"matmul-output"}


def test_a_twin_must_be_drawn():
    from generator.visuals.diagram import Canvas

    canvas = Canvas(100, 100, "t")
    canvas.label("a", ["A"], 50, 50, 20, twins=("b",))
    with pytest.raises(ValueError, match=r"twins name parts that are not drawn: \['b'\]"):
        canvas.finish()


def _asked():
    return [p for p in visuals.parts("attention-blocks", PARAMS) if p.ask]


def _label_cards(col):
    (model,) = [m for m in col.models.all() if m["name"] == notetypes.LABEL.anki_name]
    assert model["id"] == identity.anki_id("Label", "v1")
    return [col.get_card(cid) for cid in col.find_cards(f'"note:{notetypes.LABEL.anki_name}"')]


def test_one_label_card_per_asked_part_with_a_stable_guid(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    cards = _label_cards(col)
    asked = _asked()
    assert len(asked) >= 5
    assert len(cards) == len(asked), "one card per part, one note per card"
    by_which = {card.note()["Which"]: card.note() for card in cards}
    assert sorted(by_which) == sorted(p.id for p in asked)
    for part in asked:
        note = by_which[part.id]
        assert note["Id"] == f"{VISUAL}--{part.id}"
        assert note.guid == anki.note_guid("aiayn", f"{VISUAL}--{part.id}"), "keyed from content ids"
        assert note["Source"] == "S3.F2"
        assert "aiayn::kind::label" in note.tags and "aiayn::s3.f2" in note.tags
    # Parts the figure draws but does not ask for (Q, K) get no card.
    assert {"q", "k"} <= {p.id for p in visuals.parts("attention-blocks", PARAMS)} - set(by_which)


def test_the_front_hides_exactly_one_part_and_the_back_names_it(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    diagram = visuals.diagram("attention-blocks", PARAMS)
    parts = {p.id: p for p in diagram.parts}
    for card in _label_cards(col):
        note = card.note()
        part = parts[note["Which"]]
        # Without the stylesheet Anki puts before each side.
        front, back = (side.split("</style>", 1)[-1] for side in (card.question(), card.answer()))
        masks = re.findall(r'<div class="pd-mask" data-part="([^"]+)" style="([^"]+)">', front)
        assert len(masks) == 1 and masks[0][0] == part.id, "one box, over this part"
        assert masks[0][1] == _style(diagram.fraction(part))
        assert re.search(r'<img src="attention-blocks-[0-9a-f]{12}\.svg"', front)
        assert note["Answer"] not in front and "pd-reveal" not in front, "the front does not tell"
        # Parts drawn with the same words, or named as twins, are covered too, plain, so no
        # twin gives the answer away.
        covers = re.findall(r'<div class="pd-cover" style="([^"]+)">', front)
        named = {"v": {"q", "k"}, "q": {"v"}, "k": {"v"}}.get(part.id, set())
        twins = [p for p in diagram.parts if p.id != part.id and (p.label == part.label or p.id in named)]
        assert covers == [_style(diagram.fraction(p)) for p in twins]
        assert "pd-cover" not in back, "the back shows the whole figure"
        assert "pd-mask" not in back.split('<hr id="answer">', 1)[1]
        reveal = re.findall(r'<div class="pd-reveal" data-part="([^"]+)" style="([^"]+)">', back)
        assert reveal == masks, "the back outlines the same part"
        assert note["Answer"] and note["Answer"] in back.split('<hr id="answer">', 1)[1]
        assert part.label.split(" (")[0].split()[0] in note["Answer"], "the answer names the drawn label"


def test_the_parts_field_lists_every_part_of_the_figure(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    diagram = visuals.diagram("attention-blocks", PARAMS)
    note = _label_cards(col)[0].note()
    listed = json.loads(note["Parts"].replace("&quot;", '"').replace("&amp;", "&"))
    assert [p["id"] for p in listed] == [p.id for p in diagram.parts]
    assert [p["label"] for p in listed] == [p.label for p in diagram.parts]
    assert all(len(p["box"]) == 4 for p in listed)


def test_the_figure_travels_once_as_svg(col, write, make_deck, import_package):
    path = write(make_deck())
    import_package(col, path)
    figures = {card.note()["Figure"] for card in _label_cards(col)}
    assert len(figures) == 1
    (name,) = re.findall(r'src="([^"]+)"', figures.pop())
    (figure_note,) = col.find_notes(f'"Id:{VISUAL}"')
    assert name in col.get_note(figure_note)["Figure"], "the Figure card shows the same file"
    assert (col.media.dir() + "/" + name).endswith(".svg")
    with open(f"{col.media.dir()}/{name}", encoding="utf-8") as svg:
        assert svg.read().startswith("<svg ")


def test_night_mode_styles_the_mask_and_the_outline():
    css = notetypes.STYLE
    for selector in (
        ".nightMode .pd-mask",
        ".night_mode .pd-mask",
        ".nightMode .pd-reveal",
        ".night_mode .pd-reveal",
    ):
        assert selector in css
    assert "position: absolute" in css and "position: relative" in css
