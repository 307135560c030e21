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

Then one more warm build runs in a fresh interpreter that times each of its parts
(``--parts``): opening the project, then each recipe's document and files, as CPU
seconds of the process (Typst's threads included), so a slower build shows where.
"""

from __future__ import annotations

import argparse
import os
import resource
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


def parts(root: Path, out: Path) -> None:
    """One warm build of ``root``'s generator in this process, as ``paperdeck build --seed 1``
    makes it; prints the CPU seconds of each part."""
    sys.path.insert(0, str(root))
    from generator.commands.build import build_recipe
    from generator.project import open_project
    from generator.project.kinds import BuildOptions

    def cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        return usage.ru_utime + usage.ru_stime

    start = cpu()
    project = open_project(root)
    print(f"  {'open the project':<34} {cpu() - start:5.2f} s")
    options = BuildOptions(1, None, project.secret(lambda _: None))
    for recipe in project.recipes.values():
        before = cpu()
        build_recipe(project, recipe, out, options)
        print(f"  {recipe.kind + ' ' + recipe.id:<34} {cpu() - before:5.2f} s")
    print(f"  {'the whole process (start, imports)':<34} {cpu():5.2f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=PROJECT, help="checkout whose generator to time")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--parts", type=Path, metavar="OUT", help=argparse.SUPPRESS)  # the child's part
    args = parser.parse_args()
    root = args.root.resolve()
    if args.parts:
        parts(root, args.parts)
        return
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
    print("where the CPU of one warm build goes (one run)")
    with tempfile.TemporaryDirectory() as cache, tempfile.TemporaryDirectory() as out:
        wall([sys.executable, "-m", "generator.cli", "-q", "build", "--out", out], root, cache)  # the figures
        child = [sys.executable, __file__, "--root", str(root), "--parts", out]
        subprocess.run(child, cwd=root, env={**os.environ, "XDG_CACHE_HOME": cache}, check=True)


if __name__ == "__main__":
    main()
