"""How fast ``paperdeck scan`` reads a class, and how right: 300 one-page sheets at 200 dpi.

Run from the repository root (not part of the test suite):

    python benchmarks/bench_scan.py                  # 300 sheets, 200 dpi
    python benchmarks/bench_scan.py --sheets 60 --dpi 150

The shipped quiz-attention is printed (2 forms, their answer sheets), and that many
simulated students fill the sheets (pen and pencil, 5 % of fields messy: erased,
crossed out, two filled, faint; stray marks), which then go through a sheet-fed
scanner or a phone (tests/scanning/synthetic.py: rotation up to ±5° and 180°, scale,
perspective, blur, noise, uneven light, JPEG at quality 50), in turn: scanned, photographed,
across a shadow band with a soft or a sharp edge, folded and opened, rolled at the edges
(those two may be not read, and named); 15 % of numbers carry a faint mark, a dot or an
erasure where blank is a reading, and some letters are ringed instead of filled. They are written as PDFs
of 30 pages, as a scanner delivers a stack (not timed). Then, timed: ``scan`` over the
PDFs, pages streamed and read by a worker per core (wall-clock and CPU time: on a machine shared with
other work the CPU time says more); the resident memory after the first 30 pages and
after the last. The round trip is checked too: every answer read is the one filled
or flagged (0 silent errors), and at most 3 % of clean answers are flagged.
Targets: 30 s for 300 sheets on 2 cores; memory flat.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from PIL import Image

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from generator.documents import quiz  # noqa: E402
from generator.exporters import ExportOptions, quiz_forms  # noqa: E402
from generator.project import open_project  # noqa: E402
from generator.scanning.outputs import responses_csv  # noqa: E402
from generator.scanning.pages import pages  # noqa: E402
from generator.scanning.scan import read_scan_key, scan_pages  # noqa: E402
from tests.scanning import synthetic  # noqa: E402

PER_PDF = 30
TARGET_SECONDS = 30.0


def _rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def read(key: Path, report: Path, files: list[Path]) -> None:
    """Scan ``files`` against ``key``, timed; write the figures and the CSV to ``report``."""
    memory: list[float] = []

    def _cpu() -> float:
        """CPU of this process and of the workers that read pages (counted once they end)."""
        own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime

    def stream():
        for count, page in enumerate((p for path in files for p in pages(path)), 1):
            yield page
            if count % PER_PDF == 0:
                memory.append(_rss_mb())

    started, cpu = time.perf_counter(), _cpu()
    scanned = scan_pages(read_scan_key(key), stream())
    seconds, cpu = time.perf_counter() - started, _cpu() - cpu
    memory.append(_rss_mb())
    data = responses_csv(scanned).decode("utf-8")
    report.write_text(
        json.dumps(
            {
                "seconds": seconds,
                "cpu": cpu,
                "memory": memory,
                "pages": scanned.pages,
                "flags": len(scanned.flags),
                "csv": data,
                "flagged": [[f.student, f.column] for f in scanned.flags if f.row],
            }
        )
    )


def main() -> int:
    if sys.argv[1:2] == ["--read"]:
        read(Path(sys.argv[2]), Path(sys.argv[3]), [Path(p) for p in sys.argv[4:]])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sheets", type=int, default=300)
    parser.add_argument("--dpi", type=float, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        folder = Path(temporary)
        project = open_project(ROOT)
        built = quiz.build_quiz(project.content, project.quiz_recipe("quiz-attention"), 11, 2, b"bench")
        quiz_forms.export(built, folder / "quiz", ExportOptions(build_time=0))
        key = folder / "quiz" / "quiz-attention-key.json"
        forms = json.loads(key.read_text())["form_keys"]
        blanks = {
            f["label"]: synthetic.render(str(folder / "quiz" / f["sheet_pdf"]), args.dpi) for f in forms
        }
        started = time.perf_counter()
        students, files, batch = [], [], []
        for student, scans in synthetic.classroom(
            forms,
            lambda form, dpi: blanks[form["label"]],
            args.sheets,
            args.dpi,
            args.seed,
            conditions=synthetic.CONDITIONS,
            blank_mark_rate=0.15,
        ):
            students.append(student)
            batch.append(Image.fromarray(scans[0]))
            if len(batch) == PER_PDF or len(students) == args.sheets:
                path = folder / f"stack-{len(files) + 1:02d}.pdf"
                batch[0].save(path, save_all=True, append_images=batch[1:], resolution=args.dpi, quality=75)
                files.append(path)
                batch = []
        print(
            f"made {args.sheets} filled and distorted sheets at {args.dpi:g} dpi in "
            f"{time.perf_counter() - started:.1f} s (not timed)"
        )

        # Read in a process of its own, so that its memory is the scanner's alone.
        report = folder / "read.json"
        subprocess.run(
            [sys.executable, __file__, "--read", str(key), str(report), *map(str, files)], check=True
        )
        result = json.loads(report.read_text())
        seconds, cpu, memory = result["seconds"], result["cpu"], result["memory"]
        scanned_pages, flags, data = result["pages"], result["flags"], result["csv"].encode("utf-8")
        flagged = {tuple(pair) for pair in result["flagged"]}
    rows = {row["student"]: row for row in synthetic.responses_rows(data)}
    outcome = synthetic.compare(students, rows, flagged)
    print(
        f"scan: {scanned_pages} pages in {seconds:.1f} s ({scanned_pages / seconds:.1f} pages/s, "
        f"{1000 * seconds / scanned_pages:.0f} ms a page); target {TARGET_SECONDS:g} s for 300; "
        f"{cpu:.1f} s of CPU ({1000 * cpu / scanned_pages:.0f} ms a page, the workers included)"
    )
    print(
        f"memory (the reading process): {memory[0]:.0f} MB after {PER_PDF} pages, {memory[-1]:.0f} MB "
        f"after {scanned_pages}"
    )
    print(
        f"round trip: {outcome.sheets} sheets, {outcome.clean} clean answers of which "
        f"{outcome.clean_flagged} flagged ({100 * outcome.clean_flag_rate:.2f} %), "
        f"{outcome.messy} messy of which {outcome.messy_flagged} flagged, "
        f"{len(outcome.silent)} silent errors, "
        f"{outcome.sheets_not_read} sheets not read, {outcome.unread_ids} student IDs flagged; "
        f"{flags} flags in all"
    )
    for condition, counts in outcome.by_condition.items():
        print(f"  {condition}: {counts}")
    for line in outcome.silent[:20]:
        print(f"  silent: {line}")
    known = {student.id for student in students}
    not_flat_ids = {student.id for student in students if student.condition in ("fold", "roll")}
    for name in outcome.missing_rows:
        if name not in not_flat_ids:  # a sheet not flat may be not read (named, counted above)
            print(f"  no row of its own: {name}")
    for name in rows:
        if name not in known:
            print(f"  row: {name}")
    budget = TARGET_SECONDS * args.sheets / 300
    not_flat = sum(outcome.by_condition[c].sheets for c in ("fold", "roll") if c in outcome.by_condition)
    ok = (
        seconds <= budget
        and not outcome.silent
        and outcome.sheets_not_read <= not_flat
        and outcome.clean_flag_rate <= 0.03
        and memory[-1] <= memory[0] * 1.25 + 20
    )
    print("ok" if ok else "MISSED a target")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
