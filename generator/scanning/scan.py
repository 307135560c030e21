"""A stack of scans against a quiz key: one row of answers per sheet, and every doubt flagged.

Pages are read one at a time in the order given (files, then their pages). A page's QR
code names the quiz, the form and the sheet page; pages of one sheet are joined: with
a roster by the form (one form per student), else each first page starts a sheet and
its later pages join the last sheet of that form still missing them, in scan order.

Nothing is invented: a page that is not a sheet of this quiz, a sheet scanned twice
and a page missing from a sheet are flagged with their file and page, as is every
field that is not read; their cells stay empty (a component of a vector: ``?``).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import Finding, InputError
from ..grading.key import load_key_json
from ..grading.responses import NOT_READ
from .fields import FieldRead, read_page
from .locate import MARGIN_MM, PX_PER_MM, Straightened, codes, prepare, straighten
from .pages import Page, check_files, pages

CROP_MARGIN_MM = 3.0


@dataclass
class Flag:
    """Something the teacher checks: where, what was seen, the crop, the cell to fix."""

    where: str
    """File and page."""
    message: str
    question: int | None = None
    """The question number (None: the page, the sheet or the student)."""
    crop: bytes = b""
    """PNG."""
    student: str = ""
    row: int = 0
    """Line of the responses CSV (0: no row)."""
    column: str = ""

    @property
    def line(self) -> str:
        """The flag in one line: where, what, and the cell to fix."""
        cell = f" (responses line {self.row}, column {self.column})" if self.row else ""
        return f"{self.where}: {self.message}{cell}"


@dataclass
class SheetRead:
    """One student's sheet, page by page as found."""

    form: dict[str, Any]
    where: str
    """Where its first page was found."""
    pages: dict[int, str] = field(default_factory=dict)
    cells: dict[int, list[str | None]] = field(default_factory=dict)
    """By question number: the value of each component in the layout's order (None: blank;
    ``NOT_READ``: not read)."""
    student_id: str | None = None
    id_flag: Flag | None = None
    """Why the student ID (sheets without a roster) was not read, with its crop."""
    flags: list[Flag] = field(default_factory=list)

    @property
    def unread(self) -> set[int]:
        """The questions with a number not read."""
        return {n for n, components in self.cells.items() if NOT_READ in components}

    @property
    def missing(self) -> list[int]:
        return [p for p in range(1, self.form["sheet"]["pages"] + 1) if p not in self.pages]


@dataclass(frozen=True)
class ScanKey:
    """What the scanner needs from the key JSON."""

    path: str
    quiz_code: str
    frame: tuple[float, float]
    marks: list[list[float]]
    mark_size: float
    radius: float
    forms: dict[str, dict[str, Any]]
    """By form code without its dash."""
    numbers: list[int]
    """Every question number of any form, for the CSV's columns."""


def read_scan_key(path: Path) -> ScanKey:
    shown = str(path)
    data = load_key_json(path)
    sheets = data.get("sheets")
    if not isinstance(sheets, dict) or sheets.get("format") != 1:
        raise InputError(
            [
                Finding(
                    shown,
                    0,
                    "sheets",
                    "this key has no answer-sheet layout; "
                    "print the quiz again with this paperdeck to get answer sheets",
                )
            ]
        )
    centres = sheets["marks"]["centres"]
    forms = {form["code"].replace("-", ""): form for form in data["form_keys"]}
    numbers = sorted({q["number"] for form in data["form_keys"] for q in form["questions"]})
    return ScanKey(
        shown,
        sheets["quiz_code"],
        (float(centres[3][0]), float(centres[3][1])),
        centres,
        float(sheets["marks"]["size"]),
        float(sheets["bubble_radius"]),
        forms,
        numbers,
    )


def _png(image: np.ndarray) -> bytes:
    ok, data = cv2.imencode(".png", image)
    return data.tobytes() if ok else b""


def crop(page: Straightened, box: list[float]) -> bytes:
    """The field's box with a margin, as scanned and straightened (PNG)."""
    x0, y0, x1, y1 = box
    scale = PX_PER_MM

    def px(value: float) -> int:
        return max(0, int((value + MARGIN_MM) * scale))

    return _png(
        page.grey[
            px(y0 - CROP_MARGIN_MM) : px(y1 + CROP_MARGIN_MM),
            px(x0 - CROP_MARGIN_MM) : px(x1 + CROP_MARGIN_MM),
        ]
    )


def thumbnail(image: np.ndarray, width: int = 240) -> bytes:
    """A small picture of a whole page that was not read (the question pages of a stack add up)."""
    scale = width / image.shape[1]
    return _png(cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))


def _blank(image: np.ndarray) -> bool:
    """A page with (next to) no ink: the back of a single-sided sheet."""
    small = cv2.resize(image, (200, 280), interpolation=cv2.INTER_AREA)
    paper = float(np.percentile(small, 90))
    return float(np.mean(small < paper * 0.75)) < 0.002


@dataclass
class Scanned:
    """The result of a scanning run."""

    key: ScanKey
    sheets: list[SheetRead]
    flags: list[Flag]
    """Every flag, in scan order (page flags and those of sheets)."""
    pages: int = 0
    blank: list[str] = field(default_factory=list)


@dataclass
class PageRead:
    """What one page holds, read on its own (in a worker process for a large stack)."""

    where: str
    flag: Flag | None = None
    """Why the page was not read (None: read, or blank)."""
    blank: bool = False
    form_code: str = ""
    number: int = 0
    """The sheet page."""
    reads: list[tuple[FieldRead, bytes]] = field(default_factory=list)
    """Each field read, with its crop where it was not read."""


def read_alone(key: ScanKey, page: Page) -> PageRead:
    """Read one page against ``key``: its code, its place on the paper and every field on it."""
    if page.problem:  # too large, too small, broken or cut short (pages.py): named, never blank
        return PageRead(page.where, Flag(page.where, page.problem))
    prepared = prepare(page.image)
    found = [c for c in codes(prepared) if c.text.startswith("PD1:")]

    def not_read(message: str) -> PageRead:
        return PageRead(page.where, Flag(page.where, message, crop=thumbnail(page.image)))

    if not found:
        if _blank(page.image):
            return PageRead(page.where, blank=True)
        return not_read(
            "no answer-sheet code found: not an answer sheet, or its QR code is not legible; nothing read"
        )
    if len(found) > 1:
        return not_read(
            f"{len(found)} answer-sheet codes on one page: "
            "scan or photograph one sheet page at a time; nothing read"
        )
    parts = found[0].text.split(":")
    if len(parts) != 5 or not parts[3].isdigit() or not parts[4].isdigit():
        return not_read("an answer-sheet code paperdeck cannot read; nothing read")
    _, quiz_code, form_code, number_text, _ = parts
    if quiz_code != key.quiz_code:
        return not_read(
            f"a sheet of another quiz (quiz code {quiz_code}, this key's is {key.quiz_code}); nothing read"
        )
    form = key.forms.get(form_code)
    if form is None:
        return not_read(
            f"a form of this quiz that the key does not have "
            f"(code {form_code[:4]}-{form_code[4:]}); nothing read"
        )
    layout = form["sheet"]
    number = int(number_text)
    straightened = straighten(prepared, found[0], layout["qr"], key.marks, key.mark_size, key.frame)
    if isinstance(straightened, str):
        return not_read(f"form {form['label']} sheet page {number}: {straightened}; nothing read")
    fields = [f for f in layout["fields"] if f["page"] == number]
    reads = read_page(straightened, fields, key.radius)
    if isinstance(reads, str):
        return not_read(f"form {form['label']} sheet page {number}: {reads}; nothing read")
    return PageRead(
        page.where,
        form_code=form_code,
        number=number,
        reads=[(read, crop(straightened, read.field["box"]) if read.problem else b"") for read in reads],
    )


class _Run:
    def __init__(self, key: ScanKey):
        self.key = key
        self.sheets: list[SheetRead] = []
        self.page_flags: list[Flag] = []
        self.open: dict[str, SheetRead] = {}
        """Non-roster forms: the last sheet of each form still missing pages."""
        self.by_code: dict[str, SheetRead] = {}
        """Roster forms: the sheet of each form."""
        self.pages = 0
        self.blank: list[str] = []
        self.counts: dict[str, dict[int, int]] = {}

    def add(self, page: PageRead) -> None:
        self.pages += 1
        if page.flag:
            self.page_flags.append(page.flag)
            return
        if page.blank:
            self.blank.append(page.where)
            return
        sheet = self._sheet_for(self.key.forms[page.form_code], page.number, page.where)
        if sheet is None:
            return
        for read, picture in page.reads:
            self._record(sheet, read, picture, page.where)

    def _sheet_for(self, form: dict[str, Any], number: int, where: str) -> SheetRead | None:
        label = form["label"]
        if form.get("student"):
            sheet = self.by_code.get(form["code"])
            if sheet is None:
                sheet = self.by_code[form["code"]] = SheetRead(form, where)
                self.sheets.append(sheet)
            elif number in sheet.pages:
                self.page_flags.append(
                    Flag(
                        where,
                        f"form {label} ({form['student']['name']}) sheet page "
                        f"{number} scanned twice: also {sheet.pages[number]}; "
                        "this copy is not read",
                    )
                )
                return None
            sheet.pages[number] = where
            return sheet
        sheet = self.open.get(label)
        if number == 1 or sheet is None or number in sheet.pages:
            if number != 1:
                self.page_flags.append(
                    Flag(
                        where,
                        f"form {label} sheet page {number} has no page 1 "
                        "before it in the scans (scan the pages of each sheet in "
                        "order); nothing read",
                    )
                )
                return None
            sheet = SheetRead(form, where)
            self.sheets.append(sheet)
            self.open[label] = sheet
        sheet.pages[number] = where
        if not sheet.missing:
            self.open.pop(label, None)
        return sheet

    def _record(self, sheet: SheetRead, read: FieldRead, picture: bytes, where: str) -> None:
        field_ = read.field
        if field_["kind"] == "id":
            sheet.student_id = read.value
            if read.problem:
                sheet.id_flag = Flag(
                    where,
                    f"student ID not read: {read.problem}; write the student's name or ID",
                    crop=picture,
                )
            return
        number = field_["question"]
        # Placed by the layout's component index, not in the order pages come (a roster
        # sheet's page 2 may be read before its page 1).
        components = sheet.cells.setdefault(number, [None] * self._components(sheet.form)[number])
        components[field_.get("component", 0)] = NOT_READ if read.problem else read.value
        if read.problem:
            part = f" [{field_['component'] + 1}]" if "component" in field_ else ""
            sheet.flags.append(
                Flag(where, f"question {number}{part} not read: {read.problem}", number, picture)
            )

    def _components(self, form: dict[str, Any]) -> dict[int, int]:
        """How many numbers each question of ``form`` has on its sheet."""
        counts = self.counts.get(form["code"])
        if counts is None:
            counts = self.counts[form["code"]] = {}
            for f in form["sheet"]["fields"]:
                if "question" in f:
                    counts[f["question"]] = counts.get(f["question"], 0) + 1
        return counts

    def finish(self) -> Scanned:
        for sheet in self.sheets:
            if sheet.missing:
                pages_ = ", ".join(map(str, sheet.missing))
                total = sheet.form["sheet"]["pages"]
                sheet.flags.append(
                    Flag(
                        sheet.where,
                        f"form {sheet.form['label']} sheet (first page at "
                        f"{sheet.where}) is missing page {pages_} of {total}: "
                        "those questions are left empty",
                    )
                )
                # A question whose numbers run onto a missing page is left empty, not half read.
                cut = {
                    f["question"]
                    for f in sheet.form["sheet"]["fields"]
                    if f["page"] in sheet.missing and "question" in f
                }
                for number in cut:
                    sheet.cells.pop(number, None)
        kept = self._duplicates()
        flags = list(self.page_flags)
        for sheet in kept:
            flags.extend(sheet.flags)
        return Scanned(self.key, kept, flags, self.pages, self.blank)

    def _duplicates(self) -> list[SheetRead]:
        """Non-roster sheets: one scanned twice (same form, same ID, same answers) is read once."""
        kept: list[SheetRead] = []
        seen: dict[tuple[str, str], SheetRead] = {}
        for sheet in self.sheets:
            if sheet.form.get("student") or not sheet.student_id:
                kept.append(sheet)
                continue
            other = seen.get((sheet.form["label"], sheet.student_id))
            if other is not None and other.cells == sheet.cells:
                self.page_flags.append(
                    Flag(
                        sheet.where,
                        f"the sheet of student ID {sheet.student_id} "
                        f"(form {sheet.form['label']}) scanned twice: also "
                        f"{other.where}; this copy is not read",
                    )
                )
                continue
            seen.setdefault((sheet.form["label"], sheet.student_id), sheet)
            kept.append(sheet)
        return self._unread_id_duplicates(kept)

    def _unread_id_duplicates(self, sheets: list[SheetRead]) -> list[SheetRead]:
        """A sheet whose student ID is not read, with the form and the answers of another sheet
        (every answer read on both the same, at least ``SAME_ANSWERS`` of them): the same sheet
        scanned twice, read once; the copy is named, so that a second student who answered
        exactly alike is not lost without a word."""
        dropped: set[int] = set()
        for i, sheet in enumerate(sheets):
            if sheet.form.get("student") or sheet.student_id:
                continue
            for j, other in enumerate(sheets):
                if j == i or j in dropped or other.form["label"] != sheet.form["label"]:
                    continue
                if other.student_id is None and j > i:
                    continue  # of two copies with no ID read, the first is kept
                if _same_answers(sheet, other):
                    dropped.add(i)
                    known = f"student ID {other.student_id}" if other.student_id else "its ID not read either"
                    self.page_flags.append(
                        Flag(
                            sheet.where,
                            f"a sheet whose student ID is not read, with the form "
                            f"({sheet.form['label']}) and the answers of the sheet at {other.where} ({known}): "
                            "scanned twice? this copy is not read; if it is another student's, type their row "
                            "by hand",
                            crop=sheet.id_flag.crop if sheet.id_flag else b"",
                        )
                    )
                    break
        return [sheet for i, sheet in enumerate(sheets) if i not in dropped]


SAME_ANSWERS = 5


def _same_answers(sheet: SheetRead, other: SheetRead) -> bool:
    """Every answer read on both sheets is the same, and at least SAME_ANSWERS are."""
    both = [n for n in sheet.cells if n in other.cells and n not in sheet.unread and n not in other.unread]
    answered = [n for n in both if any(v is not None for v in sheet.cells[n])]
    return len(answered) >= SAME_ANSWERS and all(sheet.cells[n] == other.cells[n] for n in both)


WORKERS = min(2, len(os.sched_getaffinity(0)))
"""Processes that read pages: a page's reading is about 0.15 s of CPU, so 300 sheets on one core
took about 45 s against a target of 30 s on two."""
ALONE = 8
"""Pages read in this process before workers start (their start-up, about 1 s, outweighs a few pages)."""
IN_FLIGHT = 2 * WORKERS
"""Pages decoded and not yet read at any time: what bounds the memory of a stack of any size."""

_worker_key: ScanKey | None = None


def _start_worker(key: ScanKey) -> None:
    global _worker_key
    _worker_key = key


def _read_in_worker(page: Page) -> PageRead:
    assert _worker_key is not None
    return read_alone(_worker_key, page)


def _reads(key: ScanKey, scanned_pages: Iterable[Page]) -> Iterator[PageRead]:
    """Each page read, in the order the pages come; a large stack on several cores at a time."""
    stack = iter(scanned_pages)
    for page in itertools.islice(stack, ALONE):
        yield read_alone(key, page)
    first = next(stack, None)
    if first is None:
        return
    if WORKERS < 2:
        yield read_alone(key, first)
        yield from (read_alone(key, page) for page in stack)
        return
    context = multiprocessing.get_context("spawn")  # no fork of a process that may run threads
    with ProcessPoolExecutor(WORKERS, mp_context=context, initializer=_start_worker, initargs=(key,)) as pool:
        waiting = deque([pool.submit(_read_in_worker, first)])
        for page in stack:
            if len(waiting) >= IN_FLIGHT:
                yield waiting.popleft().result()
            waiting.append(pool.submit(_read_in_worker, page))
        while waiting:
            yield waiting.popleft().result()


def scan_pages(key: ScanKey, scanned_pages: Iterable[Page]) -> Scanned:
    """Read every page against ``key``, joining pages into sheets in the order they come."""
    run = _Run(key)
    for page in _reads(key, scanned_pages):
        run.add(page)
    return run.finish()


def scan(key_path: Path, scans: Iterable[Path]) -> Scanned:
    """Read every page of ``scans`` (files in order, then their pages) against the key at ``key_path``."""
    key = read_scan_key(key_path)
    scans = list(scans)
    check_files(scans)  # every file that cannot be a scan, before minutes of reading the others
    return scan_pages(key, (page for path in scans for page in pages(path)))
