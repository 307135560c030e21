"""Run every benchmark and write what they print to docs/performance.md, with the date, the
commit and the machine: the one place paperdeck's measurements are kept (``make bench``).

    python benchmarks/report.py                      # every benchmarks/bench_*.py
    python benchmarks/report.py --reference DIR      # bench_quiz also times the checkout in DIR
    python benchmarks/report.py --only quiz,startup  # some of them
    python benchmarks/report.py --args "quiz=--forms 100"   # options for one benchmark

A benchmark that misses its target still has its output written; the command then fails.
"""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "performance.md"


def _git(*args: str) -> str:
    found = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True)
    return found.stdout.strip() if found.returncode == 0 else "unknown"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, help="a checkout of an earlier paperdeck for bench_quiz")
    parser.add_argument("--only", help="comma-separated names (quiz for bench_quiz.py)")
    parser.add_argument(
        "--args",
        action="append",
        default=[],
        metavar="NAME=OPTIONS",
        help="options for one benchmark, e.g. quiz=--forms 100",
    )
    args = parser.parse_args()
    scripts = sorted((ROOT / "benchmarks").glob("bench_*.py"))
    if args.only:
        scripts = [s for s in scripts if s.stem.removeprefix("bench_") in args.only.split(",")]
    options = dict(item.split("=", 1) for item in args.args)
    dirty = " (with uncommitted changes)" if _git("status", "--porcelain", "--", "generator") else ""
    lines = [
        "# Performance",
        "",
        "Written by `make bench` (`benchmarks/report.py`); each section is one benchmark's own",
        "output, and its docstring in `benchmarks/` says what it measures and its target. The",
        "machine may be shared: compare figures measured in the same run (the ratios each",
        "benchmark prints), not runs on different days.",
        "",
        f"- date: {datetime.datetime.now(datetime.UTC):%Y-%m-%d %H:%M} UTC",
        f"- commit: {_git('rev-parse', '--short', 'HEAD')}{dirty}",
        f"- machine: {os.cpu_count()} cores, {platform.python_implementation()} {platform.python_version()},"
        f" load average {' '.join(f'{x:.1f}' for x in os.getloadavg())} at the start",
    ]
    missed = []
    for script in scripts:
        command = [sys.executable, str(script)]
        if script.stem == "bench_quiz" and args.reference:
            command += ["--reference", str(args.reference)]
        command += options.get(script.stem.removeprefix("bench_"), "").split()
        print(f"running {script.name}", file=sys.stderr, flush=True)
        run = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
        lines += [
            "",
            f"## {script.stem.removeprefix('bench_')}",
            "",
            f"`{' '.join(['python', str(script.relative_to(ROOT)), *command[2:]])}`",
            "",
            "```",
            run.stdout.rstrip(),
        ]
        if run.returncode:
            missed.append(script.name)
            lines += [line for line in run.stderr.splitlines() if line.startswith(("over target", "MISSED"))]
        lines.append("```")
    if missed:
        lines += ["", "Missed a target: " + ", ".join(missed) + "."]
    PAGE.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {PAGE.relative_to(ROOT)}", file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
