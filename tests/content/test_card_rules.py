"""The card-rule warnings of ``paperdeck check`` (``generator.content.card_rules``).

Each file under ``warnings/`` is a valid lesson whose ``# expect:`` lines are the
exact warnings it must give, in order (``pin_messages.py`` rewrites them too).
The shipped content must give none.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.content import load
from generator.content.card_rules import (
    MAX_BACK,
    card_rule_warnings,
    cloze_cards,
    first_clause,
    gives_term_away,
    listed_items,
    number_kind,
    one_word_apart,
    plain_text,
)
from generator.content.text import inlines
from tests.content.test_broken_corpus import expected_messages, make_project

HERE = Path(__file__).parent
ROOT = HERE.parents[1]
WARNING_CASES = sorted((HERE / "warnings").glob("*.yaml"))


def warnings_for(root: Path) -> list[str]:
    return [str(w) for w in card_rule_warnings(load(root), root)]


@pytest.mark.parametrize("case", WARNING_CASES, ids=lambda p: p.stem)
def test_warning_file_gives_exactly_its_warnings(case: Path, tmp_path: Path) -> None:
    root = make_project(tmp_path, lesson=case.read_text())
    expected = expected_messages(case)
    assert expected, f"{case.name} has no '# expect:' line"
    assert warnings_for(root) == expected


def test_corpus_covers_every_rule() -> None:
    text = "".join(case.read_text() for case in WARNING_CASES)
    for field in ("concepts[", "clozes[", "flashcards[", "equations["):
        assert f": {field}" in text
    for rule in (
        "also appears unhidden in its text",
        "also appears unhidden in its extra",
        "filled in as c",
        "under a cue that differs only in",
        "differs only by the word",
        "definition lists",
        "back lists",
        "differs only by its table name",
        "(as PE)",
    ):
        assert rule in text, rule


def test_cues_one_word_apart() -> None:
    assert one_word_apart("how many encoder layers".split(), "how many decoder layers".split()) == (
        "encoder",
        "decoder",
    )
    assert one_word_apart("bleu of 8 layers".split(), "bleu of 8 layers there".split()) == ("", "there")
    assert one_word_apart("a b c".split(), "a b c".split()) == ("", "")
    assert one_word_apart("a b c".split(), "a x y".split()) is None
    assert one_word_apart("a b".split(), "a b c d".split()) is None


def test_a_cloze_card_shows_the_other_deletions_filled_in() -> None:
    cards = cloze_cards(r"Beam {{c1::4}}, \(\alpha = {{c2::0.6}}\), beam {{c1::4}} again.")
    assert list(cards) == ["1", "2"]
    cue, hidden = cards["1"]
    assert "zzblankzz" in cue and "0.6" in cue and "4" not in cue.replace("zzblankzz", "")
    assert hidden == "4 4"
    assert cards["2"][1] == "0.6"


def test_a_flashcard_answers_with_its_first_clause() -> None:
    # cut at a comma, parenthesis or full stop in the text, not in math or inside markup
    assert first_clause(r"\(N = 6\), as in the encoder.") == inlines(r"\(N = 6\)")
    assert first_clause(r"\(O(n \cdot d^2)\).") == inlines(r"\(O(n \cdot d^2)\)")
    assert first_clause("24.6 (against 25.8). More.") == inlines("24.6")
    assert first_clause("**6, the base**; 12") == inlines("**6, the base**")


def test_check_prints_warnings_and_exits_0(tmp_path: Path, capsys) -> None:
    case = HERE / "warnings" / "long-backs.yaml"
    root = make_project(tmp_path, lesson=case.read_text())
    assert main(["--project", str(root), "check"]) == 0
    out = capsys.readouterr()
    assert out.out.startswith("ok: ")
    said, *warnings = out.err.splitlines()
    assert said == f"project {root}"
    assert warnings == expected_messages(case)


def test_shipped_content_gives_no_warnings() -> None:
    assert warnings_for(ROOT) == []


def test_plain_text_drops_markup() -> None:
    assert (
        plain_text(r"**Bold** \(\mathrm{FFN}(x) = \max(0, x)\) and `code`")
        == "Bold FFN(x) = max(0, x) and code"
    )
    # math as the LaTeX parser's plain-text writer reads it (it was "(fracab)", "sqrtd_k")
    assert plain_text(r"\[\left(\frac{a}{b}\right)\]") == "(a/b)"
    assert plain_text(r"scaled by \(1/\sqrt{d_k}\)") == "scaled by 1/√d_k"
    assert MAX_BACK == 170


def test_warnings_without_project_have_no_lines(tmp_path: Path) -> None:
    root = make_project(tmp_path, lesson=(HERE / "warnings" / "clozes.yaml").read_text())
    lines = [w.line for w in card_rule_warnings(load(root))]
    assert lines and set(lines) == {0}


def test_a_list_is_a_series_of_short_items_in_the_first_sentence() -> None:
    assert listed_items("Queries, keys and values.") == ["Queries", "keys", "values"]
    assert listed_items("A; B; C.") == ["A", "B", "C"]
    assert listed_items("Training time × number of GPUs × capacity.") == [
        "Training time",
        "number of GPUs",
        "capacity",
    ]
    assert listed_items("Queries and keys.") == []
    assert listed_items(r"The rows \((a, b, c)\) and more.") == []
    assert listed_items("One thing. Then a, b and c.") == []
    assert listed_items("100,000 steps, or 12 hours.") == []
    # a clause ending in "X and Y" is not a series unless its items are short
    assert listed_items("To facilitate the residual connections, which add input and output.") == []


def test_a_term_given_away_by_stems_capitals_and_initials() -> None:
    assert gives_term_away("Layer normalization", "the norm of each layer") == ["layer", "normalization"]
    assert gives_term_away("Add & Norm", r"add, then \(\mathrm{LayerNorm}\)") == ["add", "norm"]
    assert gives_term_away("Positional encoding", r"\(PE_{pos}\) of a token") == [
        "positional (as PE)",
        "encoding (as PE)",
    ]
    assert gives_term_away("Add & Norm", "adds, then normalizes") is None  # "add" is too short a stem
    assert gives_term_away("Attention network", "a network that attends to an output") is None


def test_number_kind() -> None:
    assert number_kind("27.3 (newstest2014).") == ("27.3", 1, "")
    assert number_kind("65 million.") == ("65", 0, "million")
    assert number_kind("The big model.") is None
