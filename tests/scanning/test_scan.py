"""``paperdeck scan`` on the stacks a teacher brings: other quizzes, sheets scanned twice,
missing pages, blank backs, upside-down phone photos, 600 dpi colour scans, PDFs and TIFFs;
and the command line (files written, errors in one line)."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from generator.cli import main
from generator.scanning.outputs import responses_csv, review_html
from generator.scanning.pages import Page
from generator.scanning.scan import read_scan_key, scan_pages

from ..pdf_text import pdf_text
from . import synthetic

pytestmark = pytest.mark.long  # handed out to a worker early: tests/conftest.py


def filled(
    printed,
    index: int = 0,
    seed: int = 1,
    dpi: float = 150,
    phone: bool = False,
    upside_down: bool = False,
    mess_rate: float = 0.0,
):
    """One student's sheet of form ``index``: the truth and the scanned pages."""
    rng = np.random.default_rng(seed)
    form = printed.forms[index]
    student_id = None if form.get("student") else f"{4200 + seed}"
    images, truths = synthetic.fill_sheet(
        printed.pages(form, dpi), form, printed.radius, dpi, rng, student_id, mess_rate
    )
    return truths, [synthetic.distort(image, rng, phone, upside_down) for image in images]


def rows(scanned) -> list[dict[str, str]]:
    return synthetic.responses_rows(responses_csv(scanned))


def test_upside_down_phone_photo_reads_every_answer(printed) -> None:
    attention = printed("attention")
    truths, scans = filled(attention, phone=True, upside_down=True)
    scanned = scan_pages(read_scan_key(attention.key), [Page("photo.jpg", 1, scans[0])])
    (row,) = rows(scanned)
    assert scanned.flags == []
    assert row["student"] == "4201"
    assert {n: row[str(n)] for n in truths} == {n: t.cell for n, t in truths.items()}


def test_a_600_dpi_colour_scan_reads(printed, tmp_path: Path) -> None:
    attention = printed("attention")
    rng = np.random.default_rng(2)
    form = attention.forms[1]
    images, truths = synthetic.fill_sheet(
        attention.pages(form, 600), form, attention.radius, 600, rng, "4202"
    )
    grey = cv2.convertScaleAbs(
        cv2.warpAffine(
            images[0], cv2.getRotationMatrix2D((0, 0), 1.5, 1.0), images[0].shape[::-1], borderValue=1.0
        ),
        alpha=255,
    )
    colour = cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR)
    colour[:, :, 0] = np.clip(colour[:, :, 0].astype(int) + 25, 0, 255)  # a yellowish paper
    path = tmp_path / "scan.png"
    cv2.imwrite(str(path), colour)
    from generator.scanning import scan

    scanned = scan(attention.key, [path])
    (row,) = rows(scanned)
    assert scanned.flags == []
    assert row["form"] == "B"
    assert {n: row[str(n)] for n in truths} == {n: t.cell for n, t in truths.items()}


def test_other_quiz_twice_scanned_blank_and_not_a_sheet_are_named(printed) -> None:
    attention, other = printed("attention"), printed("attention-other-seed")
    _, mine = filled(attention)
    _, theirs = filled(other)
    blank = np.full_like(mine[0], 250)
    noise = (np.random.default_rng(0).random(mine[0].shape) * 255).astype(np.uint8)
    pages = [
        Page("a.pdf", 1, mine[0]),
        Page("a.pdf", 2, blank),
        Page("a.pdf", 3, theirs[0]),
        Page("b.pdf", 1, mine[0]),
        Page("b.pdf", 2, noise),
    ]
    scanned = scan_pages(read_scan_key(attention.key), pages)
    messages = {flag.where: flag.message for flag in scanned.flags}
    assert len(rows(scanned)) == 1
    assert scanned.blank == ["a.pdf page 2"]
    assert "a sheet of another quiz" in messages["a.pdf page 3"]
    assert "scanned twice: also a.pdf page 1" in messages["b.pdf page 1"]
    assert "no answer-sheet code found" in messages["b.pdf page 2"]


def test_a_missing_page_of_a_two_page_sheet_is_named_and_its_answers_left_empty(printed) -> None:
    final = printed("final")
    assert final.forms[0]["sheet"]["pages"] == 2
    truths, scans = filled(final)
    second = {f["question"] for f in final.forms[0]["sheet"]["fields"] if f["page"] == 2 and "question" in f}
    scanned = scan_pages(read_scan_key(final.key), [Page("stack.pdf", 7, scans[0])])
    (row,) = rows(scanned)
    (flag,) = scanned.flags
    assert flag.where == "stack.pdf page 7"
    assert "is missing page 2 of 2" in flag.message
    assert all(set(row[str(n)].split("; ")) == {"?"} for n in second)  # not read, not blank
    assert all(row[str(n)] == t.cell for n, t in truths.items() if n not in second)


def test_roster_sheets_join_their_pages_in_any_order_and_name_the_student(printed) -> None:
    roster = printed("roster")
    truths, scans = filled(roster, index=1)
    scanned = scan_pages(read_scan_key(roster.key), [Page("s.tif", 1, scans[0])])
    (row,) = rows(scanned)
    assert row["student"] == "=SUM(A1)"
    assert "\r\n'=SUM(A1),B," in responses_csv(scanned).decode("utf-8")  # a spreadsheet shows it as text
    assert row["form"] == "B"
    assert not any(f["kind"] == "id" for f in roster.forms[1]["sheet"]["fields"])
    assert {n: row[str(n)] for n in truths} == {n: t.cell for n, t in truths.items()}


def test_a_scanned_name_that_looks_like_a_formula_is_graded_as_the_roster_s(printed, tmp_path: Path) -> None:
    """The responses CSV shows ``=SUM(A1)`` as text; ``grade --strict`` still finds it on the roster."""
    roster = printed("roster")
    pages = [
        Page(f"{index}-{n}.tif", 1, image)
        for index in range(2)
        for n, image in enumerate(filled(roster, index=index)[1])
    ]
    responses = tmp_path / "responses.csv"
    responses.write_bytes(responses_csv(scan_pages(read_scan_key(roster.key), pages)))
    (tmp_path / "graded").mkdir()
    assert main(["grade", str(roster.key), str(responses), "--strict", "-o", str(tmp_path / "graded")]) == 0
    scores = list(csv.DictReader(io.StringIO((tmp_path / "graded" / "scores.csv").read_text("utf-8"))))
    assert [row["student"] for row in scores] == ["Ada Lovelace", "'=SUM(A1)"]


def test_every_doubt_is_in_the_review_file_with_its_crop_and_cell(printed) -> None:
    attention = printed("attention")
    _, scans = filled(attention, seed=5, mess_rate=0.6)
    scanned = scan_pages(read_scan_key(attention.key), [Page("<b>.png", 1, scans[0])])
    data = responses_csv(scanned)
    page = review_html(scanned, "responses.csv").decode("utf-8")
    assert scanned.flags
    assert page.count("data:image/png;base64,") == len(scanned.flags)
    for flag in scanned.flags:
        assert f"line {flag.row}, column <code>{flag.column}</code>" in page
    assert "&lt;b&gt;.png" in page and "<b>.png" not in page
    header = data.decode().splitlines()[0].split(",")
    line = data.decode().splitlines()[scanned.flags[0].row - 1]
    cell = next(csv.reader([line]))[header.index(scanned.flags[0].column)]
    assert cell == "" or "?" in cell


def _pdf(images: list[np.ndarray], path: Path) -> Path:
    pages = [Image.fromarray(image) for image in images]
    pages[0].save(path, save_all=True, append_images=pages[1:], resolution=150)
    return path


def test_command_line_scans_pdf_and_tiff_then_grade_reads_them(printed, tmp_path: Path, capsys) -> None:
    attention = printed("attention")
    _, first = filled(attention, seed=7)
    _, second = filled(attention, index=1, seed=8, upside_down=True)
    noise = (np.random.default_rng(0).random(first[0].shape) * 255).astype(np.uint8)
    pdf = _pdf([first[0], np.full_like(first[0], 255), noise], tmp_path / "stack.pdf")
    tiff = tmp_path / "one.tif"
    Image.fromarray(second[0]).save(tiff)
    out = tmp_path / "answers.csv"
    assert main(["scan", str(attention.key), str(pdf), str(tiff), "-o", str(out)]) == 0
    assert "read 4 pages: 2 sheets" in capsys.readouterr().err
    assert out.read_text().startswith("student,form,1,2,")
    assert (tmp_path / "answers.review.html").read_text().startswith("<!DOCTYPE html>")
    for folder in ("graded", "graded2"):
        (tmp_path / folder).mkdir()  # a named folder outside the current one must exist
    assert main(["grade", str(attention.key), str(out), "-o", str(tmp_path / "graded")]) == 0
    assert (
        main(["grade", str(attention.key), "--scans", str(pdf), str(tiff), "-o", str(tmp_path / "graded2")])
        == 0
    )
    assert (attention.folder / "scanned" / "responses.csv").is_file()
    text = " ".join(pdf_text(tmp_path / "graded2" / "report.pdf").split())
    assert "Scanning" in text and "page 3: no answer-sheet code found" in text


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda p: p.write_text("{}"),
            "not a quiz key JSON (no form_keys); give the <quiz>-key.json that paperdeck quiz wrote",
        ),
        (
            lambda p: p.write_text('{"form_keys": []}'),
            "sheets: this key has no answer-sheet layout; "
            "print the quiz again with this paperdeck to get answer sheets",
        ),
    ],
)
def test_a_key_without_sheets_is_a_one_line_error(tmp_path: Path, capsys, make, message) -> None:
    key = tmp_path / "key.json"
    make(key)
    scan = tmp_path / "s.png"
    cv2.imwrite(str(scan), np.full((100, 100), 255, np.uint8))
    assert main(["scan", str(key), str(scan)]) == 2
    assert capsys.readouterr().err.strip().splitlines()[-1] == f"paperdeck: {key}: {message}"


def test_a_file_that_is_not_a_scan_is_a_one_line_error(printed, tmp_path: Path, capsys) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    broken = tmp_path / "broken.pdf"
    broken.write_bytes(b"%PDF-1.4 nonsense")
    key = printed("attention").key
    assert main(["scan", str(key), str(text)]) == 2
    assert capsys.readouterr().err.strip().endswith(f"{text}: not a scan: give PDF, PNG, JPEG or TIFF files")
    assert main(["scan", str(key), str(broken)]) == 2
    assert f"paperdeck: {broken}: cannot be read as a PDF" in capsys.readouterr().err


def test_a_sheet_of_a_print_laid_out_otherwise_is_refused_not_read(printed) -> None:
    """Two prints of one recipe with the same seed, one for a roster and one anonymous: their
    sheets are laid out differently, so their codes differ and each key refuses the other's
    sheets (read with the wrong layout, a filled B came back as C or A)."""
    roster, anonymous = printed("roster"), printed("attention")
    assert roster.data["seed"] == anonymous.data["seed"]
    assert roster.data["sheets"]["quiz_code"] != anonymous.data["sheets"]["quiz_code"]
    assert not {f["code"] for f in roster.forms} & {f["code"] for f in anonymous.forms}
    _, theirs = filled(roster)
    scanned = scan_pages(read_scan_key(anonymous.key), [Page("roster.pdf", 1, theirs[0])])
    assert scanned.sheets == []
    (flag,) = scanned.flags
    assert "a sheet of another quiz" in flag.message and "nothing read" in flag.message


def test_a_sheet_scanned_twice_is_found_by_its_form_and_answers_when_its_id_is_not_read(printed) -> None:
    """Found by the ID alone, a copy whose ID grid was not read (a shadow over it, nothing
    filled) stayed as a second row of the same answers."""
    attention = printed("attention")
    form = attention.forms[0]
    rng = np.random.default_rng(9)
    images, _ = synthetic.fill_sheet(attention.pages(form, 150), form, attention.radius, 150, rng, None)
    with_id = images[0].copy()
    pen = synthetic.Pen(with_id, 150, rng, attention.radius)
    (id_field,) = [f for f in form["sheet"]["fields"] if f["kind"] == "id"]
    for column, digit in zip(id_field["columns"], "4711", strict=False):
        pen.fill(column[int(digit)])
    scans = [
        synthetic.distort(image, rng, phone, False)
        for image, phone in [(images[0], False), (with_id, True), (images[0], True)]
    ]
    pages = [Page("stack.pdf", n, image) for n, image in enumerate(scans, 1)]
    scanned = scan_pages(read_scan_key(attention.key), pages)
    (row,) = rows(scanned)
    assert row["student"] == "4711"
    said = {flag.where: flag.message for flag in scanned.flags}
    assert (
        "the answers of the sheet at stack.pdf page 2 (student ID 4711): scanned twice?"
        in said["stack.pdf page 1"]
    )
    assert "scanned twice?" in said["stack.pdf page 3"]

    # Two different students who both left their ID blank are both kept.
    other, _ = synthetic.fill_sheet(
        attention.pages(form, 150), form, attention.radius, 150, np.random.default_rng(10), None
    )
    pages = [Page("a.png", 1, scans[0]), Page("b.png", 1, synthetic.distort(other[0], rng, False, False))]
    assert len(rows(scan_pages(read_scan_key(attention.key), pages))) == 2
