"""Regenerate tests/importing/fixture/pebbles.xml: ``python -m tests.importing.regenerate``.

Runs the import's own sandboxed LaTeXML on tests/importing/source (our small paper), so
the fixture is exactly what ``paperdeck import`` reads.
"""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from generator.importing import latexml, sources

HERE = Path(__file__).parent


def main() -> None:
    with tempfile.TemporaryDirectory() as scratch:
        source = sources.prepare(HERE / "source", Path(scratch))
        conversion = latexml.convert(source.folder, source.main, Path(scratch) / "out")
        shutil.copyfile(conversion.xml, HERE / "fixture" / "pebbles.xml")
        for message in conversion.messages:
            print(message)


if __name__ == "__main__":
    main()
