"""LaTeXML's element ids as paperdeck's source labels.

LaTeXML numbers what it converts with ids that carry the paper's own numbers:
``S3.SS2.SSS1`` is section 3.2.1, ``S3.E1`` equation (1) in section 3, ``S6.T2``
table 2, ``A1`` appendix A, ``Sx1`` the first unnumbered section. paperdeck's labels
are the numbers a reader sees:

=================  ==================  ===========================================
LaTeXML id         label               what it is
=================  ==================  ===========================================
(front matter)     ``S0``              title, authors and their notes, abstract
``S3``             ``S3``              section 3
``S3.SS2.SSS1``    ``S3.2.1``          section 3.2.1
``S3.SSx1``        ``S3.x1``           the first unnumbered subsection of section 3
``Sx1``            ``Sx1``             the first unnumbered section (Limitations)
``A2.SS1``         ``SB.1``            appendix B.1
``Ax1``            ``SAx1``            the first unnumbered section of the appendix
``S3.E1``          ``S3.E1``           equation (1), in section 3
``S6.T2``          ``S6.T2``           table 2, in section 6
``S3.F2.sf1``      ``S3.F2``           figure 2 (its subfigure folds into it)
``S3.SS1.p2``      ``S3.1``            a paragraph folds into its section
=================  ==================  ===========================================

``label_for`` is the one mapping: the import writes lessons' sources with it, and the
source index (``generator.grounding``) keys the paper's words by it.
``generator.problems.registry.SOURCE_LABEL`` is the pattern every label matches.
"""

from __future__ import annotations

import re
import string

_TOP = re.compile(r"^(S|A)(x?)(\d+)$")
_PART = re.compile(r"^(SS|SSS)(x?)(\d+)$")
_ITEM = re.compile(r"^([ETF])(\d+)$")
FRONT_MATTER = "S0"
"""The label of the title, the authors and their notes, and the abstract."""


def appendix_letter(number: int) -> str:
    """The letter of the ``number``-th appendix (1 → ``A``)."""
    return string.ascii_uppercase[number - 1] if 1 <= number <= 26 else str(number)


def label_for(xml_id: str) -> str | None:
    """The source label of the element with LaTeXML id ``xml_id``: its own when it is a
    section, a numbered equation, a table or a figure, else that of the nearest one that
    holds it; ``None`` when it lies in no section (a footnote's own id, the bibliography)."""
    parts = xml_id.split(".")
    top = _TOP.match(parts[0])
    if top is None:
        return None
    kind, unnumbered, number = top.groups()
    if kind == "S":
        label = f"Sx{number}" if unnumbered else f"S{number}"
    else:
        label = f"SAx{number}" if unnumbered else f"S{appendix_letter(int(number))}"
    for part in parts[1:]:
        section = _PART.match(part)
        if section is not None:
            marker, unnumbered, number = section.groups()
            if number == "0" and not unnumbered:  # LaTeXML's SS0: a paragraph right under a section
                continue
            label += f".x{number}" if unnumbered else f".{number}"
            continue
        item = _ITEM.match(part)
        if item is not None:
            return f"{label}.{item.group(1)}{item.group(2)}"
        break  # paragraphs, unnumbered equations, graphics: the section holds them
    return label


__all__ = ["FRONT_MATTER", "appendix_letter", "label_for"]
