"""Documents: a recipe, the content and a seed become what the exporters write.

``items`` makes study items and decks (and the guide and the study site) from a
deck recipe; ``quiz`` makes a quiz's forms, seeded from the teacher's ``secret``
and, with a ``roster``, one per student; ``stress`` checks a quiz recipe over many
forms; ``build`` builds one recipe of a project into files (its kind names its
document and its exporter).
"""
