"""The visual kinds, one module each; every module here registers its kinds with ``@visual``.

``generator.visuals`` imports them all, so a new kind is one new module here.
"""
