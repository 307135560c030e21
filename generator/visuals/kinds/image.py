"""A figure of the paper shown from an image file of the content.

For what cannot be drawn from the paper's math: the appendix's attention visualisations
(Figures 3 to 5), which the paper's source has as PDFs and the content keeps as PNGs.
Content names the file relative to its ``content/`` folder (``figures/figure-3.png``); the
content loader checks that it is there and fills in ``path`` (where it is) and ``sha256``
(what it holds, so that a changed file is a new figure for the cache). The image is shown
at the house width with its aspect kept.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..registry import Param, ParamError, VisualError, visual
from ..style import DPI, WIDTH_IN

if TYPE_CHECKING:
    from matplotlib.figure import Figure

MAX_IMAGE_BYTES = 8 * 1024 * 1024
"""Largest image file read: the three appendix figures are 30 to 210 kB."""
MAX_PIXELS = 4096 * 4096
"""Most pixels an image may decode to (a small file can claim a huge image)."""
_FILE = re.compile(r"[a-z0-9][a-z0-9._-]*(?:/[a-z0-9][a-z0-9._-]*)*\.(?:png|jpe?g)")
_SIGNATURES = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff")


def content_file(value: Any) -> str:
    """a file under the content folder: lowercase path like figures/figure-3.png (PNG or JPEG)"""
    if not isinstance(value, str) or not _FILE.fullmatch(value) or ".." in value.split("/"):
        raise ParamError(
            "expected a .png or .jpg file under content/ as a relative path of lowercase "
            f"names, such as figures/figure-3.png, got {value!r}"
        )
    return value


def filled_in(value: Any) -> str:
    """filled in by paperdeck from file; leave it out"""
    if not isinstance(value, str) or len(value) > 4096:
        raise ParamError(f"is filled in by paperdeck from file; leave it out, got {value!r}")
    return value


def resolve(params: dict[str, Any], content: Path) -> tuple[dict[str, Any], str]:
    """``params`` with ``path`` and ``sha256`` filled in from ``file`` under the folder
    ``content``, and "" ; or the params unchanged and what is wrong with the file."""
    file = params.get("file")
    if not isinstance(file, str):
        return params, ""  # the parameter check reports it
    root = content.resolve()
    path = (root / file).resolve()
    if not path.is_relative_to(root):
        return params, f"{file} leads outside the content folder"
    try:
        if not path.is_file():
            return params, f"no file content/{file}"
        if path.stat().st_size > MAX_IMAGE_BYTES:
            return params, f"content/{file} is over {MAX_IMAGE_BYTES // (1024 * 1024)} MB"
        data = path.read_bytes()
    except OSError as error:
        return params, f"content/{file} cannot be read: {error.strerror}"
    if not data.startswith(_SIGNATURES):
        return params, f"content/{file} is not a PNG or JPEG image"
    return {**params, "path": str(path), "sha256": hashlib.sha256(data).hexdigest()}, ""


@visual(
    "image",
    "An image file of the content (PNG or JPEG), shown at the house width",
    params={
        "file": Param(content_file),
        "path": Param(filled_in, default=""),
        "sha256": Param(filled_in, default=""),
    },
)
def draw(p: dict[str, Any]) -> Figure:
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from PIL import Image

    if not p["path"]:
        raise VisualError([f"visual image: {p['file']} was not found by the content loader"])
    data = Path(p["path"]).read_bytes()
    if p["sha256"] and hashlib.sha256(data).hexdigest() != p["sha256"]:
        raise VisualError([f"visual image: {p['file']} changed after the content was loaded"])
    import io

    with Image.open(io.BytesIO(data)) as image:
        if image.width * image.height > MAX_PIXELS:
            raise VisualError([f"visual image: {p['file']} has over {MAX_PIXELS} pixels"])
        pixels = np.asarray(image.convert("RGB"))
    height, width = pixels.shape[:2]
    fig = Figure(figsize=(WIDTH_IN, WIDTH_IN * height / width), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.0, 0.0, 1.0, 1.0))
    ax.imshow(pixels, interpolation="antialiased")
    ax.set_axis_off()
    return fig
