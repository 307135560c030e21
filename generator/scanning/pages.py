"""Scanned pages, one at a time: PDF pages rasterised with PDFium, PNG, JPEG and TIFF images.

Each page comes out as a grey ``uint8`` image no larger than ``MAX_SIDE`` pixels on its
long side (a 600 dpi scan of A4 is shrunk by 2, to 300 dpi; a 12-megapixel phone photo
by 2), so memory stays flat however many pages a file holds.
"""

from __future__ import annotations

from collections.abc import Iterator
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


@dataclass(frozen=True)
class Page:
    """One scanned page."""

    file: str
    """The file as the user named it."""
    number: int
    """1-based page of the file (1 for a single image)."""
    image: np.ndarray
    """Grey, uint8."""

    @property
    def where(self) -> str:
        return f"{self.file} page {self.number}"


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


def _pdf_pages(path: Path, shown: str) -> Iterator[Page]:
    import pypdfium2

    try:
        document = pypdfium2.PdfDocument(path)
    except pypdfium2.PdfiumError as error:
        raise InputError([Finding(shown, 0, "", f"cannot be read as a PDF ({error})")]) from None
    try:
        for index in range(len(document)):
            page = document[index]
            image = _scanned_image(page)
            if image is None:  # drawn, not scanned: rendered, at PDF_DPI or what MAX_SIDE allows
                width, height = page.get_size()
                bitmap = page.render(scale=min(PDF_DPI / 72, MAX_SIDE / max(width, height)), grayscale=True)
                image = np.array(bitmap.to_numpy(), copy=True)
                bitmap.close()
            page.close()
            yield Page(shown, index + 1, _shrunk(_grey(image)))
    finally:
        document.close()


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


def pages(path: Path) -> Iterator[Page]:
    """Every page of ``path``, in order; a file that is not a scan is a one-line error."""
    shown = str(path)
    if not Path(path).is_file():
        raise InputError([Finding(shown, 0, "", "no such file")])
    suffix = Path(path).suffix.lower()
    if suffix == ".pdf":
        yield from _pdf_pages(Path(path), shown)
        return
    if suffix not in IMAGE_SUFFIXES:
        raise InputError([Finding(shown, 0, "", "not a scan: give PDF, PNG, JPEG or TIFF files")])
    if suffix in (".tif", ".tiff"):  # one page at a time (OpenCV reads every page at once)
        from PIL import Image, ImageSequence, UnidentifiedImageError

        try:
            with Image.open(path) as tiff:
                for number, frame in enumerate(ImageSequence.Iterator(tiff), 1):
                    yield Page(shown, number, _shrunk(np.asarray(frame.convert("L"))))
        except (UnidentifiedImageError, OSError) as error:
            raise InputError([Finding(shown, 0, "", f"cannot be read as a TIFF image ({error})")]) from None
        return
    image = cv2.imread(str(path), cv2.IMREAD_GRAYSCALE)  # applies the EXIF orientation
    if image is None:
        raise InputError([Finding(shown, 0, "", f"cannot be read as a {suffix[1:].upper()} image")])
    yield Page(shown, 1, _shrunk(image))
