"""How long a command takes to start and finish, against importing NumPy alone.

Run from the repository root (not part of the test suite):

    python benchmarks/bench_startup.py             # this checkout
    python benchmarks/bench_startup.py --root DIR  # another checkout's generator

Each command runs in a fresh interpreter (``python -m generator.cli …`` in the
checkout, so on its own copy of the Attention paper's project), taking turns with ``python -c
"import numpy"``, the floor every command pays. Reported: the median wall time
of each and its ratio to that floor in the same run, because absolute times
differ up to 3x between two machines of the same kind. The target is 0.25 s on
this project's machine, about 2x the NumPy floor.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
COMMANDS = [
    ["--help"],
    ["list"],
    ["check"],
    ["problems", "sdpa", "-n", "1", "--seed", "1"],
    ["problems", "sdpa", "-n", "1", "--seed", "1", "--format", "json"],
]
FLOOR = [sys.executable, "-c", "import numpy"]


def wall(argv: list[str], root: Path) -> float:
    # ``python -m`` puts the working folder first on sys.path: run in the checkout.
    start = time.perf_counter()
    subprocess.run(argv, cwd=root, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=PROJECT, help="checkout whose generator to time")
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    root = args.root.resolve()
    floor: list[float] = []
    times: dict[str, list[float]] = {" ".join(c): [] for c in COMMANDS}
    for _ in range(args.runs):
        for command in COMMANDS:
            floor.append(wall(FLOOR, root))
            times[" ".join(command)].append(wall([sys.executable, "-m", "generator.cli", *command], root))
    base = statistics.median(floor)
    print(f"start-up of {args.root} ({args.runs} runs each, median wall time)")
    floor_name = 'python -c "import numpy"'
    print(f"  {floor_name:<48} {base:6.3f} s   1.0x")
    for name, samples in times.items():
        median = statistics.median(samples)
        print(f"  {'paperdeck ' + name:<48} {median:6.3f} s  {median / base:4.1f}x")


if __name__ == "__main__":
    main()
