"""What a scanning run writes: the responses CSV ``paperdeck grade`` reads, and the review file.

The CSV has one row per sheet (``student, form, 1, 2, …``, docs/grading.md): the
roster's name, else the student ID read from the sheet. An answer the scan did not read
is ``?`` (a component of a vector: ``?`` in its place), never an empty cell: ``grade``
tells it from a question left blank. The review file is one HTML page with, for every
flag, where it was found, what was seen, the crop of the sheet (embedded as a ``data:``
URI, so the file stands alone) and the CSV cell to fix.

Nothing the teacher did is lost (``write``): the CSV and its review file are replaced
together or not at all (``files.atomic.file_set``: a kill or a full disk leaves the old
pair or the new one, never the new CSV beside the old review); the review file holds the
SHA-256 of the CSV written beside it, and a CSV that no longer matches it (the teacher's
fixes) is kept: the new scan goes beside it, ``responses-2.csv``, and the run says so.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from ..files.atomic import file_set
from ..files.csv_files import MAX_FILE_BYTES, csv_bytes
from ..grading.responses import NOT_READ
from .scan import Flag, Scanned, SheetRead

LEFT_OUT = "_"
"""A number of a vector or matrix left blank while others were filled (grade: that part wrong)."""
_DIGEST = re.compile(rb'<meta name="paperdeck-responses-sha256" content="([0-9a-f]{64})">')
_DIGEST_WITHIN = 4096
"""The digest is in the review file's head: only its start is read back."""


def _cell(components: list[str | None]) -> str:
    """A question's numbers as ``grade`` reads them: empty when nothing was filled, else every
    number in the layout's order, ``?`` where one was not read, ``_`` where it was left blank."""
    if all(c is None for c in components):
        return ""
    return "; ".join(LEFT_OUT if c is None else c for c in components)


def _cut(sheet: SheetRead) -> dict[int, str]:
    """The cells of the questions with a number on a page missing from ``sheet``: not read
    (``?`` for each of their numbers)."""
    missing = set(sheet.missing)
    counts: dict[int, int] = {}
    for f in sheet.form["sheet"]["fields"]:
        if "question" in f:
            counts[f["question"]] = counts.get(f["question"], 0) + 1
    cut = {f["question"] for f in sheet.form["sheet"]["fields"] if f["page"] in missing and "question" in f}
    return {n: "; ".join([NOT_READ] * counts[n]) for n in cut}


def _student(sheet: SheetRead, ids: dict[str, str]) -> tuple[str, Flag | None]:
    """The student cell and, if it needs checking, the flag that says why."""
    student = sheet.form.get("student")
    if student:
        return student["name"], None
    if sheet.student_id is None:
        return f"unread ID ({sheet.where})", sheet.id_flag or Flag(sheet.where, "student ID not read")
    if sheet.student_id in ids:
        return (
            f"{sheet.student_id} (second sheet, {sheet.where})",
            Flag(
                sheet.where,
                f"student ID {sheet.student_id} also on the sheet at "
                f"{ids[sheet.student_id]}; write this student's own name or ID",
            ),
        )
    ids[sheet.student_id] = sheet.where
    return sheet.student_id, None


def rows(scanned: Scanned) -> list[list[str]]:
    """The responses CSV's rows, the header first, as ``grade`` reads them back; fills in each
    flag's row and column (a flag on the student is added to ``scanned.flags`` once)."""
    numbers = scanned.key.numbers
    found: list[list[str]] = [["student", "form", *map(str, numbers)]]
    ids: dict[str, str] = {}
    for line, sheet in enumerate(scanned.sheets, 2):
        name, doubt = _student(sheet, ids)
        if doubt is not None:
            doubt.student, doubt.row, doubt.column = name, line, "student"
            if not any(flag is doubt or flag == doubt for flag in scanned.flags):
                scanned.flags.append(doubt)
        for flag in sheet.flags:
            flag.student, flag.row = name, line
            flag.column = str(flag.question) if flag.question is not None else "student"
        cut = _cut(sheet)
        cells = [cut[n] if n in cut else _cell(sheet.cells[n]) if n in sheet.cells else "" for n in numbers]
        found.append([name, sheet.form["label"], *cells])
    return found


def responses_csv(scanned: Scanned) -> bytes:
    """The responses CSV (``csv_files.csv_bytes``: a name or vector that starts like a formula is
    shown as text, and ``grade`` reads it back as it was); fills in each flag's row and column."""
    return csv_bytes(rows(scanned))


def corrected_name(csv_name: str) -> str:
    """The name the review page saves the corrected responses under: ``<stem>.corrected.csv``."""
    stem = csv_name[:-4] if csv_name.lower().endswith(".csv") else csv_name
    return f"{stem}.corrected.csv"


def _asset(name: str) -> str:
    return (resources.files(__package__) / name).read_text(encoding="utf-8")


def _script_data(value: object) -> str:
    """``value`` as JSON inside a ``<script type="application/json">``: no ``<`` can end it."""
    return json.dumps(value, ensure_ascii=False).replace("<", "\\u003c")


def review_html(scanned: Scanned, csv_name: str, csv_digest: str = "") -> bytes:
    """The review page: every flag with its crop, the cell to fix and a box to type what the student
    meant, and a button that saves the responses with what was typed as a CSV (``review.js``,
    in the browser, offline: the page's Content-Security-Policy lets no request leave it).
    ``csv_digest``, the SHA-256 of the CSV written beside it (a CSV that no longer matches it was
    edited: ``write``)."""
    e = html.escape
    table = rows(scanned)
    script = _asset("review.js")
    script_hash = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode()
    policy = (
        f"default-src 'none'; img-src data:; style-src 'unsafe-inline'; "
        f"script-src 'sha256-{script_hash}'; form-action 'none'; base-uri 'none'"
    )
    digest = f'<meta name="paperdeck-responses-sha256" content="{csv_digest}">' if csv_digest else ""
    out = [
        f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">{digest}'
        f'<meta http-equiv="Content-Security-Policy" content="{policy}">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>Scanning review: {e(scanned.key.path)}</title><style>{_asset('review.css')}</style>"
        "</head><body>",
        f"<h1>Scanning review</h1><p>Key <code>{e(scanned.key.path)}</code>: {scanned.pages} pages read, "
        f"{len(scanned.sheets)} sheets written to <code>{e(csv_name)}</code>, "
        f"<strong>{len(scanned.flags)} to check</strong>.</p>",
    ]
    if scanned.blank:
        out.append(f"<p>Blank pages skipped: {e(', '.join(scanned.blank))}.</p>")
    if scanned.flags:
        out.append(
            "<p>Nothing below was guessed: each answer listed is <code>?</code> in the CSV "
            "(not read; <code>paperdeck grade</code> reports it as such). Look at the crop and "
            "type what the student meant in the box beside it (a letter, the number or numbers, "
            "the points; <code>_</code> for a part of a vector left blank; a <code>?</code> left in "
            "keeps the whole answer not read), then "
            f"<strong>Save the corrected responses</strong>: the page saves "
            f"<code>{e(corrected_name(csv_name))}</code> (your browser's downloads), with what "
            "you typed marked in its <code>typed</code> column; run <code>paperdeck grade "
            "KEY.json</code> on it. Or type into the cell named in a spreadsheet.</p>"
        )
        out.append(
            "<table><tr><th>#</th><th>where</th><th>what was seen</th><th>cell to fix</th>"
            "<th>crop</th><th>what the student meant</th></tr>"
        )
        for i, flag in enumerate(scanned.flags, 1):
            cell = (
                (
                    f"{e(csv_name)} line {flag.row}, column <code>{e(flag.column)}</code>"
                    + (f"<br>{e(flag.student)}" if flag.student else "")
                )
                if flag.row
                else "no row"
            )
            image = (
                f'<img alt="crop of {e(flag.where)}" src="data:image/png;base64,'
                f'{base64.b64encode(flag.crop).decode()}">'
                if flag.crop
                else ""
            )
            box = ""
            if flag.row and 0 < flag.row <= len(table) and flag.column in table[0]:
                now = table[flag.row - 1][table[0].index(flag.column)]
                box = (
                    f'<input class="fix" id="fix-{i}" data-line="{flag.row}" '
                    f'data-column="{e(flag.column)}" value="{e(now)}" autocomplete="off" '
                    f'spellcheck="false" aria-label="flag {i}: line {flag.row}, column '
                    f'{e(flag.column)}">'
                )
            out.append(
                f"<tr><td>{i}</td><td>{e(flag.where)}</td><td>{e(flag.message)}</td>"
                f"<td>{cell}</td><td>{image}</td><td>{box}</td></tr>"
            )
        out.append("</table>")
        out.append(
            '<p><button type="button" id="save">Save the corrected responses</button> '
            '<span id="status" role="status"></span></p>'
        )
        data = {"rows": table, "save_as": corrected_name(csv_name)}
        out.append(
            f'<script type="application/json" id="responses">{_script_data(data)}</script>'
            f"<script>{script}</script>"
        )
    else:
        out.append("<p>Every answer was read; nothing to check.</p>")
    out.append("</body></html>\n")
    return "".join(out).encode("utf-8")


def review_path(csv_path: Path) -> Path:
    """The review file of the responses CSV at ``csv_path``: ``<stem>.review.html`` beside it."""
    return csv_path.with_name(csv_path.stem + ".review.html")


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def edited(csv_path: Path) -> bool:
    """Whether a CSV is at ``csv_path`` that a scan did not write as it is now: changed since
    (the teacher's fixes), or never written by a scan (no review file beside it that holds its
    digest). Such a file is never replaced."""
    if not csv_path.exists() and not csv_path.is_symlink():
        return False
    try:
        if not csv_path.is_file() or csv_path.stat().st_size > MAX_FILE_BYTES:
            return True
        with open(review_path(csv_path), "rb") as review:
            found = _DIGEST.search(review.read(_DIGEST_WITHIN))
        return found is None or found.group(1).decode() != _digest(csv_path.read_bytes())
    except OSError:
        return True


def target(csv_path: Path) -> Path:
    """Where a scan asked to write ``csv_path`` writes: there, unless a CSV the teacher edited is
    there (``edited``); then beside it, ``<stem>-2.csv`` (or the first of -3, -4, … not edited)."""
    chosen, number = csv_path, 1
    while edited(chosen):
        number += 1
        chosen = csv_path.with_name(f"{csv_path.stem}-{number}{csv_path.suffix}")
    return chosen


@dataclass(frozen=True)
class Written:
    """Where a scan's outputs went."""

    csv: Path
    review: Path
    kept: Path | None = None
    """The CSV the teacher edited, left as it was (the new scan went beside it), if any."""


def write(scanned: Scanned, csv_path: Path) -> Written:
    """Write the responses CSV at ``csv_path`` (or beside it: ``target``) and its review file,
    both or neither (``file_set``: a kill or a full disk between the two leaves the old pair).

    Where it goes is decided under the lock the swap takes, after a killed run's leftovers are
    put right, so what the teacher saved up to that moment is seen. ``paperdeck scan`` and
    ``paperdeck grade --scans`` write through this, so neither replaces a CSV fixed by hand."""
    data = responses_csv(scanned)
    names: set[str] = set()
    chosen: list[Path] = []

    def place(staging: Path) -> None:
        where = target(csv_path)
        review = review_path(where)
        (staging / where.name).write_bytes(data)
        (staging / review.name).write_bytes(review_html(scanned, where.name, _digest(data)))
        names.update((where.name, review.name))
        chosen.append(where)

    # Never swapped whole: the folder the user named (a shell's current folder) stays that folder.
    with file_set(csv_path.parent, lambda path: path.as_posix() in names, place, whole=False):
        pass
    where = chosen[0]
    return Written(where, review_path(where), csv_path if where != csv_path else None)
