"""The responses CSV: forgiving where a person would be, strict (``file:line: column:
message``, exit 2, every mistake at once) where a guess would grade wrongly."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest

from generator.cli import main
from generator.grading.key import read_key
from generator.grading.responses import numbers, parse_answer, read_responses

from .classroom import flat, write_key

# Form A of the 3-form key that write_key makes (seed 11): 1-8 concepts (3, 7 and 8
# multiple choice), 9-11 short answers, 12 numeric (3), 13 softmax (a vector of 3),
# 14 sdpa (a 1×2 matrix), 15 dot-variance (one number).


@pytest.fixture(scope="module")
def key_path(tmp_path_factory) -> Path:
    return write_key(tmp_path_factory.mktemp("key") / "quiz-attention-key.json")


@pytest.fixture(scope="module")
def key_json(key_path: Path) -> dict:
    return json.loads(key_path.read_text(encoding="utf-8"))


def _csv(
    tmp_path: Path,
    rows: list[list[str]],
    header: list[str] | None = None,
    delimiter: str = ",",
    name: str = "answers.csv",
) -> Path:
    path = tmp_path / name
    with open(path, "w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out, delimiter=delimiter)
        writer.writerow(header or ["student", "form", *map(str, range(1, 16))])
        writer.writerows(rows)
    return path


def _grade(key_path: Path, responses: Path, capsys, *more: str) -> tuple[int, list[str]]:
    (responses.parent / "out").mkdir(exist_ok=True)  # outside the current folder: the user's to create
    code = main(["-q", "grade", str(key_path), str(responses), "-o", str(responses.parent / "out"), *more])
    return code, capsys.readouterr().err.splitlines()


# -- forgiving ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("0,67", (0.67,)),
        (" 0.67 ", (0.67,)),
        ("\u22120.5", (-0.5,)),
        ("\u2013 2", None),
        ("1 2;3", (1.0, 2.0, 3.0)),
        ("1; 2 ;3", (1.0, 2.0, 3.0)),
        ("[0.5, 0.25]", (0.5, 0.25)),
        ("(0,5; \u22120,25)", (0.5, -0.25)),
        ("1e-4", (1e-4,)),
        ("2.5E3", (2500.0,)),
        ("1 _ 3", (1.0, None, 3.0)),
        ("abc", None),
        ("nan", None),
        ("inf", None),
        ("1_000", None),
        ("", None),
        ("0.5.1", None),
        ("2/3", (2 / 3,)),
        ("6.988 \u00d7 10^-4", (6.988e-4,)),
        ("\u20140.5", (-0.5,)),
        ("1,2", (1.0, 2.0)),
    ],
)
def test_numbers_are_read_as_a_person_writes_them(text: str, expected) -> None:
    """The cards' reader (answers.read; its cases: tests/answer_cases.json), with _ for a part left out."""
    count = len(expected) if expected else 1
    assert numbers(text, count) == expected


def test_letters_in_any_case_with_brackets_and_true_false_words(key_path: Path) -> None:
    key = read_key(key_path)
    mc = key.forms["A"].questions[3]
    tf = key.forms["A"].questions[1]
    for text in ("b", " B ", "(b)", "B)", "b."):
        assert parse_answer(mc, text) == ("B", "")
    for text, letter in (("T", "A"), ("true", "A"), (" f ", "B"), ("False", "B"), ("a", "A")):
        assert parse_answer(tf, text) == (letter, "")


def test_semicolon_file_with_decimal_commas_a_bom_and_extra_columns(
    key_json, key_path: Path, tmp_path: Path, capsys
) -> None:
    form = key_json["form_keys"][1]  # B: 9 is 0.5065, 11 is 1.732
    header = ["Timestamp", "Student", "FORM", *(f"Q{n}" for n in range(1, 16))]
    cells = ["", "", "", "", "", "", "", "", "0,5065", "", "1,732", "320", "", "", ""]
    path = _csv(tmp_path, [["2026-11-30", " Ada  Lovelace ", "form b", *cells]], header, delimiter=";")
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    notes: list[str] = []
    responses = read_responses(path, read_key(key_path), notes.append)
    assert notes == [f"{path}: skipped columns that are not question numbers: Timestamp"]
    (response,) = responses
    assert (response.student, response.form) == ("Ada Lovelace", "B")
    assert response.answers[9] == (0.5065,) and response.answers[11] == (1.732,)
    assert form["label"] == "B"


def test_a_row_may_stop_early_and_name_its_form_by_code(key_json, key_path: Path, tmp_path: Path) -> None:
    code = key_json["form_keys"][2]["code"]
    path = _csv(tmp_path, [["Ada", code.lower(), "A"], [], ["Bo", "C"]])
    responses = read_responses(path, read_key(key_path))
    assert [(r.student, r.form) for r in responses] == [("Ada", "C"), ("Bo", "C")]
    assert responses[0].answers[1] == "A" and responses[0].answers[2] is None


def test_short_answers_take_points_or_stay_ungraded(key_json, key_path: Path, tmp_path: Path, capsys) -> None:
    problems = {
        q["number"]: flat(q["answer"][q["primary"]])
        for q in key_json["form_keys"][0]["questions"]
        if q["kind"] == "problem"
    }
    cells = [
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "",
        "1,5",
        "",
        "2",
        "3",
        *(" ".join(map(repr, problems[n])) for n in (13, 14, 15)),
    ]
    path = _csv(tmp_path, [["Ada", "A", *cells]])
    assert _grade(key_path, path, capsys)[0] == 0
    (row,) = csv.DictReader(open(tmp_path / "out" / "scores.csv", encoding="utf-8"))
    assert (row["9"], row["10"], row["11"], row["12"]) == ("1.5", "", "2", "2")
    assert (row["score"], row["max"]) == ("17.5", "26")  # question 10 (2 points) ungraded


# -- strict ------------------------------------------------------------------------


def test_unknown_form(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _csv(tmp_path, [["Ada", "A"], ["Bo", "ZZ"], ["Cy", ""]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:3: column form: unknown form 'ZZ'; the key has forms A to C",
            f"paperdeck: {path}:4: column form: no form given",
        ],
    )
    assert not (tmp_path / "out" / "scores.csv").exists()


def test_question_the_form_does_not_have(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _csv(
        tmp_path,
        [["Ada", "A", *[""] * 15, "C"], ["Bo", "B", *[""] * 15, ""]],
        ["student", "form", *map(str, range(1, 17))],
    )
    assert _grade(key_path, path, capsys) == (
        2,
        [f"paperdeck: {path}:2: column 16: form A has no question 16 (its questions are 1 to 15)"],
    )


def test_not_a_number_for_a_numeric_question(key_path: Path, tmp_path: Path, capsys) -> None:
    cells = [""] * 11 + ["three", "0.1 abc 0.3", "", "12.5 ms"]
    path = _csv(tmp_path, [["Ada", "A", *cells]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:2: column 12: 'three' is not a number; question 12 wants one number",
            f"paperdeck: {path}:2: column 13: '0.1 abc 0.3' is not a number; question 13 wants 3 numbers",
            f"paperdeck: {path}:2: column 15: '12.5 ms' is not a number; question 15 wants one number",
        ],
    )


def test_a_vector_of_the_wrong_length(key_path: Path, tmp_path: Path, capsys) -> None:
    cells = [""] * 13 + ["0.5 0.5 0.5", ""]
    path = _csv(tmp_path, [["Ada", "A", *cells]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:2: column 14: 3 numbers given; question 14 wants 2 numbers (a 1 × 2 row)"
            " (write _ for a part left out, ? for one not read)"
        ],
    )


def test_a_letter_the_question_does_not_print(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _csv(tmp_path, [["Ada", "A", "C", "", "E"]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:2: column 1: 'C' is not one of the letters printed for question 1: "
            "A to B (or T/F)",
            f"paperdeck: {path}:2: column 3: 'E' is not one of the letters printed for question 3: A to D",
        ],
    )


def test_short_answer_points_out_of_range_or_text(key_path: Path, tmp_path: Path, capsys) -> None:
    cells = [""] * 8 + ["3", "Because of the softmax", "-1"]
    path = _csv(tmp_path, [["Ada", "A", *cells]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:2: column 9: 3 points is outside 0 to 2, the points of question 9",
            f"paperdeck: {path}:2: column 10: question 10 is a short answer: write the points you gave it "
            "(0 to 2), or leave it empty to leave it ungraded",
            f"paperdeck: {path}:2: column 11: -1 points is outside 0 to 2, the points of question 11",
        ],
    )


def test_students_named_twice_or_not_at_all(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _csv(tmp_path, [["Ada", "A"], ["", "B"], ["ada ", "C"]])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:3: column student: no student name",
            f"paperdeck: {path}:4: column student: 'ada' already has answers on line 2; "
            "give every student one row and a distinct name",
        ],
    )


def test_header_without_student_or_form(key_path: Path, tmp_path: Path, capsys) -> None:
    path = _csv(tmp_path, [["Ada", "A"]], ["name", "1"])
    assert _grade(key_path, path, capsys) == (
        2,
        [
            f"paperdeck: {path}:1: no 'student' column; the first line names the columns: student, form, 1, 2, …",
            f"paperdeck: {path}:1: no 'form' column; the first line names the columns: student, form, 1, 2, …",
        ],
    )


def test_not_a_key(tmp_path: Path, capsys) -> None:
    responses = _csv(tmp_path, [["Ada", "A"]])
    bad = tmp_path / "key.json"
    bad.write_text("{not json")
    code, err = _grade(bad, responses, capsys)
    assert code == 2 and err[0].startswith(f"paperdeck: {bad}: not a quiz key JSON (")
    bad.write_text(json.dumps({"format": 9, "form_keys": []}))
    assert _grade(bad, responses, capsys) == (
        2,
        [f"paperdeck: {bad}: format: key format 9 is not 1, the one this paperdeck reads"],
    )
    assert _grade(tmp_path / "missing.json", responses, capsys) == (
        2,
        [f"paperdeck: {tmp_path / 'missing.json'}: no such file"],
    )


# -- the command -----------------------------------------------------------------


def test_default_folder_survives_the_next_quiz_run(tmp_path: Path, capsys) -> None:
    quiz_folder = tmp_path / "quiz-attention"
    quiz_folder.mkdir()
    printing = ["-q", "quiz", "quiz-attention", "--versions", "2", "--out", str(quiz_folder), "--seed"]
    assert main([*printing, "3"]) == 0
    key = quiz_folder / "quiz-attention-key.json"
    responses = _csv(tmp_path, [["Ada", "A", "a"], ["Bo", "b"]])
    assert main(["-q", "grade", str(key), str(responses), "--remedial", "--seed", "4"]) == 0
    graded = quiz_folder / "graded"
    assert sorted(p.name for p in graded.iterdir()) == [
        "feedback",
        "mistakes.csv",
        "remedial",
        "report.pdf",
        "scores.csv",
    ]
    assert sorted(p.name for p in (graded / "remedial").iterdir()) == ["ada.apkg", "bo.apkg"]
    assert sorted(p.name for p in (graded / "feedback").iterdir()) == ["ada.pdf", "bo.pdf"]
    assert main([*printing, "5"]) == 2  # an issued quiz is replaced only when asked
    assert main([*printing, "5", "--replace"]) == 0
    assert (graded / "scores.csv").is_file()
    assert len(list(quiz_folder.glob("quiz-attention-key.replaced-*.json"))) == 1
    # Grading again without --remedial leaves no stale decks behind.
    assert main(["-q", "grade", str(key), str(responses)]) == 0
    assert not (graded / "remedial").exists()


def test_a_roster_form_is_found_by_the_students_name(key_path: Path, tmp_path: Path) -> None:
    data = json.loads(key_path.read_text(encoding="utf-8"))
    for form, name in zip(data["form_keys"], ["Ada Lovelace", "Bo", "Cy"], strict=True):
        form["student"] = {"name": name, "id": ""}
    roster_key = tmp_path / "roster-key.json"
    roster_key.write_text(json.dumps(data), encoding="utf-8")
    path = _csv(tmp_path, [["ada lovelace", ""], ["Cy", " "]])
    assert [(r.student, r.form) for r in read_responses(path, read_key(roster_key))] == [
        ("ada lovelace", "A"),
        ("Cy", "C"),
    ]


def test_help_lists_grade(capsys) -> None:
    assert main(["--help"]) == 0
    assert "grade" in capsys.readouterr().out
