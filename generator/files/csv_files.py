"""CSV files in and out: one reader for rosters and responses, one writer for every CSV written.

Reading (``read_rows``): the separator is the one the first line uses most (``,``,
``;`` or a tab, as Excel writes in different locales), the encoding UTF-8 (with or
without a byte-order mark) or UTF-16 with its byte-order mark (Excel's "Unicode
text"), fields may be quoted. The file is streamed, and bounded: at most
``MAX_FILE_BYTES`` bytes and ``MAX_CELL_CHARS`` characters a cell; a NUL character,
text that is not UTF-8, or too many rows is a one-line ``file:line`` error (exit 2).
Cells keep exactly what was written, but for the ``'`` the writer puts before a formula
(``read_back``): a name on paperdeck's own CSV (the scanned responses, a quiz's index
reused as a roster) reads as the name.

Writing (``csv_bytes``, UTF-8, CR LF line ends): a cell a spreadsheet would run as a formula (one starting
with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return) is written with a ``'``
in front, so the spreadsheet shows it as text; a number (``-2``, ``+0.5``, ``1e-3``)
stays a number. In a ``Dialect``: comma-separated without a byte-order mark (``COMMA``,
the default), or as a file read came (``dialect_of``): Excel in many locales saves
``;``-separated UTF-8 with a byte-order mark (``EXCEL``), and opens a file without the
mark as the locale's legacy encoding (names in several scripts become mojibake).
"""

from __future__ import annotations

import codecs
import csv
import io
import itertools
import os
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from ..errors import Finding, InputError

MAX_FILE_BYTES = 32 * 1024 * 1024
"""Largest roster or responses file read (32 MiB: a class of ten thousand with 200 answers each fits)."""
MAX_CELL_CHARS = 10_000
"""Longest cell read: a name, or the numbers of a matrix answer, fit many times over."""
SEPARATORS = (",", ";", "\t")

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def safe_cell(value: object) -> str:
    """``value`` as a CSV cell a spreadsheet shows and never runs."""
    text = "" if value is None else str(value)
    shown = text.lstrip("'")  # '=x too, so that read_back can tell it from =x
    if shown.startswith(_FORMULA_START) and not _NUMBER.fullmatch(shown):
        return "'" + text
    return text


def read_back(cell: str) -> str:
    """The text of a cell as it was before ``safe_cell``: ``'=SUM(A1)`` is ``=SUM(A1)``, ``''=x`` is
    ``'=x``. Any other cell is as written (``'Ofa``, ``'-2``: ``safe_cell`` never writes them)."""
    if cell.startswith("'") and safe_cell(cell[1:]) == cell:
        return cell[1:]
    return cell


@dataclass(frozen=True)
class Dialect:
    """How a CSV file is written: its separator, and whether it starts with a UTF-8 byte-order mark."""

    separator: str = ","
    bom: bool = False


COMMA = Dialect()
"""Comma-separated UTF-8 without a byte-order mark (RFC 4180; what scripts and most tools read)."""
EXCEL = Dialect(";", True)
"""What Excel saves as "CSV UTF-8" where the decimal separator is a comma: ``;`` and a byte-order mark."""
DIALECTS = {"comma": COMMA, "excel": EXCEL}
"""The dialects a user may name (``grade --csv``)."""


def dialect_of(path: Path) -> Dialect:
    """The dialect of the CSV at ``path``: the separator its first line uses most, and whether it
    starts with a byte-order mark (UTF-16 with its mark is written back as UTF-8 with one)."""
    with open(path, "rb") as file:
        start = file.read(4096)
    encoding = "utf-16" if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) else "utf-8-sig"
    first = start.decode(encoding, errors="ignore").splitlines()[0] if start else ""
    return Dialect(
        separator(first), start.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    )


def csv_bytes(rows: Iterable[Iterable[object]], dialect: Dialect = COMMA) -> bytes:
    """Rows as UTF-8 CSV in ``dialect``, every cell through ``safe_cell``. Lines end in CR LF (RFC
    4180): Python's writer quotes a cell holding a character of the line end, so a cell with a
    lone CR stays one cell (with ``\\n`` line ends it would be written bare)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=dialect.separator, lineterminator="\r\n")
    writer.writerows([safe_cell(cell) for cell in row] for row in rows)
    return (codecs.BOM_UTF8 if dialect.bom else b"") + buffer.getvalue().encode("utf-8")


def separator(first_line: str) -> str:
    """The separator a header line uses most (``,`` when it uses none)."""
    counts = {sep: first_line.count(sep) for sep in SEPARATORS}
    return max(counts, key=lambda sep: counts[sep]) if any(counts.values()) else ","


def _encoding(path: Path) -> str:
    with open(path, "rb") as file:
        start = file.read(4)
    if start.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return "utf-16"
    return "utf-8-sig"


def _undecodable_line(path: Path) -> int:
    """The line of the first byte that is not UTF-8 (the reader decodes in blocks, so it cannot say)."""
    if _encoding(path) != "utf-8-sig":
        return 0
    data = Path(path).read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as failure:
        return data.count(b"\n", 0, failure.start) + 1
    return 0


def read_rows(path: Path, what: str, max_rows: int) -> Iterator[tuple[int, list[str]]]:
    """(line, cells) of every row of the CSV at ``path`` (the header first), streamed.

    ``what`` names the file in errors ("roster", "responses"); more than ``max_rows``
    rows after the header is an error."""
    shown = str(path)

    def error(line: int, message: str) -> InputError:
        return InputError([Finding(shown, line, "", message)])

    try:
        size = os.stat(path).st_size
        if not Path(path).is_file():
            raise error(0, f"the {what} is not a file")
        if size > MAX_FILE_BYTES:
            raise error(
                0, f"{size / 2**20:.0f} MiB; a {what} file is read up to {MAX_FILE_BYTES // 2**20} MiB"
            )
        file = open(path, encoding=_encoding(path), newline="")
    except FileNotFoundError:
        raise error(0, "no such file") from None
    except OSError as failure:
        raise error(0, f"cannot be read ({failure.strerror})") from None
    line = 0
    with file:
        try:
            first = file.readline()
            reader = csv.reader(itertools.chain([first], file), delimiter=separator(first))
            for count, row in enumerate(reader):
                line = reader.line_num
                if count > max_rows:
                    raise error(line, f"more than {max_rows} rows; a {what} file holds at most {max_rows}")
                for cell in row:
                    if len(cell) > MAX_CELL_CHARS:
                        raise error(
                            line, f"a cell of {len(cell)} characters; a cell holds at most {MAX_CELL_CHARS}"
                        )
                    if "\0" in cell:
                        raise error(
                            line,
                            "a NUL character; save the file as CSV text (UTF-8, or UTF-16 "
                            "with a byte-order mark)",
                        )
                yield line, [read_back(cell) for cell in row]
        except UnicodeDecodeError:
            raise error(
                _undecodable_line(path), "not UTF-8 text; save the file as CSV UTF-8 (or Unicode text)"
            ) from None
        except csv.Error as failure:
            if "field larger" in str(failure):
                raise error(
                    line + 1,
                    f"a cell of more than {csv.field_size_limit()} characters; a cell "
                    f"holds at most {MAX_CELL_CHARS}",
                ) from None
            raise error(line + 1, f"not readable as CSV ({failure})") from None
