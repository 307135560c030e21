"""How fast ``paperdeck grade`` is: 1,000 students × 30 questions.

Run from the repository root (not part of the test suite):

    python benchmarks/bench_grade.py                 # 1,000 students, 30 questions
    python benchmarks/bench_grade.py --students 200
    python benchmarks/bench_grade.py --root DIR --no-report   # another checkout, scoring only

A synthetic key (one form per student, as from a roster: 12 multiple choice, 4
true/false, 4 numeric, 2 short answers and 8 problems with vector and matrix
answers, every wrong choice and problem value a named mistake) and a responses CSV
(right answers, named mistakes, blanks and noise, typed with decimal commas and
semicolons) are written to a temporary folder. Two figures, wall-clock:

1. scoring (best of three): reading the key and the CSV, scoring every answer, the statistics and
   named mistakes, and writing scores.csv and mistakes.csv; the target is 2 s. Its CPU time is
   printed too, and the part of it the key reader spends regenerating every problem from its
   seed (a key whose answers are not what its seeds give is refused);
2. the report: laying out and compiling report.pdf (Typst), which grows with the
   class (a feedback section per student): the first compile in the process (what a
   run of ``paperdeck grade`` pays) and a second one (Typst's caches warm).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__" and "--root" in sys.argv:  # time another checkout's generator
    ROOT = Path(sys.argv[sys.argv.index("--root") + 1]).resolve()
sys.path.insert(0, str(ROOT))

from generator import problems  # noqa: E402
from generator.exporters.graded import mistakes_csv, report_pdf, scores_csv  # noqa: E402
from generator.grading import Grading, grade_quiz  # noqa: E402
from generator.presentation import letter  # noqa: E402
from generator.project import open_project  # noqa: E402

PROBLEMS = [
    "softmax",
    "sdpa",
    "layer-norm",
    "ffn",
    "masked-sdpa",
    "positional-encoding",
    "lr-schedule",
    "mha",
]


def make_key(content, students: int, rng: random.Random) -> dict:
    questions = [(lesson.id, q) for lesson in content.lessons for q in lesson.questions]
    mc = [q for _, q in questions if q.type == "multiple_choice"]
    tf = [q for _, q in questions if q.type == "true_false"]
    numeric = [q for _, q in questions if q.type == "numeric"]
    short = [q for _, q in questions if q.type == "short_answer"]
    forms = []
    for f in range(students):
        entries = []
        for q in rng.sample(mc, 12):
            options = rng.sample(range(len(q.distractors) + 1), len(q.distractors) + 1)
            right = options.index(0)
            entries.append(
                {
                    "section": "Concepts",
                    "points": 1.0,
                    "id": q.id,
                    "kind": "multiple_choice",
                    "answer": letter(right),
                    "options": [{"letter": letter(i)} for i in range(len(options))],
                    "mistakes": [
                        {"mistake": q.distractors[o - 1].mistake, "letter": letter(i)}
                        for i, o in enumerate(options)
                        if o
                    ],
                }
            )
        for q in rng.sample(tf, 4):
            entries.append(
                {
                    "section": "Concepts",
                    "points": 1.0,
                    "id": q.id,
                    "kind": "true_false",
                    "answer": "A" if q.answer else "B",
                    "options": [{"letter": "A"}, {"letter": "B"}],
                    "mistakes": [],
                }
            )
        for q in rng.sample(numeric, 4):
            entries.append(
                {
                    "section": "Numbers",
                    "points": 2.0,
                    "id": q.id,
                    "kind": "numeric",
                    "answer": q.answer,
                    "tolerance": {"abs": q.tolerance or 0.0},
                }
            )
        for q in rng.sample(short, 2):
            entries.append(
                {
                    "section": "Short answers",
                    "points": 2.0,
                    "id": q.id,
                    "kind": "short_answer",
                    "answer": q.answer,
                }
            )
        for type_id in PROBLEMS:
            # Real problems: the key reader regenerates each from its seed and refuses a key
            # whose answers are not what the seed gives.
            seed = rng.randrange(2**32)
            problem = problems.generate_one(type_id, seed, "easy")
            primary = problems.get(type_id).primary
            entries.append(
                {
                    "section": type_id,
                    "points": 4.0,
                    "kind": "problem",
                    "problem_type": type_id,
                    "problem_seed": seed,
                    "difficulty": "easy",
                    "primary": primary,
                    "answer": {primary: problem.answer[primary]},
                    "tolerance": {"abs": 0.005},
                    "mistakes": [
                        {"mistake": d.mistake, "value": d.answer[primary]}
                        for d in problem.distractors
                        if primary in d.answer
                    ],
                }
            )
        for number, entry in enumerate(entries, 1):
            entry["number"] = number
        forms.append(
            {
                "label": letter(f),
                "code": f"C{f:04d}",
                "student": {"name": f"Student {f}", "id": ""},
                "questions": entries,
            }
        )
    return {
        "format": 1,
        "quiz": "bench",
        "title": "Benchmark quiz",
        "paper_title": content.paper.title,
        "seed": 1,
        "forms": students,
        "form_keys": forms,
    }


def _flat(value) -> list[float]:
    return [x for v in value for x in _flat(v)] if isinstance(value, list) else [float(value)]


def _typed(values: list[float]) -> str:
    return "; ".join(repr(v).replace(".", ",") for v in values)


def make_responses(key: dict, rng: random.Random) -> list[list[str]]:
    rows = [["student", "form", *map(str, range(1, 31))]]
    for form in key["form_keys"]:
        cells = []
        for q in form["questions"]:
            roll = rng.random()
            kind = q["kind"]
            if roll < 0.08 and kind != "short_answer":
                cells.append("")
            elif kind in ("multiple_choice", "true_false"):
                wrong = [m["letter"] for m in q["mistakes"]] or ["B" if q["answer"] == "A" else "A"]
                cells.append(q["answer"].lower() if roll < 0.7 else rng.choice(wrong))
            elif kind == "short_answer":
                cells.append(rng.choice(["0", "1", "2", "1,5", ""]))
            elif kind == "numeric":
                cells.append(str(q["answer"]) if roll < 0.7 else str(q["answer"] + 1))
            else:
                answer = _flat(q["answer"][q["primary"]])
                if roll < 0.6 or (roll < 0.9 and not q["mistakes"]):
                    values = answer
                elif roll < 0.9:
                    values = _flat(rng.choice(q["mistakes"])["value"])
                else:
                    values = [v + 1 for v in answer]
                cells.append(_typed(values))
        rows.append([form["student"]["name"], form["label"], *cells])
    return rows


def score(key_path: Path, responses_path: Path, content) -> Grading:
    grading = grade_quiz(key_path, responses_path, content)
    scores_csv(grading)
    mistakes_csv(grading)
    return grading


def _timed_key_check() -> list[float]:
    """The CPU seconds of each call of the key reader's regeneration check, from now on."""
    from generator.grading import key

    check = key._seeds_regenerate_answers
    seconds: list[float] = []

    def timed(*args):
        start = time.process_time()
        try:
            return check(*args)
        finally:
            seconds.append(time.process_time() - start)

    key._seeds_regenerate_answers = timed
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=1000)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout whose generator is timed")
    parser.add_argument("--no-report", action="store_true", help="time the scoring only")
    args = parser.parse_args()
    rng = random.Random(2026)
    content = open_project(ROOT).content
    with tempfile.TemporaryDirectory() as folder:
        key = make_key(content, args.students, rng)
        key_path = Path(folder) / "bench-key.json"
        key_path.write_text(json.dumps(key), encoding="utf-8")
        responses_path = Path(folder) / "answers.csv"
        with open(responses_path, "w", encoding="utf-8", newline="") as out:
            csv.writer(out).writerows(make_responses(key, rng))
        check = _timed_key_check()
        timings, cpu, checks = [], [], []
        for _ in range(3):
            check.clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            grading = score(key_path, responses_path, content)
            timings.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
            checks.append(sum(check))
        best = timings.index(min(timings))
        answers = sum(len(r.marks) for r in grading.results)
        mistakes = sum(m.count for m in grading.mistakes)
        print(
            f"scoring {len(grading.results)} students × 30 questions ({answers} answers, {mistakes} named "
            f"mistakes, key {key_path.stat().st_size / 1e6:.1f} MB): best {min(timings):.2f} s "
            f"(target 2 s) of {', '.join(f'{t:.2f}' for t in timings)}; CPU {cpu[best]:.2f} s, of which "
            f"{checks[best]:.2f} s the key's check that each problem's seed regenerates its answer "
            f"({len(PROBLEMS) * args.students} problems)"
        )
        if args.no_report:
            return
        report = []
        for _ in range(2):
            start = time.perf_counter()
            pdf = report_pdf(grading)
            report.append(time.perf_counter() - start)
        print(
            f"report.pdf: {report[0]:.2f} s the first time (as paperdeck grade runs it, fonts loaded "
            f"and nothing cached), {report[1]:.2f} s again ({len(pdf) / 1e6:.1f} MB)"
        )


if __name__ == "__main__":
    main()
