"""How long ``paperdeck build`` takes for the Attention paper, cold and warm.

Run from the repository root (not part of the test suite):

    python benchmarks/bench_build.py             # this checkout
    python benchmarks/bench_build.py --root DIR  # another checkout's generator

Cold: an empty figure cache (``XDG_CACHE_HOME`` a new folder), so every figure
is drawn. Warm: the same cache again, as a second build finds it. Each build
runs in a fresh interpreter in the checkout with a fixed seed and writes to a
temporary folder; the median wall time of a few runs is reported, with its
ratio to ``python -c "import numpy"`` in the same run (absolute times differ up
to 3x between two machines of the same kind).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent


def wall(argv: list[str], root: Path, cache: str) -> float:
    start = time.perf_counter()
    subprocess.run(
        argv,
        cwd=root,
        env={**os.environ, "XDG_CACHE_HOME": cache},
        check=True,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=PROJECT, help="checkout whose generator to time")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    root = args.root.resolve()
    cold: list[float] = []
    warm: list[float] = []
    floor: list[float] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
            build = [sys.executable, "-m", "generator.cli", "-q", "build", "--seed", "1", "--out", out]
            floor.append(wall([sys.executable, "-c", "import numpy"], root, cache))
            cold.append(wall(build, root, cache))
            warm.append(wall(build, root, cache))
    base = statistics.median(floor)
    print(f"paperdeck build of {root} ({args.runs} runs, median wall time)")
    for name, samples in (("cold (no figures cached)", cold), ("warm (figures cached)", warm)):
        median = statistics.median(samples)
        print(f"  {name:<26} {median:6.2f} s  {median / base:5.1f}x import numpy ({base:.3f} s)")


if __name__ == "__main__":
    main()
