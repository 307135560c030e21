"""Students' names without a roster (``generator/grading/names.py``): invisible characters
and Unicode forms make no second student, look-alike letters are warned about (the teacher
decides), and a name's direction stays its own where it is printed."""

from __future__ import annotations

from pathlib import Path

import pytest

from generator.cli import main
from generator.errors import InputError
from generator.exporters.graded import report_source
from generator.grading import grade_quiz
from generator.grading.key import read_key
from generator.grading.names import clean, lookalikes
from generator.grading.responses import read_responses
from generator.project import open_project

from .classroom import ROOT, write_key


@pytest.fixture(scope="module")
def key_path(tmp_path_factory) -> Path:
    return write_key(tmp_path_factory.mktemp("key") / "quiz-attention-key.json")


def _responses(tmp_path: Path, names: list[str]) -> Path:
    path = tmp_path / "answers.csv"
    path.write_text("student,form,1\n" + "".join(f"{name},A,a\n" for name in names), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("written", "kept"),
    [
        ("Jose\u0301 Díaz", "José Díaz"),  # NFD to NFC
        # zero-width space, soft hyphen, word joiner, byte-order mark
        ("A\u200bda\u00ad Love\u2060lace\ufeff", "Ada Lovelace"),
        ("\u202eAda\u202c (% 001)", "Ada (% 001)"),  # a right-to-left override would reverse the line
        (
            "\u2067\u0645\u062d\u0645\u062f\u2069",
            "\u0645\u062d\u0645\u062f",
        ),  # an isolate around an Arabic name
        ("Ada\u200d", "Ada"),  # a joiner after a Latin letter joins nothing
        (
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
            "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        ),
        ("  Ada \u00a0 Lovelace ", "Ada Lovelace"),
    ],
)
def test_a_name_is_kept_without_what_no_one_sees(written: str, kept: str) -> None:
    assert clean(written) == kept


@pytest.mark.parametrize("second", ["Jose\u0301", "Jo\u200bsé", "JOSÉ", "Jos\u00ade\u0301"])
def test_names_that_differ_only_invisibly_are_one_student_named_twice(
    key_path: Path, tmp_path: Path, second: str
) -> None:
    path = _responses(tmp_path, ["José", second])
    with pytest.raises(InputError) as caught:
        read_responses(path, read_key(key_path))
    assert str(caught.value).startswith(f"{path}:3: column student: ")
    assert "already has answers on line 2" in str(caught.value)


def test_look_alike_names_are_warned_about_and_graded_apart(key_path: Path, tmp_path: Path) -> None:
    names = ["Ada", "\u0410da", "\uff21da", "Ada\u200b", "Bo", "\u0392\u03bf", "Cy"]
    unique = ["Ada", "\u0410da", "\uff21da", "Bo", "\u0392\u03bf", "Cy"]
    path = _responses(tmp_path, [n for n in names if n != "Ada\u200b"])
    said: list[str] = []
    grading = grade_quiz(key_path, path, open_project(ROOT).content, note=said.append)
    assert [r.student for r in grading.results] == unique
    assert [(f.line, f.message) for f in grading.names] == [
        (
            3,
            "'Аda' looks like 'Ada' on line 2 (look-alike letters: А Cyrillic Capital Letter A U+0410); "
            "graded as two students: if they are one, give them one row",
        ),
        (
            4,
            "'Ａda' looks like 'Ada' on line 2 (look-alike letters: Ａ Fullwidth Latin Capital Letter A "
            "U+FF21); graded as two students: if they are one, give them one row",
        ),
        (
            6,
            "'Βο' looks like 'Bo' on line 5 (look-alike letters: Β Greek Capital Letter Beta U+0392; ο Greek "
            "Small Letter Omicron U+03BF); graded as two students: if they are one, give them one row",
        ),
    ]
    assert said[-3:] == [f"names: {finding}" for finding in grading.names]
    source = report_source(grading)
    assert "#section-title([Names]" in source and "Cyrillic Capital Letter A" in source


def test_a_names_direction_is_isolated_in_the_report(key_path: Path, tmp_path: Path) -> None:
    """A right-to-left override read "(% 001) 6 fo 6": the override is gone, and every name
    is set in a box of its own, which Typst lays out apart from the line around it."""
    arabic = "\u0645\u062d\u0645\u062f 001"
    path = _responses(tmp_path, ["\u202eAda\u202c", arabic])
    grading = grade_quiz(key_path, path, open_project(ROOT).content)
    source = report_source(grading)
    assert "\u202e" not in source and "\u202c" not in source
    assert "#box[Ada] · Form A · " in source
    assert f"#box[{arabic}] · Form A · " in source
    assert lookalikes([(2, "Ada"), (3, "Ada")], "x.csv") == ()


def test_the_command_says_the_warning_in_one_line(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _responses(tmp_path, ["Ada", "\u0410da"])
    (tmp_path / "out").mkdir()
    assert main(["grade", str(key_path), str(path), "-o", str(tmp_path / "out")]) == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if "looks like" in line] == [
        f"names: {path}:3: column student: 'Аda' looks like 'Ada' on line 2 (look-alike letters: А Cyrillic "
        "Capital Letter A U+0410); graded as two students: if they are one, give them one row"
    ]
