"""What the tests hold about each built-in problem type, one module per type:
``tests/problems/types/<name>.py`` for ``generator/problems/types/<name>.py``, holding

- ``reference(given)``: the answer computed independently (``_independent``: plain Python loops
  and ``math``), which ``test_problem_keys`` checks every key against;
- ``ASKS`` and ``NEVER``: how the prompt asks for the result a learner types, and the results
  it must not ask for (``test_prompts_ask_what_is_checked``).

Valid givens derive from the type itself (its ``pick``), so adding a type adds its module here
and no line to a table keyed by type.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from generator import problems


def of(type_id: str) -> ModuleType:
    """The test module of a built-in type, found by the name of the module that registers it."""
    name = problems.get(type_id).solve.__module__.rpartition(".")[2]
    try:
        return importlib.import_module(f"{__name__}.{name}")
    except ModuleNotFoundError:
        raise AssertionError(
            f"problem type {type_id!r} has no tests/problems/types/{name}.py: write its independent"
            " reference(given), ASKS and NEVER there"
        ) from None
