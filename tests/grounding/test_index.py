"""The source index: labels, numbers, hashed words, cells and citations from LaTeXML's XML."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from generator.grounding.index import IndexError_, build_index, read_index, write_index

PAPER = Path(__file__).parent / "paper.xml"
"""A small paper in LaTeXML's XML, written by hand in the shape LaTeXML gives (the real
paper's XML is not committed: its text is the authors')."""


@pytest.fixture(scope="module")
def index():
    return build_index(PAPER)


def test_labels_are_paperdecks(index):
    assert list(index.labels) == ["S0", "S1", "S1.1", "S1.E1", "S2", "S2.T1", "SU1", "SA", "SA.F3"]
    assert index.labels["S1.E1"].parent == "S1.1"
    assert index.labels["S1.1"].parent == "S1"
    assert index.labels["SA.F3"].parent == "SA"
    assert index.ancestors("S1.E1") == ["S1.E1", "S1.1", "S1"]
    assert index.descendants("S1") == ["S1.1", "S1.E1"]


def test_numbers_per_label(index):
    assert index.labels["S0"].numbers == ("12", "28.4")  # "twelve" is 12
    assert index.labels["S1"].numbers == ("512",)  # not the reference "Section 2.1"
    assert index.labels["S1.1"].numbers == ("8", "64")  # the footnote and the paragraph fold in
    assert index.labels["SA.F3"].numbers == ("5", "6")


def test_cells_by_row_and_column(index):
    cells = {(c.row, c.column): c for c in index.labels["S2.T1"].cells}
    assert cells[(0, 1)].text == "BLEU" and cells[(0, 1)].colspan == 2
    assert cells[(1, 1)].text == "EN-DE"  # under the rowspan of "Model"
    assert cells[(3, 2)].numbers == ("41.8",)


def test_phrases_found_without_the_text(index):
    section = index.labels["S1.1"]
    assert section.has_phrase("scale the dot products by the square root")
    assert section.has_phrase("Dot-products")  # normalized: case and hyphens
    assert not section.has_phrase("scale the products by the square root")  # "dot" left out
    assert not section.has_phrase("the cube root")


def test_citations(index):
    assert index.labels["S1"].cites == ("ba2016",)
    assert index.bibliography["ba2016"].title == "[1]"
    assert index.bibliography["ba2016"].numbers == ("2016",)


def test_file_round_trip_and_version(index, tmp_path):
    path = tmp_path / "source-index.json"
    write_index(index, path)
    assert read_index(path) == index
    text = path.read_text()
    assert "square root" not in text and "scale" not in text  # words only as hashes
    data = json.loads(text)
    data["version"] = 99
    path.write_text(json.dumps(data))
    with pytest.raises(IndexError_, match="version 99.*rebuild it"):
        read_index(path)


def test_not_latexml(tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text("<document")
    with pytest.raises(IndexError_, match="cannot read LaTeXML's XML"):
        build_index(bad)
