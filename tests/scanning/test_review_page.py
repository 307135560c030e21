"""The review page in Chromium: the teacher types what the student meant beside each crop,
saves the corrected responses from the page (a Blob download, offline), and ``grade`` reads
the saved file; what was typed is marked in its ``typed`` column. Untrusted text (a file
name, a student's name) stays text, and no request leaves the page.
"""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from generator.cli import main
from generator.files.csv_files import csv_bytes, read_back
from generator.scanning.outputs import write
from generator.scanning.pages import Page
from generator.scanning.scan import read_scan_key, scan_pages

from . import synthetic

pytestmark = pytest.mark.long


@pytest.fixture(scope="module")
def browser(chromium_browser: Any) -> Any:
    return chromium_browser


def messy_sheets(printed, count: int = 3):
    """Sheets of the attention quiz, most fields messy, one without its ID: truths and pages."""
    sheets = []
    for seed in range(count):
        form = printed.forms[seed % len(printed.forms)]
        rng = np.random.default_rng(40 + seed)
        student_id = None if seed == 0 else f"{5100 + seed}"
        images, truths = synthetic.fill_sheet(
            printed.pages(form, 150), form, printed.radius, 150, rng, student_id, 0.5
        )
        sheets.append((truths, [synthetic.distort(image, rng, False, False) for image in images]))
    return sheets


def read_csv(data: bytes) -> list[list[str]]:
    return [[read_back(cell) for cell in row] for row in csv.reader(io.StringIO(data.decode("utf-8")))]


def test_the_teacher_types_beside_each_crop_saves_and_grade_reads_the_file(
    printed, browser, tmp_path: Path, capsys
) -> None:
    attention = printed("attention")
    sheets = messy_sheets(attention)
    pages = [Page(f"<b>{n}</b>.png", 1, scans[0]) for n, (_, scans) in enumerate(sheets)]
    scanned = scan_pages(read_scan_key(attention.key), pages)
    written = write(scanned, tmp_path / "scanned" / "responses.csv")
    assert scanned.flags
    original = read_csv(written.csv.read_bytes())
    header = original[0]
    flagged = [flag for flag in scanned.flags if flag.row]
    assert any(flag.column == "student" for flag in flagged)
    assert any(flag.column != "student" for flag in flagged)

    # What the teacher means: each flagged answer as filled, the unread ID as a name that looks
    # like a formula (kept as text through the page, the CSV and grade).
    meant: dict[tuple[int, str], str] = {}
    for flag in flagged:
        sheet_index = next(i for i, page in enumerate(pages) if flag.where.startswith(page.file))
        truths = sheets[sheet_index][0]
        if flag.column == "student":
            meant[flag.row, flag.column] = '=Ada, "Lovelace"'
        else:
            meant[flag.row, flag.column] = truths[int(flag.column)].cell or "A"

    context = browser.new_context(accept_downloads=True)
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(written.review.as_uri())
    assert page.locator("b").count() == 0  # "<b>0</b>.png" is shown as text
    assert "<b>0</b>.png" in page.locator("table").inner_text()
    boxes = page.locator("input.fix")
    assert boxes.count() == len(flagged)
    for index, flag in enumerate(flagged):
        box = boxes.nth(index)
        assert box.input_value() == original[flag.row - 1][header.index(flag.column)]
        box.fill(meant[flag.row, flag.column])
    with page.expect_download() as download_info:
        page.get_by_role("button", name="Save the corrected responses").click()
    download = download_info.value
    assert download.suggested_filename == "responses.corrected.csv"
    saved = tmp_path / "Downloads" / download.suggested_filename
    download.save_as(saved)
    status = page.locator("#status").inner_text()
    assert status.startswith("Saved responses.corrected.csv with ")
    context.close()
    assert errors == []
    assert all(url.startswith(("file:", "data:", "blob:")) for url in requests), requests
    assert [url for url in requests if url.startswith("file:")] == [written.review.as_uri()]

    # The saved file: the scan's rows, the typed cells replaced, a "typed" column naming them.
    data = saved.read_bytes()
    assert b'\r\n"\'=Ada, ""Lovelace""",' in data  # a typed formula is text in a spreadsheet
    rows = read_csv(data)
    assert data == csv_bytes(rows)  # written cell for cell as paperdeck's own CSV writer writes
    assert rows[0] == [*header, "typed"]
    for line, row in enumerate(rows[1:], 2):
        typed = {
            column
            for (row_line, column) in meant
            if row_line == line and meant[row_line, column] != original[line - 1][header.index(column)]
        }
        assert set(filter(None, row[-1].split("; "))) == typed
        for column_index, column in enumerate(header):
            expected = meant.get((line, column), original[line - 1][column_index])
            assert row[column_index] == expected, (line, column)

    # grade reads it like any responses CSV: the typed name is the student's, every answer graded.
    capsys.readouterr()
    graded = tmp_path / "graded"
    graded.mkdir()
    assert main(["grade", str(attention.key), str(saved), "-o", str(graded)]) == 0
    scores = list(csv.DictReader(io.StringIO((graded / "scores.csv").read_text("utf-8"))))
    assert len(scores) == len(sheets)
    assert '\'=Ada, "Lovelace"' in {row["student"] for row in scores}


def test_a_page_with_nothing_to_check_has_no_editor(printed, tmp_path: Path) -> None:
    attention = printed("attention")
    rng = np.random.default_rng(7)
    form = attention.forms[0]
    images, _ = synthetic.fill_sheet(attention.pages(form, 150), form, attention.radius, 150, rng, "4207")
    photo = synthetic.distort(images[0], rng, False, False)
    scanned = scan_pages(read_scan_key(attention.key), [Page("a.png", 1, photo)])
    written = write(scanned, tmp_path / "responses.csv")
    page = written.review.read_text(encoding="utf-8")
    if scanned.flags:
        pytest.skip("this sheet drew a flag")
    assert "nothing to check" in page and "<script" not in page and "<input" not in page


def test_the_page_lets_no_request_leave_it(printed, tmp_path: Path) -> None:
    """Its Content-Security-Policy: images only from data: URIs, its own script only (by hash)."""
    import base64
    import hashlib
    import re

    attention = printed("attention")
    sheets = messy_sheets(attention, 1)
    scanned = scan_pages(read_scan_key(attention.key), [Page("a.png", 1, sheets[0][1][0])])
    page = write(scanned, tmp_path / "responses.csv").review.read_text(encoding="utf-8")
    policy = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', page).group(1)
    assert "default-src 'none'" in policy and "img-src data:" in policy
    script = re.findall(r"<script>(.*?)</script>", page, re.S)
    assert len(script) == 1
    digest = base64.b64encode(hashlib.sha256(script[0].encode("utf-8")).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in policy
    assert "</script" not in page.split('id="responses">')[1].split("</script>")[0]


TRICKY = [
    "=SUM(A1)",
    "'=x",
    "-2",
    "+0.5",
    "-x",
    "@here",
    "1e-3",
    "a\tb",
    "semi; colon",
    'quote"d',
    "Ölçer Ş",
    "'Ofa",
    "-1; 2",
]
"""Cells typed into the page, each saved exactly as ``csv_files.csv_bytes`` writes it."""


def test_what_is_typed_is_written_as_paperdeck_s_csv_writer_writes_it(printed, browser, tmp_path) -> None:
    attention = printed("attention")
    sheets = messy_sheets(attention, 1)
    scanned = scan_pages(read_scan_key(attention.key), [Page("a.png", 1, sheets[0][1][0])])
    written = write(scanned, tmp_path / "responses.csv")
    original = read_csv(written.csv.read_bytes())
    student = next(flag for flag in scanned.flags if flag.column == "student")
    context = browser.new_context(accept_downloads=True)
    for index, value in enumerate(TRICKY):
        # A page of its own for each: Chromium stops a tab's downloads after ten in quick
        # succession (the eleventh never came on a quiet machine).
        page = context.new_page()
        page.goto(written.review.as_uri())
        page.locator(f"input.fix[data-column='student'][data-line='{student.row}']").first.fill(value)
        with page.expect_download() as download_info:
            page.get_by_role("button", name="Save the corrected responses").click()
        saved = tmp_path / f"saved-{index}.csv"
        download_info.value.save_as(saved)
        expected = [[*original[0], "typed"]] + [[*row, ""] for row in original[1:]]
        expected[student.row - 1][0] = value.strip()
        expected[student.row - 1][-1] = "student"
        assert saved.read_bytes() == csv_bytes(expected), value
        assert read_csv(saved.read_bytes())[student.row - 1][0] == value.strip()
        page.close()
    context.close()


def test_a_student_s_name_stays_text_in_the_page_and_its_data(tmp_path: Path) -> None:
    """A roster name that would end the page's data block or run a script is text everywhere."""
    import json
    import re

    from generator.scanning.scan import Flag, ScanKey, Scanned, SheetRead

    name = "</script><img src=x onerror=alert(1)><!--"
    form = {
        "label": "A",
        "code": "AAAA-AAAA",
        "student": {"name": name},
        "sheet": {"pages": 1, "fields": [{"page": 1, "question": 1, "kind": "letters"}]},
    }
    sheet = SheetRead(form, "s.png page 1", pages={1: "s.png page 1"}, cells={1: ["?"]})
    sheet.flags.append(Flag("s.png page 1", "question 1 not read: 2 bubbles filled", 1))
    scanned = Scanned(ScanKey("key.json", "Q", (0.0, 0.0), [], 0.0, 0.0, {}, [1]), [sheet], list(sheet.flags))
    page = write(scanned, tmp_path / "responses.csv").review.read_text(encoding="utf-8")
    assert name not in page and "<img" not in page and "<!--" not in page
    block = re.search(r'<script type="application/json" id="responses">(.*?)</script>', page, re.S).group(1)
    assert json.loads(block)["rows"][1][:3] == [name, "A", "?"]
    assert 'value="?"' in page
