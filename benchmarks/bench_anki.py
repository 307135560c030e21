"""How long writing a 10,000-problem practice deck takes, next to bare genanki.

paperdeck: ``exporters.anki.export`` of a ``build_practice`` deck of 10,000 problems
(every registered problem type in turn; attention problems carry their weights as an
HTML heatmap, so both sides write text only). genanki: the same 10,000 notes, with the
very field strings paperdeck made (same sizes), one model with as many fields,
``Package.write_to_file``. Problem generation is timed on its own line; it is the
problems stage, not the exporter.

    python benchmarks/bench_anki.py [--count N] [--repeat R]
"""

from __future__ import annotations

import argparse
import tempfile
import time
import warnings
from pathlib import Path

import genanki

from generator import problems
from generator.content.recipes import ProblemSet
from generator.documents import items
from generator.exporters import ExportOptions, anki
from generator.exporters.anki import notes as anki_notes
from generator.project import open_project

TARGET_RATIO = 2.0


def practice_deck(count: int, seed: int = 1) -> items.Deck:
    types = list(problems.all_types())
    per_type = [count // len(types) + (1 if i < count % len(types) else 0) for i in range(len(types))]
    # One problem per note (variants=1), as the first release wrote them: the same notes
    # for paperdeck and genanki.
    sets = [ProblemSet(t, n, variants=1) for t, n in zip(types, per_type, strict=True) if n]
    return items.build_practice(open_project().content, sets, seed)


def paperdeck_write(deck: items.Deck, path: Path, cache: Path) -> None:
    anki.export(deck, path, ExportOptions(build_time=1_700_000_000, figures=cache))


def genanki_write(fields: list[list[str]], path: Path) -> None:
    model = genanki.Model(
        1607392319,
        "Bench",
        fields=[{"name": f"F{i}"} for i in range(len(fields[0]))],
        templates=[{"name": "Card 1", "qfmt": "{{F0}}", "afmt": "{{F1}}"}],
    )
    deck = genanki.Deck(2059400110, "Bench")
    for i, note_fields in enumerate(fields):
        deck.add_note(genanki.Note(model=model, fields=note_fields, guid=f"bench{i}"))
    genanki.Package(deck).write_to_file(str(path))


def interleaved_best(repeat: int, *runs):
    """Best wall and CPU seconds of each run, taking turns so load from elsewhere hits both."""
    wall = [float("inf")] * len(runs)
    cpu = [float("inf")] * len(runs)
    for _ in range(repeat):
        for i, run in enumerate(runs):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall[i] = min(wall[i], time.perf_counter() - start)
            cpu[i] = min(cpu[i], time.process_time() - start_cpu)
    return wall, cpu


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    warnings.filterwarnings("ignore", module="genanki")

    start = time.perf_counter()
    deck = practice_deck(args.count)
    generate = time.perf_counter() - start

    with tempfile.TemporaryDirectory() as folder:
        tmp = Path(folder)
        figures = anki_notes.Figures(tmp / "figures")
        fields = [list(anki_notes.build_note(item, figures).fields) for item in deck.items]
        (ours, bare), (ours_cpu, bare_cpu) = interleaved_best(
            args.repeat,
            lambda: paperdeck_write(deck, tmp / "paperdeck.apkg", tmp / "figures"),
            lambda: genanki_write(fields, tmp / "genanki.apkg"),
        )
        ours_size = (tmp / "paperdeck.apkg").stat().st_size
        bare_size = (tmp / "genanki.apkg").stat().st_size

    field_chars = sum(len(f) for note in fields for f in note)
    print(
        f"{len(deck.items)} problems of {len(problems.all_types())} types, "
        f"{field_chars / len(fields):.0f} field characters per note"
    )
    print(f"  generate problems        {generate:7.2f} s   (problems stage, not timed below)")
    print(f"  paperdeck export         {ours:7.2f} s   {ours_size / 1e6:6.1f} MB   (CPU {ours_cpu:.2f} s)")
    print(f"  bare genanki             {bare:7.2f} s   {bare_size / 1e6:6.1f} MB   (CPU {bare_cpu:.2f} s)")
    ratio = ours / bare
    print(
        f"  ratio                    {ratio:7.2f} x   (target <= {TARGET_RATIO:g} x; best of {args.repeat},"
        " taking turns)"
    )
    return 0 if ratio <= TARGET_RATIO else 1


if __name__ == "__main__":
    raise SystemExit(main())
