"""Handlers: what the program tables cannot say -- sed scripts, awk programs, find
expressions, tar modes, git configuration that runs programs, the command lines hidden in
wrappers' own syntax.

One module per family of ``knowledge/`` (``handlers/files.py`` beside ``knowledge/files.py``,
``handlers/vcs.py`` beside ``knowledge/vcs.py``…), plus ``common`` for what they share. A table
names its handler directly (``Spec("sed", …, handler=files.sed)``); the classifier calls it
after the table has been applied, with one ``HandlerCall`` (``clearance.shellparse.facts``):
``handler(call) -> None``, the type ``facts.Handler``.

May import: ``clearance.shellparse`` below the classifier (facts, expand, paths, options,
knowledge, sql); never the classifier itself, whose types the handlers need are in ``facts``.
"""
