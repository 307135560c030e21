"""Files in and out, treated as untrusted and written so that nothing is lost.

``atomic`` writes a file or a set of files whole or not at all (locks, recovery
after a kill, one-line write errors); ``issued`` says when a quiz's key may be
replaced; ``csv_files`` is the one CSV reader (rosters, responses) and writer (no
cell runs as a formula); ``file_names`` turns a student's name into a safe file name.
"""
