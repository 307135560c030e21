"""The ``paperdeck`` commands, one module per verb, each defining ``command``.

``generator.cli`` imports a command's module only when that command runs, so a
command pays only for the libraries it uses (matplotlib, Typst and genanki load
in the commands that draw, print or package).
"""
