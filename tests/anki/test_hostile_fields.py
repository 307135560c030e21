"""Text from outside (a student's typed name, a practice set's name) never becomes card markup.

A student's name is part of the ``Id`` field of their remedial problems, and a
``practice --new-set`` name of every problem's ``Id``; the Problem template puts
``{{Id}}`` inside ``data-id="…"``. These tests build such decks, import them into
the real Anki library and show the cards in Anki's reviewer page in Chromium: the
attacker's attributes must not exist, and the name must read back as typed.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

from generator.cli import main
from generator.exporters import ExportOptions, graded
from generator.exporters.anki import notetypes
from generator.grading import grade_quiz
from generator.project import open_project

from ..grading.classroom import make_class, write_key, write_responses
from .reviewer import Reviewer

ROOT = Path(__file__).parents[2]
HOSTILE = 'x" onmouseover="alert(1)" style="position:fixed;inset:0" data-x=\'y'

# Every element of the shown card, with the attributes it carries.
_ATTRIBUTES = """
return Array.prototype.map.call(document.querySelectorAll('#qa *'), function (el) {
  return Array.prototype.map.call(el.attributes, function (a) { return a.name; });
});"""


def test_every_field_placed_in_an_attribute_is_known() -> None:
    """The quote escaping covers what the templates put in attributes; the templates quote every
    attribute with double quotes, the only quoting ``attribute_fields`` reads."""
    found = {t.name: t.attribute_fields for t in notetypes.ALL}
    assert found["Problem"] >= {"Id", "Expected", "TolAbs", "TolRel"}
    assert found["Question"] >= {"Id", "Expected"}
    assert found["Label"] >= {"Which", "Mask"}
    for note_type in notetypes.ALL:
        for template in note_type.templates:
            for side in (template.front, template.back):
                assert not re.search(r"=\s*'|=\s*\{\{", side), (note_type.name, template.name)


def _show_problem_cards(col, reviewer: Reviewer) -> list[tuple[str, list[str], list[str]]]:
    """(the Id field, the attribute names, the data-id values) of every Problem card side, as shown."""
    shown = []
    for cid in col.find_cards('"note:paperdeck Problem v2"'):
        card = col.get_card(cid)
        for side, html in (("question", card.question()), ("answer", card.answer())):
            reviewer.show(side, html)
            names = {name for element in reviewer.run(_ATTRIBUTES) for name in element}
            ids = reviewer.run(
                "return Array.prototype.map.call("
                "document.querySelectorAll('#qa [data-id]'), e => e.getAttribute('data-id'));"
            )
            shown.append((card.note()["Id"], sorted(names), ids))
    return shown


def test_a_hostile_student_name_stays_text_on_the_remedial_cards(
    tmp_path: Path, col, import_package, reviewer: Reviewer, figure_cache: Path
) -> None:
    key_path = write_key(tmp_path / "quiz-key.json", seed=11)
    student = next(s for s in make_class(json.loads(key_path.read_text(encoding="utf-8"))) if s.mistakes)
    responses = write_responses(tmp_path / "responses.csv", [dataclasses.replace(student, name=HOSTILE)])
    grading = grade_quiz(key_path, responses, open_project(ROOT).content, 1)
    written = graded.export(
        grading, tmp_path / "graded", ExportOptions(build_time=1_700_000_000, figures=figure_cache)
    )
    (deck,) = [p for p in written if p.suffix == ".apkg"]
    import_package(col, deck)
    shown = _show_problem_cards(col, reviewer)
    assert shown
    who = " ".join(HOSTILE.split()).casefold()
    for _, names, ids in shown:
        assert "onmouseover" not in names and "data-x" not in names, names
        assert ids and all(value.startswith(f"review/{who}/") for value in ids), ids


def test_a_hostile_practice_set_name_stays_text_on_the_cards(
    tmp_path: Path, col, import_package, reviewer: Reviewer
) -> None:
    path = tmp_path / "practice.apkg"
    assert (
        main(
            [
                "--project",
                str(ROOT),
                "practice",
                "softmax",
                "-n",
                "1",
                "--variants",
                "2",
                "--seed",
                "1",
                "--new-set",
                HOSTILE,
                "-o",
                str(path),
            ]
        )
        == 0
    )
    import_package(col, path)
    shown = _show_problem_cards(col, reviewer)
    assert len(shown) == 2
    for _, names, ids in shown:
        assert "onmouseover" not in names and "data-x" not in names, names
        assert ids and all(value.startswith(f"{HOSTILE}/softmax/") for value in ids), ids
