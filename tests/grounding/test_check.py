"""``paperdeck check`` grounds numbers and quotes in the source index; ``--strict`` makes the
ungrounded ones errors; a project without an index is checked as before."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from generator.cli import main
from generator.content import load
from generator.grounding.arithmetic import derived
from generator.grounding.check import ground, load_index
from generator.grounding.numbers import numbers

ROOT = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.mark.parametrize(
    ("text", "values"),
    [
        ("28.4 BLEU after 3.5 days on 8 P100 GPUs", ["28.4", "3.5", "8"]),
        (
            r"\(2.3 \cdot 10^{19}\) FLOPs and 100K steps, 100,000 in words",
            ["23000000000000000000", "100000", "100000"],
        ),
        (r"\(\epsilon = 10^{-9}\), \(step^{-0.5}\)", ["0.000000001", "0.5"]),
        (r"Section 3.2.1, Table 2, S6.T3, Eq. (1), footnote 5 and \(W_1\), newstest2014", []),
        (r"\(\sqrt{512} \approx 22.63\), 0.10", ["512", "22.63", "0.1"]),
    ],
)
def test_numbers_are_read_alike_on_both_sides(text, values):
    assert [n.value for n in numbers(text)] == values


@pytest.mark.parametrize(
    ("text", "values"),
    [
        (r"\(15 = 6 + 9\)", ["15"]),
        (r"\(\sqrt{512} \approx 22.63\)", ["22.63"]),
        (r"\(d_{\text{model}}/h = 1024/16 = 64\)", ["64"]),
        (r"\(e^{0.5} = 1.64872127\)", ["1.64872127"]),
        (r"\(15 = 6 + 8\)", []),  # does not check
        (r"\(\sqrt{512} \approx 22.65\)", []),  # off by more than a unit of the last digit
        (r"sum \(5.36700310\)", []),  # no arithmetic written
    ],
)
def test_derived_numbers_need_arithmetic_that_checks(text, values):
    assert [d.value for d in derived(text)] == values


def test_shipped_content_grounds_in_the_shipped_index():
    index = load_index(ROOT)
    assert index is not None
    result = ground(load(ROOT), index, ROOT)
    assert result.checked > 1500
    assert result.counts["cited"] > 900 and result.counts["derived"] > 200
    assert result.counts["declared"] > 50  # the constants of content/paper.yaml and invented inputs
    for finding in result.findings:
        assert re.match(r"content/.+\.yaml:\d+: .+: warning: .+ (is not in|the quote)", str(finding)), finding


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "content", tmp_path / "content")
    shutil.copytree(ROOT / "decks", tmp_path / "decks")
    return tmp_path


def _break_a_number(project: Path) -> None:
    path = project / "content" / "lessons" / "results.yaml"
    text = path.read_text()
    assert "back: 28.4 (newstest2014)." in text
    path.write_text(text.replace("back: 28.4 (newstest2014).", "back: 28.5 (newstest2014).", 1))


def test_check_warns_and_strict_fails_on_a_wrong_number(capsys, project):
    _break_a_number(project)
    code, out, err = run(capsys, "--project", str(project), "check")
    assert code == 0
    assert re.search(
        r"^grounding: \d+ numbers \(cited \d+, cell \d+, declared \d+, derived \d+, "
        r"trivial \d+\)",
        out,
        re.M,
    )
    wrong = re.search(
        r"^content/lessons/results.yaml:(\d+): flashcards\[\d+\]\.back: warning: flashcard "
        r"'res-fc-ende-big': 28.5 is not in S6.T2 \(nor declared, nor derived\)$",
        err,
        re.M,
    )
    assert wrong, err
    line = int(wrong.group(1))
    assert "28.5" in (project / "content/lessons/results.yaml").read_text().splitlines()[line - 1]
    code, out, err = run(capsys, "--project", str(project), "check", "--strict")
    assert code == 2
    assert "flashcard 'res-fc-ende-big': 28.5 is not in S6.T2" in err
    assert "warning: flashcard 'res-fc-ende-big'" not in err


def test_without_an_index_check_is_as_before(capsys, project):
    _break_a_number(project)
    (project / "content" / "source-index.json").unlink()
    code, out, err = run(capsys, "--project", str(project), "check", "--strict")
    assert code == 0, err
    assert "grounding" not in out and "28.5" not in err


def _edit(project: Path, lesson: str, old: str, new: str) -> None:
    path = project / "content" / "lessons" / f"{lesson}.yaml"
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_declarations_are_checked(capsys, project):
    # A table value swapped for another value of the same table: membership would let it pass.
    _edit(project, "results", "back: 65 million.", "back: 60 million.")
    # Arithmetic that does not check, a cell named ambiguously, a label the paper lacks.
    _edit(project, "results", "derived: ['25.8 - 24.6 = 1.2']", "derived: ['25.8 - 24.6 = 1.3']")
    _edit(
        project,
        "results",
        "cells: ['(D) P_drop=0.0 / P_drop', '(D) P_drop=0.0 / BLEU', 'base / BLEU']",
        "cells: ['(D) / P_drop', '(D) P_drop=0.0 / BLEU', 'base / BLEU']",
    )
    _edit(project, "training", "also: [S6.3]", "also: [S9]")
    # Without the words its figure shows, a quote of the figure is not found.
    paper = project / "content" / "paper.yaml"
    paper.write_text(paper.read_text().split("\nfigure_text:")[0] + "\n")
    code, out, err = run(capsys, "--project", str(project), "check")
    assert code == 0
    assert "flashcard 'res-fc-base-params': 60 is not in S6.T3" in err
    assert re.search(
        r"results.yaml:\d+: flashcards\[\d+\]\.derived\[0\]: warning: flashcard "
        r"'res-fc-no-dropout': '25.8 - 24.6 = 1.3' does not check",
        err,
    ), err
    assert re.search(
        r"results.yaml:\d+: flashcards\[\d+\]\.cells\[0\]: warning: flashcard "
        r"'res-fc-no-dropout': cell '\(D\) / P_drop': 2 cells of S6.T3",
        err,
    ), err
    assert "question 'tr-q-vocab': the source index has no S9" in err
    assert 'the quote "The Law will never be perfect' in err


def test_quotes_may_name_their_section():
    from generator.grounding.check import _quotes

    assert _quotes('as it says ("improves accuracy and BLEU score", Section 5.4)') == [
        ("improves accuracy and BLEU score", "S5.4")
    ]
    assert _quotes('"the heads clearly learned" (Figure 5) and "so" (2017)') == [
        ("the heads clearly learned", "Figure 5"),
        ("so", ""),
    ]


def test_a_row_is_pinned_by_a_column_value():
    from generator.grounding.check import _cell_named

    index = load_index(ROOT)
    _, cells, problem = _cell_named("(A) h=16 / BLEU", ("S6.T3",), index)
    assert not problem and [c.numbers for c in cells] == [("25.8",)]
    _, cells, problem = _cell_named("(A) / BLEU", ("S6.T3",), index)
    assert problem == (
        "cell '(A) / BLEU': 4 cells of S6.T3 with a number in a row holding a and a column holding bleu"
    )


def test_suggest_names_the_cell_that_holds_a_number(project):
    from generator.grounding.suggest import suggestions

    _edit(project, "results", "    cells: ['base / params']\n", "")
    lines = suggestions(project)
    assert len(lines) == 1, lines
    assert re.match(
        r"content/lessons/results.yaml:\d+: flashcards\[\d+\]\.back: "
        r"flashcard 'res-fc-base-params': 65: cells: S6.T3 base / params$",
        lines[0],
    ), lines
