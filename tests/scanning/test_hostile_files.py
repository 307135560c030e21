"""``paperdeck scan`` on hostile and broken files: decompression bombs (PNG, TIFF, a picture
inside a one-page PDF), a 2-pixel-wide image, a 10,000-page PDF, a page tree naming a missing
object, a JPEG cut after its header, a folder, a named pipe and a link to /dev/zero.

Each is a one-line error (a file that cannot be a scan) or a page named in the review file
(a page that cannot be read), never a traceback, a blank page or "nothing to check"; the
whole stack runs in a child process whose peak memory and time are measured. The files are
built here, small on disk: the bombs hold real, decodable zeros.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
import time
import zlib
from pathlib import Path

import cv2
import numpy as np
import pikepdf
import pytest

from generator.cli import main
from generator.scanning.pages import MAX_PAGES, MAX_PIXELS, Page, pages

PROJECT = Path(__file__).resolve().parents[2]

PEAK_MEMORY_MB = 400
"""The hostile stack's peak memory (the whole process: Python, NumPy, OpenCV, PDFium, zxing)."""
SECONDS = 60


def deflated_zeros(length: int) -> bytes:
    """A zlib stream of ``length`` zero bytes, made without holding them: identical blocks
    flushed in full compress to identical bytes, so one block is repeated."""
    block = 1 << 22
    compressor = zlib.compressobj(9)
    first = compressor.compress(bytes(block)) + compressor.flush(zlib.Z_FULL_FLUSH)
    again = compressor.compress(bytes(block)) + compressor.flush(zlib.Z_FULL_FLUSH)
    whole, rest = divmod(length, block)
    tail = zlib.compressobj(9)
    tail_bytes = tail.compress(bytes(rest)) + tail.flush(zlib.Z_FINISH)
    checksum = (length % 65521) << 16 | 1  # Adler-32 of zeros: the first sum stays 1, the second counts
    body = first + again * (whole - 1) if whole else b""
    raw_tail = tail_bytes[2:-4]  # the tail's own deflate blocks, without its header and checksum
    return first[:2] + body[2:] + raw_tail + struct.pack(">I", checksum) if whole else tail_bytes


def png_of_zeros(path: Path, width: int, height: int, colour: bool = False) -> Path:
    """A grey (or RGB) PNG of ``width`` × ``height`` black pixels (each row: its filter byte, then zeros)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    channels = 3 if colour else 1
    header = struct.pack(">IIBBBBB", width, height, 8, 2 if colour else 0, 0, 0, 0)
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", deflated_zeros(height * (width * channels + 1)))
        + chunk(b"IEND", b"")
    )
    return path


def tiff_of_zeros(path: Path, side: int) -> Path:
    """A grey TIFF of ``side`` × ``side`` black pixels in one deflated strip."""
    strip = deflated_zeros(side * side)
    entries = [
        (256, 4, side),
        (257, 4, side),
        (258, 3, 8),
        (259, 3, 8),
        (262, 3, 1),
        (273, 4, 8),
        (277, 3, 1),
        (278, 4, side),
        (279, 4, len(strip)),
    ]
    ifd_offset = 8 + len(strip)
    ifd = struct.pack("<H", len(entries))
    for tag, kind, value in entries:
        ifd += struct.pack("<HHI", tag, kind, 1) + (
            struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
        )
    path.write_bytes(b"II*\0" + struct.pack("<I", ifd_offset) + strip + ifd + struct.pack("<I", 0))
    return path


def pdf_with_huge_picture(path: Path, side: int) -> Path:
    """A one-page PDF (A4) whose one picture is ``side`` × ``side`` grey pixels, deflated."""
    pdf = pikepdf.new()
    image = pikepdf.Stream(pdf, b"")
    image.write(deflated_zeros(side * side), filter=pikepdf.Name.FlateDecode)
    image.Type, image.Subtype = pikepdf.Name.XObject, pikepdf.Name.Image
    image.Width = image.Height = side
    image.ColorSpace, image.BitsPerComponent = pikepdf.Name.DeviceGray, 8
    page = pdf.add_blank_page(page_size=(595, 842))
    page.Resources = pikepdf.Dictionary(XObject=pikepdf.Dictionary(Im0=image))
    page.Contents = pikepdf.Stream(pdf, b"q 595 0 0 842 0 0 cm /Im0 Do Q")
    pdf.save(path)
    return path


def pdf_of_pages(path: Path, count: int) -> Path:
    pdf = pikepdf.new()
    for _ in range(count):
        pdf.add_blank_page(page_size=(595, 842))
    pdf.save(path, object_stream_mode=pikepdf.ObjectStreamMode.generate)
    return path


def pdf_naming_a_missing_page(path: Path) -> Path:
    """A two-page PDF whose page tree names object 9 as its second page; there is no object 9."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R 9 0 R] /Count 2 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>",
    ]
    out = bytearray(b"%PDF-1.7\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    start = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, start)
    path.write_bytes(bytes(out))
    return path


def jpeg_cut_after_header(path: Path) -> Path:
    """A real JPEG of a page with some ink, cut just after its start-of-scan header."""
    image = np.full((1400, 1000), 250, np.uint8)
    cv2.putText(image, "not blank", (100, 700), cv2.FONT_HERSHEY_SIMPLEX, 4, 0, 12)
    data = cv2.imencode(".jpg", image)[1].tobytes()
    start_of_scan = data.index(b"\xff\xda")
    (header_length,) = struct.unpack(">H", data[start_of_scan + 2 : start_of_scan + 4])
    path.write_bytes(data[: start_of_scan + 2 + header_length])
    return path


def page_stack(folder: Path) -> dict[str, Path]:
    """Files whose pages cannot be read: each is named in the review, the others are read."""
    folder.mkdir()
    narrow = folder / "narrow.png"
    cv2.imwrite(str(narrow), np.full((4000, 2), 255, np.uint8))
    return {
        "bomb-32000.png": png_of_zeros(folder / "bomb-32000.png", 32000, 32000),
        "bomb-50000.png": png_of_zeros(folder / "bomb-50000.png", 50000, 50000),
        "narrow.png": narrow,
        "bomb.tif": tiff_of_zeros(folder / "bomb.tif", 20000),
        "bomb.pdf": pdf_with_huge_picture(folder / "bomb.pdf", 30000),
        "missing-object.pdf": pdf_naming_a_missing_page(folder / "missing-object.pdf"),
        "cut.jpg": jpeg_cut_after_header(folder / "cut.jpg"),
    }


def test_the_bombs_are_small_on_disk_and_real(tmp_path: Path) -> None:
    files = page_stack(tmp_path / "stack")
    assert max(path.stat().st_size for path in files.values()) < 4 * 2**20
    assert zlib.decompress(deflated_zeros(3 * (1 << 22) + 5)) == bytes(3 * (1 << 22) + 5)
    small = png_of_zeros(tmp_path / "small.png", 3000, 2000)  # the same writer, decodable
    assert cv2.imread(str(small), cv2.IMREAD_GRAYSCALE).shape == (2000, 3000)
    small_tiff = tiff_of_zeros(tmp_path / "small.tif", 1000)
    from PIL import Image

    with Image.open(small_tiff) as tiff:
        assert tiff.size == (1000, 1000) and np.asarray(tiff).max() == 0
    with pikepdf.open(files["bomb.pdf"]) as pdf:
        assert int(pdf.pages[0].Resources.XObject.Im0.Width) == 30000


CHILD = """
import re, sys, time
from generator.cli import main
start = time.perf_counter()
code = main(sys.argv[1:])
seconds = time.perf_counter() - start
with open("/proc/self/status") as status:  # the peak of this program only (ru_maxrss counts the parent's
    peak = int(re.search(r"VmHWM:\\s+(\\d+) kB", status.read()).group(1))  # pages before exec)
print(f"\\nMEASURED {code} {peak / 1024:.0f} {seconds:.2f}", file=sys.stderr)
"""


def run_measured(*args: str) -> tuple[int, str, float, float]:
    """``paperdeck ARGS`` in a child process: exit code, stderr, peak memory (MB) and seconds."""
    done = subprocess.run(
        [sys.executable, "-c", CHILD, *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        cwd=PROJECT,
    )
    *lines, measured = done.stderr.rstrip().splitlines()
    _, code, memory, seconds = measured.split()
    return int(code), "\n".join(lines), float(memory), float(seconds)


def test_pages_that_cannot_be_read_are_named_within_bounded_memory_and_time(printed, tmp_path: Path) -> None:
    key = printed("attention").key
    files = page_stack(tmp_path / "stack")
    out = tmp_path / "out" / "responses.csv"
    code, err, memory, seconds = run_measured("scan", str(key), *map(str, files.values()), "-o", str(out))
    print(f"hostile page stack: peak {memory:.0f} MB, {seconds:.1f} s")
    assert code == 0, err
    assert "Traceback" not in err
    assert memory < PEAK_MEMORY_MB and seconds < SECONDS
    review = out.with_name("responses.review.html").read_text(encoding="utf-8")
    assert "nothing to check" not in review
    assert "<strong>7 to check</strong>" in review  # every file once; the first page of two is blank
    assert "read 8 pages: 0 sheets" in err and "7 to check" in err
    named = {
        "bomb-32000.png page 1": "32000×32000 pixels (1024 megapixels)",
        "bomb-50000.png page 1": "50000×50000 pixels (2500 megapixels)",
        "narrow.png page 1": "2×4000 pixels: too small to be a sheet",
        "bomb.tif page 1": "20000×20000 pixels (400 megapixels)",
        "bomb.pdf page 1": "its pictures hold 900 megapixels",
        "missing-object.pdf page 2": "a broken PDF page",
        "cut.jpg page 1": "cannot be read as a JPEG image: broken or cut short",
    }
    for where, message in named.items():
        assert f"{tmp_path}/stack/{where}" in review
        assert message in review, message
    assert out.read_text(encoding="utf-8").splitlines()[1:] == []


def test_each_page_problem_is_one_line(tmp_path: Path) -> None:
    files = page_stack(tmp_path / "stack")
    for name, path in files.items():
        read = list(pages(path))
        problems = [page for page in read if page.problem]
        assert problems, name
        for page in problems:
            assert "\n" not in page.problem and page.image.size == 0
            assert page.problem.endswith("not read")
    (first, second) = list(pages(files["missing-object.pdf"]))
    assert not first.problem and first.image.shape[0] > 1000  # the page that is there is read (blank)
    assert "megapixels" in next(iter(pages(files["bomb-32000.png"]))).problem
    assert str(MAX_PIXELS // 10**6) in next(iter(pages(files["bomb.tif"]))).problem


def test_a_large_jpeg_is_decoded_smaller_not_refused(tmp_path: Path) -> None:
    """A 108-megapixel phone photo fits ``MAX_PIXELS`` decoded at half its size."""
    photo = tmp_path / "phone.jpg"
    image = np.full((9000, 12000), 240, np.uint8)
    cv2.imwrite(str(photo), image, [cv2.IMWRITE_JPEG_QUALITY, 50])
    (page,) = pages(photo)
    assert page.problem == ""
    assert max(page.image.shape) <= 3600


def test_files_that_cannot_be_scans_are_one_line_errors_before_any_page_is(printed, tmp_path: Path) -> None:
    key = printed("attention").key
    folder = tmp_path / "folder.pdf"
    folder.mkdir()
    pipe = tmp_path / "pipe.png"
    os.mkfifo(pipe)
    zero = tmp_path / "zero.tif"
    zero.symlink_to("/dev/zero")
    many = pdf_of_pages(tmp_path / "many.pdf", 10_000)
    assert many.stat().st_size < 2 * 2**20
    code, err, memory, seconds = run_measured("scan", str(key), str(folder), str(pipe), str(zero), str(many))
    print(f"hostile file errors: peak {memory:.0f} MB, {seconds:.1f} s")
    assert code == 2
    assert seconds < 10 and memory < PEAK_MEMORY_MB
    assert err.strip().splitlines() == [
        f"paperdeck: {folder}: a folder, not a scan: give PDF, PNG, JPEG or TIFF files",
        f"paperdeck: {pipe}: a named pipe, not a scan: give PDF, PNG, JPEG or TIFF files",
        f"paperdeck: {zero}: a device, not a scan: give PDF, PNG, JPEG or TIFF files",
        f"paperdeck: {many}: 10000 pages; a scan file is read up to {MAX_PAGES} pages: split it",
    ]


def test_a_folder_given_to_grade_or_scan_is_a_one_line_error(printed, tmp_path: Path, capsys) -> None:
    """A teacher who gives the folder of scans, or a folder for the key, reads one line, not click's
    usage text."""
    key = printed("attention").key
    folder = tmp_path / "scans"
    folder.mkdir()
    cases = {
        (
            "grade",
            str(key),
            "--scans",
            str(folder),
        ): f"{folder}: a folder, not a scan: give PDF, PNG, JPEG or TIFF files",
        ("grade", str(key), str(folder)): f"{folder}: a folder, not a RESPONSES.csv (scans: add --scans)",
        (
            "scan",
            str(key.parent),
            str(folder),
        ): f"{key.parent}: a folder; give the <quiz>-key.json that paperdeck quiz wrote",
        (
            "grade",
            str(key.parent),
            str(tmp_path / "answers.csv"),
        ): f"{key.parent}: a folder; give the <quiz>-key.json that paperdeck quiz wrote",
    }
    for argv, message in cases.items():
        assert main(list(argv)) == 2, argv
        assert capsys.readouterr().err.strip().splitlines()[-1:] == [f"paperdeck: {message}"], argv


def test_a_run_where_every_page_is_unreadable_is_not_nothing_to_check(printed, tmp_path, capsys) -> None:
    key = printed("attention").key
    cut = jpeg_cut_after_header(tmp_path / "cut.jpg")
    out = tmp_path / "responses.csv"
    assert main(["scan", str(key), str(cut), "-o", str(out)]) == 0
    assert "1 to check" in capsys.readouterr().err
    review = out.with_name("responses.review.html").read_text(encoding="utf-8")
    assert "nothing to check" not in review and "Blank pages" not in review


def test_an_unreadable_page_is_flagged_not_blank(printed) -> None:
    from generator.scanning.scan import read_scan_key, scan_pages

    scanned = scan_pages(
        read_scan_key(printed("attention").key),
        [Page("x.jpg", 1, np.zeros((0, 0), np.uint8), "cannot be read; not read")],
    )
    assert scanned.blank == []
    assert [flag.line for flag in scanned.flags] == ["x.jpg page 1: cannot be read; not read"]


@pytest.mark.parametrize("name", ["scan.png", "scan.pdf"])
def test_an_empty_file_is_named(printed, tmp_path: Path, name: str, capsys) -> None:
    empty = tmp_path / name
    empty.write_bytes(b"")
    started = time.perf_counter()
    code = main(["scan", str(printed("attention").key), str(empty), "-o", str(tmp_path / "r.csv")])
    assert time.perf_counter() - started < 10
    err = capsys.readouterr().err
    assert "Traceback" not in err
    if name.endswith(".pdf"):
        assert code == 2 and f"paperdeck: {empty}: cannot be read as a PDF" in err
    else:
        assert code == 0 and "1 to check" in err


PAGE_CHILD = """
import re, sys
from pathlib import Path
from generator.scanning.pages import pages
for page in pages(Path(sys.argv[1])):
    print(page.problem or page.image.shape)
with open("/proc/self/status") as status:
    print(int(re.search(r"VmHWM:\\s+(\\d+) kB", status.read()).group(1)) // 1024)
"""


@pytest.mark.parametrize("make", ["png", "jpeg"])
def test_the_largest_page_read_stays_within_the_memory_bound(tmp_path: Path, make: str) -> None:
    """A colour PNG of just under ``MAX_PIXELS`` (decoded whole) and a 108-megapixel JPEG (decoded
    at half its size): each read in well under 400 MB (docs/scanning.md: about 7 bytes a pixel of
    ``MAX_PIXELS`` over the program's own 60 MB)."""
    side = int(MAX_PIXELS**0.5) - 1
    if make == "png":
        path = png_of_zeros(tmp_path / "large.png", side, side, colour=True)
    else:
        path = tmp_path / "large.jpg"
        cv2.imwrite(str(path), np.full((9000, 12000), 240, np.uint8), [cv2.IMWRITE_JPEG_QUALITY, 50])
    done = subprocess.run(
        [sys.executable, "-c", PAGE_CHILD, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(PROJECT)},
        cwd=PROJECT,
    )
    shape, peak = done.stdout.split("\n")[:2]
    print(f"{make}: peak {peak} MB")
    assert shape.startswith("("), done.stdout + done.stderr  # read, not refused
    assert int(peak) < 400
