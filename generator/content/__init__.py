"""Load and validate a paper's content (``content/``) into the model."""

from .loader import load

__all__ = ["load"]
