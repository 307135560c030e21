"""How fast the problem generators are, and that a long stream runs in bounded memory.

Run from the repository root (not part of the test suite):

    python benchmarks/bench_problems.py            # everything, about a minute
    python benchmarks/bench_problems.py --quick    # fewer problems
    python benchmarks/bench_problems.py --root DIR # time another checkout's generator

Three measurements:

1. problems per second, per type and difficulty, each with its key and
   serialized as ``paperdeck problems --format json`` writes it
   (``problem_text.json_stream``; ``json.dumps`` for a checkout without it);
2. the marginal cost of one ``sdpa`` problem (key + JSON) on one core: the
   slope between a short and a long stream, so start-up costs cancel out; the
   target is 50 microseconds, less than NumPy's seeding of one problem takes
   (``SeedSequence`` for its seed, then ``default_rng``: about 55 us), which the
   breakdown prints: since seeds come from NumPy itself (issue 41), no problem is
   made in 50 us;
3. a 100,000-problem JSON array written to /dev/null through ``generate`` (an
   iterator) and ``json_stream``, in a subprocess whose peak RSS comes from ``resource.getrusage``;
   the limit is 300 MB.

Times are CPU time of this process (``time.process_time``), the best of a few
repeats, so other work on the machine disturbs them little.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

STREAM_SCRIPT = r"""
import json, resource, sys, time
from generator.problems import generate
from generator.exporters.problem_text import json_stream
type_id, count, difficulty = sys.argv[1], int(sys.argv[2]), sys.argv[3]
start = time.perf_counter()
with open("/dev/null", "w") as out:
    for chunk in json_stream(generate(type_id, count, 20260101, difficulty)):
        out.write(chunk)
elapsed = time.perf_counter() - start
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # kilobytes on Linux
print(json.dumps({"count": count, "seconds": elapsed, "peak_mb": peak_kb / 1024}))
"""


def _serializer():
    """The JSON of one problem as the ``problems`` command writes it."""
    try:
        from generator.exporters.problem_text import problem_json
    except ImportError:  # a checkout from before orjson
        return lambda problem: json.dumps(problem.to_json())
    return problem_json


def _stream_cost(type_id: str, count: int, difficulty: str, repeat: int) -> float:
    """Best CPU seconds to generate and serialize ``count`` problems."""
    from generator.problems import generate

    serialize = _serializer()
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        for problem in generate(type_id, count, 1, difficulty):
            serialize(problem)
        best = min(best, time.process_time() - start)
    return best


def per_type(count: int) -> None:
    from generator.problems import DIFFICULTIES, all_types

    print(f"problems per second (key + JSON, {count} per cell, best of 3)")
    print(f"  {'type':22s}" + "".join(f"{d:>10s}" for d in DIFFICULTIES))
    for type_id in all_types():
        rates = [count / _stream_cost(type_id, count, d, 3) for d in DIFFICULTIES]
        print(f"  {type_id:22s}" + "".join(f"{r:10.0f}" for r in rates))


def marginal(short: int, long: int) -> None:
    print(f"marginal cost of one sdpa problem (key + JSON): slope between {short} and {long}")
    for difficulty in ("easy", "medium", "hard"):
        a = _stream_cost("sdpa", short, difficulty, 5)
        b = _stream_cost("sdpa", long, difficulty, 3)
        micro = (b - a) / (long - short) * 1e6
        print(f"  sdpa {difficulty:7s} {micro:7.1f} us  (target <= 50 us)")
    _breakdown()


def _breakdown() -> None:
    """Where the time of one easy sdpa problem goes, on the path a stream takes."""
    import timeit

    import numpy as np

    from generator.problems import generate_one, get, problem_seed

    try:
        from generator.problems.generation import _separated
    except ImportError:  # a checkout from before generator/problems/ was split by job
        from generator.problems import _separated

    sdpa = get("sdpa")
    problem = generate_one("sdpa", 5, "easy")
    data = problem.to_json()
    rng = np.random.default_rng(5)
    state = rng.bit_generator.state

    def pick():
        rng.bit_generator.state = state
        return sdpa.pick(rng, "easy")

    solve = getattr(sdpa, "solve_picked", None) or sdpa.solve
    solution = solve(problem.given)
    parts = {
        "problem_seed (one SeedSequence)": lambda: problem_seed(1, "sdpa", 5),
        "default_rng(seed)": lambda: np.random.default_rng(5),
        "set Generator state": lambda: setattr(rng.bit_generator, "state", state),
        "pick (without the Generator)": pick,
        "solve (key, steps, distractors)": lambda: solve(problem.given),
        "separate distractors": lambda: _separated(solution, sdpa.tolerance, sdpa.primary),
        "prompt": lambda: sdpa.prompt(problem.given),
        "to_json": problem.to_json,
        "json.dumps": lambda: json.dumps(data),
    }
    try:
        from generator.problems import seeding
    except ImportError:  # block seeding was only in checkouts from before issue 41
        pass
    else:
        parts["seeds + states, per problem of 512"] = lambda: seeding.pcg64_states(
            seeding.problem_seeds(1, "sdpa", 0, 512)
        )
    serialize = _serializer()
    parts["JSON as the command writes it"] = lambda: serialize(problem)
    print("  breakdown of one easy sdpa problem (us):")
    costs = {}
    for name, fn in parts.items():
        number = 20 if name.startswith("seeds + states") else 2000
        costs[name] = min(timeit.repeat(fn, number=number, repeat=5, timer=time.process_time)) / number * 1e6
    costs["pick (without the Generator)"] -= costs["set Generator state"]
    if "seeds + states, per problem of 512" in costs:
        costs["seeds + states, per problem of 512"] /= 512
    for name, cost in costs.items():
        print(f"    {name:36s} {cost:6.1f}")
    seeding = costs["problem_seed (one SeedSequence)"] + costs["default_rng(seed)"]
    print(
        f"  NumPy's seeding alone (problem_seed + default_rng): {seeding:.1f} us a problem, which leaves "
        f"{max(0.0, 50 - seeding):.1f} us of the 50 us target to draw, solve and write it"
    )


def stream(count: int, root: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run(
        [sys.executable, "-c", STREAM_SCRIPT, "sdpa", str(count), "medium"],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    figures = json.loads(result.stdout)
    rate = figures["count"] / figures["seconds"]
    print(
        f"{count}-problem sdpa JSON stream to /dev/null: {figures['seconds']:.1f} s wall"
        f" ({rate:.0f}/s), peak RSS {figures['peak_mb']:.0f} MB (limit 300 MB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer problems, rougher figures")
    parser.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="directory holding the generator package to time",
    )
    parser.add_argument("--only", choices=("types", "marginal", "stream"), help="one measurement")
    args = parser.parse_args()
    sys.path.insert(0, str(args.root))
    if args.only in (None, "types"):
        per_type(200 if args.quick else 1000)
    if args.only in (None, "marginal"):
        marginal(500, 2500 if args.quick else 10000)
    if args.only in (None, "stream"):
        stream(10_000 if args.quick else 100_000, args.root)


if __name__ == "__main__":
    main()
