"""Quizzes for a class: forms that give nothing away, any number of them, a roster,
one set of files per quiz, the key JSON, and the stress test over every shipped recipe."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from generator import problems
from generator.cli import main
from generator.documents import quiz
from generator.documents.secret import ENVIRONMENT, FILE_NAME, load_secret
from generator.exporters import ExportOptions, quiz_forms

from ..pdf_text import pages_text
from .conftest import recipe

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py

SHIPPED_QUIZZES = sorted(p.stem for p in Path(__file__).parents[2].joinpath("decks").glob("quiz-*.yaml"))


# Easy softmax and dot-variance problems are so few that any number at all may land
# on the same givens (which the form prints anyway); sdpa's are not.
SMALL_SPACES = {"softmax", "dot-variance"}


def _run(*args: str) -> int:
    return main(list(args))


@pytest.fixture(scope="module")
def class_quiz(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("class") / "quiz-attention"
    out.mkdir()  # a folder outside the current one is the user's to create
    assert _run("-q", "quiz", "quiz-attention", "--versions", "3", "--seed", "9", "--out", str(out)) == 0
    return out


def test_no_number_or_code_on_a_form_regenerates_its_answers(class_quiz: Path) -> None:
    key = json.loads((class_quiz / "quiz-attention-key.json").read_text())
    for form in key["form_keys"]:
        text = "\n".join(pages_text(class_quiz / form["pdf"]))
        assert "seed" not in text.lower()
        printed = {int(n) for n in re.findall(r"\d+", text)}
        printed |= {int(part, 36) for part in re.findall(r"[A-Z0-9]{4}", form["code"])}
        assert str(form["seed"]) not in text
        for question in form["questions"]:
            if question["kind"] != "problem":
                continue
            assert str(question["problem_seed"]) not in text and question["problem_seed"] not in printed
            if question["problem_type"] in SMALL_SPACES:
                continue
            for number in printed:  # what `paperdeck problems TYPE --problem-seed N` would print
                again = problems.generate_one(question["problem_type"], number, question["difficulty"])
                assert again.answer != question["answer"], (form["label"], number)


def test_key_json_lists_every_answer(class_quiz: Path) -> None:
    key = json.loads((class_quiz / "quiz-attention-key.json").read_text())
    assert key["forms"] == 3 and [f["label"] for f in key["form_keys"]] == ["A", "B", "C"]
    for form in key["form_keys"]:
        assert (class_quiz / form["pdf"]).is_file() and form["key_pdf"] is None  # the booklet by default
        assert [q["number"] for q in form["questions"]] == list(range(1, len(form["questions"]) + 1))
        for question in form["questions"]:
            assert question["points"] > 0 and "answer" in question
            if question["kind"] == "multiple_choice":
                right = [o["letter"] for o in question["options"] if o["correct"]]
                assert right == [question["answer"]]
                assert {m["letter"] for m in question["mistakes"]} == (
                    {o["letter"] for o in question["options"]} - set(right)
                )
            if question["kind"] == "problem":
                again = problems.generate_one(
                    question["problem_type"], question["problem_seed"], question["difficulty"]
                )
                assert again.answer == question["answer"]
                assert question["tolerance"] and question["mistakes"]
                assert all("value" in m for m in question["mistakes"])


def test_the_secret_is_made_once_and_kept(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(ENVIRONMENT)
    said: list[str] = []
    first = load_secret(tmp_path, said.append)
    assert (tmp_path / FILE_NAME).stat().st_mode & 0o777 == 0o600 and said
    assert load_secret(tmp_path, said.append) == first and len(said) == 1
    assert ".paperdeck-secret" in Path(__file__).parents[2].joinpath(".gitignore").read_text()


def test_form_seeds_depend_on_the_secret(content) -> None:
    one = quiz.build_quiz(content, recipe(), seed=1, versions=2, secret=b"one")
    two = quiz.build_quiz(content, recipe(), seed=1, versions=2, secret=b"two")
    assert {f.seed for f in one.forms}.isdisjoint(f.seed for f in two.forms)
    assert one.form(1) == quiz.build_quiz(content, recipe(), seed=1, versions=9, secret=b"one").form(1)


def test_a_shared_folder_keeps_what_is_not_the_quiz(content, tmp_path: Path) -> None:
    small = recipe(sections=recipe().sections[:1])
    (tmp_path / "lessons").mkdir()
    (tmp_path / "aiayn.apkg").write_bytes(b"a deck")
    quiz_forms.export(quiz.build_quiz(content, small, seed=3, versions=3), tmp_path, ExportOptions())
    quiz_forms.export(quiz.build_quiz(content, small, seed=3, versions=1), tmp_path, ExportOptions())
    replaced = [p.name for p in tmp_path.glob("quiz-test-key.replaced-*.json")]
    assert replaced == []  # the 3-form key was made by a build, not issued: not kept (files/issued.py)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            "aiayn.apkg",
            "lessons",
            "quiz-test-form-A-sheet.pdf",
            "quiz-test-form-A.pdf",
            "quiz-test-key.json",
            "quiz-test-key.pdf",
            "quiz-test-print.pdf",
            *replaced,
        ]
    )


def test_forms_past_z_and_stale_forms_removed(content, tmp_path: Path) -> None:
    small = recipe(sections=recipe().sections[:1])
    folder = tmp_path / "quiz-test"
    folder.mkdir()
    (folder / "notes.txt").write_text("the teacher's own file")
    written = quiz_forms.export(
        quiz.build_quiz(content, small, seed=3, versions=28), folder, ExportOptions(worked_keys=True)
    )
    names = {p.name for p in written}
    assert {"quiz-test-form-Z.pdf", "quiz-test-form-AA.pdf", "quiz-test-form-AB-key.pdf"} <= names
    quiz_forms.export(quiz.build_quiz(content, small, seed=3, versions=2), folder, ExportOptions())
    replaced = [p.name for p in folder.glob("quiz-test-key.replaced-*.json")]
    assert replaced == []  # the 28-form key was made by a build, not issued: not kept
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        [
            "notes.txt",
            "quiz-test-form-A-sheet.pdf",
            "quiz-test-form-A.pdf",
            "quiz-test-form-B-sheet.pdf",
            "quiz-test-form-B.pdf",
            "quiz-test-key.json",
            "quiz-test-key.pdf",
            "quiz-test-print.pdf",
            *replaced,
        ]
    )
    assert not list(tmp_path.glob(".*"))  # no staging folder left beside


def test_roster_prints_a_named_form_per_student_and_an_index(tmp_path: Path) -> None:
    roster = tmp_path / "class.csv"
    roster.write_text("name,id\nAda Lovelace,s1\nAlan Turing,s2\n\nGrace Hopper,s3\n")
    out = tmp_path / "out"
    out.mkdir()
    code = _run("-q", "quiz", "quiz-attention", "--roster", str(roster), "--seed", "4", "--out", str(out))
    assert code == 0
    index = (out / "quiz-attention-index.csv").read_text().splitlines()
    assert index[0] == "name,id,form,code,seed,pdf" and len(index) == 4
    key = json.loads((out / "quiz-attention-key.json").read_text())
    for row, form in zip(index[1:], key["form_keys"], strict=True):
        name, student_id, label, code, seed, pdf = row.split(",")
        assert (label, code, int(seed), pdf) == (form["label"], form["code"], form["seed"], form["pdf"])
        assert form["student"] == {"name": name, "id": student_id}
        assert all(name in page for page in pages_text(out / pdf))


def test_check_rejects_a_calculator_question_in_a_quiz_without_one(tmp_path: Path, capsys) -> None:
    from tests.content.test_broken_corpus import VALID, make_project

    lesson = (
        (VALID / "lesson.yaml")
        .read_text()
        .replace("    prompt: How many?\n", "    prompt: How many?\n    calculator: true\n")
    )
    recipe_text = (
        "kind: quiz\ntitle: Q\ncalculator: false\nsections:\n  - title: S\n"
        "    questions: {lessons: [broken]}\n"
    )
    root = make_project(tmp_path, lesson=lesson, recipe=recipe_text)
    assert _run("--project", str(root), "check") == 2
    assert (
        "decks/broken.yaml:6: sections[0].questions: can draw 'q-num', which needs a calculator"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("name", SHIPPED_QUIZZES)
def test_stress_every_shipped_quiz(name: str, capsys) -> None:
    assert _run("stress", name, "--forms", "40", "--seed", "12") == 0
    out = capsys.readouterr().out
    assert f"{name}: 40 forms" in out and "chi-square" in out and "VIOLATION" not in out


def test_stress_fails_on_an_unanswerable_question(monkeypatch, capsys) -> None:
    monkeypatch.setattr(quiz, "need_values", lambda needs: ())
    assert _run("stress", "quiz-attention", "--forms", "60", "--seed", "1") != 0
    assert "VIOLATION answerable" in capsys.readouterr().out


def test_paper_size_from_the_option_the_recipe_or_the_project(tmp_path: Path) -> None:
    import shutil

    import pypdf

    root = Path(__file__).parents[2]
    shutil.copytree(root / "content", tmp_path / "content")
    shutil.copytree(root / "decks", tmp_path / "decks")
    paper_yaml = tmp_path / "content" / "paper.yaml"
    paper_yaml.write_text(paper_yaml.read_text() + "paper: letter\n")

    def height(*options: str) -> int:
        out = tmp_path / "out"
        out.mkdir(exist_ok=True)
        assert (
            _run(
                "-q",
                "--project",
                str(tmp_path),
                "quiz",
                "quiz-training",
                "--versions",
                "1",
                "--seed",
                "1",
                "--out",
                str(out),
                "--replace",
                *options,
            )
            == 0
        )
        return round(float(pypdf.PdfReader(out / "quiz-training-form-A.pdf").pages[0].mediabox.height))

    assert height() == 792  # the project's letter
    recipe_yaml = tmp_path / "decks" / "quiz-training.yaml"
    recipe_yaml.write_text(recipe_yaml.read_text() + "paper: a4\n")
    assert height() == 842  # the recipe's a4
    assert height("--paper", "letter") == 792  # the option wins


def test_a_build_checks_every_recipe_before_it_writes_anything(tmp_path: Path, capsys) -> None:
    import shutil

    root = Path(__file__).parents[2]
    shutil.copytree(root / "content", tmp_path / "content")
    shutil.copytree(root / "decks", tmp_path / "decks")
    last = tmp_path / "decks" / "quiz-training.yaml"  # built last: the deck and guide come first
    last.write_text(last.read_text().replace("      count: 8\n", "      count: 80\n", 1))
    out = tmp_path / "out"
    assert _run("--project", str(tmp_path), "build", "--out", str(out), "--seed", "1") == 2
    assert "decks/quiz-training.yaml:" in capsys.readouterr().err
    assert not out.exists()


def test_leftovers_of_a_killed_run_are_cleared(content, tmp_path: Path) -> None:
    (tmp_path / ".quiz-test.new-999999").mkdir()
    (tmp_path / ".quiz-test.new-999999" / "quiz-test-form-A.pdf").write_bytes(b"half")
    small = recipe(sections=recipe().sections[:1])
    quiz_forms.export(
        quiz.build_quiz(content, small, seed=3, versions=1), tmp_path / "quiz-test", ExportOptions()
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["quiz-test"]
