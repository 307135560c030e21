"""LaTeXML's ids as paperdeck's source labels: every label written is one the loader accepts."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from generator.importing.labels import Labels
from generator.problems.registry import SOURCE_LABEL

DOCUMENT = """<document xmlns="http://dlmf.nist.gov/LaTeXML">
 <section xml:id="S1"><tags><tag role="refnum">1</tag></tags>
  <subsection xml:id="S1.SS1"><tags><tag role="refnum">1.1</tag></tags>
   <subsubsection xml:id="S1.SS1.SSS2"><tags><tag role="refnum">1.1.2</tag></tags></subsubsection>
  </subsection>
  <subsection xml:id="S1.SSx1"/>
 </section>
 <section xml:id="Sx1"/>
 <appendix xml:id="A1"><tags><tag role="refnum">A</tag></tags>
  <subsection xml:id="A1.SS1"><tags><tag role="refnum">A.1</tag></tags></subsection>
 </appendix>
 <appendix xml:id="A2"><tags><tag role="refnum">B</tag></tags></appendix>
 <section xml:id="Sx2"/>
 <bibliography xml:id="bib"/>
 <section xml:id="Sx3"/>
</document>"""

CASES = {
    "S1": "S1",
    "S1.SS1": "S1.1",
    "S1.SS1.SSS2": "S1.1.2",
    "S1.SS1.SSS2.p2": "S1.1.2",
    "S1.SS1.SSS0.Px1": "S1.1",
    "S1.SSx1": "S1",
    "Sx1": "SU1",
    "Sx2": "SU2",
    "A1": "SA",
    "A1.SS1": "SB.1".replace("B", "A"),
    "A2": "SB",
    "Sx3": "SC",
    "Sx3.F3": "SC.F3",
    "S1.E1": "S1.E1",
    "S1.E2.1": "S1.E2",
    "A1.T4": "SA.T4",
    "S1.F2.sf1": "S1.F2",
    "S1.Ex1": "S1",
}


@pytest.fixture(scope="module")
def labels() -> Labels:
    return Labels(ET.fromstring(DOCUMENT))


@pytest.mark.parametrize(("xml_id", "label"), CASES.items())
def test_latexml_ids_become_labels_the_loader_accepts(labels: Labels, xml_id: str, label: str) -> None:
    assert labels.label_for(xml_id) == label
    assert SOURCE_LABEL.match(label)


@pytest.mark.parametrize("xml_id", ["footnote1", "bib.bib3", "id1", ""])
def test_ids_outside_every_section_have_no_label(labels: Labels, xml_id: str) -> None:
    assert labels.label_for(xml_id) is None


@pytest.mark.parametrize("label", ["S", "S3.", "SAA", "S3.E", "S3 .1", "sa", "S3.T1.2", "Sx1"])
def test_malformed_labels_are_refused(label: str) -> None:
    assert not SOURCE_LABEL.match(label)
