"""The problem types, one module each; the registry imports every module here.

A module defines ``pick``, ``solve`` and ``prompt`` and calls
``register(ProblemType(...))`` at import. Adding a type is adding a module here
(and its tests); nothing else names it.
"""
