"""``paperdeck import``: a paper's LaTeX source, converted by LaTeXML, becomes a new project.

One module per step: ``sources`` (the main file of a tarball, a folder or a ``.tex.gz``),
``latexml`` (the sandboxed conversion), ``paper`` (LaTeXML's XML read into a small paper
model), ``labels`` (LaTeXML's ids as paperdeck's source labels) and ``project`` (the
project's YAML written from the paper model, never over what the author wrote).
"""
