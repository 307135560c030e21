"""Benchmark: 20, 100 and 500 forms of a 20-question quiz with the answer-key booklet, the print
file and the key JSON (``paperdeck quiz``'s default), and with a worked key per form.

Targets on a 2-core machine: 100 forms with the booklet in at most 3 s, and within 1.3x
of Typst's own compile time of the same documents with worked keys; 500 forms under
800 MB peak. The machine may be shared, so ratios measured in the same run are what to
compare: ``typst`` rows compile exactly the documents the export writes (forms, answer sheets,
booklet, worked keys), on both cores, and nothing else; ``--reference DIR`` also runs the same
sizes with the paperdeck in DIR (a checkout of an earlier commit, e.g. the release),
whose default pipeline then wrote a worked key per form.
Each size runs in its own process, so that its peak memory (max RSS) is its own.
A last line tells where one form's CPU time goes, measured on one thread: making the
forms, writing their Typst source, and Typst compiling a form and its key.

With ``--reference``, ``--pairs`` more runs of 100 forms each run the reference and then the
booklet one after the other, and the median of their ratios is checked against the target
(3 s where the release took 5.6 s): the machine's speed drifts over the minutes between
rows of the table.

    .venv/bin/python benchmarks/bench_quiz.py [--forms 20,100,500] [--reference DIR] [--pairs 3]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from generator.content.model import Choice, Content, Lesson, Paper, Question
from generator.content.recipes import ProblemSet, QuestionPick, QuizRecipe, QuizSection
from generator.documents import quiz
from generator.exporters import ExportOptions, answer_sheets, quiz_forms
from generator.exporters.typst.compile import compile_many, compile_pdf

TARGET_SECONDS_100 = 3.0
TARGET_REFERENCE_RATIO = 3.0 / 5.6
"""The same target as a share of the release's time: 3 s where the release took 5.6 s."""
TARGET_MB_500 = 800.0
"""qpdf (the print file) holds every copied page until it writes the file, about 0.4 MB a
document: 500 forms and their sheets peaked at 628 MB (185 MB with the hand-written PDF
writer that issue 41 removed; a laptop's memory either way)."""
TARGET_TYPST_RATIO = 1.3
"""With worked keys, the export's wall time over Typst's own for the same documents."""
R_EXAMS_SECONDS_PER_FORM = 1.12
"""R/exams' exams2pdf per extra form on this kind of machine (issue 12)."""

RECIPE = QuizRecipe(
    kind="quiz",
    title="Benchmark quiz",
    id="bench",
    minutes=60,
    calculator=False,
    instructions="Answer every question.",
    sections=(
        QuizSection("Concepts", 1, questions=QuestionPick(types=("multiple_choice", "true_false"), count=10)),
        QuizSection("Short answers", 2, questions=QuestionPick(types=("numeric", "short_answer"), count=4)),
        QuizSection("Softmax", 3, problems=ProblemSet("softmax", 1)),
        QuizSection("Attention", 5, problems=ProblemSet("sdpa", 2)),
        QuizSection("Attention, larger", 5, problems=ProblemSet("sdpa", 1, "medium")),
        QuizSection("Multi-head", 8, problems=ProblemSet("mha", 1)),
        QuizSection("Feed-forward", 4, problems=ProblemSet("ffn", 1)),
    ),
)


def content() -> Content:
    """40 questions shaped like the lessons' (text with math, four choices, explanations).

    Built here, not loaded, so the benchmark measures printing, not content being written.
    """
    questions = []
    for i in range(10):
        questions += [
            Question(
                f"mc-{i}",
                "multiple_choice",
                rf"Question {i}: by what are the dot products \(QK^{{\top}}\) divided in"
                r" scaled dot-product attention, \(\mathrm{softmax}(QK^{\top}/\sqrt{d_k})V\)?",
                "S3.2.1",
                r"\(\sqrt{d_k}\)",
                (
                    Choice(r"\(d_k\)", "divided by the dimension itself instead of its square root"),
                    Choice(r"\(\sqrt{d_{model}}\)", "confused d_k with d_model"),
                    Choice(r"\(d_v\)", "used the value dimension"),
                ),
                explanation=r"Equation (1) divides by \(\sqrt{d_k}\), giving unit variance.",
            ),
            Question(
                f"tf-{i}",
                "true_false",
                f"Statement {i}: additive attention is faster in practice.",
                "S3.2.1",
                False,
                explanation="Dot-product attention uses optimized matrix code.",
            ),
            Question(
                f"num-{i}",
                "numeric",
                rf"With \(d_k = {64 + i}\), what is the variance of"
                r" \(q \cdot k\)?",
                "S3.2.1",
                64 + i,
                tolerance=0.5,
            ),
            Question(
                f"short-{i}",
                "short_answer",
                f"Why does the Transformer scale scores ({i})?",
                "S3.2.1",
                r"Large dot products push the softmax into regions with tiny gradients;"
                r" dividing by \(\sqrt{d_k}\) counteracts this.",
            ),
        ]
    paper = Paper("aiayn", "Attention Is All You Need", ("A. Vaswani",), 2017, "1706.03762", ("l",))
    return Content(paper, (Lesson("l", "Lesson", ("S3",), "Text.", questions=tuple(questions)),))


def _sources(built: quiz.Quiz, worked: bool) -> list[str]:
    """The Typst documents the export compiles: every form (and its worked key), its answer
    sheet, the booklet's parts."""
    sources, cards, models = [], [], {}
    for form in built.iter_forms():
        sources.append(quiz_forms.form_source(built, form))
        if worked:
            sources.append(quiz_forms.form_key_source(built, form))
        sources.append(answer_sheets.sheet(built, form).source)
        cards.append(quiz_forms.booklet_card(form, models))
    size = quiz_forms.BOOKLET_PART
    parts = [cards[i : i + size] for i in range(0, len(cards), size)]
    return [
        *sources,
        *(
            quiz_forms.booklet_source(built, part, models, first=i == 0, last=i == len(parts) - 1)
            for i, part in enumerate(parts)
        ),
    ]


def _one(forms: int, mode: str) -> dict[str, float]:
    """Make ``forms`` forms in this process (``mode``: booklet, worked, typst-booklet,
    typst-worked); time, CPU and peak memory."""
    source = content()
    built = quiz.build_quiz(source, RECIPE, seed=2024, versions=forms, secret=b"bench")
    if mode.startswith("typst"):  # Typst alone: the same documents, sources made beforehand
        sources = _sources(built, mode == "typst-worked")
        compile_pdf(sources[0], 0)  # the fonts found, as the export's first form does
        cpu_start, start = time.process_time(), time.perf_counter()
        size = sum(map(len, compile_many(sources, 0)))
    else:
        cpu_start, start = time.process_time(), time.perf_counter()
        with tempfile.TemporaryDirectory() as out:
            options = ExportOptions(build_time=0, worked_keys=mode == "worked")
            written = quiz_forms.export(built, Path(out) / "bench", options)
            size = sum(p.stat().st_size for p in written)
    wall = time.perf_counter() - start
    return {
        "forms": forms,
        "wall": wall,
        "cpu": time.process_time() - cpu_start,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "mb": size / 1e6,
    }


def _parts(forms: int = 21) -> dict[str, float]:
    """CPU ms per form, on this thread, of each stage (the first form warms Typst up)."""
    source = content()
    start = time.process_time()
    built = quiz.build_quiz(source, RECIPE, seed=7, versions=forms, secret=b"bench")
    made = list(built.iter_forms())
    made_at = time.process_time()
    pairs = [(quiz_forms.form_source(built, f), quiz_forms.form_key_source(built, f)) for f in made]
    written_at = time.process_time()
    compile_pdf(pairs[0][0], 0), compile_pdf(pairs[0][1], 0)
    spent = {"form": 0.0, "key": 0.0}
    for form, key in pairs[1:]:
        for part, text in (("form", form), ("key", key)):
            begin = time.process_time()
            compile_pdf(text, 0)
            spent[part] += time.process_time() - begin
    return {
        "make": 1000 * (made_at - start) / forms,
        "source": 1000 * (written_at - made_at) / forms,
        "form": 1000 * spent["form"] / (forms - 1),
        "key": 1000 * spent["key"] / (forms - 1),
    }


def _measure(forms: int, mode: str, root: Path | None = None) -> dict[str, float]:
    """One size in its own process: this checkout's ``mode``, or ``root``'s default pipeline."""
    if root is None:
        command, env = [sys.executable, __file__, "--one", str(forms), "--mode", mode], None
    else:
        script = root / "benchmarks" / "bench_quiz.py"
        command = [sys.executable, str(script), "--one", str(forms)]
        env = {**os.environ, "PYTHONPATH": str(root)}
    result = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    return json.loads(result.stdout.splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forms", default="20,100,500", help="comma-separated numbers of forms")
    parser.add_argument("--reference", type=Path, help="a checkout of an earlier paperdeck to run too")
    parser.add_argument(
        "--pairs",
        type=int,
        default=3,
        help="with --reference: runs of 100 forms, the reference then the booklet each",
    )
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--mode", default="booklet", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(_one(args.one, args.mode)))
        return 0

    sizes = [int(n) for n in args.forms.split(",")]
    print(
        f"quiz forms, 20 questions each, with the key booklet, the print file and the key JSON"
        f" ({os.cpu_count()} cores)"
    )
    print(
        f"{'pipeline':<14}{'forms':>6}{'wall s':>9}{'ms/form':>9}{'CPU ms/form':>13}{'peak MB':>9}"
        f"{'output MB':>11}{'vs R/exams':>12}"
    )
    over = []
    runs: list[tuple[str, str, Path | None]] = [
        (mode, mode, None) for mode in ("booklet", "typst-booklet", "worked", "typst-worked")
    ]
    if args.reference:
        runs.append(("reference", "", args.reference.resolve()))
    walls: dict[tuple[str, int], float] = {}
    for name, mode, root in runs:
        for forms in sizes:
            if mode.startswith("typst") and forms > 100:
                continue  # compile_many holds every PDF; the export's memory is the one measured
            m = _measure(forms, mode, root)
            walls[name, forms] = m["wall"]
            per_form = m["wall"] / forms
            print(
                f"{name:<14}{forms:>6}{m['wall']:>9.2f}{1000 * per_form:>9.1f}"
                f"{1000 * m['cpu'] / forms:>13.1f}{m['peak_mb']:>9.0f}{m['mb']:>11.1f}"
                f"{R_EXAMS_SECONDS_PER_FORM / per_form:>11.0f}x"
            )
            if name == "booklet" and forms == 100 and m["wall"] > TARGET_SECONDS_100 and not args.reference:
                over.append(f"100 forms took {m['wall']:.2f} s (target {TARGET_SECONDS_100:.0f} s)")
            if name == "booklet" and forms == 500 and m["peak_mb"] >= TARGET_MB_500:
                over.append(f"500 forms peaked at {m['peak_mb']:.0f} MB (target {TARGET_MB_500:.0f} MB)")
    for forms in sizes:
        line = []
        if ("typst-booklet", forms) in walls:
            line.append(f"booklet {walls['booklet', forms] / walls['typst-booklet', forms]:.2f}x Typst")
        if ("typst-worked", forms) in walls:
            ratio = walls["worked", forms] / walls["typst-worked", forms]
            line.append(f"worked keys {ratio:.2f}x Typst (target {TARGET_TYPST_RATIO}x)")
            if forms == 100 and ratio > TARGET_TYPST_RATIO:
                over.append(f"worked keys took {ratio:.2f}x Typst's time (target {TARGET_TYPST_RATIO}x)")
        if ("reference", forms) in walls:
            line.append(f"booklet {walls['booklet', forms] / walls['reference', forms]:.2f}x the reference")
        if line:
            print(f"{forms} forms: " + ", ".join(line))
    if args.reference and args.pairs:
        # The machine's speed drifts over minutes: each ratio compares two runs side by side.
        ratios = []
        for _ in range(args.pairs):
            reference = _measure(100, "", args.reference.resolve())["wall"]
            booklet = _measure(100, "booklet")["wall"]
            ratios.append(booklet / reference)
        ratio = statistics.median(ratios)
        print(
            f"100 forms, {args.pairs} pairs of runs side by side: booklet "
            + ", ".join(f"{r:.3f}" for r in ratios)
            + f"x the reference, median {ratio:.3f}x"
            f" (target {TARGET_REFERENCE_RATIO:.3f}x: 3 s where the release took 5.6 s)"
        )
        if ratio > TARGET_REFERENCE_RATIO:
            over.append(
                f"100 forms took {ratio:.3f}x the reference's time (target {TARGET_REFERENCE_RATIO:.3f}x)"
            )
    parts = _parts()
    names = {
        "make": "making it",
        "source": "its Typst source",
        "form": "Typst: the form",
        "key": "Typst: its worked key",
    }
    print("one form's CPU on one thread: " + ", ".join(f"{names[k]} {ms:.1f} ms" for k, ms in parts.items()))
    for line in over:
        print(f"over target: {line}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
