"""paperdeck: turn a research paper into Anki decks, printable quizzes and practice."""

__version__ = "0.1.0"
