"""Typst source to PDF bytes: the shared template, paper sizes and compilers.

Compiles in memory with only fonts that ship in Python packages, never the
machine's (the same glyphs on every machine, so builds are byte-identical): those
the ``typst`` package embeds (Libertinus Serif, New Computer Modern and its math)
and the Noto fonts of ``manimgx-fonts`` and ``manimgx-fonts-cjk``, so that a name
in any script prints (quiz.typ lists the order in which they are tried). The
fonts are found once per process and shared by every compiler. Stamps the build
time and compiles many documents on one thread per core.

Typst lets a document read files under its root folder (``#read``, ``#image``).
Escaping is meant to keep author text from ever becoming Typst code; should it
fail, the root still holds nothing to steal: each compiler's root is a private
folder of its own holding only the template and the drawn figures of the questions
it printed (never the current folder, where ``.paperdeck-secret`` lives), and a document that shows files (the guide's figures)
gets a fresh folder holding copies of exactly those files and the template
(``staged_root``).
"""

from __future__ import annotations

import atexit
import contextlib
import functools
import os
import shutil
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import cast

import typst as typst_compiler

from ...files.atomic import temporary_folder
from .markup import string

PAPERS = {"a4": "a4", "letter": "us-letter"}
"""Paper size names of the exporters' options, as Typst names them."""
TEMPLATE_FILE = "quiz.typ"
TEMPLATE = resources.files(__package__).joinpath(TEMPLATE_FILE).read_text(encoding="utf-8")
"""The page set-up and the functions (``#item``, ``#key-block``, …) every document uses: a
file in every compiler's root, which each document imports (``USE_TEMPLATE``). Typst then
evaluates it once per process, not once per document: a short document took 2.1 ms
against 3.4 with the template written into it."""
USE_TEMPLATE = f'#import "/{TEMPLATE_FILE}": *\n'


def preamble(
    paper: str, title: str, running: str, heading: str | None = None, page_numbers: bool = True
) -> str:
    """The template set up for one document: paper size, title (plain text, the PDF's
    metadata), running header and footer (markup), the title in the header (markup,
    math typeset; default the plain title) and, unless it prints in parts, page numbers."""
    shown = "[" + heading + "]" if heading is not None else string(title)
    numbers = "" if page_numbers else ", page-numbers: false"
    return (
        USE_TEMPLATE
        + "#show: sheet.with(paper: "
        + string(PAPERS[paper])
        + ", title: "
        + string(title)
        + ", heading: "
        + shown
        + ", running: "
        + running
        + numbers
        + ")\n"
    )


FONT_PACKAGES = ("manimgx_fonts", "manimgx_fonts_cjk")
"""Packages whose folders hold the fonts every document may use besides Typst's own."""


@functools.lru_cache(maxsize=1)
def fonts() -> typst_compiler.Fonts:
    """The fonts of every compiler in this process, found once: Typst's own and ``FONT_PACKAGES``'.

    Typst reads a font file only when a document first uses one of its glyphs, so a
    quiz of Latin names never loads the 32 MB CJK collection.
    """
    folders = [str(resources.files(package)) for package in FONT_PACKAGES]
    return typst_compiler.Fonts(include_system_fonts=False, include_embedded_fonts=True, font_paths=folders)


def pdf_bytes(compiler: typst_compiler.Compiler, source: str, timestamp: int, tags: bool = True) -> bytes:
    """Typst source compiled by ``compiler`` to one PDF, in memory; ``tags`` False: without the
    tags (structure) that let a screen reader read the PDF in order.

    With format "pdf" and no output path, ``Compiler.compile`` returns the PDF's
    bytes; its declared ``bytes | list[bytes] | None`` also covers writing to a
    file (None) and PNG or SVG output, one image per page (a list). A font the
    template names but Typst cannot find is a broken installation, not a layout
    to print: it raises.
    """
    pdf, warnings = compiler.compile_with_warnings(
        source.encode("utf-8"), format="pdf", timestamp=timestamp, pdf_tags=tags
    )
    unknown = [w.message for w in warnings if "unknown font family" in w.message]
    if unknown:
        raise RuntimeError(
            f"Typst is missing a font ({'; '.join(unknown)}): reinstall paperdeck's"
            f" dependencies ({', '.join(FONT_PACKAGES)})"
        )
    return cast(bytes, pdf)


_LOCAL = threading.local()
TEMPORARY_PREFIX = "paperdeck-typst-"
"""Compilers' root folders in the system's temporary folder: ``paperdeck-typst-<pid>-<tag>``."""
# Below this many documents, one thread is as fast.
_PARALLEL_FROM = 3
_POOL: ThreadPoolExecutor | None = None


def _put_template(folder: Path) -> Path:
    """``folder``, with the template in it for the documents compiled there to import."""
    (folder / TEMPLATE_FILE).write_text(TEMPLATE, encoding="utf-8")
    return folder


@contextlib.contextmanager
def staged_root(files: Iterable[Path] = ()) -> Iterator[Path]:
    """A new private folder (0700) holding the template and copies of ``files`` under their
    names, for a compiler's root; removed afterwards."""
    folder, remove = temporary_folder(TEMPORARY_PREFIX)
    try:
        for path in files:
            shutil.copyfile(path, folder / path.name)
        yield _put_template(folder)
    finally:
        remove()


def compiler(root: Path) -> typst_compiler.Compiler:
    """A compiler that reads nothing outside ``root`` (made by ``staged_root`` or
    ``_compiler``), with the shared fonts and none of the machine's."""
    return typst_compiler.Compiler(root=str(root), font_paths=fonts(), ignore_system_fonts=True)


def _compiler() -> typst_compiler.Compiler:
    """This thread's compiler: reusing one lets Typst keep its fonts and cached layout.
    Its root (``_LOCAL.root``) is a private folder holding the template (and the drawn figures
    documents compiled there showed, ``compile_pdf``), removed when the process ends (or, if it
    is killed, by the next run: ``atomic.temporary_folder``)."""
    found = getattr(_LOCAL, "compiler", None)
    if found is None:
        root, remove = temporary_folder(TEMPORARY_PREFIX)
        atexit.register(remove)
        found = _LOCAL.compiler = compiler(_put_template(root))
        _LOCAL.root = root
    return found


def compile_pdf(source: str, timestamp: int, tags: bool = True, files: Iterable[Path] = ()) -> bytes:
    """PDF bytes for generated Typst source (``tags``: as ``pdf_bytes``); ``files``: drawn figures
    the document shows, copied under their names into the compiler's root first (named by what
    they hold, so a copy left there by an earlier document is the same file)."""
    typst = _compiler()
    root: Path = _LOCAL.root
    for path in files:
        if not (root / path.name).exists():
            shutil.copyfile(path, root / path.name)
    try:
        return pdf_bytes(typst, source, timestamp, tags)
    except typst_compiler.TypstError as error:  # a bug here: author text is always escaped
        raise RuntimeError(f"Typst could not compile a generated document: {error.diagnostic}") from error


def _pool() -> ThreadPoolExecutor:
    """Threads that live as long as the process, so that their compilers stay warm."""
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=os.cpu_count() or 1, thread_name_prefix="typst")
    return _POOL


def parallelism() -> int:
    """How many documents compile at once."""
    return os.cpu_count() or 1


def submit(job: Callable[[], bytes]) -> Future[bytes]:
    """Run ``job`` (a compile) on the pool's threads; its compiler stays warm there."""
    return _pool().submit(job)


def write_each(
    jobs: Iterable[tuple[Path, Callable[[], bytes]]],
    width: int,
    write: Callable[[Path, bytes], object] = Path.write_bytes,
) -> Iterator[tuple[Path, bytes]]:
    """Run each job (a compile) on the pool with at most ``width`` waiting; ``write`` each
    result to its path as it comes, in the jobs' order, so memory stays flat; each path and
    what was written there."""
    pending: list[tuple[Path, Future[bytes]]] = []
    for path, job in jobs:
        pending.append((path, submit(job)))
        while len(pending) >= width:
            done, future = pending.pop(0)
            data = future.result()
            write(done, data)
            yield done, data
    for done, future in pending:
        data = future.result()
        write(done, data)
        yield done, data


def compile_many(sources: list[str], timestamp: int) -> list[bytes]:
    """PDFs for many sources, compiled on one thread per core.

    The ``typst`` binding releases the GIL while it compiles, so threads run in
    parallel; each keeps its own compiler (a compiler is not shared between threads).
    The longest documents start first so that the answer key does not finish last alone.
    """
    if len(sources) < _PARALLEL_FROM or (os.cpu_count() or 1) < 2:
        return [compile_pdf(source, timestamp) for source in sources]
    order = sorted(range(len(sources)), key=lambda i: -len(sources[i]))
    results: list[bytes] = [b""] * len(sources)
    compiled = _pool().map(compile_pdf, [sources[i] for i in order], [timestamp] * len(sources))
    for i, data in zip(order, compiled, strict=True):
        results[i] = data
    return results
