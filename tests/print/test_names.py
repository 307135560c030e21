"""Every name prints: forms, keys, the booklet, the report and feedback typeset names in
any script with the fonts paperdeck's dependencies ship, none missing a glyph.

Typst warns about a font family it cannot find, and each test fails on any warning;
a glyph no font in the fallback list has prints as an empty box that reads back as
nothing, so each name is read back from the PDF, character by character.
"""

from __future__ import annotations

import re

import pytest

from generator.documents import quiz
from generator.exporters import quiz_forms
from generator.exporters.typst.compile import _compiler, preamble

from ..pdf_text import pdf_text

NAMES = {
    "Latin": "Zoë Ångström-Nguyễn",
    "Greek": "Αλέξανδρος Παπαδόπουλος",
    "Cyrillic": "Пётр Ильич",
    "Chinese": "王小明",
    "Japanese": "山田 さくら",
    "Korean": "김민준",
    "Arabic": "محمد علي",
    "Hebrew": "דוד כהן",
    "Devanagari": "अर्जुन शर्मा",
    "emoji": "Kai 🎓😀",
}
STUDENTS = tuple(quiz.Student(name, f"s{i}") for i, name in enumerate(NAMES.values()))


def compiled(source: str) -> str:
    """The text of a document compiled with the shared fonts; any Typst warning fails."""
    pdf, warnings = _compiler().compile_with_warnings(source.encode("utf-8"), format="pdf")
    assert not warnings, [w.message for w in warnings]
    return pdf_text(pdf)


def missing(name: str, text: str) -> set[str]:
    """The characters of ``name`` that did not print (a glyph no font has reads back as nothing).

    Characters, not the name as a string: right-to-left names and the conjuncts of
    Devanagari read back in another order.
    """
    return set(re.sub(r"\s", "", name)) - set(text)


@pytest.fixture(scope="module")
def roster_quiz(content, quiz_recipe):
    return quiz.build_quiz(content, quiz_recipe, seed=3, versions=0, secret=b"t", students=STUDENTS)


@pytest.mark.parametrize("script", NAMES)
def test_a_name_in_any_script_prints_on_its_form_and_worked_key(roster_quiz, script):
    index = list(NAMES).index(script)
    form = roster_quiz.form(index)
    for source in (quiz_forms.form_source(roster_quiz, form), quiz_forms.form_key_source(roster_quiz, form)):
        assert not missing(NAMES[script], compiled(source))


def test_every_name_prints_in_the_answer_key_booklet(roster_quiz):
    cards, models = [], {}
    for form in roster_quiz.iter_forms():
        cards.append(quiz_forms.booklet_card(form, models))
    text = compiled(quiz_forms.booklet_source(roster_quiz, cards, models))
    for name in NAMES.values():
        assert not missing(name, text), name


def test_a_script_no_font_covers_reads_back_as_missing():
    """The check can fail: Egyptian hieroglyphs are in none of the template's fonts."""
    assert missing("Ada \U00013000", compiled(preamble("a4", "t", "[]") + "Ada \U00013000")) == {"\U00013000"}
