"""Golden values of every id, GUID and seed that a user's review history or issued quiz hangs on.

Each number and string below was taken from a build before ``generator.identity``
existed. Anki finds a note by its GUID, a note type by its id and a deck by its id;
a teacher's key holds the form seeds. A change here would orphan every learner's
review history, or regenerate different problems for issued keys: never update
these values to make a test pass.
"""

from __future__ import annotations

from generator import identity
from generator.content.recipes import ProblemSet
from generator.documents import items, quiz
from generator.exporters.anki import deck_id, note_guid, notetypes
from generator.grading.remedial import student_seed
from generator.identity import student_key
from generator.problems import generate, problem_seed, variant_seed

NOTE_TYPE_IDS = {
    "Concept/v1": 4008521082277166,
    "Cloze/v1": 2412003414273584,
    "Equation/v1": 1059920783857841,
    "Worked Example/v1": 3905261872838895,
    "Question/v1": 4430767317293371,
    "Problem/v2": 2701574914084123,
    "Figure/v1": 3661647432803045,
    "Label/v1": 739031171714247,
}

DECK_IDS = {
    "Attention Is All You Need": 3281467150309785,
    "Attention Is All You Need::Practice": 1038174314320089,
    "Attention Is All You Need::01 Why Attention": 2296011333392950,
    "Attention Is All You Need (review)": 1902981956812719,
    "Attention Is All You Need (review)::Practice": 1952483424485676,
}

NOTE_GUIDS = {
    "attention-function": "nHq,/O-!W>",
    "aiayn/sdpa/easy/1": "kjej*4qYWd",
    "review/ada lovelace/softmax/1": "mA))L<)U46",
    "practice/mha/hard/12": "xO8xoe{Rqb",
}


def test_note_type_ids_are_the_stored_ones():
    assert {f"{nt.name}/v{nt.version}": nt.id for nt in notetypes.ALL} == NOTE_TYPE_IDS


def test_deck_ids_are_the_stored_ones():
    assert {name: deck_id(name) for name in DECK_IDS} == DECK_IDS


def test_note_guids_are_the_stored_ones():
    assert {key: note_guid("aiayn", key) for key in NOTE_GUIDS} == NOTE_GUIDS


def test_problem_slots_guids_and_seeds_of_a_deck_are_the_stored_ones():
    built = items.problem_items("aiayn", "aiayn", "Practice", [ProblemSet("sdpa", 2, "easy", variants=2)], 1)
    assert [(i.key, note_guid("aiayn", i.key), [v.seed for v in i.variants]) for i in built] == [
        ("aiayn/sdpa/easy/1", "kjej*4qYWd", [4206576313, 3660845580]),
        ("aiayn/sdpa/easy/2", "o=yg#UNDQP", [2469955892, 2525974174]),
    ]


def test_problem_and_variant_seeds_are_the_stored_ones():
    assert problem_seed(1, "sdpa", 1) == 2469955892
    assert problem_seed(20170612, "softmax", 0) == 1597915935
    assert [p.seed for p in generate("sdpa", 4, 1)] == [4206576313, 2469955892, 3212779939, 3174358001]
    assert variant_seed(1, 1) == 2986421257
    assert variant_seed(20170612, 3) == 2635770007


def test_remedial_slots_and_seeds_are_the_stored_ones():
    assert student_key("  Ada  LOVELACE ") == "ada lovelace"
    assert identity.remedial_slot("  Ada  LOVELACE ", "softmax", 1) == "review/ada lovelace/softmax/1"
    assert student_seed(1, "Ada  LOVELACE") == 2462173089
    assert student_seed(20170612, "Grace Hopper") == 3745331484


def test_quiz_form_seeds_and_codes_for_a_secret_are_the_stored_ones():
    assert quiz.form_seed(b"teacher-secret", "quiz-attention", 1, 0) == 1638478358831694273
    assert quiz.form_seed(b"teacher-secret", "quiz-attention", 1, 27) == 2338728502097290897
    assert quiz.form_code(b"teacher-secret", "quiz-attention", 1, 0) == "VGT3-FBHJ"


def test_option_orders_are_the_stored_ones():
    # A card's letters: a learner who remembers "B" for a question keeps it across rebuilds.
    assert identity.option_order("wa-q-bottleneck", [0, 1, 2, 3]) == [0, 2, 3, 1]
    assert identity.option_order("sdpa-q-scale", list("ABCDE")) == ["C", "D", "B", "E", "A"]
