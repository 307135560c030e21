"""What a scanning run writes: the responses CSV ``paperdeck grade`` reads, and the review file.

The CSV has one row per sheet (``student, form, 1, 2, …``, docs/grading.md): the
roster's name, else the student ID read from the sheet; an answer not read is an
empty cell (a component of a vector: ``?``). The review file is one HTML page with,
for every flag, where it was found, what was seen, the crop of the sheet (embedded as
a ``data:`` URI, so the file stands alone) and the CSV cell to fix.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from ..files.atomic import write_bytes
from ..files.csv_files import csv_bytes
from .scan import Flag, Scanned, SheetRead


def _cell(components: list[str | None], unread: bool) -> str:
    if len(components) == 1:
        return components[0] or ""
    if not unread and all(c is None for c in components):
        return ""
    return "; ".join(c if c is not None else "?" for c in components)


def _student(sheet: SheetRead, ids: dict[str, str]) -> tuple[str, Flag | None]:
    """The student cell and, if it needs checking, the flag that says why."""
    student = sheet.form.get("student")
    if student:
        return student["name"], None
    if sheet.student_id is None:
        return f"unread ID ({sheet.where})", sheet.id_flag or Flag(sheet.where, "student ID not read")
    if sheet.student_id in ids:
        return (f"{sheet.student_id} (second sheet, {sheet.where})",
                Flag(sheet.where, f"student ID {sheet.student_id} also on the sheet at "
                     f"{ids[sheet.student_id]}; write this student's own name or ID"))
    ids[sheet.student_id] = sheet.where
    return sheet.student_id, None


def responses_csv(scanned: Scanned) -> bytes:
    """The responses CSV (``csv_files.csv_bytes``: a name or vector that starts like a formula is
    shown as text, and ``grade`` reads it back as it was); fills in each flag's row and column."""
    numbers = scanned.key.numbers
    rows: list[list[str]] = [["student", "form", *map(str, numbers)]]
    ids: dict[str, str] = {}
    for line, sheet in enumerate(scanned.sheets, 2):
        name, doubt = _student(sheet, ids)
        if doubt is not None:
            doubt.student, doubt.row, doubt.column = name, line, "student"
            scanned.flags.append(doubt)
        for flag in sheet.flags:
            flag.student, flag.row = name, line
            flag.column = str(flag.question) if flag.question is not None else "student"
        cells = [_cell(sheet.cells[n], n in sheet.unread) if n in sheet.cells else "" for n in numbers]
        rows.append([name, sheet.form["label"], *cells])
    return csv_bytes(rows)


_STYLE = """body{font-family:system-ui,sans-serif;margin:2em;max-width:70em}
table{border-collapse:collapse}td,th{border:1px solid #bbb;padding:.4em;vertical-align:top;text-align:left}
img{max-width:32em;image-rendering:auto}code{background:#f3f3f3;padding:0 .2em}"""


def review_html(scanned: Scanned, csv_name: str) -> bytes:
    """The review page: every flag with its crop and the cell to fix."""
    e = html.escape
    out = ["<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">",
           f"<title>Scanning review: {e(scanned.key.path)}</title><style>{_STYLE}</style></head><body>",
           f"<h1>Scanning review</h1><p>Key <code>{e(scanned.key.path)}</code>: {scanned.pages} pages read, "
           f"{len(scanned.sheets)} sheets written to <code>{e(csv_name)}</code>, "
           f"<strong>{len(scanned.flags)} to check</strong>.</p>"]
    if scanned.blank:
        out.append(f"<p>Blank pages skipped: {e(', '.join(scanned.blank))}.</p>")
    if scanned.flags:
        out.append("<p>Nothing below was guessed: each answer listed is left empty in the CSV "
                   "(a part of a vector as <code>?</code>). Look at the crop, type what the student "
                   "meant into the cell named, and run <code>paperdeck grade</code>.</p>")
        out.append("<table><tr><th>#</th><th>where</th><th>what was seen</th><th>cell to fix</th>"
                   "<th>crop</th></tr>")
        for i, flag in enumerate(scanned.flags, 1):
            cell = (f"{e(csv_name)} line {flag.row}, column <code>{e(flag.column)}</code>"
                    + (f"<br>{e(flag.student)}" if flag.student else "")) if flag.row else "no row"
            image = (f"<img alt=\"crop of {e(flag.where)}\" src=\"data:image/png;base64,"
                     f"{base64.b64encode(flag.crop).decode()}\">" if flag.crop else "")
            out.append(f"<tr><td>{i}</td><td>{e(flag.where)}</td><td>{e(flag.message)}</td>"
                       f"<td>{cell}</td><td>{image}</td></tr>")
        out.append("</table>")
    else:
        out.append("<p>Every answer was read; nothing to check.</p>")
    out.append("</body></html>\n")
    return "".join(out).encode("utf-8")


def write(scanned: Scanned, csv_path: Path, review_path: Path) -> None:
    """Write the CSV and the review file, each atomically."""
    data = responses_csv(scanned)
    write_bytes(csv_path, data)
    write_bytes(review_path, review_html(scanned, csv_path.name))
