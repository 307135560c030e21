"""LaTeXML's ids as paperdeck's source labels: every label written is one the loader accepts."""

from __future__ import annotations

import pytest

from generator.importing.labels import label_for
from generator.problems.registry import SOURCE_LABEL

CASES = {
    "S3": "S3",
    "S3.SS2.SSS1": "S3.2.1",
    "S3.SS2.SSS1.p2": "S3.2.1",
    "S3.SS1.SSS0.Px1": "S3.1",
    "S7.SS0.SSS0.Px1": "S7",
    "S3.SSx1": "S3.x1",
    "Sx1": "Sx1",
    "Sx1.SS1": "Sx1.1",
    "Sx1.F3": "Sx1.F3",
    "A1": "SA",
    "A2.SS1": "SB.1",
    "A6.SS1.SSS2": "SF.1.2",
    "Ax1": "SAx1",
    "Ax1.F1": "SAx1.F1",
    "A1.E3": "SA.E3",
    "S3.E1": "S3.E1",
    "S1.E2.1": "S1.E2",
    "S6.T2": "S6.T2",
    "S3.F2.sf1": "S3.F2",
    "S3.Ex1": "S3",
    "S3.E1.m1": "S3.E1",
}


@pytest.mark.parametrize(("xml_id", "label"), CASES.items())
def test_latexml_ids_become_labels_the_loader_accepts(xml_id: str, label: str) -> None:
    assert label_for(xml_id) == label
    assert SOURCE_LABEL.match(label)


@pytest.mark.parametrize("xml_id", ["footnote1", "bib.bib3", "id1", ""])
def test_ids_outside_every_section_have_no_label(xml_id: str) -> None:
    assert label_for(xml_id) is None


@pytest.mark.parametrize("label", ["S", "S3.", "SAA", "Sx", "S3.E", "S3 .1", "sa", "S3.T1.2"])
def test_malformed_labels_are_refused(label: str) -> None:
    assert not SOURCE_LABEL.match(label)
