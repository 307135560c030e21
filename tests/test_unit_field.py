"""A numeric question's ``unit`` is content text like any other: math typeset, markup escaped.

It reached the card and the PDF verbatim (escaped for HTML or Typst, but its LaTeX
printed as source on paper and never checked by ``check``).
"""

from __future__ import annotations

from generator.content.model import Question
from generator.documents.items import StudyItem
from generator.documents.quiz import QuestionItem
from generator.exporters.anki.notes import question as question_note
from generator.exporters.print_items import item, key_item
from generator.exporters.typst.compile import compile_pdf, preamble

from .pdf_text import pdf_text

UNIT = r"\(\mathrm{s}^{-1}\) <b>per</b> #read(&quot;x&quot;)"
QUESTION = Question("q-rate", "numeric", "How fast?", "S5.3", 4, tolerance=0.5, unit=UNIT)


def test_the_unit_on_a_card_is_escaped_and_keeps_its_math() -> None:
    note = question_note(StudyItem("question", "q-rate", "Lesson", "S5.3", (), QUESTION), None)  # type: ignore[arg-type]
    fields = dict(zip(note.note_type.fields, note.fields, strict=True))
    for name in ("Answer", "AnswerName"):
        assert r"\(\mathrm{s}^{-1}\)" in fields[name]
        assert "<b>" not in fields[name] and "&lt;b&gt;per&lt;/b&gt;" in fields[name]


def test_the_unit_on_a_form_and_its_key_is_typeset() -> None:
    printed = QuestionItem(1, 1.0, QUESTION)
    source = preamble("a4", "Quiz", "[Quiz]") + item(printed) + "\n\n" + key_item(printed)
    text = pdf_text(compile_pdf(source, 1))
    assert "mathrm" not in text and "\\(" not in text
    assert "<b>per</b>" in text and "#read(&quot;x&quot;)" in text
