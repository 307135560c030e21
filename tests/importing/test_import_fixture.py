"""paperdeck import on a committed LaTeXML XML of a small paper we wrote (tests/importing/source).

The fixture is LaTeXML's own output for that source (regenerate it with
``python -m tests.importing.regenerate``), so these tests need no LaTeXML and run fast; the
real conversion is tested in ``test_import_latexml.py``.
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest
import yaml

from generator.cli import main
from generator.grounding.index import build_index
from generator.importing.paper import Paper, read
from generator.importing.project import write_project
from generator.problems.registry import SOURCE_LABEL

HERE = Path(__file__).parent
FIXTURE = HERE / "fixture" / "pebbles.xml"
SOURCE = HERE / "source"


@pytest.fixture(scope="module")
def paper() -> Paper:
    return read(FIXTURE)


def test_metadata_sections_and_labels(paper: Paper) -> None:
    assert paper.title == "Counting Pebbles with Attention"
    assert paper.authors == ("Ada Pebble", "Bo Stone")
    assert paper.year == 2021
    assert "12 pebbles in 3 jars" in paper.abstract
    assert [(s.label, s.title) for s in paper.sections] == [
        ("S1", "Introduction"),
        ("S2", "Method"),
        ("S3", "Results"),
        ("SU1", "Limitations"),
        ("SA", "Proofs"),
        ("SB", "More tables"),
    ]
    method = paper.sections[1]
    assert [c.label for c in method.children] == ["S2.1"]  # the unnumbered subsection is part of S2
    assert [c.label for c in paper.sections[4].children] == ["SA.1"]


def test_equations_numbered_labelled_and_macro_expanded(paper: Paper) -> None:
    numbered = {e.label: e for e in paper.equations if e.number}
    assert list(numbered) == ["S2.E1", "S2.E2", "S2.E3", "SA.E4"]
    # \dk and \softmax expanded
    assert numbered["S2.E1"].tex == r"s=\mathrm{softmax}\left(\frac{qk^{T}}{\sqrt{d_{k}}}\right)"
    assert numbered["S2.E3"].problem.startswith("cannot typeset this math")  # kept, and said why
    assert not numbered["S2.E1"].problem
    unnumbered = [e for e in paper.equations if not e.number]
    assert [(e.label, e.tex) for e in unnumbered] == [("S2", r"a=sv \\ b=a+1")]  # align*: one display


def test_tables_cell_by_cell_with_spans(paper: Paper) -> None:
    counts, colours = paper.tables
    assert (counts.label, counts.number, counts.caption) == ("S3.T1", "1", "Pebbles counted per jar.")
    cells = [(c.text, c.rowspan, c.colspan) for row in counts.rows for c in row]
    assert ("Small", 2, 1) in cells and ("5 (full)", 1, 2) in cells and ("0.33", 1, 1) in cells
    assert colours.label == "SB.T2"
    rows = [[c.text for c in row] for row in colours.rows]
    assert rows == [["Colour", "Jars"], ["Red", "2"], ["Blue", "1"]]


def test_figures_captions_and_images(paper: Paper) -> None:
    assert [(f.label, f.caption, f.images) for f in paper.figures] == [
        ("S3.F1", "A jar of 12 pebbles.", ("figures/jar.png",)),
        ("S3.F2", "Pebbles on a line, drawn in TikZ.", ()),  # the picture is not drawn
        ("S3.F3", "A stone, captioned with captionof.", ("figures/stone.jpg",)),
    ]


def test_footnotes_thanks_and_the_bibliography_from_the_bbl(paper: Paper) -> None:
    assert [(n.label, n.mark, n.text) for n in paper.footnotes] == [
        ("S0", "", "Written for the tests of paperdeck."),  # \thanks on the title
        ("S1", "1", "A jar holds at most 40 pebbles."),
        ("S0", "*", "Equal contribution."),
    ]  # \thanks on an author
    assert [(r.number, r.key) for r in paper.references] == [(1, "stone2019"), (2, "pebble2020")]
    assert "Pebbles and how to count them" in paper.references[0].text  # the .bbl, not the .bib


def test_every_label_is_one_the_source_index_holds(paper: Paper) -> None:
    index = build_index(FIXTURE)
    written = [label for s in paper.sections for label in s.labels()]
    written += [e.label for e in paper.equations] + [t.label for t in paper.tables]
    written += [f.label for f in paper.figures] + [n.label for n in paper.footnotes]
    assert all(SOURCE_LABEL.match(label) for label in written)
    assert [label for label in written if label not in index.labels] == []


def _import(paper: Paper, folder: Path) -> None:
    write_project(paper, folder, arxiv="2101.00001", source=SOURCE)
    shutil.copyfile(FIXTURE, folder / "paper.xml")
    from generator.grounding.index import INDEX_FILE, write_index

    write_index(build_index(FIXTURE), folder / "content" / INDEX_FILE)


def test_the_imported_project_passes_check_and_build(
    paper: Paper, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project = tmp_path / "pebbles"
    _import(paper, project)
    lesson = yaml.safe_load((project / "content/lessons/02-method.yaml").read_text())
    assert lesson["sources"] == ["S2", "S2.1"]
    first = lesson["equations"][0]
    assert first["label"] == "S2.E1" and first["draft"] is True
    assert {"symbol": "d_{k}", "shape": "?", "meaning": "the dimension of the keys"} in first["variables"]
    assert [e["label"] for e in lesson["equations"]] == ["S2.E1", "S2.E2"]  # S2.E3 is not read: no card
    equations = yaml.safe_load((project / "paper/equations.yaml").read_text())
    assert any(e["label"] == "S2.E3" and "unreadable" in e for e in equations)
    assert sorted(p.name for p in (project / "paper/figures").iterdir()) == ["S3.F1-1.png", "S3.F3-1.jpg"]
    assert main(["--project", str(project), "check", "--strict"]) == 0  # every number grounded
    said = capsys.readouterr().err
    assert "8 drafts to review" in said and "02-method.yaml: equations: counting-pebbles-with-eq-1" in said
    results = yaml.safe_load((project / "content/lessons/03-results.yaml").read_text())
    assert (
        "**Table 1** (S3.T1): Pebbles counted per jar.\n\n| Jar | Pebbles | Weight |\n|---|---|---|\n"
        "| Small | 3 | 0.25 |\n|  | 4 | 0.33 |\n| Large | 5 (full) |  |" in results["text"]
    )
    assert [(v["kind"], v["source"], v["params"]) for v in results["visuals"]] == [
        ("image", "S3.F1", {"file": "figures/figure-1.png"}),
        ("image", "S3.F3", {"file": "figures/figure-3.jpg"}),
    ]
    (tmp_path / "out").mkdir()
    (tmp_path / "out2").mkdir()
    assert main(["--project", str(project), "build", "--out", str(tmp_path / "out")]) == 0
    assert (tmp_path / "out" / "counting-pebbles-with.apkg").is_file()
    assert main(["--project", str(project), "build", "--drafts", "--out", str(tmp_path / "out2")]) == 0
    assert _notes(tmp_path / "out" / "counting-pebbles-with.apkg") == 0  # every card is a draft
    assert _notes(tmp_path / "out2" / "counting-pebbles-with.apkg") == 8


def _notes(apkg: Path) -> int:
    import sqlite3
    import zipfile

    with zipfile.ZipFile(apkg) as package:
        data = package.read("collection.anki2")
    database = apkg.with_suffix(".anki2")
    database.write_bytes(data)
    with sqlite3.connect(database) as connection:
        (count,) = connection.execute("select count(*) from notes").fetchone()
    return int(count)


def test_reimporting_never_overwrites_what_the_author_wrote(paper: Paper, tmp_path: Path) -> None:
    project = tmp_path / "pebbles"
    _import(paper, project)
    lesson = project / "content/lessons/02-method.yaml"
    lesson.write_text(lesson.read_text().replace("draft: true", "draft: false"), encoding="utf-8")
    mine = lesson.read_text()
    (project / "paper/tables.yaml").write_text("stale", encoding="utf-8")
    written = write_project(paper, project, arxiv="2101.00001", source=SOURCE)
    assert lesson.read_text() == mine
    assert "content/lessons/02-method.yaml" in written.kept and "content/paper.yaml" in written.kept
    assert (project / "paper/tables.yaml").read_text() != "stale"  # the paper's data is refreshed


def test_pdf_figures_rasterised_ahead_named_ones_first_and_once(tmp_path: Path) -> None:
    from PIL import Image

    from generator.importing.project import Rasteriser

    source = tmp_path / "source"
    (source / "figures").mkdir(parents=True)
    Image.new("RGB", (40, 20), "blue").save(source / "a-unused.pdf")
    Image.new("RGB", (40, 20), "red").save(source / "figures" / "plot.pdf")
    (source / "main.tex").write_text("\\includegraphics{figures/plot}\n")
    rasteriser = Rasteriser(tmp_path / "scratch")
    rasteriser.start_ahead(source)
    deadline = time.monotonic() + 60
    while len(list((tmp_path / "scratch").glob("*.png"))) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    rasteriser.stop()
    plot = rasteriser.png((source / "figures" / "plot.pdf").resolve())
    assert plot is not None and plot.name == "0.png"  # named in the .tex: first, and not again
    with Image.open(plot) as image:
        red, green, blue = image.convert("RGB").getpixel((image.width // 2, image.height // 2))
    assert red > 200 and green < 60 and blue < 60
    assert rasteriser.png(source / "main.tex") is None  # not a PDF: nothing, no exception
