"""A small model of a QTI 2.1 player's response processing, run over the XML the exporter wrote.

It reads the item, not the quiz: the responses a student types are bound to their declared
base types (a float box holds a value only when the text is a number as XML Schema writes a
double: ``abc``, ``0,73`` and an empty box hold NULL), then the item's ``responseProcessing``
is evaluated with QTI's rules (an operator with a NULL operand is NULL, a NULL condition is
false) and the modal feedbacks whose identifier the FEEDBACK outcome holds are shown.
Only the operators the exporter writes are modelled; any other is an error, so a change
to the XML that this model does not know fails loudly.
"""

from __future__ import annotations

import re
from typing import Any, NamedTuple

from lxml import etree

NS = {"q": "http://www.imsglobal.org/xsd/imsqti_v2p1"}
_DOUBLE = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


class Outcome(NamedTuple):
    score: float
    feedback: tuple[str, ...]
    """The text of each modal feedback shown."""


def _local(element: Any) -> str:
    return etree.QName(element).localname


def _value(base_type: str, text: str | None) -> Any:
    if text is None or text == "":
        return None
    if base_type == "float":
        return float(text) if _DOUBLE.fullmatch(text.strip()) else None
    if base_type == "identifier":
        return text
    if base_type == "string":
        return text
    raise AssertionError(f"base type {base_type} not modelled")


class Item:
    def __init__(self, xml: bytes):
        self.root = etree.fromstring(xml)
        self.declared = {d.get("identifier"): d for d in self.root.iterfind("q:responseDeclaration", NS)}
        self.outcomes = {d.get("identifier"): d for d in self.root.iterfind("q:outcomeDeclaration", NS)}

    @property
    def response_ids(self) -> list[str]:
        return list(self.declared)

    def correct(self, identifier: str) -> Any:
        d = self.declared[identifier]
        value = d.find("q:correctResponse/q:value", NS)
        return _value(d.get("baseType"), None if value is None else value.text)

    def max_score(self) -> float:
        return float(self.outcomes["MAXSCORE"].find("q:defaultValue/q:value", NS).text)

    def run(self, typed: dict[str, str]) -> Outcome:
        variables: dict[str, Any] = {}
        for identifier, d in self.declared.items():
            variables[identifier] = _value(d.get("baseType"), typed.get(identifier))
        for identifier, d in self.outcomes.items():
            default = d.find("q:defaultValue/q:value", NS)
            variables[identifier] = _value(d.get("baseType"), None if default is None else default.text)
        processing = self.root.find("q:responseProcessing", NS)
        if processing is not None:
            assert processing.get("template") is None, "templates are not modelled"
            for rule in processing:
                self._rule(rule, variables)
        shown = tuple(
            "".join(f.itertext()).strip()
            for f in self.root.iterfind("q:modalFeedback", NS)
            if f.get("showHide") == "show"
            and variables.get(f.get("outcomeIdentifier")) == f.get("identifier")
        )
        return Outcome(variables["SCORE"] or 0.0, shown)

    def _rule(self, rule: Any, variables: dict[str, Any]) -> None:
        name = _local(rule)
        if name == "responseCondition":
            for branch in rule:
                kind = _local(branch)
                if kind == "responseElse" or self._expression(branch[0], variables) is True:
                    body = branch if kind == "responseElse" else branch[1:]
                    for inner in body:
                        self._rule(inner, variables)
                    return
        elif name == "setOutcomeValue":
            declared = self.outcomes[rule.get("identifier")]
            value = self._expression(rule[0], variables)
            if declared.get("baseType") == "float" and value is not None:
                value = float(value)
            variables[rule.get("identifier")] = value
        else:
            raise AssertionError(f"rule {name} not modelled")

    def _expression(self, e: Any, variables: dict[str, Any]) -> Any:
        name = _local(e)
        if name == "variable":
            return variables[e.get("identifier")]
        if name == "correct":
            return self.correct(e.get("identifier"))
        if name == "baseValue":
            return _value(e.get("baseType"), e.text)
        args = [self._expression(child, variables) for child in e]
        if name == "isNull":
            return args[0] is None
        if None in args:
            return None  # QTI: an operator with a NULL operand is NULL
        if name == "match":
            return args[0] == args[1]
        if name == "and":
            return all(args)
        if name == "or":
            return any(args)
        if name == "not":
            return not args[0]
        if name == "gte":
            return args[0] >= args[1]
        if name == "lte":
            return args[0] <= args[1]
        raise AssertionError(f"operator {name} not modelled")
