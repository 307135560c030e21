"""How long a card takes to show on a phone-width page: Anki's reviewer in headless Chromium.

Run from the repository root (not part of the test suite; needs Chromium and
chromium-driver, as the tests do):

    python benchmarks/bench_cards.py

Builds one medium problem of every type (31 problems per note, as the default
deck has) plus the small test deck's other note types, imports them into the real
Anki library, and shows each card's front and back at 360 px in Anki desktop's own
reviewer page (``tests/anki/reviewer.py``): the time from ``_showQuestion`` /
``_showAnswer`` until the card is shown, MathJax typeset and the day's problem
picked. Reported: the median and the slowest per note type; the target is 150 ms.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from anki.collection import Collection  # noqa: E402

from generator import problems  # noqa: E402
from generator.content.recipes import ProblemSet  # noqa: E402
from generator.documents import items  # noqa: E402
from generator.exporters import ExportOptions, anki  # noqa: E402
from tests.anki.conftest import _import_package, make_content  # noqa: E402
from tests.anki.reviewer import Reviewer  # noqa: E402

TARGET_MS = 150.0


def main() -> int:
    with tempfile.TemporaryDirectory() as folder_name:
        folder = Path(folder_name)
        sets = [ProblemSet(t, 1, "medium") for t in sorted(problems.all_types())]
        practice = items.build_practice(make_content(), sets, seed=11)
        lessons = items.Deck(practice.title, practice.paper_id, tuple(items.lesson_items(make_content())))
        col = Collection(str(folder / "collection.anki2"))
        for name, deck in (("practice", practice), ("lessons", lessons)):
            path = folder / f"{name}.apkg"
            anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=folder / "figures"))
            _import_package(col, path)
        cards = [col.get_card(cid) for cid in col.find_cards("")]
        sides = [(c.note_type()["name"], c.question(), c.answer()) for c in cards]
        col.close()
        reviewer = Reviewer(folder)
        times: dict[str, list[float]] = {}
        try:
            for _ in range(3):
                for name, question, answer in sides:
                    times.setdefault(name, []).append(reviewer.show("question", question)["ms"])
                    times[name].append(reviewer.show("answer", answer)["ms"])
        finally:
            reviewer.close()
    print("card display time at 360 px in Anki's reviewer (headless Chromium), front and back")
    slowest = 0.0
    for name, samples in sorted(times.items()):
        slowest = max(slowest, max(samples))
        print(f"  {name:<28} median {statistics.median(samples):6.1f} ms   slowest {max(samples):6.1f} ms")
    met = slowest <= TARGET_MS
    print(f"  slowest of all {slowest:.1f} ms: target {TARGET_MS:.0f} ms {'met' if met else 'MISSED'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
