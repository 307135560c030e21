"""Benchmark: 100 forms of a 20-question quiz with the answer key, as PDFs.

Budget: at most 10 s on a 2-core machine. Prints the time of each stage, the cost
per form and the speed-up of compiling in parallel over compiling one at a time.

    .venv/bin/python benchmarks/bench_quiz.py [--forms N] [--serial]
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from generator import quiz
from generator.exporters import ExportOptions, quiz_forms
from generator.exporters.typst.compile import compile_pdf
from generator.model import Choice, Content, Lesson, Paper, Question
from generator.recipes import ProblemSet, QuestionPick, QuizRecipe, QuizSection

BUDGET_SECONDS = 10.0

RECIPE = QuizRecipe(
    kind="quiz", title="Benchmark quiz", id="bench", minutes=60, calculator=False,
    instructions="Answer every question.",
    sections=(
        QuizSection("Concepts", 1, questions=QuestionPick(types=("multiple_choice", "true_false"),
                                                          count=10)),
        QuizSection("Short answers", 2, questions=QuestionPick(types=("numeric", "short_answer"),
                                                               count=4)),
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
            Question(f"mc-{i}", "multiple_choice",
                     rf"Question {i}: by what are the dot products \(QK^{{\top}}\) divided in"
                     r" scaled dot-product attention, \(\mathrm{softmax}(QK^{\top}/\sqrt{d_k})V\)?",
                     "S3.2.1", r"\(\sqrt{d_k}\)",
                     (Choice(r"\(d_k\)", "divided by the dimension itself instead of its square root"),
                      Choice(r"\(\sqrt{d_{model}}\)", "confused d_k with d_model"),
                      Choice(r"\(d_v\)", "used the value dimension")),
                     explanation=r"Equation (1) divides by \(\sqrt{d_k}\), giving unit variance."),
            Question(f"tf-{i}", "true_false", f"Statement {i}: additive attention is faster in practice.",
                     "S3.2.1", False, explanation="Dot-product attention uses optimized matrix code."),
            Question(f"num-{i}", "numeric", rf"With \(d_k = {64 + i}\), what is the variance of"
                     r" \(q \cdot k\)?", "S3.2.1", 64 + i, tolerance=0.5),
            Question(f"short-{i}", "short_answer", f"Why does the Transformer scale scores ({i})?",
                     "S3.2.1", r"Large dot products push the softmax into regions with tiny gradients;"
                     r" dividing by \(\sqrt{d_k}\) counteracts this."),
        ]
    paper = Paper("aiayn", "Attention Is All You Need", ("A. Vaswani",), 2017, "1706.03762", ("l",))
    return Content(paper, (Lesson("l", "Lesson", ("S3",), "Text.", questions=tuple(questions)),))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--forms", type=int, default=100)
    parser.add_argument("--serial", action="store_true", help="also time one compile at a time")
    args = parser.parse_args()

    source = content()
    cpu_start = time.process_time()
    start = time.perf_counter()
    built = quiz.build_quiz(source, RECIPE, seed=2024, versions=1)
    forms = [quiz.build_quiz(source, RECIPE, seed=2024 + i, versions=1).forms[0]
             for i in range(args.forms)]
    built = quiz.Quiz(RECIPE, built.paper_title, 2024, tuple(forms))
    assembled = time.perf_counter()
    assert all(len(form.items) == 20 for form in built.forms)

    with tempfile.TemporaryDirectory() as out:
        written = quiz_forms.export(built, Path(out), ExportOptions())
        done = time.perf_counter()
        cpu = time.process_time() - cpu_start
        pages = sum(len(p.read_bytes()) for p in written)
        if args.serial:
            serial_start = time.perf_counter()
            for form in built.forms:
                compile_pdf(quiz_forms.form_source(built, form), 0)
            compile_pdf(quiz_forms.key_source(built), 0)
            serial = time.perf_counter() - serial_start

    total = done - start
    print(f"{args.forms} forms x 20 questions + key: {total:.2f} s "
          f"(assembly {assembled - start:.2f} s, typeset+write {done - assembled:.2f} s, "
          f"{pages / 1e6:.1f} MB)")
    print(f"per form: {1000 * total / args.forms:.1f} ms wall, {1000 * cpu / args.forms:.1f} ms CPU"
          f" (CPU {cpu:.2f} s over {os.cpu_count()} cores; other processes slow the wall time)")
    if args.serial:
        print(f"one compile at a time: {serial:.2f} s; parallel speed-up "
              f"{serial / (done - assembled):.2f}x")
    if args.forms == 100 and total > BUDGET_SECONDS:
        print(f"over budget ({BUDGET_SECONDS:.0f} s)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
