"""The round trip: real sheets filled by simulated students, scanned or photographed, read
back and graded; every answer read is the one filled or it is flagged.

The suite runs a small class (fast); ``PAPERDECK_ROUNDTRIP_SHEETS=300`` runs the size the
issue asks for, as benchmarks/bench_scan.py does.
"""

from __future__ import annotations

import csv
import os
import random
from collections import defaultdict
from pathlib import Path

from generator.grading.key import read_key
from generator.grading.responses import read_responses
from generator.grading.scoring import grade
from generator.scanning.outputs import responses_csv
from generator.scanning.pages import Page
from generator.scanning.scan import Scanned, read_scan_key, scan_pages

from . import synthetic

SHEETS = int(os.environ.get("PAPERDECK_ROUNDTRIP_SHEETS", "24"))
PAGES: dict[str, list[str]] = defaultdict(list)
"""Where each simulated student's pages are in the stack of the last class run."""


def run_class(
    printed, count: int, dpi: float, seed: int, mess_rate: float = 0.06, shuffle: bool = False, **conditions
) -> tuple[synthetic.Outcome, Scanned, bytes, list[synthetic.SimulatedStudent]]:
    """A class scanned: its pages in the order made, or (``shuffle``) in any order."""
    students: list[synthetic.SimulatedStudent] = []

    def pages():
        number = 0
        for student, scans in synthetic.classroom(
            printed.forms, printed.pages, count, dpi, seed, mess_rate, **conditions
        ):
            students.append(student)
            for image in scans:
                number += 1
                PAGES[student.id].append(f"class.pdf page {number}")
                yield Page("class.pdf", number, image)

    PAGES.clear()
    stack = pages()
    if shuffle:
        stack = list(stack)
        random.Random(seed).shuffle(stack)
    scanned = scan_pages(read_scan_key(printed.key), stack)
    data = responses_csv(scanned)
    rows = {row["student"]: row for row in synthetic.responses_rows(data)}
    flagged = {(flag.student, flag.column) for flag in scanned.flags if flag.row}
    return synthetic.compare(students, rows, flagged), scanned, data, students


FLAT = ("scanner", "phone", "shadow-soft", "shadow-sharp")


def not_read_only_if_named(
    outcome: synthetic.Outcome, scanned: Scanned, students: list[synthetic.SimulatedStudent]
) -> int:
    """A student without a row of their own has a row named for the flag on its unread ID, or
    sat a sheet not flat under a phone whose pages are each named as not read; returns how
    many sheets were not read."""
    said: dict[str, list[str]] = defaultdict(list)
    for flag in scanned.flags:
        said[flag.where].append(flag.message)
    condition = {student.id: student.condition for student in students}
    not_read = 0
    for name in outcome.missing_rows:
        messages = [m for where in PAGES[name] for m in said[where]]
        if any(m.startswith("student ID not read") for m in messages):
            continue
        assert condition[name] in ("fold", "roll"), name
        assert all(any("nothing read" in m for m in said[where]) for where in PAGES[name]), name
        not_read += 1
    return not_read


def test_a_class_reads_back_with_no_silent_error(printed, tmp_path: Path) -> None:
    """Scanned and photographed, across shadow bands with soft and sharp edges, folded and
    opened, rolled at the edges; some students ring letters, leave faint marks, dots and
    erasures on signs and leading columns. Every answer read is the one filled or flagged;
    a sheet not flat under the camera is read right or not read and named."""
    attention = printed("attention")
    conditions = synthetic.CONDITIONS
    outcome, scanned, data, students = run_class(
        attention, SHEETS, dpi=150, seed=2026, conditions=conditions, blank_mark_rate=0.15
    )
    assert outcome.silent == []
    assert set(outcome.by_condition) == set(conditions)
    not_read = not_read_only_if_named(outcome, scanned, students)
    assert outcome.sheets == SHEETS == len(scanned.sheets) + not_read
    assert all(outcome.by_condition[c].clean > 10 * outcome.by_condition[c].sheets for c in FLAT)
    assert outcome.clean_flag_rate <= 0.03, outcome
    assert outcome.messy > 0 and outcome.messy_flagged > 0  # the messy fields were there, and seen

    # Graded, the scanned answers score what the filled ones score wherever nothing was flagged.
    key = read_key(attention.key)
    scanned_csv = tmp_path / "scanned.csv"
    scanned_csv.write_bytes(data)  # an answer not read is a ?: grade reads it as pending
    filled_csv = tmp_path / "filled.csv"
    with open(filled_csv, "w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        numbers = sorted({n for s in students for n in s.truths})
        writer.writerow(["student", "form", *numbers])
        for s in students:
            cells = [s.truths[n].cell if n in s.truths else "" for n in numbers]
            writer.writerow([s.id, s.form["label"], *cells])
    got = {r.student: r for r in grade(key, read_responses(scanned_csv, key))}
    filled = {r.student: r for r in grade(key, read_responses(filled_csv, key))}
    flagged = {(flag.student, flag.column) for flag in scanned.flags}
    compared = 0
    for name, result in filled.items():
        if name not in got:  # a sheet not read, named
            continue
        for mark, read in zip(result.marks, got[name].marks, strict=True):
            if (name, str(mark.number)) in flagged:
                continue
            assert (read.points, read.mistake) == (mark.points, mark.mistake), (name, mark.number)
            compared += 1
    assert compared >= outcome.clean - outcome.clean_flagged


def test_roster_sheets_read_right_whatever_the_order_of_their_pages(printed) -> None:
    """Two-page roster sheets, every page of the stack shuffled: a question whose numbers run over
    both pages keeps them in the layout's order, and a ``?`` lands where its number is."""
    final = printed("final-roster")
    assert final.forms[0]["sheet"]["pages"] == 2
    fields = final.forms[0]["sheet"]["fields"]
    split = {f["question"] for f in fields if f.get("component", 0) > 0 and f["page"] == 2} & {
        f["question"] for f in fields if f["page"] == 1
    }
    assert split  # a vector whose grids are on both pages
    outcome, scanned, _, _ = run_class(
        final, len(final.forms), dpi=150, seed=7, shuffle=True, conditions=FLAT, blank_mark_rate=0.15
    )
    assert outcome.silent == []
    assert outcome.sheets == len(final.forms) == len(scanned.sheets)
    assert outcome.clean_flag_rate <= 0.03, outcome
