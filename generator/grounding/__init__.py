"""Grounding: every number and quoted phrase on a card checked against the paper it cites.

``index`` builds and reads the source index (from LaTeXML's XML, once, at import);
``check`` grounds the loaded content in it; ``numbers`` reads numbers and words the same
way on both sides.
"""
