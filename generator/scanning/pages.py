"""Scanned pages, one at a time: PDF pages rasterised with PDFium, PNG, JPEG and TIFF images.

Each page comes out as a grey ``uint8`` image no larger than ``MAX_SIDE`` pixels on its
long side (a 600 dpi scan of A4 is shrunk by 2, to 300 dpi; a 12-megapixel phone photo
by 2), so memory stays flat however many pages a file holds.

Files are scans a teacher was handed, so each is bounded before it costs anything
(``check_files``, before any page is read): a regular file (not a folder, a pipe or a
device), at most ``MAX_FILE_BYTES``, a PDF or TIFF of at most ``MAX_PAGES`` pages. A
page is decoded only when its size, read from the file's header (an image's, or every
picture's on a PDF page), holds at most ``MAX_PIXELS`` (a JPEG is decoded at 1/2, 1/4 or
1/8 of its size to fit); a page too large, too small to be a sheet, broken or cut short is
a ``Page`` with a ``problem`` and no picture, which the run names and reads no further.
So one page costs at most about ``MAX_PIXELS`` × 7 bytes (280 MB) while it is decoded (a
colour TIFF: Pillow's four bytes a pixel and the grey copies; a colour PNG, whose colour
picture is freed first, five), whatever the file says: a 40-megapixel colour PNG peaks at
252 MB, the program included (tests/scanning/test_hostile_files.py).
"""

from __future__ import annotations

import os
import stat
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from ..errors import Finding, InputError

PDF_DPI = 200
"""Resolution a PDF page is rasterised at, unless it is one scanned picture (then read as it is)."""
MAX_SIDE = 3600
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff")
MAX_PIXELS = 40_000_000
"""Most pixels decoded for one page: a 600 dpi colour scan of A4 or Letter (35 Mpx) fits; a
larger JPEG (a 108-megapixel phone photo) is decoded at a half, a quarter or an eighth."""
MIN_SIDE = 400
"""Fewest pixels on a page's short side: an A4 sheet at 50 dpi; nothing smaller can be read."""
MAX_PAGES = 3_000
"""Most pages one PDF or TIFF holds: a class of 300 with ten pages each, question pages and
blank backs included (a page takes about 0.1 s, so a file takes at most about 5 minutes)."""
MAX_FILE_BYTES = 2 * 1024**3
"""Largest scan file read (2 GiB: 3,000 pages of 600 dpi grey scans)."""


@dataclass(frozen=True)
class Page:
    """One scanned page."""

    file: str
    """The file as the user named it."""
    number: int
    """1-based page of the file (1 for a single image)."""
    image: np.ndarray
    """Grey, uint8 (empty when the page has a problem)."""
    problem: str = ""
    """Why the page was not decoded ("" when it was): the run names it and reads no further."""

    @property
    def where(self) -> str:
        return f"{self.file} page {self.number}"


_NOTHING = np.zeros((0, 0), np.uint8)


def _unread(file: str, number: int, problem: str) -> Page:
    return Page(file, number, _NOTHING, problem)


def _shrunk(image: np.ndarray) -> np.ndarray:
    factor = -(-max(image.shape[:2]) // MAX_SIDE)  # whole factors: OpenCV averages those fast
    if factor == 1:
        return image
    return cv2.resize(image, None, fx=1 / factor, fy=1 / factor, interpolation=cv2.INTER_AREA)


def _grey(image: np.ndarray) -> np.ndarray:
    if image.ndim == 3:
        code = cv2.COLOR_BGRA2GRAY if image.shape[2] == 4 else cv2.COLOR_BGR2GRAY
        image = cv2.cvtColor(image, code)
    if image.dtype != np.uint8:  # 16-bit TIFF
        image = cv2.convertScaleAbs(image, alpha=255.0 / max(1, int(image.max())))
    return image


def _size_problem(width: int, height: int, what: str = "") -> str:
    """Why a picture of ``width`` × ``height`` pixels is not decoded ("" when it is)."""
    if width * height > MAX_PIXELS:
        return (
            f"{what}{width}×{height} pixels ({width * height / 1e6:.0f} megapixels): a page is read "
            f"up to {MAX_PIXELS / 1e6:.0f} megapixels (600 dpi A4 is 35); scan it at 300 dpi; "
            "not read"
        )
    if min(width, height) < MIN_SIDE:
        return (
            f"{what}{width}×{height} pixels: too small to be a sheet (at least {MIN_SIDE} pixels "
            "across); not read"
        )
    return ""


def _page(file: str, number: int, image: np.ndarray) -> Page:
    height, width = image.shape[:2]
    problem = _size_problem(width, height) if min(width, height) < MIN_SIDE else ""
    return _unread(file, number, problem) if problem else Page(file, number, _shrunk(_grey(image)))


def _pdf_pages(path: Path, shown: str) -> Iterator[Page]:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as error:
        raise InputError([Finding(shown, 0, "", f"cannot be read as a PDF ({error})")]) from None
    try:
        for index in range(min(len(document), MAX_PAGES)):
            try:
                page = document[index]
            except pypdfium2.PdfiumError as error:  # a page tree naming a missing object
                yield _unread(shown, index + 1, f"a broken PDF page ({error}); not read")
                continue
            try:
                yield _pdf_page(page, shown, index + 1)
            finally:
                page.close()
    finally:
        document.close()


def _pdf_page(page: Any, shown: str, number: int) -> Page:
    import pypdfium2

    # Every picture is measured before any is decoded: PDFium decodes a picture whole,
    # however small it is drawn (a 2 MB PDF can hold a 30000×30000 picture).
    pictures = list(page.get_objects(filter=(pypdfium2.raw.FPDF_PAGEOBJ_IMAGE,)))
    sizes = []
    for picture in pictures:
        try:
            sizes.append(picture.get_px_size())
        except pypdfium2.PdfiumError:
            sizes.append((0, 0))
    total = sum(w * h for w, h in sizes)
    if total > MAX_PIXELS:
        return _unread(
            shown,
            number,
            f"its pictures hold {total / 1e6:.0f} megapixels: a page is read "
            f"up to {MAX_PIXELS / 1e6:.0f} megapixels (600 dpi A4 is 35); "
            "scan it at 300 dpi; not read",
        )
    image = _scanned_image(page)
    if image is None:  # drawn, not scanned: rendered, at PDF_DPI or what MAX_SIDE allows
        width, height = page.get_size()
        if min(width, height) <= 0:
            return _unread(shown, number, "a PDF page with no size; not read")
        try:
            bitmap = page.render(scale=min(PDF_DPI / 72, MAX_SIDE / max(width, height)), grayscale=True)
        except pypdfium2.PdfiumError as error:
            return _unread(shown, number, f"a PDF page PDFium cannot draw ({error}); not read")
        image = np.array(bitmap.to_numpy(), copy=True)
        bitmap.close()
    return _page(shown, number, image)


def _scanned_image(page: Any) -> np.ndarray | None:
    """The page's picture as the scanner made it, when the page is one picture and nothing else.

    Six times faster than rendering the page (no scaling, no compositing); where the PDF
    turns or scales the picture does not matter, the sheet is found at any angle and size."""
    import pypdfium2

    objects = list(page.get_objects())
    if len(objects) != 1 or objects[0].type != pypdfium2.raw.FPDF_PAGEOBJ_IMAGE:
        return None
    try:
        bitmap = objects[0].get_bitmap(render=False)
    except pypdfium2.PdfiumError:
        return None
    image = np.array(bitmap.to_numpy(), copy=True)  # the bitmap is PDFium's: it frees it with the page
    return image if image.dtype == np.uint8 and image.ndim in (2, 3) else None


def _open_image(path: Path) -> Any:
    """The image at ``path`` opened by Pillow, which reads its header only (its size)."""
    from PIL import Image

    # Pillow's own bomb check refuses what it finds too large without saying its size; the
    # sizes are checked here, against MAX_PIXELS, before anything is decoded.
    saved = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            return Image.open(path)
    finally:
        Image.MAX_IMAGE_PIXELS = saved


def _image_pages(path: Path, shown: str, suffix: str) -> Iterator[Page]:
    from PIL import Image, ImageSequence, UnidentifiedImageError

    kind = {".tif": "TIFF", ".tiff": "TIFF", ".jpg": "JPEG"}.get(suffix, suffix[1:].upper())
    try:
        image = _open_image(path)
    except (UnidentifiedImageError, OSError, ValueError) as error:
        yield _unread(shown, 1, f"cannot be read as a {kind} image ({error}); not read")
        return
    kind = image.format or kind
    with image:
        if image.format == "TIFF":  # one page at a time (OpenCV reads every page at once)
            number = 0
            try:
                for number, frame in enumerate(ImageSequence.Iterator(image), 1):
                    if number > MAX_PAGES:
                        break
                    problem = _size_problem(*frame.size)
                    yield (
                        _unread(shown, number, problem)
                        if problem
                        else _page(shown, number, _pillow_grey(frame))
                    )
            except (OSError, ValueError, Image.DecompressionBombError) as error:
                yield _unread(shown, number + 1, f"cannot be read as a TIFF image ({error}); not read")
            return
        width, height = image.size
        if image.format == "JPEG":  # decoded smaller by the JPEG decoder itself, to fit MAX_PIXELS
            reduce = 1
            while reduce < 8 and width * height > MAX_PIXELS * reduce * reduce:
                reduce *= 2
            image.draft("L", (width // reduce, height // reduce))
            width, height = image.size
        problem = _size_problem(width, height)
        if problem:
            yield _unread(shown, 1, problem)
            return
        try:
            grey = _pillow_grey(image, release=True)
        except (OSError, ValueError, SyntaxError) as error:  # cut short, a broken stream
            yield _unread(
                shown, 1, f"cannot be read as a {kind} image: broken or cut short ({error}); not read"
            )
            return
    yield _page(shown, 1, grey)


def _pillow_grey(image: Any, release: bool = False) -> np.ndarray:
    """A Pillow image (or TIFF frame) as grey ``uint8``; 16- and 32-bit images stretched to 8 bits.
    With ``release``, the decoded colour picture (four bytes a pixel) is freed before the grey one
    is copied out: a page peaks at five bytes a pixel, not seven."""
    image.load()
    if image.mode in ("I;16", "I;16B", "I;16L", "I", "F"):
        return _grey(np.asarray(image))
    grey = image if image.mode == "L" else image.convert("L")
    if release and grey is not image:
        image.close()
    return np.asarray(grey)


def _kind_of_file(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _check_file(path: Path) -> str:
    """What is wrong with ``path`` as a scan file, before any page is read ("" when nothing is)."""
    try:
        status = os.stat(path)  # follows a link: a link to /dev/zero is a device
    except FileNotFoundError:
        return "no such file"
    except OSError as error:
        return f"cannot be read ({error.strerror})"
    if not stat.S_ISREG(status.st_mode):
        return f"{_kind_of_file(status.st_mode)}, not a scan: give PDF, PNG, JPEG or TIFF files"
    suffix = path.suffix.lower()
    if suffix != ".pdf" and suffix not in IMAGE_SUFFIXES:
        return "not a scan: give PDF, PNG, JPEG or TIFF files"
    if status.st_size > MAX_FILE_BYTES:
        return (
            f"{status.st_size / 2**30:.1f} GiB; a scan file is read up to "
            f"{MAX_FILE_BYTES // 2**30} GiB: split it"
        )
    if not os.access(path, os.R_OK):
        return "cannot be read (permission denied)"
    if suffix == ".pdf":
        return _check_pdf(path)
    if suffix in (".tif", ".tiff"):
        return _check_tiff(path)
    return ""


def _check_tiff(path: Path) -> str:
    try:
        with _open_image(path) as image:
            count = int(getattr(image, "n_frames", 1))
    except Exception:  # noqa: BLE001 (Pillow raises many kinds): a broken TIFF is named when read
        return ""
    if count > MAX_PAGES:
        return f"{count} pages; a scan file is read up to {MAX_PAGES} pages: split it"
    return ""


def _check_pdf(path: Path) -> str:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as error:
        return f"cannot be read as a PDF ({error})"
    try:
        count = len(document)
    finally:
        document.close()
    if count > MAX_PAGES:
        return f"{count} pages; a scan file is read up to {MAX_PAGES} pages: split it"
    return ""


def check_files(paths: Iterable[Path]) -> None:
    """Every file that cannot be a scan, as one-line errors, before any page is read."""
    problems = [Finding(str(path), 0, "", problem) for path in paths if (problem := _check_file(Path(path)))]
    if problems:
        raise InputError(problems)


def pages(path: Path) -> Iterator[Page]:
    """Every page of ``path``, in order; a file that is not a scan is a one-line error, a page
    that cannot be read a ``Page`` with its ``problem``."""
    shown = str(path)
    problem = _check_file(Path(path))
    if problem:
        raise InputError([Finding(shown, 0, "", problem)])
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        yield from _pdf_pages(Path(path), shown)
    else:
        yield from _image_pages(Path(path), shown, suffix)
