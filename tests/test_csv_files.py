"""The one CSV reader (rosters, responses) and writer (every CSV paperdeck writes),
the roster, and file names made from students' names."""

from __future__ import annotations

import codecs
import csv
import io
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from generator.documents.roster import read_roster
from generator.errors import InputError
from generator.files.csv_files import MAX_CELL_CHARS, csv_bytes, read_back, read_rows, safe_cell
from generator.files.file_names import MAX_STEM_BYTES, safe_stem, unique_name
from generator.grading.responses import MAX_RESPONSES

from .grading.classroom import write_key

PROJECT = Path(__file__).resolve().parents[1]


# -- writing ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "cell, written",
    [
        ("=SUM(A1)", "'=SUM(A1)"),
        ("+cmd|' /C calc'!A0", "'+cmd|' /C calc'!A0"),
        ("@x", "'@x"),
        ("-2+3", "'-2+3"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("-", "'-"),
        ("-2", "-2"),
        ("+0.5", "+0.5"),
        ("-1e-3", "-1e-3"),
        ("12.5", "12.5"),
        ("Ada Lovelace", "Ada Lovelace"),
        ("a=b", "a=b"),
        ("'=x", "''=x"),
        ("'Ofa", "'Ofa"),
        ("", ""),
    ],
)
def test_a_cell_a_spreadsheet_would_run_is_written_as_text_and_numbers_stay_numbers(
    cell: str, written: str
) -> None:
    assert safe_cell(cell) == written
    assert list(csv.reader(io.StringIO(csv_bytes([[cell]]).decode("utf-8"), newline="")))[0] == [written]


@given(st.text(max_size=12))
def test_every_cell_written_reads_back_as_it_was(text: str) -> None:
    assert read_back(safe_cell(text)) == text


@pytest.mark.parametrize("cell", ["'Ofa", "'-2", "'", "'a=b", "O'Brien"])
def test_an_apostrophe_the_writer_did_not_put_there_stays(cell: str) -> None:
    assert read_back(cell) == cell


# -- reading ---------------------------------------------------------------------


def roster(tmp_path: Path, data: bytes | str, name: str = "class.csv") -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def names(path: Path) -> list[tuple[str, str]]:
    return [(s.name, s.id) for s in read_roster(path)]


EXPECTED = [("Ada Lovelace", "17"), ("Alan, Turing", "18")]


@pytest.mark.parametrize(
    "data",
    [
        'name,id\nAda Lovelace,17\n"Alan, Turing",18\n',
        'name;id\r\nAda Lovelace;17\r\n"Alan, Turing";18\r\n',
        "Name\tID\nAda Lovelace\t17\nAlan, Turing\t18\n",
        codecs.BOM_UTF8 + b"student;email;id\nAda Lovelace;a@x;17\nAlan, Turing;t@x;18\n",
        codecs.BOM_UTF16_LE + "name\tid\r\nAda Lovelace\t17\r\nAlan, Turing\t18\r\n".encode("utf-16-le"),
        codecs.BOM_UTF16_BE + "name\tid\nAda Lovelace\t17\nAlan, Turing\t18\n".encode("utf-16-be"),
    ],
    ids=["comma", "semicolon", "tab", "bom-student-email", "utf16-le", "utf16-be"],
)
def test_a_roster_is_read_whatever_the_separator_and_encoding(tmp_path: Path, data: str | bytes) -> None:
    assert names(roster(tmp_path, data)) == EXPECTED


def test_a_header_of_other_words_is_a_header_and_names_are_kept_as_written(tmp_path: Path) -> None:
    assert names(roster(tmp_path, "student,email\n=SUM(A1),x@y\n  Zoë  Ødegård ,z@y\n")) == [
        ("=SUM(A1)", ""),
        ("Zoë  Ødegård", ""),
    ]
    assert names(roster(tmp_path, "Ada Lovelace,17\nGrace Hopper\n")) == [
        ("Ada Lovelace", "17"),
        ("Grace Hopper", ""),
    ]


def error_of(path: Path) -> str:
    with pytest.raises(InputError) as raised:
        names(path)
    return str(raised.value)


def test_a_roster_with_only_a_header_or_no_name_column_is_an_error(tmp_path: Path) -> None:
    path = roster(tmp_path, "name,id\n\n")
    assert error_of(path) == f"{path}:1: the roster has a header and no students"
    path = roster(tmp_path, "email,id\nx@y,1\n")
    assert error_of(path).startswith(f"{path}:1: the header names no column of names")
    path = roster(tmp_path, "\n\n")
    assert error_of(path) == f"{path}: the roster lists no students"


def test_duplicate_names_are_refused_with_their_lines(tmp_path: Path) -> None:
    path = roster(tmp_path, "name\nAda Lovelace\nBo\nada  lovelace\nBo\n")
    assert error_of(path).splitlines() == [
        f"{path}:4: name: 'ada  lovelace' is also on line 2; give every student a distinct name "
        "(grading tells students apart by name)",
        f"{path}:5: name: 'Bo' is also on line 3; give every student a distinct name "
        "(grading tells students apart by name)",
    ]


def test_a_huge_cell_a_nul_and_text_that_is_not_utf8_are_one_line_errors(tmp_path: Path) -> None:
    path = roster(tmp_path, "name\nAda\n" + "x" * 200_000 + "\n")
    assert error_of(path) == (
        f"{path}:3: a cell of more than {csv.field_size_limit()} characters; "
        f"a cell holds at most {MAX_CELL_CHARS}"
    )
    path = roster(tmp_path, "name\nAda\n" + "x" * (MAX_CELL_CHARS + 1) + "\n")
    assert (
        error_of(path) == f"{path}:3: a cell of {MAX_CELL_CHARS + 1} characters; a cell holds at most "
        f"{MAX_CELL_CHARS}"
    )
    path = roster(tmp_path, "name\nAda\nB\0b\n")
    assert error_of(path).startswith(f"{path}:3: a NUL character")
    path = roster(tmp_path, b"name\nAda\n" + "Zoë\n".encode("latin-1"))
    assert error_of(path) == f"{path}:3: not UTF-8 text; save the file as CSV UTF-8 (or Unicode text)"
    assert error_of(tmp_path / "missing.csv") == f"{tmp_path / 'missing.csv'}: no such file"
    assert error_of(tmp_path) == f"{tmp_path}: the roster is not a file"


GRADE_AND_PEAK = textwrap.dedent("""
    import sys
    from generator.cli import main
    code = main(["-q", "grade", sys.argv[1], sys.argv[2], "-o", sys.argv[3]])
    # VmHWM, not getrusage: ru_maxrss starts at the forking parent's size (a big pytest process)
    print(code, next(line.split()[1] for line in open("/proc/self/status") if line.startswith("VmHWM:")))
""")


def grade_and_peak(key: Path, responses: Path, out: Path) -> tuple[int, int, str]:
    """Exit code, peak memory (KiB) and stderr of ``paperdeck grade`` in a process of its own."""
    result = subprocess.run(
        [sys.executable, "-c", GRADE_AND_PEAK, str(key), str(responses), str(out)],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        timeout=120,
        check=True,
        cwd=out.parent,
    )  # -o creates a folder only inside cwd
    code, peak = result.stdout.split()
    return int(code), int(peak), result.stderr


def test_a_responses_file_of_100000_rows_is_refused_early_in_little_memory(tmp_path: Path) -> None:
    key = write_key(tmp_path / "key.json", versions=2)
    small = tmp_path / "two.csv"
    small.write_text("student,form\nAda,A\nBo,B\n", encoding="utf-8")
    path = tmp_path / "responses.csv"
    with open(path, "w", encoding="utf-8") as file:
        file.write("student,form,1,2,3\n")
        file.writelines(f"student {n},A,a,b,c\n" for n in range(100_000))
    code, baseline, _ = grade_and_peak(key, small, tmp_path / "g-small")  # the project, the key, a report
    assert code == 0
    code, peak, err = grade_and_peak(key, path, tmp_path / "g")
    assert code == 2
    assert err.splitlines() == [
        f"paperdeck: {path}:{MAX_RESPONSES + 2}: more than {MAX_RESPONSES} rows; "
        f"a responses file holds at most {MAX_RESPONSES}"
    ]
    assert peak - baseline < 50_000  # KiB: the rows read before the bound cost next to nothing
    assert not (tmp_path / "g").exists()


def test_rows_come_with_the_line_they_end_on(tmp_path: Path) -> None:
    path = roster(tmp_path, 'student,form\n"Ada\nLovelace",A\n\nBo,B\n')
    assert list(read_rows(path, "responses", 10)) == [
        (1, ["student", "form"]),
        (3, ["Ada\nLovelace", "A"]),
        (4, []),
        (5, ["Bo", "B"]),
    ]


# -- file names ------------------------------------------------------------------


def test_a_file_name_stem_is_safe_bounded_and_unique(tmp_path: Path) -> None:
    assert safe_stem("Ada Lovelace") == "ada-lovelace"
    assert safe_stem("../../etc/passwd") == "etc-passwd"
    assert safe_stem("=SUM(A1)") == "sum-a1"
    assert safe_stem("  ") == "student"
    assert safe_stem("CON") == "con-"
    assert safe_stem("王小明") == "王小明"
    long_name = "张" * 100
    stem = safe_stem(long_name)
    assert len(stem.encode("utf-8")) <= MAX_STEM_BYTES and stem.startswith("张" * 20)
    assert safe_stem("张" * 99 + "李") != stem  # the hash tells long names apart
    (tmp_path / f"{stem}.apkg").write_bytes(b"a name the file system takes")
    taken: set[str] = set()
    assert [unique_name(n, ".apkg", taken) for n in ("Ada", "ada", "ADA")] == [
        "ada.apkg",
        "ada-2.apkg",
        "ada-3.apkg",
    ]


def test_a_csv_written_as_excel_writes_it_reads_back_the_same(tmp_path: Path) -> None:
    from generator.files.csv_files import EXCEL, dialect_of

    rows = [["student", "note"], ["Жанна Ли", "0,5; 1,5"], ["=SUM(A1)", "a;b"]]
    path = tmp_path / "excel.csv"
    path.write_bytes(csv_bytes(rows, EXCEL))
    assert path.read_bytes().startswith(b"\xef\xbb\xbfstudent;note\r\n")
    assert dialect_of(path) == EXCEL
    assert [row for _, row in read_rows(path, "responses", 10)] == rows
