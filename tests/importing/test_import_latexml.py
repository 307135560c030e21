"""paperdeck import with real LaTeXML, in its sandbox: our small paper, and the Transformer's source.

These need Debian's ``latexml`` and ``bubblewrap`` (``.ci/system-packages``). The
Transformer's source is not committed (its licence limits redistribution): the test
takes it from the mirror the ``fetch`` tool makes (``PAPERDECK_AIAYN_MIRROR``, a git
directory holding commit 3f933e8 of paper-translations/Transformer) and skips otherwise.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
import tarfile
import time
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from generator.importing import latexml, sources

HERE = Path(__file__).parent
SOURCE = HERE / "source"
MIRROR = Path(os.environ.get("PAPERDECK_AIAYN_MIRROR", "/work/.mirror/paper-translations+Transformer/repo"))

needs_latexml = pytest.mark.skipif(
    shutil.which("latexml") is None or shutil.which("bwrap") is None,
    reason="needs Debian's latexml and bubblewrap (.ci/system-packages)",
)


def _tarball(folder: Path, target: Path, extra: dict[str, bytes] | None = None) -> Path:
    with tarfile.open(target, "w:gz") as archive:
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                archive.add(path, arcname=str(path.relative_to(folder)))
        for name, data in (extra or {}).items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return target


@needs_latexml
def test_a_source_reads_nothing_outside_its_folder(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    secret = "paperdeck-secret-6f1d2c9e"
    (project / ".paperdeck-secret").write_text(secret)
    outside = tmp_path / "outside.tex"
    outside.write_text("outside-text-0b7e4a")
    main_tex = (SOURCE / "main.tex").read_text()
    planted = main_tex.replace(
        "Pebbles are counted one jar at a time",
        f"Host \\input{{/etc/hostname}} secret \\input{{{project}/.paperdeck-secret}} "
        f"outside \\input{{{outside}}} up \\input{{../outside}} Pebbles are counted one jar at a time",
    )
    tarball = _tarball(SOURCE, tmp_path / "2101.00001.tar.gz", {"main.tex": planted.encode()})
    assert main(["import", str(tarball), "-o", str(project)]) == 0
    for path in project.rglob("*"):
        if path.is_file() and path.name != ".paperdeck-secret":
            data = path.read_bytes()
            assert secret.encode() not in data and b"outside-text" not in data, path
    # LaTeXML was refused each file, and said so with the line that asked
    with tarfile.open(tarball) as archive:
        archive.extractall(tmp_path / "src", filter="data")
    conversion = latexml.convert(tmp_path / "src", "main.tex", tmp_path / "scratch")
    refused = {m.text for m in conversion.messages if m.category == "missing_file" and m.line == 24}
    assert refused >= {"Can't find TeX file /etc/hostname", f"Can't find TeX file {outside}"}
    assert not any((tmp_path / "src").glob("*.log"))  # nothing written beside the source


@needs_latexml
def test_import_of_a_tarball_with_the_messy_parts(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tarball = _tarball(SOURCE, tmp_path / "2101.00001v2.tar.gz")
    project = tmp_path / "pebbles"
    started = time.monotonic()
    assert main(["import", str(tarball), "-o", str(project)]) == 0
    seconds = time.monotonic() - started
    said = capsys.readouterr().err
    assert "main file: main.tex (arXiv 2101.00001)" in said  # line-figure.tex is a standalone picture
    assert "2 TikZ/pgfplots pictures left undrawn" in said
    assert "main.tex:47: error: The token T_CS[\\mathfrak] is not defined." in said
    assert "equation S2.E3 (3): kept in paper/equations.yaml" in said
    paper = yaml.safe_load((project / "content/paper.yaml").read_text())
    assert paper["arxiv"] == "2101.00001"
    assert paper["lessons"][3:] == ["04-limitations", "05-proofs", "06-more-tables"]
    assert [r["key"] for r in yaml.safe_load((project / "paper/bibliography.yaml").read_text())] == [
        "stone2019",
        "pebble2020",
    ]
    assert seconds < 120
    assert main(["--project", str(project), "check", "--strict"]) == 0  # every number grounded
    (tmp_path / "out").mkdir()
    assert main(["--project", str(project), "build", "--out", str(tmp_path / "out")]) == 0


def test_several_main_files_are_listed(tmp_path: Path) -> None:
    folder = tmp_path / "two"
    folder.mkdir()
    for name in ("paper.tex", "supplement.tex"):
        (folder / name).write_text("\\documentclass{article}\n\\begin{document}\nx\n\\end{document}\n")
    with pytest.raises(
        latexml.ImportFailure,
        match=r"several files could be the main one \(paper.tex, "
        r"supplement.tex\); name it: .* --main paper.tex",
    ):
        sources.prepare(folder, tmp_path / "scratch")
    assert sources.prepare(folder, tmp_path / "scratch", "supplement.tex").main == "supplement.tex"
    readme = '{"sources": [{"filename": "supplement.tex", "usage": "toplevel"}]}'
    (folder / "00README.json").write_text(readme)
    assert sources.prepare(folder, tmp_path / "scratch").main == "supplement.tex"  # as arXiv compiled it


@needs_latexml
def test_hyperref_without_the_tex_of_its_helpers(tmp_path: Path) -> None:
    # paperdeck's hyperref binding is LaTeXML's without reading ltxcmds, kvoptions, refcount,
    # bitset... as TeX (about 2 s a paper); links and references convert as before, and a
    # helper the paper asks for itself is still read.
    source = tmp_path / "src"
    source.mkdir()
    (source / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{hyperref}\n\\usepackage{kvoptions}\n"
        "\\begin{document}\n\\section{Start}\\label{s:start}\n"
        "See \\href{https://example.org/a}{the site}, \\url{https://example.org/b}, "
        "\\autoref{s:start}, \\nameref{s:start} and \\texorpdfstring{one}{two}.\n\\end{document}\n"
    )
    conversion = latexml.convert(source, "main.tex", tmp_path / "scratch")
    log = (tmp_path / "scratch" / "latexml.log").read_text()
    xml = conversion.xml.read_text()
    assert 'href="https://example.org/a"' in xml and 'href="https://example.org/b"' in xml
    assert 'show="autoref"' in xml and 'show="title"' in xml and "one" in xml and "two" not in xml
    assert f"{latexml.BINDINGS}/hyperref.sty.ltxml" in log
    for helper in ("refcount.sty", "gettitlestring.sty", "bitset.sty", "intcalc.sty", "kvdefinekeys.sty"):
        assert helper not in log
    assert "kvoptions/kvoptions.sty" in log  # the paper's own \usepackage{kvoptions}
    assert not [m for m in conversion.messages if m.severity != "warning"]


@needs_latexml
def test_no_ghostscript_on_a_pdf_figure_in_the_sandbox(tmp_path: Path) -> None:
    # LaTeXML sizes a PDF figure through ImageMagick (Image::Magick, which Debian's latexml
    # depends on), which runs Ghostscript on it: about 1 s of CPU on the Transformer's
    # figures, for a size the import does not use. The sandbox's policy refuses PDF.
    from PIL import Image

    source = tmp_path / "src"
    source.mkdir()
    Image.new("RGB", (40, 20), "red").save(source / "figure.pdf")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    bwrap = shutil.which("bwrap")
    assert bwrap is not None
    bindings = Path(latexml.__file__).parent / "bindings"
    read = ["perl", "-MImage::Magick", "-e", 'print Image::Magick->new->Read("figure.pdf") || "read"']
    command = latexml.sandbox_command(bwrap, source, scratch, bindings, read)
    said = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    assert "not allowed by the security policy `PDF'" in said


@needs_latexml
def test_a_source_that_never_ends_is_stopped(tmp_path: Path) -> None:
    (tmp_path / "loop.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\def\\x{a\\x}\\x\n\\end{document}\n"
    )
    started = time.monotonic()
    with pytest.raises(latexml.ImportFailure, match="took longer than 3 s on loop.tex and was stopped"):
        latexml.convert(tmp_path, "loop.tex", tmp_path / "scratch", time_limit=3)
    assert time.monotonic() - started < 30


def test_a_gzipped_tex_is_a_one_file_paper(tmp_path: Path) -> None:
    import gzip

    target = tmp_path / "2101.00002"
    target.write_bytes(gzip.compress(b"\\documentclass{article}\n\\begin{document}\nx\n\\end{document}\n"))
    prepared = sources.prepare(target, tmp_path / "scratch")
    assert (prepared.main, prepared.arxiv) == ("2101.00002.tex", "2101.00002")


def test_archives_that_reach_outside_are_refused(tmp_path: Path) -> None:
    evil = tmp_path / "evil.tar"
    with tarfile.open(evil, "w") as archive:
        info = tarfile.TarInfo("../escape.tex")
        info.size = 1
        archive.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(latexml.ImportFailure, match="outside the source; the archive is refused"):
        sources.prepare(evil, tmp_path / "scratch")
    assert not (tmp_path / "escape.tex").exists()
    linked = tmp_path / "linked.tar"
    with tarfile.open(linked, "w") as archive:
        link = tarfile.TarInfo("main.tex")
        link.type = tarfile.SYMTYPE
        link.linkname = "/etc/passwd"
        archive.addfile(link)
    with pytest.raises(latexml.ImportFailure, match="no .tex file has both"):  # the link is not followed
        sources.prepare(linked, tmp_path / "scratch2")


def test_pictures_are_stripped_and_lines_kept() -> None:
    text = (
        "a\n\\begin{tikzpicture}\n\\draw (0,0);\n\\end{tikzpicture} b\n"
        "\\tikz \\draw (0,0) -- (1,1);\nc % \\begin{tikzpicture}\n"
    )
    stripped, count = sources.strip_pictures(text)
    assert count == 2 and stripped.count("\n") == text.count("\n")
    assert "draw" not in stripped.split("%")[0] and stripped.startswith("a\n") and " b\n" in stripped


def test_missing_latexml_says_how_to_install_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", "/nonexistent")
    with pytest.raises(latexml.ImportFailure) as caught:
        latexml.find_tools()
    assert str(caught.value) == latexml.INSTALL and "\n" not in latexml.INSTALL


@needs_latexml
@pytest.mark.skipif(
    not (MIRROR / "HEAD").is_file(),
    reason=f"no mirror of the Transformer's source at {MIRROR} "
    "(bring it with the fetch tool: github:paper-translations/Transformer)",
)
def test_the_transformers_source(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = tmp_path / "aiayn"
    source.mkdir()
    archive = subprocess.run(
        ["git", f"--git-dir={MIRROR}", "archive", "3f933e8"], capture_output=True, check=True
    )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(source, filter="data")
    project = tmp_path / "project"
    started = time.monotonic()
    assert main(["import", str(source), "-o", str(project)]) == 0
    seconds = time.monotonic() - started
    from generator.importing.paper import read

    said = capsys.readouterr().err
    assert (
        "found: 8 sections (23 with subsections), 5 displayed equations (3 numbered), "
        "4 tables (227 cells), 5 figures, 5 footnotes, 40 references"
    ) in said
    index = yaml.safe_load((project / "paper/equations.yaml").read_text())
    assert [e["label"] for e in index if e["number"]] == ["S3.E1", "S3.E2", "S5.E3"]
    captions = yaml.safe_load((project / "paper/figures.yaml").read_text()) + yaml.safe_load(
        (project / "paper/tables.yaml").read_text()
    )
    assert sum(1 for c in captions if c["caption"]) == 9
    assert read  # the paper model is what the files above were written from
    print(f"the Transformer's source imported in {seconds:.1f} s")
    assert main(["--project", str(project), "check", "--strict"]) == 0  # every number grounded
