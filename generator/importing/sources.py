"""A paper's source, whatever form it comes in, as a folder with its main file named.

arXiv serves a paper's source as a tarball (``.tar.gz``, sometimes plain ``.tar``) or,
for a one-file paper, as the gzipped ``.tex`` alone; an author may also have a folder or
a main ``.tex``. Every form is copied into a scratch folder first, within limits (no path
that leads out, no links, no devices, a cap on the files' count and size), so LaTeXML
works on a copy and the user's files are never touched. The copy's TikZ and pgfplots
pictures are stripped (their lines kept empty, so LaTeXML's line numbers stay the
paper's): the import needs their captions, not the drawings.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import shutil
import tarfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .latexml import ImportFailure

MAX_FILES = 5000
"""Most files a source may hold (arXiv's largest sources hold a few thousand figures)."""
MAX_BYTES = 1024**3
"""Most bytes a source may unpack to."""
ARXIV_ID = re.compile(r"(\d{4}\.\d{4,5})(v\d+)?")
"""A new-style arXiv id (``1706.03762``, ``1706.03762v7``) in a file name."""
TEX_SUFFIXES = (".tex", ".tikz", ".pgf", ".ltx")
"""Files whose pictures are stripped and in which a main file is looked for (``.tex``, ``.ltx``)."""
PICTURES = (
    "tikzpicture",
    "pgfpicture",
    "axis",
    "semilogxaxis",
    "semilogyaxis",
    "loglogaxis",
    "groupplot",
    "polaraxis",
    "tikzcd",
)
_PICTURE = re.compile(r"\\(begin|end)\s*\{(" + "|".join(PICTURES) + r")\}")
_TIKZ_COMMAND = re.compile(r"\\tikz(?![A-Za-z@])")
_COMMENT = re.compile(r"(?<!\\)%.*")
_BIBLIOGRAPHY = re.compile(r"^([^%\n]*?)\\bibliography\s*\{[^}]*\}", re.M)
_STANDALONE = re.compile(r"\\documentclass\s*(\[[^\]]*\])?\s*\{standalone\}")


@dataclass(frozen=True)
class Source:
    """A source ready for LaTeXML."""

    folder: Path
    """The copy of the source, in the scratch folder."""
    main: str
    """The main file, relative to ``folder`` (POSIX separators)."""
    arxiv: str
    """The arXiv id when the source's name holds one, else ''."""
    pictures: int
    """How many TikZ and pgfplots pictures were stripped."""


def prepare(source: Path, scratch: Path, main: str | None = None) -> Source:
    """Copy or unpack ``source`` into ``scratch/source`` and find its main file (``main`` names it)."""
    if not source.exists():
        raise ImportFailure(f"{source}: no such file or folder")
    folder = scratch / "source"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    named = main
    if source.is_dir():
        _copy_folder(source, folder)
    elif source.suffix.lower() in (".tex", ".ltx"):
        _copy_folder(source.parent, folder)
        named = named or source.name
    else:
        _unpack(source, folder)
    pictures = sum(
        _strip_file(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix.lower() in TEX_SUFFIXES
    )
    found = ARXIV_ID.search(source.name)
    main_file = find_main(folder, named, source)
    use_bbl(folder / main_file)
    return Source(folder, main_file, found.group(1) if found else "", pictures)


def use_bbl(main: Path) -> bool:
    """Read the bibliography from the ``.bbl`` beside the main file (what the paper printed,
    and what arXiv compiled) instead of a ``.bib`` through ``\\bibliography{…}``, which
    LaTeXML leaves empty; whether there was one."""
    bbl = main.with_suffix(".bbl")
    if not bbl.is_file():
        return False
    text = main.read_bytes().decode("utf-8", "surrogateescape")
    replaced, count = _BIBLIOGRAPHY.subn(lambda m: m.group(1) + "\\input{" + bbl.name + "}", text, count=1)
    if count:
        main.write_bytes(replaced.encode("utf-8", "surrogateescape"))
    return bool(count)


def _copy_folder(source: Path, target: Path) -> None:
    count = size = 0
    for path in sorted(source.rglob("*")):
        relative = path.relative_to(source)
        if any(part.startswith(".") for part in relative.parts) or path.is_symlink():
            continue  # hidden files (.git, a project's .paperdeck-secret) and links stay out
        if path.is_dir():
            (target / relative).mkdir(parents=True, exist_ok=True)
            continue
        if not path.is_file():
            continue
        count += 1
        size += path.stat().st_size
        _check_caps(source, count, size)
        (target / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target / relative)


def _check_caps(source: Path, count: int, size: int) -> None:
    if count > MAX_FILES:
        raise ImportFailure(f"{source}: more than {MAX_FILES} files; is this a paper's source?")
    if size > MAX_BYTES:
        raise ImportFailure(
            f"{source}: more than {MAX_BYTES // 1024**2} MB unpacked; is this a paper's source?"
        )


def _unpack(source: Path, target: Path) -> None:
    with source.open("rb") as file:
        head = file.read(262)
    gzipped = head[:2] == b"\x1f\x8b"
    if gzipped or (len(head) > 261 and head[257:262] == b"ustar"):
        try:
            with tarfile.open(source, "r:*") as archive:
                _extract(source, archive, target)
                return
        except tarfile.ReadError:
            if not gzipped:
                raise ImportFailure(f"{source}: not a tar archive that can be read") from None
        # arXiv's one-file papers: the .tex alone, gzipped
        with gzip.open(source, "rb") as stream:
            data = stream.read(MAX_BYTES + 1)
        _check_caps(source, 1, len(data))
        stem = re.sub(r"(\.tex)?(\.gz)?$", "", source.name, flags=re.I) or "main"
        (target / f"{stem}.tex").write_bytes(data)
        return
    raise ImportFailure(
        f"{source}: expected a .tar.gz, .tar or gzipped .tex (arXiv's source), a folder or a .tex file"
    )


def _extract(source: Path, archive: tarfile.TarFile, target: Path) -> None:
    count = size = 0
    for member in archive:
        name = PurePosixPath(member.name)
        if name.is_absolute() or ".." in name.parts:
            raise ImportFailure(
                f"{source}: {member.name!r} would be written outside the source; the archive is refused"
            )
        if member.isdir():
            continue
        if not member.isfile():  # links, devices, fifos: a paper needs none
            continue
        count += 1
        size += member.size
        _check_caps(source, count, size)
        path = target.joinpath(*name.parts)
        path.parent.mkdir(parents=True, exist_ok=True)
        stream = archive.extractfile(member)
        if stream is None:
            continue
        with stream, path.open("wb") as out:
            shutil.copyfileobj(stream, out)


def strip_pictures(text: str) -> tuple[str, int]:
    """``text`` without its TikZ and pgfplots pictures (environments and ``\\tikz`` commands),
    each line of a picture left empty so the lines after it keep their numbers; and their count."""
    out = io.StringIO()
    depth = count = position = 0
    for match in _PICTURE.finditer(text):
        if _in_comment(text, match.start()):
            continue
        if match.group(1) == "begin":
            if depth == 0:
                out.write(text[position : match.start()])
                position = match.start()
                count += 1
            depth += 1
        elif depth > 0:
            depth -= 1
            if depth == 0:
                out.write("\n" * text.count("\n", position, match.end()))
                position = match.end()
    if depth > 0:  # never closed: leave the rest for LaTeXML to report
        out.write(text[position:])
    else:
        out.write(text[position:])
    stripped, commands = _strip_tikz_commands(out.getvalue())
    return stripped, count + commands


def _in_comment(text: str, index: int) -> bool:
    line_start = text.rfind("\n", 0, index) + 1
    return _COMMENT.search(text[line_start:index]) is not None


def _strip_tikz_commands(text: str) -> tuple[str, int]:
    # \tikz{...} or \tikz[options] ... ;  (inline pictures)
    out = []
    count = position = 0
    for match in _TIKZ_COMMAND.finditer(text):
        if match.start() < position or _in_comment(text, match.start()):
            continue
        end = _tikz_command_end(text, match.end())
        if end is None:
            continue
        out.append(text[position : match.start()])
        out.append("\n" * text.count("\n", match.start(), end))
        position = end
        count += 1
    out.append(text[position:])
    return "".join(out), count


def _tikz_command_end(text: str, index: int) -> int | None:
    i = index
    while i < len(text) and text[i] in " \t":
        i += 1
    if i < len(text) and text[i] == "[":
        closed = _closing(text, i, "[", "]")
        if closed is None:
            return None
        i = closed
        while i < len(text) and text[i] in " \t\n":
            i += 1
    if i < len(text) and text[i] == "{":
        return _closing(text, i, "{", "}")
    semicolon = text.find(";", i)
    paragraph = text.find("\n\n", i)
    if semicolon < 0 or (0 <= paragraph < semicolon):
        return None
    return semicolon + 1


def _closing(text: str, start: int, opening: str, closing: str) -> int | None:
    depth = 0
    for i in range(start, min(len(text), start + 100_000)):
        if text[i] == "\\":
            continue
        if text[i] == opening and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif text[i] == closing and (i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth == 0:
                return i + 1
    return None


def _strip_file(path: Path) -> int:
    data = path.read_bytes()
    text = data.decode("utf-8", "surrogateescape")
    if "tikz" not in text and "axis" not in text and "pgf" not in text:
        return 0
    stripped, count = strip_pictures(text)
    if count:
        path.write_bytes(stripped.encode("utf-8", "surrogateescape"))
    return count


def _uncommented(path: Path) -> str:
    text = path.read_bytes()[:2_000_000].decode("utf-8", "replace")
    return "\n".join(_COMMENT.sub("", line) for line in text.splitlines())


def _arxiv_toplevel(folder: Path) -> str:
    # arXiv's 00README.json names the file it compiled: {"sources": [{"filename": …, "usage": "toplevel"}]}
    readme = folder / "00README.json"
    try:
        data = json.loads(readme.read_text("utf-8")) if readme.is_file() else {}
    except (OSError, ValueError):
        return ""
    sources = data.get("sources") if isinstance(data, dict) else None
    for entry in sources if isinstance(sources, list) else []:
        name = entry.get("filename") if isinstance(entry, dict) else None
        if isinstance(name, str) and entry.get("usage") == "toplevel":
            return name
    return ""


def find_main(folder: Path, named: str | None, source: Path) -> str:
    """The main file of the source in ``folder``: ``named`` when given, else the one file
    with both ``\\documentclass`` and ``\\begin{document}``. Standalone pictures and files
    another candidate inputs are not candidates; of several left, the one arXiv's
    ``00README.json`` names as its top level; else a one-line error lists them and asks for one."""
    if named is not None:
        path = folder / named
        if not path.is_file() or ".." in PurePosixPath(named).parts:
            raise ImportFailure(f"{source}: no file {named!r} in the source")
        return PurePosixPath(named).as_posix()
    texts = {
        path.relative_to(folder).as_posix(): _uncommented(path)
        for path in sorted(folder.rglob("*"))
        if path.is_file() and path.suffix.lower() in (".tex", ".ltx")
    }
    candidates = [
        name
        for name, text in texts.items()
        if re.search(r"\\documentclass", text) and re.search(r"\\begin\s*\{document\}", text)
    ]
    if not candidates:
        raise ImportFailure(
            f"{source}: no .tex file has both \\documentclass and \\begin{{document}}; "
            f"is this a LaTeX paper's source?"
        )
    if len(candidates) > 1:
        standalone = [n for n in candidates if _STANDALONE.search(texts[n])]
        inputs = {
            Path(m).stem
            for n in candidates
            for m in re.findall(r"\\(?:input|include|subfile)\s*\{([^}]+)\}", texts[n])
        }
        kept = [n for n in candidates if n not in standalone and Path(n).stem not in inputs]
        candidates = kept or candidates
    if len(candidates) > 1:
        toplevel = _arxiv_toplevel(folder)
        if toplevel in candidates:
            return toplevel
    if len(candidates) > 1:
        raise ImportFailure(
            f"{source}: several files could be the main one ({', '.join(candidates)}); "
            f"name it: paperdeck import {source} --main {candidates[0]}"
        )
    return candidates[0]


__all__ = ["Source", "find_main", "prepare", "strip_pictures"]
