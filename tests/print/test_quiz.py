"""Quiz assembly: lettered forms, deterministic for a seed, different from each other."""

from __future__ import annotations

import pytest

from generator.content.recipes import QuestionPick, QuizSection
from generator.documents import quiz
from generator.errors import ContentError

from .conftest import recipe


def _fingerprint(form: quiz.Form):
    out = []
    for item in form.items:
        if isinstance(item, quiz.QuestionItem):
            out.append((item.question.id, tuple(o.text for o in item.options)))
        else:
            out.append((item.problem.type, item.problem.seed, str(item.problem.given)))
    return out


def test_same_seed_same_quiz(content, quiz_recipe, built):
    again = quiz.build_quiz(content, quiz_recipe, seed=7, versions=3)
    assert again == built


def test_forms_are_lettered_and_differ(built):
    assert [f.letter for f in built.forms] == ["A", "B", "C"]
    prints = [_fingerprint(f) for f in built.forms]
    assert len({str(p) for p in prints}) == 3
    problem_seeds = [
        {i.problem.seed for i in f.items if isinstance(i, quiz.ProblemItem)} for f in built.forms
    ]
    assert not problem_seeds[0] & problem_seeds[1]


def test_a_form_does_not_depend_on_how_many_forms(content, quiz_recipe, built):
    two = quiz.build_quiz(content, quiz_recipe, seed=7, versions=2)
    assert two.forms == built.forms[:2]


def test_count_draws_per_form_and_numbers_run_on(built, quiz_recipe):
    for form in built.forms:
        assert len(form.sections[0].items) == 12
        assert len({i.question.id for i in form.sections[0].items}) == 12
        assert [i.number for i in form.items] == list(range(1, 16))
        assert form.total_points == 12 * 1 + 3 + 2 * 5


def test_choices_are_shuffled_and_keep_their_mistakes(built):
    orders = set()
    for form in built.forms:
        for item in form.items:
            if isinstance(item, quiz.QuestionItem) and item.question.type == "multiple_choice":
                assert sum(o.correct for o in item.options) == 1
                assert all(o.mistake for o in item.options if not o.correct)
                orders.add(item.answer_index)
    assert len(orders) > 1


def test_question_order_kept_without_shuffle(content):
    fixed = quiz.build_quiz(content, recipe(shuffle_questions=False), seed=3, versions=2)
    ids = [q.id for q in content.lessons[0].questions]
    for form in fixed.forms:
        drawn = [i.question.id for i in form.sections[0].items]
        assert drawn == sorted(drawn, key=ids.index)


def test_exponentials_only_without_calculator(content):
    table = quiz.build_quiz(content, recipe(), seed=1, versions=1).forms[0]
    calculator = quiz.build_quiz(content, recipe(calculator=True), seed=1, versions=1).forms[0]
    problems = [i for i in table.items if isinstance(i, quiz.ProblemItem)]
    assert all(i.exponentials for i in problems)
    assert all(not i.exponentials for i in calculator.items if isinstance(i, quiz.ProblemItem))
    softmax = problems[0].problem
    x = softmax.given["x"]
    needed = {round(v - max(x), 4) for v in x}
    assert needed <= {x for x, _ in problems[0].exponentials}


def test_too_many_questions_is_a_content_error(content):
    greedy = recipe(sections=(QuizSection("All", 1, questions=QuestionPick(count=99)),))
    with pytest.raises(ContentError, match="asks for 99 questions but only 18 match"):
        quiz.build_quiz(content, greedy, seed=1, versions=1)
