"""Typst reads no file but those a document shows: a compiler's root is a private folder.

Escaping keeps author text from becoming Typst code; these tests check the second
wall behind it: even Typst code that asks for the teacher's secret cannot read it,
from the current folder or above it.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader

from generator.documents import items
from generator.exporters import ExportOptions, guide
from generator.exporters.typst.compile import TEMPLATE_FILE, compile_pdf, compiler, pdf_bytes, staged_root
from generator.project import open_project

from ..pdf_text import pdf_text

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def secret_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The current folder is a project folder holding the teacher's secret, one level down."""
    (tmp_path / ".paperdeck-secret").write_text("the teacher's secret")
    here = tmp_path / "project"
    here.mkdir()
    (here / ".paperdeck-secret").write_text("the teacher's secret")
    monkeypatch.chdir(here)
    return here


@pytest.mark.parametrize(
    "path", [".paperdeck-secret", "/.paperdeck-secret", "../.paperdeck-secret", "../../.paperdeck-secret"]
)
def test_a_document_cannot_read_the_secret(secret_here: Path, path: str) -> None:
    with pytest.raises(RuntimeError, match="Typst could not compile"):
        compile_pdf(f'#read("{path}")', 1_700_000_000)


def test_a_document_compiles_in_a_folder_with_the_secret(secret_here: Path) -> None:
    assert "Hello" in pdf_text(compile_pdf("Hello", 1_700_000_000))


def test_the_guide_sees_only_its_own_figures(tmp_path: Path) -> None:
    """The guide's root holds copies of the figures it shows, not the figure cache."""
    figure_cache = tmp_path / "figures"
    figure_cache.mkdir()
    (figure_cache / "unrelated.txt").write_text("another project's file")
    project = open_project(ROOT)
    lesson = project.content.lessons[3].id  # one diagram, drawn fast
    built = items.Guide(
        project.content.paper, "One lesson", tuple(items.lesson_items(project.content, [lesson]))
    )
    source = guide.guide_source(built, figure_cache)
    used = guide._FIGURES_USED.findall(source)
    assert used and all((figure_cache / name).is_file() for name in used)
    path = tmp_path / "guide.pdf"
    guide.export(built, path, ExportOptions(figures=figure_cache, build_time=1_700_000_000))
    assert PdfReader(path).pages
    with staged_root([figure_cache / used[0]]) as root:
        assert sorted(p.name for p in root.iterdir()) == sorted([used[0], TEMPLATE_FILE])
        with pytest.raises(Exception, match="not found|failed to load"):
            pdf_bytes(compiler(root), '#read("/unrelated.txt")', 1_700_000_000)
