"""A built deck imported into the real Anki library: cards render, decks nest, order holds."""

from __future__ import annotations

import html
import json
import re
import zipfile
from pathlib import Path

from generator.exporters.anki import notetypes
from generator.exporters.anki.notes import Figures, build_note

TITLE = "Attention Is All You Need"
LEFTOVER = re.compile(r"\{\{|\}\}")


def _cards(col):
    return [col.get_card(cid) for cid in col.find_cards("")]


def test_every_card_renders_on_both_sides(col, write, make_deck, import_package, balanced_math):
    import_package(col, write(make_deck()))
    cards = _cards(col)
    seen = set()
    for card in cards:
        name = card.note_type()["name"]
        seen.add((name, card.ord))
        for side in (card.question(), card.answer()):
            body = side.split("</style>", 1)[-1]
            text = re.sub(r"<script>.*?</script>", "", body, flags=re.S)
            assert re.sub(r"<[^>]+>|\s", "", text), f"{name} card {card.ord} has an empty side"
            outside_math = re.sub(r"\\\(.*?\\\)|\\\[.*?\\\]", "", text, flags=re.S)
            assert not LEFTOVER.search(outside_math), f"{name}: template leftovers in {text[:300]}"
            assert "template error" not in side.lower() and "no such field" not in side.lower()
            assert balanced_math(text), f"{name} card {card.ord}: unbalanced math in {text}"
    expected = {(nt.anki_name, ord_) for nt in notetypes.ALL for ord_ in range(len(nt.templates))}
    assert expected <= seen, "every card of every note type is exercised"


def test_decks_nest_and_cards_are_due_in_teaching_order(col, write, make_deck, import_package):
    deck = make_deck()
    import_package(col, write(deck))
    names = sorted(d.name for d in col.decks.all_names_and_ids() if d.name != "Default")
    assert names == [
        TITLE,
        f"{TITLE}::01 Why Attention",
        f"{TITLE}::02 Scaled Dot-Product Attention",
        f"{TITLE}::Practice",
    ]
    # Anki lists decks by name; the lesson numbers make that the teaching order.
    groups = list(dict.fromkeys(item.group for item in deck.items))
    assert [n.split("::", 1)[1] for n in names[1:]] == groups
    by_id = {item.key: position for position, item in enumerate(deck.items, 1)}
    for card in _cards(col):
        note = card.note()
        item_position = by_id[note["Id"]]
        assert card.due == item_position, "new cards come in teaching order"
        assert col.decks.name(card.did) == f"{TITLE}::{deck.items[item_position - 1].group}"


def test_tags_and_source_on_every_note(col, write, make_deck, import_package):
    deck = make_deck()
    import_package(col, write(deck))
    items = {item.key: item for item in deck.items}
    for nid in col.find_notes(""):
        note = col.get_note(nid)
        item = items[note["Id"]]
        assert note["Source"] == item.source
        assert set(note.tags) == set(item.tags)
    assert col.find_notes("tag:aiayn::problem::sdpa"), "hierarchical tags are searchable"
    # The package leaves the sort field and checksum to Anki, which fills them in.
    assert not col.db.scalar("select count() from notes where sfld = '' or csum = 0")
    assert col.find_notes("tag:aiayn::s3.2.1")


def test_html_in_content_shows_as_text(col, write, make_deck, import_package, evil_text):
    import_package(col, write(make_deck()))
    (nid,) = col.find_notes('"Id:fc-evil"')
    card = col.get_note(nid).cards()[0]
    question, answer = card.question(), card.answer()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in question
    assert "&lt;b&gt;bold&lt;/b&gt;" in question and " &amp; " in question
    assert "<script>alert" not in question and "<b>bold" not in question
    # LaTeX keeps its backslashes and braces; the < inside math is escaped for HTML only.
    assert r"\(a &lt; b\)" in answer
    assert "<code>&lt;i&gt;</code>" in answer
    assert "a &lt; b &gt; c" in question and evil_text not in question


def test_markdown_and_math_survive(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    (nid,) = col.find_notes('"Id:fc-parallel"')
    note = col.get_note(nid)
    assert note["Front"] == "Why is the Transformer <em>parallel</em>?"
    assert note["Back"] == "<p>No recurrence.</p><p>Only attention.</p>"
    (nid,) = col.find_notes('"Id:eq-sdpa"')
    assert col.get_note(nid)["Formula"] == (
        r"\[\mathrm{Attention}(Q,K,V)=\mathrm{softmax}\left(\frac{QK^{T}}{\sqrt{d_{k}}}\right)V\]"
    )


def test_cloze_and_reverse_cards(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    (nid,) = col.find_notes('"Id:cloze-scale"')
    cloze = col.get_note(nid).cards()
    assert sorted(c.ord for c in cloze) == [0, 1]
    assert "[...]" in cloze[0].question() and r"\(\sqrt{d_k}\)" in cloze[0].answer()
    (nid,) = col.find_notes('"Id:attention-function"')
    assert len(col.get_note(nid).cards()) == 2, "a reversed concept has a second card"
    (nid,) = col.find_notes('"Id:self-attention"')
    assert len(col.get_note(nid).cards()) == 1


def test_multiple_choice_shuffles_options_once_and_names_mistakes(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    (nid,) = col.find_notes('"Id:q-scale"')
    note = col.get_note(nid)
    options = re.findall(r"<li[^>]*>(.*?)(?:<span|</li>)", note["Options"])
    assert len(options) == 4 and sorted(options) == sorted(
        [r"\(\sqrt{d_k}\)", r"\(d_k\)", r"\(d_v\)", r"\(\sqrt{d_{model}}\)"]
    )
    assert options != [r"\(\sqrt{d_k}\)", r"\(d_k\)", r"\(d_v\)", r"\(\sqrt{d_{model}}\)"], "shuffled"
    answer = note.cards()[0].answer()
    assert "Mistake: divided by the dimension instead of its square root" in answer
    assert "Mistake: used the value dimension" in answer
    letter = "ABCD"[options.index(r"\(\sqrt{d_k}\)")]
    assert f"Answer: {letter}." in answer
    rebuilt = next(item for item in make_deck(seed=2).items if item.key == "q-scale")
    fields = build_note(rebuilt, Figures(Path("unused"))).fields
    assert fields[notetypes.QUESTION.fields.index("Options")] == note["Options"], "same order every build"


def test_figures_travel_in_the_package(col, write, make_deck, import_package):
    path = write(make_deck())
    with zipfile.ZipFile(path) as package:
        media = json.loads(package.read("media"))
        assert media and all(name.endswith((".png", ".svg")) for name in media.values())
        for number, name in media.items():
            assert package.read(number).startswith(b"\x89PNG" if name.endswith(".png") else b"<svg ")
        # Plots are PNGs, the paper's diagrams SVGs; each travels once however many notes show it.
        assert sorted(name.rsplit(".", 1)[1] for name in media.values()) == ["png", "svg"]
    import_package(col, path)
    media_dir = col.media.dir()
    for name in media.values():
        assert (Path(media_dir) / name).exists()
    (nid,) = col.find_notes('"Id:vis-heatmap"')
    figure = col.get_note(nid)["Figure"]
    assert re.fullmatch(r'<img src="attention-heatmap-[0-9a-f]{12}\.png" alt="[^"]*">', figure)
    attention = [col.get_note(n) for n in col.find_notes("tag:aiayn::problem::sdpa")]
    attention += [col.get_note(n) for n in col.find_notes("tag:aiayn::problem::masked-sdpa")]
    assert attention and all('<table class="pd-heatmap"' in n["Figure"] for n in attention)
    softmax = [col.get_note(n) for n in col.find_notes("tag:aiayn::problem::softmax")]
    assert softmax and all(n["Figure"] == "" for n in softmax)


def test_problem_cards_show_key_tolerance_steps_seed_and_difficulty(col, write, make_deck, import_package):
    deck = make_deck()
    import_package(col, write(deck))
    for item in deck.items:
        if item.kind != "problem":
            continue
        (nid,) = col.find_notes(f'"Id:{item.key}"')
        card = col.get_note(nid).cards()[0]
        question, answer = card.question(), card.answer()
        assert f'seed <span data-pd="Seed">{item.body.seed}</span>' in question
        assert item.body.difficulty in question
        assert "Tolerance: ±" in answer and "Worked steps" in answer
        assert (
            f'paperdeck problems {item.body.type} --problem-seed <span data-pd="Seed">'
            f"{item.body.seed}</span> -d {item.body.difficulty}"
        ) in answer
        for step in item.body.steps:
            assert html.escape(step.title, quote=False) in answer
        assert 'data-expected="' in answer and "<script>" in answer


def test_one_stylesheet_with_night_mode_for_every_note_type(col, write, make_deck, import_package):
    import_package(col, write(make_deck()))
    ours = [nt for nt in col.models.all() if nt["name"].startswith("paperdeck ")]
    assert len(ours) == len(notetypes.ALL)
    assert {nt["css"] for nt in ours} == {notetypes.STYLE}
    assert ".nightMode" in notetypes.STYLE and ".night_mode" in notetypes.STYLE
    assert "max-width: 100%" in notetypes.STYLE, "figures and wide math fit a phone"
