"""LaTeXML's element ids as paperdeck's source labels, as the source index names them.

The labels are the numbers a reader sees, and they are the source index's
(``generator.grounding.index`` documents the scheme; ``tests/importing`` checks that
every label the import writes is one the index holds):

=================  ==================  ===========================================
LaTeXML id         label               what it is
=================  ==================  ===========================================
(abstract, title)  ``S0``              the front matter
``S3``             ``S3``              section 3
``S3.SS2.SSS1``    ``S3.2.1``          section 3.2.1 (its printed number)
``S3.SSx1``        ``S3``              an unnumbered subsection is part of its section
``A2.SS1``         ``SB.1``            appendix B.1
``Sx1``            ``SU1``             the first unnumbered section (Limitations)
``Sx2``            ``SA``              an unnumbered section after the bibliography is
                                       an appendix, lettered after the others
``S3.E1``          ``S3.E1``           equation (1), in section 3
``S6.T2``          ``S6.T2``           table 2, in section 6
``S3.F2.sf1``      ``S3.F2``           figure 2 (its subfigure folds into it)
``S3.SS1.p2``      ``S3.1``            a paragraph folds into its section
=================  ==================  ===========================================
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

FRONT_MATTER = "S0"
"""The label of the title, the authors and their notes, and the abstract."""
NS = "{http://dlmf.nist.gov/LaTeXML}"
XML_ID = "{http://www.w3.org/XML/1998/namespace}id"
SECTIONS = {"section", "subsection", "subsubsection", "appendix", "chapter", "part"}
_ITEM = re.compile(r"^(.*?)\.([ETF])(\d+)(?:\..*)?$")


def _refnum(element: ET.Element) -> str:
    tags = element.find(f"{NS}tags")
    if tags is not None:
        for tag in tags.findall(f"{NS}tag"):
            if tag.get("role") == "refnum":
                return "".join(tag.itertext()).replace("§", "").strip()
    return ""


class Labels:
    """The label of every section of one LaTeXML document, and of what lies in them."""

    def __init__(self, root: ET.Element):
        self.sections: dict[str, str] = {}
        """LaTeXML section id -> label."""
        self._letters = 0
        self._unnumbered = 0
        self._after_bibliography = False
        self._walk(root, "")

    def _walk(self, element: ET.Element, parent: str) -> None:
        for child in element:
            tag = child.tag[len(NS) :] if child.tag.startswith(NS) else child.tag
            if tag == "bibliography":
                self._after_bibliography = True
                continue
            if tag in SECTIONS:
                label = self._section(child, tag, parent)
                if child.get(XML_ID):
                    self.sections[child.get(XML_ID, "")] = label
                self._walk(child, label)
            elif tag not in ("equation", "table", "figure", "note"):
                self._walk(child, parent)

    def _section(self, element: ET.Element, tag: str, parent: str) -> str:
        refnum = _refnum(element)
        if refnum:
            if tag == "appendix" and re.fullmatch(r"[A-Z]", refnum):
                self._letters = max(self._letters, ord(refnum) - ord("A") + 1)
            return "S" + refnum
        if self._after_bibliography and not parent:
            self._letters += 1
            return "S" + chr(ord("A") + self._letters - 1)
        if parent:
            return parent
        self._unnumbered += 1
        return f"SU{self._unnumbered}"

    def label_for(self, xml_id: str) -> str | None:
        """The label of the element with LaTeXML id ``xml_id``: its own when it is a section,
        a numbered equation, a table or a figure, else its section's; ``None`` outside every
        section (a footnote's own id, the bibliography)."""
        item = _ITEM.match(xml_id)
        if item is not None:
            owner, letter, number = item.groups()
            section = self.section_of(owner)
            return f"{section}.{letter}{number}" if section else None
        return self.section_of(xml_id)

    def section_of(self, xml_id: str) -> str | None:
        """The label of the section that holds ``xml_id`` (the id itself or its nearest prefix)."""
        parts = xml_id.split(".")
        for end in range(len(parts), 0, -1):
            label = self.sections.get(".".join(parts[:end]))
            if label is not None:
                return label
        return None


__all__ = ["FRONT_MATTER", "Labels"]
